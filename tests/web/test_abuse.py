"""Nobody can use the server to mail strangers, or to act in a player's name.

A game asked for on the open form is held: it mails nothing but one request to
confirm to the address it names (at most one a day), starts nothing and counts
against nobody's limits but the asking client's, until a click from that mailbox.
A player's own all-your-games link proves the address: a game started there needs
no confirmation.  Daily limits stop a flood with a page that says so and when to
come back (``Retry-After``), and every mail to an address that has not joined
offers "never mail me again", which every later mail heeds.
"""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from freezegun import freeze_time
from web_helpers import (
    confirm_address,
    csrf_of,
    forms_in,
    hrefs,
    latest_mail,
    paths_in,
    player,
    post_form,
    seat_path,
    snapshot,
    table,
)

from pbem.context import make_context
from pbem.lifecycle import create
from pbem.mail import compose
from pbem.mail.outbox import deliver_due
from pbem.models import Blocked, Game, Move, Outbox, Player, Seat, utcnow
from pbem.time.scheduler import tick
from pbem.web import create_app

LIMITS = {"games_per_creator": "2", "invitations_per_creator": "5",
          "games_per_client": "3", "invitations_per_invitee": "2"}
NOON = datetime(2026, 3, 2, 12, 0, 0)
ALICE = "alice@example.org"


def _context(tmp_path, **sections):
    return make_context(server={"instance": str(tmp_path / "instance"),
                                "base_url": "http://pbem.test"},
                        archive={"site_dir": str(tmp_path / "site")}, **sections)


@pytest.fixture
def limited(tmp_path, database):
    ctx = _context(tmp_path, limits=LIMITS)
    return ctx, create_app(ctx).test_client()


@pytest.fixture
def by_smtp(tmp_path, database, smtp_server):
    """The real mail path: the tick delivers the outbox to an SMTP server on loopback."""
    ctx = _context(tmp_path, limits={"games_per_client": "100"},
                   mail={"transport": "smtp", "smtp_host": smtp_server.host,
                         "smtp_port": str(smtp_server.port)})
    return ctx, create_app(ctx).test_client()


def _create(client, email: str, *invited: str, name: str = "Mallory", bots: int = 0,
            remote: str = "127.0.0.1"):
    """The open form of the home page, filled in by whoever holds ``client``."""
    environ = {"REMOTE_ADDR": remote}
    page = client.get("/new/visby", environ_base=environ)
    form = next(f for f in forms_in(page.text) if f.action == "/new/visby")
    seats = {f"seat-{i}": address for i, address in enumerate(invited, start=1)}
    return client.post(form.action, environ_base=environ, data={
        **form.fields, "name": name, "email": email, "players": str(1 + len(invited) + bots),
        **seats})


def _games_page(ctx, person: Player) -> str:
    return paths_in(compose.my_games_url(ctx, person))[0]


def _create_as(client, ctx, person: Player, *invited: str, bots: int = 0):
    """``person`` starts a game from their all-your-games page, as a browser would."""
    mine = _games_page(ctx, person)
    [new] = [h for h in hrefs(client.get(mine).text) if h == f"{mine}/new/visby"]
    page = client.get(new)
    assert page.status_code == 200
    [form] = [f for f in forms_in(page.text) if f.action == new]
    seats = {f"seat-{i}": address for i, address in enumerate(invited, start=1)}
    return post_form(client, form, players=str(1 + len(invited) + bots), **seats)


# -- a stranger named as creator --------------------------------------------------------


def test_a_stranger_named_as_creator_gets_one_mail_a_day(by_smtp, smtp_server):
    """Issue 20's first probe: bot-only games under a stranger's address from one client
    with no cookies.  The stranger gets one mail a day, the request to confirm, and not
    one game starts (no clocks, no bots, no "started" notice, no turn mail)."""
    ctx, _client = by_smtp
    app = create_app(ctx)
    with freeze_time(NOON, ignore=["asyncio", "aiosmtpd"]) as frozen:
        for n in range(14):
            anonymous = app.test_client()  # no cookie from one request to the next
            assert _create(anonymous, "stranger@example.org", bots=2,
                           name=f"Mallory {n}").status_code == 303
        tick(ctx)
        tick(ctx)
        [mail] = smtp_server.to("stranger@example.org")
        assert "please confirm your address" in str(mail["Subject"])
        assert Game.select().where(Game.status != Game.HELD).count() == 0
        assert not Move.select().exists()
        assert not Seat.select().where(Seat.deadline.is_null(False)).exists()
        assert [o.kind for o in Outbox.select()] == ["confirm"]
        frozen.tick(timedelta(hours=20))
        assert _create(app.test_client(), "stranger@example.org", bots=2).status_code == 303
        tick(ctx)
        assert len(smtp_server.to("stranger@example.org")) == 1
        frozen.tick(timedelta(hours=4, minutes=1))  # a day after the first request
        assert _create(app.test_client(), "stranger@example.org", bots=2).status_code == 303
        tick(ctx)
        assert len(smtp_server.to("stranger@example.org")) == 2
        assert smtp_server.messages == smtp_server.to("stranger@example.org")


