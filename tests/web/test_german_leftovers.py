"""The last English a German player met, now in German: the calendar feed's events, and
the service's refusals that reach a page (the day's limits on a rematch, a seat taken,
a vacation already begun); an English player still reads English."""

from __future__ import annotations

from datetime import datetime

from freezegun import freeze_time
from test_my_games_and_invitations import _finished, _games_path, _limited, _rematch_form
from web_helpers import latest_mail, player, post_form, table

from pbem.lifecycle import create, moves
from pbem.models import Game, Player, Seat
from pbem.time import calendar, vacation
from pbem.web import create_app

ALICE, BOB = "alice@example.org", "bob@example.org"
NOON = datetime(2026, 3, 2, 12, 0, 0)


def _german(address: str) -> None:
    Player.update(language="de").where(Player.email == address).execute()


def test_the_calendar_feed_speaks_the_players_language(ctx, database):
    with freeze_time(NOON):
        game = table(ctx, humans=2)
        _german(ALICE)
        alice = Player.get(Player.email == ALICE)
        german = calendar.build(ctx, alice, NOON).replace("\r\n ", "")
        english = calendar.build(ctx, Player.get(Player.email == BOB), NOON).replace("\r\n ",
                                                                                      "")
    assert "X-WR-CALNAME:pbem: Fristen von Alice" in german
    assert f"SUMMARY:Visby #{game.id}: dein Zug ist fällig" in german
    assert f"Das Spiel: http://pbem.test/g/{game.id}" in german
    for word in ("deadlines of", "your move is due", "The game:", "seat link", "days per move"):
        assert word not in german, word
    assert "X-WR-CALNAME:pbem: deadlines of Bob" in english
    assert f"The game: http://pbem.test/g/{game.id}" in english


def test_a_german_player_is_refused_a_rematch_beyond_the_limits_in_german(tmp_path,
                                                                           database):
    ctx = _limited(tmp_path, {"games_per_creator": "1"})
    client = create_app(ctx).test_client()
    _finished(ctx)
    _german(ALICE)
    page = client.get(_games_path(latest_mail(ALICE, "result")))
    refused = post_form(client, _rematch_form(page))
    assert refused.status_code == 429
    assert "Bitte versuche es morgen wieder" in refused.text
    assert "try again tomorrow" not in refused.text and "last 24 hours" not in refused.text


def test_the_services_refusals_follow_the_language_being_written(ctx, app, database):
    from pbem.i18n import in_language

    game = table(ctx, humans=2)
    bob = Player.get(Player.email == BOB)
    other = player("carol@example.org", "Carol")
    seat = Seat.get(Seat.game == game, Seat.index == 1)
    with app.test_request_context("/"):
        for lang, said in (("de", "Dieser Platz ist schon vergeben."),
                           ("en", "This seat has been taken already.")):
            with in_language(lang):
                try:
                    create.accept_invite(ctx, Game.get_by_id(game.id), seat, other)
                except moves.PlayError as exc:
                    assert (exc.reason, str(exc)) == ("taken", said)
                else:
                    raise AssertionError("a taken seat was given away")
        with in_language("de"):
            vacation.start(ctx, bob.id, 1, NOON)
            try:
                vacation.start(ctx, bob.id, 1, NOON)
            except moves.PlayError as exc:
                assert str(exc).startswith("Du bist schon im Urlaub")
            else:
                raise AssertionError("a second vacation began")
