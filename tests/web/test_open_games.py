"""Open games (issue 26, item 5): a creator leaves seats open, the lobby lists the games
with open seats by game, player count and clock, and anyone joins by confirming their
address, under the limits of invitations.  One anonymous client cannot make pbem mail
a stranger more than once a day."""

from __future__ import annotations

from datetime import timedelta

from freezegun import freeze_time
from web_helpers import (
    confirm_address,
    forms_in,
    latest_mail,
    paths_in,
    player,
    post_form,
    snapshot,
)

from pbem.lifecycle import create, join
from pbem.models import Game, Outbox, Player, Seat, utcnow


def _open_game(ctx, seats=("open",), seed: int = 5) -> Game:
    alice = player("alice@example.org", "Alice")
    return create.create_game(ctx, "visby", alice, list(seats), seed=seed)


def _ask(client, game: Game, address: str, remote: str = "198.51.100.7", lang: str = "en"):
    environ = {"REMOTE_ADDR": remote}
    headers = {"Accept-Language": lang}
    page = client.get("/open", environ_base=environ, headers=headers)
    [form] = [f for f in forms_in(page.text) if f.action == f"/open/{game.id}"]
    return client.post(form.action, environ_base=environ, headers=headers,
                       data={**form.fields, "email": address})


def _join_path(address: str) -> str:
    mail = latest_mail(address, join.REQUEST_KIND)
    [path] = [p for p in paths_in(mail.text_body) if p.startswith("/join/")]
    return path


def test_the_form_leaves_a_seat_open_and_the_lobby_lists_it(ctx, client):
    page = client.get("/new/visby")
    [form] = [f for f in forms_in(page.text) if f.action == "/new/visby"]
    made = post_form(client, form, name="Alice", email="alice@example.org", players="3",
                     **{"seat-1": "open", "seat-2": "bot", "level-2": "strong"})
    assert made.status_code == 303
    game = Game.get()
    assert game.status == Game.HELD
    assert [s.open_to_all for s in Seat.of(game)] == [False, True, False]
    assert Seat.of(game)[2].bot_level == "strong"  # an open seat before it shifts nothing
    assert f"/open/{game.id}" not in client.get("/open").text  # not before it is confirmed
    confirm_address(client, "alice@example.org")
    lobby = client.get("/open").text
    assert f"/open/{game.id}" in lobby and "3 players, 1 seat open." in lobby
    assert "Clock: 3 days per move" in lobby, lobby
    assert "seat is open to anyone" in client.get(f"/g/{game.id}").text


def test_anyone_joins_an_open_game_by_confirming_their_address(ctx, client):
    game = _open_game(ctx, ("open", "open"))
    before = snapshot()
    asked = _ask(client, game, "dora@example.net")
    assert asked.status_code == 200 and "a mail is on its way" in asked.text
    assert [s.player_id for s in Seat.of(game)][1:] == [None, None]  # nothing taken yet
    path = _join_path("dora@example.net")
    request = latest_mail("dora@example.net", join.REQUEST_KIND)
    assert "/never/" in request.unsubscribe_url
    after = snapshot()
    assert after != before
    page = client.get(path)  # a mail scanner's prefetch takes no seat
    assert page.status_code == 200 and snapshot() == after
    [form] = [f for f in forms_in(page.text) if f.action == path]
    joined = post_form(client, form, name="Dora", timezone="Europe/Vienna")
    assert joined.status_code == 303 and "/s/" in joined.location
    dora = Player.get(Player.email == "dora@example.net")
    assert dora.confirmed_at is not None and dora.timezone == "Europe/Vienna"
    assert Seat.get(Seat.game == game, Seat.index == 1).player_id == dora.id
    assert Game.get_by_id(game.id).status == Game.OPEN  # one seat still open
    assert post_form(client, form).status_code == 303  # a second click: the same seat
    assert Seat.select().where(Seat.player == dora.id).count() == 1
    # the last open seat taken: the game starts, and leaves the lobby
    _ask(client, game, "erik@example.net")
    page = client.get(_join_path("erik@example.net"))
    [form] = [f for f in forms_in(page.text) if f.action.startswith("/join/")]
    post_form(client, form, name="Erik")
    assert Game.get_by_id(game.id).status == Game.ACTIVE
    assert f"/open/{game.id}" not in client.get("/open").text
    # a late link finds no seat, and says so
    _ask_late = client.get(_join_path("dora@example.net"))
    assert "You have joined this game already." in _ask_late.text