def test_an_address_that_said_never_gets_no_request_to_confirm(limited):
    ctx, client = limited
    Blocked.create(email="stranger@example.org")
    before = snapshot()
    refused = _create(client, "stranger@example.org", bots=1)
    assert refused.status_code == 400 and "never to mail it" in refused.text
    assert snapshot() == before


# -- invitations in a player's name ---------------------------------------------------------


@freeze_time(NOON)
def test_no_invitation_goes_out_in_a_players_name_without_a_new_click(limited):
    """Issue 20's second probe: an address that confirmed once before (anyone who ever
    played here) named as creator, with invitees.  Nothing but the request to confirm
    leaves until a click from that mailbox, and that click starts the game it chose."""
    ctx, _client = limited
    alice = player(ALICE, "Alice")
    table(ctx)  # Alice has played here: her address was confirmed long ago
    before = Outbox.select().count()
    attacker = create_app(ctx).test_client()
    for n in range(3):
        assert _create(attacker, ALICE, f"s{n}a@example.org", f"s{n}b@example.org",
                       remote=f"192.0.2.{n}").status_code == 303
    tick(ctx)
    deliver_due(ctx.config, _Sink())
    new = list(Outbox.select().where(Outbox.id > before))
    assert [(m.kind, m.to_address) for m in new] == [("confirm", ALICE)]
    assert not Seat.select().join(Game).where(Game.status == Game.HELD,
                                              Seat.invited_at.is_null(False)).exists()
    created = attacker.get(f"/created/{Game.select().order_by(Game.id.desc()).first().id}")
    assert "/s/" not in created.text and "confirm your address" in created.text
    # Alice's own list knows nothing of them: anyone may have typed her address
    listed = client_of(ctx).get(_games_page(ctx, alice)).text
    assert "Visby #1" in listed
    assert not any(f"Visby #{g.id}" in listed for g in Game.select().where(
        Game.status == Game.HELD))
    # a new click from her mailbox starts the one game she chooses, and only that one
    mail = latest_mail(ALICE, "confirm")
    [path] = [p for p in paths_in(mail.text_body) if p.startswith("/c/")]
    page = attacker.get(path)
    forms = [f for f in forms_in(page.text) if f.action == path]
    assert len(forms) == 3 and "s0a@example.org" not in page.text  # addresses stay hidden
    chosen = int(forms[-1].fields["game"])
    done = post_form(attacker, forms[-1])
    assert done.status_code == 200 and "confirmed" in done.text
    invited = Outbox.select().where(Outbox.kind == "invite", Outbox.id > before)
    assert sorted(m.to_address for m in invited) == ["s0a@example.org", "s0b@example.org"]
    assert {m.game_id for m in invited} == {chosen}
    assert Game.select().where(Game.status == Game.HELD).count() == 2


def client_of(ctx):
    return create_app(ctx).test_client()


@freeze_time(NOON)
def test_the_player_can_still_start_their_own_game_after_an_attack(limited):
    """Issue 20's third probe: requests in Alice's name used up her daily allowance.
    Held games count against no address, and their invitations against no invitee."""
    ctx, client = limited
    alice = player(ALICE, "Alice")
    attacker = create_app(ctx).test_client()
    for n in range(6):  # from six networks: the per-client limit does not stop it
        assert _create(attacker, ALICE, "bob@example.org", remote=f"198.51.100.{n}",
                       ).status_code == 303
    assert Game.select().where(Game.status == Game.HELD).count() == 6
    # two games a day for an address (LIMITS): both are still Alice's to start
    assert _create_as(client, ctx, alice, "bob@example.org").status_code == 303
    assert _create_as(client, ctx, alice, bots=1).status_code == 303
    assert latest_mail("bob@example.org", "invite") is not None
    third = _create_as(client, ctx, alice, bots=1)
    assert third.status_code == 429 and "2 games in the last 24 hours" in third.text
    assert third.headers["Retry-After"] == str(24 * 3600)
    # and a held game confirmed from the mailbox counts from its confirmation
    mail = latest_mail(ALICE, "confirm")
    [path] = [p for p in paths_in(mail.text_body) if p.startswith("/c/")]
    [form, *_] = [f for f in forms_in(client.get(path).text) if f.action == path]
    refused = post_form(client, form)
    assert refused.status_code == 429 and refused.headers["Retry-After"] == str(24 * 3600)
    assert Game.select().where(Game.status == Game.HELD).count() == 6


