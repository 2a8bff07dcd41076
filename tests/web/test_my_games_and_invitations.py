"""A player's list of games (from every mail), a rematch, and invitations that can be
declined, replaced or given to a bot."""

from __future__ import annotations

from datetime import timedelta

import pytest
from web_helpers import (
    confirm_address,
    finish,
    forms_in,
    hrefs,
    latest_mail,
    paths_in,
    player,
    post_form,
    seat_path,
    table,
)

from pbem.context import make_context
from pbem.lifecycle import create
from pbem.mail import compose
from pbem.models import Game, Outbox, Player, Seat, utcnow
from pbem.web import create_app

ALICE, BOB, CAROL, DAN = ("alice@example.org", "bob@example.org", "carol@example.org",
                          "dan@example.org")


def _games_path(mail: Outbox) -> str:
    [path] = {p for p in paths_in(mail.text_body) if p.startswith("/me/")}
    assert f"http://pbem.test{path}" in (mail.html_body or "")  # the HTML footer too
    return path


def _limited(tmp_path, limits: dict[str, str]):
    return make_context(server={"instance": str(tmp_path / "instance"),
                                "base_url": "http://pbem.test"},
                        archive={"site_dir": str(tmp_path / "site")}, limits=limits)


# -- my games --------------------------------------------------------------------------


def test_every_mail_to_a_player_links_their_games_and_an_invitation_does_not(ctx, client):
    table(ctx, humans=2, bots=1)
    for mail in Outbox.select():
        games = [p for p in paths_in(mail.text_body) if p.startswith("/me/")]
        if mail.kind == "invite":
            assert games == []
        else:
            assert len(games) == 1, (mail.kind, mail.text_body)
            assert client.get(games[0]).status_code == 200


def test_the_page_says_whose_move_it_is_with_the_deadline_in_the_players_zone(ctx, client):
    game = table(ctx, humans=2, bots=1)
    Player.update(timezone="Asia/Tokyo").where(Player.email == ALICE).execute()
    page = client.get(_games_path(latest_mail(ALICE)))
    assert page.status_code == 200
    assert "Visby #1" in page.text and "Your move" in page.text
    seat = Seat.get(Seat.game == game, Seat.index == 0)
    assert seat.deadline is not None
    assert compose.format_local(seat.deadline, "Asia/Tokyo") in page.text
    assert "(Asia/Tokyo)" in page.text
    # the seat link opens Alice's seat, as the one in her mail does
    [seat_link] = [h for h in hrefs(page.text) if h.startswith("/s/")]
    opened = client.get(seat_link)
    assert opened.status_code == 200 and "your seat, Alice" in opened.text
    # the same seat as the mail's link (signed at another instant)
    assert seat_link.split(".")[0] == seat_path(latest_mail(ALICE)).split(".")[0]


def test_a_player_waiting_for_others_sees_whom(ctx, client):
    from pbem.games import get_game
    from pbem.lifecycle import moves

    game = table(ctx, humans=2)
    rules = get_game("visby")
    # Visby: everyone chooses in secret; Alice makes her choice, Bob has not yet
    while 0 in rules.to_move(game.state):
        assert 1 in rules.to_move(game.state)
        moves.play(ctx, game.id, 0, rules.legal_moves(game.state, 0)[0],
                   menu_seq=Seat.get(Seat.game == game, Seat.index == 0).menu_seq)
        game = Game.get_by_id(game.id)
    page = client.get(_games_path(latest_mail(ALICE)))
    assert "Waiting for Bob" in page.text
    assert "Your move" not in page.text
    bob_page = client.get(_games_path(latest_mail(BOB)))
    assert "Your move" in bob_page.text


def test_new_links_revoke_the_games_link_and_mail_a_new_one(ctx, client):
    table(ctx, humans=2, bots=1)
    old = _games_path(latest_mail(ALICE))
    create.renew_links(ctx, Player.get(Player.email == ALICE).id)
    assert client.get(old).status_code == 410
    new = _games_path(latest_mail(ALICE, "links"))
    assert new != old and client.get(new).status_code == 200