def test_one_client_cannot_mail_a_stranger_more_than_once_a_day(ctx, client):
    first, second = _open_game(ctx), _open_game(ctx, seed=6)
    with freeze_time(utcnow()) as clock:
        for game in (first, second, first):
            assert _ask(client, game, "stranger@example.net").status_code == 200
        assert _ask(client, second, "stranger@example.net", remote="203.0.113.9"
                    ).status_code == 200
        assert Outbox.select().where(Outbox.to_address == "stranger@example.net").count() == 1
        clock.tick(timedelta(days=1, minutes=1))
        _ask(client, second, "stranger@example.net")
        assert Outbox.select().where(Outbox.to_address == "stranger@example.net").count() == 2
        for n in range(10):
            _ask(client, first, f"someone{n}@example.net", remote="192.0.2.1")
        refused = _ask(client, first, "one.more@example.net", remote="192.0.2.1")
        assert refused.status_code == 429 and refused.headers["Retry-After"]
        assert not Outbox.select().where(Outbox.to_address == "one.more@example.net").exists()


def test_an_address_that_said_never_or_was_invited_enough_gets_nothing(ctx, client):
    game = _open_game(ctx)
    create.never_mail("quiet@example.net")
    assert _ask(client, game, "quiet@example.net").status_code == 200  # says the same
    assert not Outbox.select().where(Outbox.to_address == "quiet@example.net").exists()
    # invited three times today: a join request would be a fourth invitation
    for seed in (11, 12, 13):
        create.create_game(ctx, "visby", player(f"host{seed}@example.org", "Host"),
                           ["busy@example.net"], seed=seed)
    _ask(client, game, "busy@example.net")
    assert not Outbox.select().where(Outbox.to_address == "busy@example.net",
                                     Outbox.kind == join.REQUEST_KIND).exists()


def test_a_game_with_no_open_seat_refuses_with_a_page(ctx, client):
    game = _open_game(ctx, ("bob@example.org",))
    response = client.post(f"/open/{game.id}", data={"email": "x@example.net",
                                                     "csrf_token": "none"})
    assert response.status_code == 400  # the form's token first
    page = client.get("/open")
    token = page.text.split('name="csrf_token" value="', 1)[1].split('"', 1)[0] \
        if 'name="csrf_token"' in page.text else None
    if token is None:  # no open game listed: take a token from another form
        token = client.get("/new/visby").text.split('name="csrf_token" value="', 1)[1] \
            .split('"', 1)[0]
    response = client.post(f"/open/{game.id}", data={"email": "x@example.net",
                                                     "csrf_token": token})
    assert response.status_code == 409 and "no open seat" in response.text
    assert client.post("/open/999", data={"email": "x@example.net"}).status_code == 404


def test_open_games_in_german(ctx, client):
    game = _open_game(ctx)
    lobby = client.get("/open", headers={"Accept-Language": "de"}).text
    assert "Offene Partien" in lobby and "2 Spieler, 1 Platz offen." in lobby, lobby
    asked = _ask(client, game, "dora@example.net", lang="de")
    assert "unterwegs" in asked.text
    mail = latest_mail("dora@example.net", join.REQUEST_KIND)
    assert "um einen Platz in Visby" in mail.text_body and "Der Link gilt 7 Tage" in mail.text_body
    page = client.get(_join_path("dora@example.net"), headers={"Accept-Language": "de"})
    assert "Platz einnehmen" in page.text