@freeze_time(NOON)
def test_a_game_from_all_your_games_needs_no_confirmation(limited):
    ctx, client = limited
    alice = player(ALICE, "Alice", confirmed=False)  # she never clicked a confirmation
    created = _create_as(client, ctx, alice, "bob@example.org", bots=1)
    assert created.status_code == 303
    game = Game.get()
    assert game.status == Game.OPEN and game.client_key is not None
    seat = client.get(created.headers["Location"])
    assert seat.status_code == 200 and "the invitations are on their way" in seat.text
    assert latest_mail("bob@example.org", "invite") is not None
    assert latest_mail(ALICE, "confirm") is None
    assert Player.get(Player.email == ALICE).confirmed_at is not None  # the link proved it
    # bots only: it starts at once, with its mails to her
    created = _create_as(client, ctx, alice, bots=2)
    game = Game.get_by_id(int(Game.select().order_by(Game.id.desc()).first().id))
    assert game.status == Game.ACTIVE
    assert "has started" in client.get(created.headers["Location"]).text
    assert latest_mail(ALICE, "turn") is not None
    assert latest_mail(ALICE, "confirm") is None


def test_a_revoked_games_link_creates_nothing(limited):
    ctx, client = limited
    alice = player(ALICE, "Alice")
    mine = _games_page(ctx, alice)
    page = client.get(f"{mine}/new/visby")
    [form] = [f for f in forms_in(page.text) if f.action == f"{mine}/new/visby"]
    create.renew_links(ctx, alice.id)  # "new links": the old page no longer works
    before = Game.select().count()
    refused = post_form(client, form, players="2")
    assert refused.status_code == 410 and Game.select().count() == before


# -- a held game that nobody confirms ---------------------------------------------------


def test_a_held_game_nobody_confirms_is_deleted_after_a_week(limited):
    ctx, client = limited
    with freeze_time(NOON) as frozen:
        assert _create(client, "stranger@example.org", bots=1).status_code == 303
        held = Game.get()
        [path] = [p for p in paths_in(latest_mail("stranger@example.org", "confirm")
                                      .text_body) if p.startswith("/c/")]
        [form] = [f for f in forms_in(client.get(path).text) if f.action == path]
        frozen.tick(timedelta(days=create.HELD_DAYS, seconds=1))
        page = client.get(path)
        assert "start Visby" not in page.text  # no longer offered
        late = post_form(client, form)
        assert late.status_code == 410 and "discarded" in late.text
        # the next game asked for on the form clears it away, seats and all
        assert _create(client, "someone@example.org", bots=1,
                       remote="203.0.113.9").status_code == 303
        [left] = Game.select()  # SQLite may give the new game the old one's id
        assert left.creator.email == "someone@example.org"
        assert not Seat.select().where(Seat.player == held.creator_id).exists()
        assert Outbox.get(Outbox.to_address == "stranger@example.org").game_id is None


def test_the_tick_deletes_a_held_game_nobody_confirms_though_nobody_uses_the_form(limited):
    ctx, client = limited
    with freeze_time(NOON) as frozen:
        assert _create(client, "stranger@example.org", bots=1).status_code == 303
        tick(ctx)
        assert Game.select().count() == 1  # still within its week: it waits for the click
        frozen.tick(timedelta(days=create.HELD_DAYS, seconds=1))
        assert tick(ctx)["held"] == 1
        assert not Game.select().exists() and not Seat.select().exists()


# -- daily limits, Retry-After --------------------------------------------------------------