def test_a_forged_games_link_is_refused(client, database):
    assert client.get("/me/not-a-token").status_code == 400


# -- rematch ---------------------------------------------------------------------------


def _finished(ctx):
    game = table(ctx, humans=3, bots=1)
    Game.update(options={"target": 30}).where(Game.id == game.id).execute()
    return finish(ctx, game)


def _rematch_form(page):
    [form] = [f for f in forms_in(page.text) if "/rematch/" in f.action]
    return form


def test_a_finished_game_shows_its_result_and_a_rematch_starts_it_again(ctx, client):
    old = _finished(ctx)
    assert old.status == Game.FINISHED
    page = client.get(_games_path(latest_mail(BOB, "result")))
    assert page.status_code == 200
    assert "Winner" in page.text and " place, " in page.text
    assert f"/g/{old.id}" in hrefs(page.text)
    # Bob, who never created a game and never confirmed, asks for the rematch
    Player.update(confirmed_at=None).where(Player.email == BOB).execute()
    done = post_form(client, _rematch_form(page))
    assert done.status_code == 303
    new = Game.get(Game.rematch_of == old.id)
    assert new.creator.email == BOB and new.status == Game.OPEN
    assert (new.game, new.options, new.clock) == (old.game, old.options, old.clock)
    seats = list(new.seats.order_by(Seat.index))
    assert seats[0].player.email == BOB
    assert [s.invite_email for s in seats[1:]] == [ALICE, CAROL, None]
    assert [s.bot for s in seats] == [False, False, False, True]
    # Bob came from a mailed link: his invitations go out at once
    assert all(s.invited_at is not None for s in seats[1:3])
    assert {m.to_address for m in Outbox.select().where(Outbox.kind == "invite",
                                                        Outbox.game == new)} == {ALICE, CAROL}
    assert Player.get(Player.email == BOB).confirmed_at is not None
    assert client.get(done.headers["Location"]).status_code == 200
    # a second click makes no second game, and the page now links the rematch
    again = post_form(client, _rematch_form(page))
    assert again.status_code == 303 and Game.select().count() == 2
    later = client.get(_games_path(latest_mail(BOB, "result")))
    rematch_seat = Seat.get(Seat.game == new, Seat.index == 0)
    # Bob's seat in the rematch (signed at another instant), listed as waiting too
    links = [h for h in hrefs(later.text)
             if h.split(".")[0] == done.headers["Location"].split(".")[0]]
    assert any(f'Rematch: <a href="{link}">Visby #2</a>' in later.text for link in links)
    assert done.headers["Location"].split(".")[0] == compose.seat_url(
        ctx, new, rematch_seat).removeprefix("http://pbem.test").split(".")[0]
    assert not [f for f in forms_in(later.text) if "/rematch/" in f.action]


def test_a_rematch_needs_the_csrf_token_and_a_finished_game(ctx, client):
    old = _finished(ctx)
    page = client.get(_games_path(latest_mail(ALICE, "result")))
    form = _rematch_form(page)
    refused = client.post(form.action, data={})
    assert refused.status_code == 400 and Game.select().count() == 1
    # a running game of Alice's cannot be "rematched" by a forged form
    other = create.create_game(ctx, "visby", Player.get(Player.email == ALICE), [None, None])
    bad = client.post(form.action.replace(f"/{old.id}", f"/{other.id}"),
                      data={"csrf_token": form.fields["csrf_token"]})
    assert bad.status_code == 410 and Game.get_or_none(Game.rematch_of == other.id) is None


def test_a_rematch_keeps_the_daily_limits(tmp_path, database):
    ctx = _limited(tmp_path, {"games_per_creator": "1"})
    client = create_app(ctx).test_client()
    old = _finished(ctx)
    page = client.get(_games_path(latest_mail(ALICE, "result")))
    refused = post_form(client, _rematch_form(page))
    assert refused.status_code == 429 and "try again tomorrow" in refused.text
    assert Game.select().count() == 1 and old.id == Game.get().id