def test_a_flood_from_one_client_is_refused_with_retry_after(limited):
    _ctx, client = limited
    with freeze_time(NOON) as frozen:
        for n in range(3):
            assert _create(client, f"m{n}@example.org", bots=1).status_code == 303
            frozen.tick(timedelta(minutes=10))
        before = snapshot()
        refused = _create(client, "oscar@example.org", "w2@example.org")
        assert refused.status_code == 429 and "from your network" in refused.text
        # the first of the three leaves the day's window 24 hours after it came
        assert refused.headers["Retry-After"] == str(24 * 3600 - 30 * 60)
        assert snapshot() == before  # nothing queued, nothing stored
        # and then it does ease: the first game is a day old
        frozen.move_to(NOON + timedelta(days=1, seconds=1))
        assert _create(client, "oscar@example.org", bots=1).status_code == 303


@freeze_time(NOON)
def test_limits_of_a_proven_creator_and_of_an_invitee(limited):
    ctx, client = limited
    alice, bob = player(ALICE, "Alice"), player("bob@example.org", "Bob")
    trudy = player("trudy@example.org", "Trudy")
    for person in (alice, bob):  # one address is invited at most twice a day
        assert _create_as(client, ctx, person, "v0@example.org").status_code == 303
    refused = _create_as(client, ctx, trudy, "v0@example.org")
    assert refused.status_code == 429 and "v0@example.org has been invited 2 times" in \
        refused.text
    assert int(refused.headers["Retry-After"]) == 24 * 3600
    # a creator's own seat form (a Refusal page) says when too
    game = Game.select().where(Game.creator == alice.id).get()
    seat = Seat.get(Seat.game == game, Seat.index == 0)
    creator = paths_in(compose.seat_url(ctx, game, seat))[0]
    page = client.get(creator)
    [invite] = [f for f in forms_in(page.text) if f.action.endswith("/seat/1/invite")]
    refused = post_form(client, invite, email="v0@example.org")
    assert refused.status_code == 429 and refused.headers["Retry-After"] == str(24 * 3600)


def test_the_talk_limits_name_their_number_in_english_and_german(tmp_path, database):
    """A talk limit's message takes its number as a field: a page that lost it would
    read "%(most)s".  Its 429 says when a message fits again."""
    ctx = _context(tmp_path, limits={"talk_per_seat_hour": "4", "talk_per_game_day": "9"})
    client = create_app(ctx).test_client()
    table(ctx)
    alice = seat_path(latest_mail(ALICE))
    bob = seat_path(latest_mail("bob@example.org"))
    Player.update(language="de").where(Player.email == "bob@example.org").execute()

    def say(path: str, text: str):
        return client.post(f"{path}/talk", data={"text": text,
                                                 "csrf_token": csrf_of(client.get(path).text)})

    def refused(path: str, said: str, retry_after: int) -> None:
        response = say(path, "one more")
        assert response.status_code == 429
        assert said in response.text and "%(" not in response.text
        assert response.headers["Retry-After"] == str(retry_after)

    with freeze_time("2026-05-04 10:00:00") as frozen:
        for n in range(4):
            assert say(alice, f"a{n}").status_code == 303
            assert say(bob, f"b{n}").status_code == 303
            frozen.tick(timedelta(minutes=5))
        refused(alice, "That is 4 messages in an hour from this seat", 40 * 60)
        refused(bob, "Das sind 4 Nachrichten in einer Stunde von diesem Platz", 40 * 60)
        frozen.tick(timedelta(hours=1))
        assert say(alice, "the ninth").status_code == 303
        day = 24 * 3600 - 80 * 60  # until Alice's first message is a day old
        refused(alice, "That is 9 messages in a day at this table", day)
        refused(bob, "Das sind 9 Nachrichten an einem Tag an diesem Tisch", day)


# -- never mail me again ----------------------------------------------------------------


@freeze_time(NOON)
def test_never_mail_me_again_is_offered_and_heeded(limited):
    ctx, client = limited
    alice = player(ALICE, "Alice")
    _create_as(client, ctx, alice, "stranger@example.org")
    invite = Outbox.get(Outbox.kind == "invite")
    assert invite.unsubscribe_url and "/never/" in invite.unsubscribe_url
    [never] = [p for p in paths_in(invite.text_body) if p.startswith("/never/")]
    assert never in (invite.html_body or "")
    # the mail provider's one-click POST needs no cookie (RFC 8058)
    stranger = create_app(ctx).test_client()
    done = stranger.post(never, data={"List-Unsubscribe": "One-Click"})
    assert done.status_code == 200
    assert Blocked.has("stranger@example.org")
    # no later mail of any kind: a new invitation is refused in words, nothing is queued
    before = Outbox.select().count()
    again = _create_as(client, ctx, alice, "stranger@example.org")
    assert again.status_code == 400 and "never to mail them" in again.text
    assert Outbox.select().count() == before
    # and should the address ask for a game itself, it is told it cannot confirm one
    assert _create(stranger, "stranger@example.org", name="Stranger").status_code == 400
    assert not Outbox.select().where(Outbox.to_address == "stranger@example.org",
                                     Outbox.kind != "invite").exists()


@freeze_time(NOON)
def test_never_page_asks_first(limited):
    ctx, client = limited
    _create_as(client, ctx, player(ALICE, "Alice"), "stranger@example.org")
    [never] = [p for p in paths_in(Outbox.get(Outbox.kind == "invite").text_body)
               if p.startswith("/never/")]
    page = client.get(never)
    assert page.status_code == 200 and "stranger@example.org" in page.text
    assert not Blocked.has("stranger@example.org")  # looking is not asking
    [form] = [f for f in forms_in(page.text) if f.action == never]
    assert post_form(client, form).status_code == 200
    assert Blocked.has("stranger@example.org")


@freeze_time(NOON)
def test_a_newcomers_invitations_wait_for_the_confirmation(limited):
    ctx, client = limited
    assert _create(client, "mallory@example.org", "victim@example.org").status_code == 303
    tick(ctx)
    deliver_due(ctx.config, _Sink())
    assert [(m.kind, m.to_address) for m in Outbox.select()] == [
        ("confirm", "mallory@example.org")]
    created = client.get(f"/created/{Game.get().id}")
    assert "confirm your address" in created.text
    # confirming sends them: the creator proved the address is theirs
    done = confirm_address(client, "mallory@example.org")
    assert [m.to_address for m in Outbox.select().where(Outbox.kind == "invite")] == [
        "victim@example.org"]
    assert Player.get(Player.email == "mallory@example.org").confirmed_at == utcnow()
    assert "/s/" in done.text and "/me/" in done.text  # the mailbox has spoken
    confirm_address(client, "mallory@example.org")  # again: nothing more goes out
    assert Outbox.select().where(Outbox.kind == "invite").count() == 1


class _Sink:
    """A transport that takes every mail (the test reads the outbox, not a mailbox)."""

    def send(self, message) -> None:  # noqa: D401 - the transport protocol
        pass


@freeze_time(NOON)
def test_a_german_player_is_asked_in_german(limited):
    ctx, client = limited
    player("jonas@example.org", "Jonas")
    Player.update(language="de").where(Player.email == "jonas@example.org").execute()
    assert _create(client, "jonas@example.org", bots=1).status_code == 303
    mail = latest_mail("jonas@example.org", "confirm")
    assert "Bevor es beginnt und bevor wir irgendwem dazu" in mail.text_body
    assert "nach 7 Tagen gelöscht" in mail.text_body
    [path] = [p for p in paths_in(mail.text_body) if p.startswith("/c/")]
    page = client.get(path)
    assert "Ja, die Adresse gehört mir: Visby #1 starten" in page.text
    [form] = [f for f in forms_in(page.text) if f.action == path]
    done = post_form(client, form)
    assert "Visby #1 hat begonnen." in done.text


def test_a_confirmation_link_starts_only_its_own_addresss_games(limited):
    ctx, client = limited
    with freeze_time(NOON) as frozen:
        assert _create(client, ALICE, bots=1).status_code == 303
        held = Game.get()
        assert _create(client, "bob@example.org", bots=1).status_code == 303
        [path] = [p for p in paths_in(latest_mail("bob@example.org", "confirm").text_body)
                  if p.startswith("/c/")]
        page = client.get(path)
        [form] = [f for f in forms_in(page.text) if f.action == path]
        refused = post_form(client, form, game=str(held.id))  # Alice's game, Bob's link
        assert refused.status_code == 404
        for odd in ("\u00b2", "-1", "9" * 40, "1e3"):  # never a game, never a 500
            assert post_form(client, form, game=odd).status_code == 404, odd
        assert Game.get_by_id(held.id).status == Game.HELD
        # confirmed three days on, a game counts (for the daily limits) from then
        frozen.tick(timedelta(days=3))
        confirm_address(client, ALICE)
        assert Game.get_by_id(held.id).created_at == utcnow()