# -- invitations -------------------------------------------------------------------------


def _open_game(ctx, *invited: str | None) -> Game:
    alice = player(ALICE, "Alice")
    return create.create_game(ctx, "visby", alice, list(invited))


def _invite_path(address: str) -> str:
    return next(p for p in paths_in(latest_mail(address, "invite").text_body)
                if p.startswith("/i/"))


def _creator_seat_page(ctx, client, game: Game):
    seat = Seat.get(Seat.game == game, Seat.index == 0)
    return client.get(compose.seat_url(ctx, game, seat).removeprefix("http://pbem.test"))


def test_the_invitee_declines_and_the_creator_is_told(ctx, client):
    game = _open_game(ctx, BOB, None)
    path = _invite_path(BOB)
    # the mail says how to say no, and that the creator will know: not "ignore this"
    mail = latest_mail(BOB, "invite")
    said = " ".join(mail.text_body.split())
    assert "open the same link and decline there" in said and "ignore" not in said
    assert f'href="http://pbem.test{path}">the same link</a> and decline there' in mail.html_body
    page = client.get(path)
    [form] = [f for f in forms_in(page.text) if f.action.endswith("/decline")]
    assert form.button == "No thanks, I decline"
    done = post_form(client, form)
    assert done.status_code == 200 and "You have declined" in done.text
    seat = Seat.get(Seat.game == game, Seat.index == 1)
    assert (seat.invite_email, seat.player_id, seat.bot) == (None, None, False)
    assert Game.get_by_id(game.id).status == Game.OPEN
    told = latest_mail(ALICE, "notice")
    assert "bob@example.org does not want to play Visby #1" in told.text_body
    assert "seat 2 is free again" in told.text_body
    # the invitation is spent: neither page nor a second decline works
    assert client.get(path).status_code == 410
    assert post_form(client, form).status_code == 410
    # the creator's seat page says so and offers the seat
    seat_page = _creator_seat_page(ctx, client, game)
    assert "free: the invitation was declined" in seat_page.text


def test_a_decline_needs_the_csrf_token(ctx, client):
    game = _open_game(ctx, BOB)
    path = _invite_path(BOB)
    client.get(path)
    assert client.post(f"{path}/decline", data={}).status_code == 400
    assert Seat.get(Seat.game == game, Seat.index == 1).invite_email == BOB


def test_the_creator_sees_who_answered_and_replaces_an_invitee(ctx, client):
    game = _open_game(ctx, BOB, CAROL)
    old_invite = _invite_path(BOB)
    carol = player(CAROL, "Carol")
    create.accept_invite(ctx, game, Seat.get(Seat.game == game, Seat.index == 2), carol)
    page = _creator_seat_page(ctx, client, game)
    assert "Carol has joined" in page.text
    assert "bob@example.org is invited and has not answered yet" in page.text
    forms = forms_in(page.text)
    assert not [f for f in forms if "/seat/2/" in f.action]  # Carol's seat is taken
    [invite] = [f for f in forms if f.action.endswith("/seat/1/invite")]
    done = post_form(client, invite, email=DAN)
    assert done.status_code == 303
    seat = Seat.get(Seat.game == game, Seat.index == 1)
    assert seat.invite_email == DAN and seat.invited_at is not None
    assert client.get(old_invite).status_code == 410  # Bob's link no longer works
    dan_invite = _invite_path(DAN)
    dan_page = client.get(dan_invite)
    assert dan_page.status_code == 200
    [take] = [f for f in forms_in(dan_page.text) if f.action == dan_invite]
    post_form(client, take, name="Dan", timezone="UTC", language="en")
    assert Game.get_by_id(game.id).status == Game.ACTIVE
    # once the game runs, nobody may change its seats
    refused = post_form(client, invite, email="eve@example.org")
    assert refused.status_code == 410


def test_the_creator_gives_the_last_seat_to_a_bot_and_the_game_starts(ctx, client):
    game = _open_game(ctx, BOB)
    page = _creator_seat_page(ctx, client, game)
    [bot] = [f for f in forms_in(page.text) if f.action.endswith("/seat/1/bot")]
    assert bot.button == "Give seat 2 to a bot"
    done = post_form(client, bot)
    assert done.status_code == 303
    game = Game.get_by_id(game.id)
    seat = Seat.get(Seat.game == game, Seat.index == 1)
    assert (seat.bot, seat.invite_email, game.status) == (True, None, Game.ACTIVE)
    assert client.get(_invite_path(BOB)).status_code == 410


def test_only_the_creator_changes_seats_and_sees_the_addresses(ctx, client):
    game = _open_game(ctx, BOB, CAROL)
    carol = player(CAROL, "Carol")
    create.accept_invite(ctx, game, Seat.get(Seat.game == game, Seat.index == 2), carol)
    carol_seat = Seat.get(Seat.game == game, Seat.index == 2)
    path = compose.seat_url(ctx, game, carol_seat).removeprefix("http://pbem.test")
    page = client.get(path)
    assert page.status_code == 200 and BOB not in page.text
    assert not [f for f in forms_in(page.text) if "/seat/" in f.action]
    settings = client.get(f"{path}/settings")  # a page with a form: this browser's token
    refused = client.post(f"{path}/seat/1/bot",
                          data={"csrf_token": forms_in(settings.text)[0].fields["csrf_token"]})
    assert refused.status_code == 403
    assert Seat.get(Seat.game == game, Seat.index == 1).bot is False


def test_replacing_invitees_counts_against_the_daily_limit(tmp_path, database):
    ctx = _limited(tmp_path, {"invitations_per_creator": "3"})
    client = create_app(ctx).test_client()
    game = _open_game(ctx, BOB)
    page = _creator_seat_page(ctx, client, game)
    [invite] = [f for f in forms_in(page.text) if f.action.endswith("/seat/1/invite")]
    for n in range(2):  # Bob, then two more: three invitations today
        assert post_form(client, invite, email=f"x{n}@example.org").status_code == 303
    refused = post_form(client, invite, email="x9@example.org")
    assert refused.status_code == 429
    assert Seat.get(Seat.game == game, Seat.index == 1).invite_email == "x1@example.org"
    # and a game made a day before is no way around it
    Game.update(created_at=utcnow() - timedelta(days=2)).execute()
    assert post_form(client, invite, email="x9@example.org").status_code == 429


@pytest.mark.parametrize("address", ["not an address", ALICE, "carol@example.org"])
def test_a_replacement_must_be_a_new_address(ctx, client, address):
    game = _open_game(ctx, BOB, CAROL)
    page = _creator_seat_page(ctx, client, game)
    [invite] = [f for f in forms_in(page.text) if f.action.endswith("/seat/1/invite")]
    refused = post_form(client, invite, email=address)
    assert refused.status_code == 400
    assert Seat.get(Seat.game == game, Seat.index == 1).invite_email == BOB


def test_an_unconfirmed_creators_replacement_waits_for_the_confirmation(ctx, client):
    alice = player(ALICE, "Alice", confirmed=False)
    game = create.create_game(ctx, "visby", alice, [BOB])
    page = _creator_seat_page(ctx, client, game)
    assert "the invitation goes out once you have confirmed" in page.text
    [invite] = [f for f in forms_in(page.text) if f.action.endswith("/seat/1/invite")]
    assert post_form(client, invite, email=DAN).status_code == 303
    assert latest_mail(DAN, "invite") is None and latest_mail(BOB, "invite") is None
    confirm_address(client, ALICE)
    assert latest_mail(DAN, "invite") is not None and latest_mail(BOB, "invite") is None
