"""Creating a game, accepting an invitation, unsubscribing."""

from __future__ import annotations

from freezegun import freeze_time
from web_helpers import (
    confirm_address,
    csrf_of,
    forms_in,
    hrefs,
    move_forms,
    paths_in,
    player,
    post_form,
    snapshot,
)

from pbem.models import Game, Outbox, Player, Seat


def _new_game_form(client):
    page = client.get("/new/visby")
    assert page.status_code == 200
    return next(f for f in forms_in(page.text) if f.action == "/new/visby")


@freeze_time("2026-03-02 12:00:00")
def test_create_a_game_against_bots_and_play_from_the_result_page(client):
    listing = client.get("/new")
    assert listing.status_code == 200 and 'href="/new/visby"' in listing.text
    created = post_form(client, _new_game_form(client), name="Heike", email="Heike@Example.ORG",
                        timezone="Europe/Berlin", players="4", days="2", **{
                            "seat-1": "bot", "seat-2": "", "seat-3": "BOT",
                            "opt-target": "30"})
    assert created.status_code == 303
    page = client.get(created.headers["Location"])
    # held until Heike confirms from her mailbox: no seat link here, no mail but that
    assert "confirm your address" in page.text and "/s/" not in page.text
    assert Game.get().status == Game.HELD
    assert [m.kind for m in Outbox.select()] == ["confirm"]
    done = confirm_address(client, "Heike@example.org")
    assert "has started" in done.text
    [seat_link] = [h for h in hrefs(done.text) if h.startswith("/s/")]
    game = Game.get()
    assert (game.status, game.options, game.clock["days"]) == ("active", {"target": 30}, 2)
    seats = list(Seat.select().order_by(Seat.index))
    assert [s.bot for s in seats] == [False, True, True, True]
    heike = Player.get(Player.email == "Heike@example.org")
    assert (heike.name, heike.timezone) == ("Heike", "Europe/Berlin")
    assert {m.kind for m in Outbox.select()} >= {"notice", "turn"}
    seat_page = client.get(seat_link)
    assert seat_page.status_code == 200 and "(Europe/Berlin)" in seat_page.text
    assert len(move_forms(seat_page.text)) == 8  # one card of eight, for 4 players


def test_the_form_says_what_is_wrong_and_creates_nothing(client):
    form = _new_game_form(client)
    before = snapshot()
    response = post_form(client, form, name="  ", email="not-an-address", players="3",
                         **{"seat-1": "someone@", "seat-2": "x@example.org"})
    assert response.status_code == 400
    assert "Please give your name" in response.text
    assert "Please give your email address" in response.text
    assert "Seat 2: enter an email address" in response.text
    assert 'value="x@example.org"' in response.text  # what was typed stays in the form
    twice = post_form(client, form, name="A", email="a@example.org", players="2",
                      **{"seat-1": "a@example.org"})
    assert twice.status_code == 400 and "only one seat" in twice.text
    assert snapshot() == before


def test_an_address_that_played_before_gets_its_seat_link_only_by_mail(client):
    player("alice@example.org", "Alice")
    created = post_form(client, _new_game_form(client), name="Not Alice",
                        email="alice@example.org", players="2", **{"seat-1": "bot"})
    page = client.get(created.headers["Location"])
    assert "/s/" not in page.text and "comes by mail once you have confirmed" in page.text
    assert Player.get(Player.email == "alice@example.org").name == "Alice"
    assert Game.get().status == Game.HELD


@freeze_time("2026-03-02 12:00:00")
def test_accept_an_invitation(client, app):
    post_form(client, _new_game_form(client), name="Alice", email="alice@example.org",
              players="3", **{"seat-1": "bob@example.org", "seat-2": "bot"})
    assert not Outbox.select().where(Outbox.kind == "invite").exists()  # not before...
    confirm_address(client, "alice@example.org")  # ...Alice has confirmed her address
    invite = Outbox.get(Outbox.kind == "invite")
    assert invite.to_address == "bob@example.org"
    [path] = [p for p in paths_in(invite.text_body) if p.startswith("/i/")]
    bob = app.test_client()
    before = snapshot()
    page = bob.get(path)
    assert page.status_code == 200 and "Alice invites you" in page.text
    assert snapshot() == before  # looking is not accepting
    [form] = [f for f in forms_in(page.text) if f.action == path]
    joined = post_form(bob, form, name="Bob", timezone="America/New_York")
    assert joined.status_code == 303
    seat_page = bob.get(joined.headers["Location"])
    assert "the game has started" in seat_page.text
    assert "(America/New_York)" in seat_page.text
    assert Game.get().status == Game.ACTIVE
    # the link again: "you have joined", with the way to the seat
    again = bob.get(path)
    assert again.status_code == 200 and "joined this game already" in again.text
    payload = joined.headers["Location"].split("/")[-1].split(".")[0]  # tokens differ by time
    assert f'href="/s/{payload}.' in again.text


def test_unsubscribe_asks_first_and_one_click_needs_no_cookie(client, app, ctx):
    alice = player("alice@example.org", "Alice")
    from pbem.mail import compose

    path = compose.unsubscribe_url(ctx, alice).replace("http://pbem.test", "")
    before = snapshot()
    page = client.get(path)
    assert page.status_code == 200 and "Stop all mail" in page.text
    assert snapshot() == before
    assert client.post(path, data={"action": "unsubscribe"}).status_code == 400  # no CSRF
    assert Player.get_by_id(alice.id).mail_enabled
    done = client.post(path, data={"action": "unsubscribe", "csrf_token": csrf_of(page.text)})
    assert done.status_code == 200 and "no more mail" in done.text
    assert not Player.get_by_id(alice.id).mail_enabled
    back = client.post(path, data={"action": "resubscribe", "csrf_token": csrf_of(page.text)})
    assert "mails alice@example.org again" in back.text
    assert Player.get_by_id(alice.id).mail_enabled
    # RFC 8058: the mail provider posts this body, with no cookie and no page before
    provider = app.test_client()
    response = provider.post(path, data={"List-Unsubscribe": "One-Click"})
    assert response.status_code == 200
    assert not Player.get_by_id(alice.id).mail_enabled


def test_an_address_no_mail_can_be_sent_to_is_refused_in_the_form(client):
    """Addresses the mail header parser refuses were taken and queued, then never sent."""
    form = _new_game_form(client)
    before = snapshot()
    for typed in ("<bob@example.org>", "bob@example..org", "bob@example.org>", "bo;b@example.org",
                  "j\u00f6rg@example.org", "bob(x)@example.org", ".bob@example.org"):
        response = post_form(client, form, name="Alice", email="alice@example.org",
                             players="2", **{"seat-1": typed})
        assert response.status_code == 400, typed
        assert "Seat 2: enter an email address" in response.text
    assert snapshot() == before


def test_an_invitation_to_a_player_obeys_their_unsubscribe(ctx, database):
    """An invitation to an address that plays here already is that player's mail: it
    carries List-Unsubscribe, and after "Stop all mail" it is not sent at all."""
    from pbem.lifecycle import create

    alice, bob, carol = (player(f"{n}@example.org", n.title()) for n in ("alice", "bob", "carol"))
    Player.update(mail_enabled=False).where(Player.id == bob.id).execute()
    create.create_game(ctx, "visby", alice, ["bob@example.org"])
    assert not Outbox.select().where(Outbox.kind == "invite").exists()
    create.create_game(ctx, "visby", alice, ["carol@example.org"])
    invite = Outbox.get(Outbox.kind == "invite")
    assert (invite.player_id, invite.to_address, invite.to_name) == (
        carol.id, "carol@example.org", "Carol")
    assert invite.unsubscribe_url
    # an address nobody plays with yet still gets its invitation
    create.create_game(ctx, "visby", alice, ["dave@example.org"])
    assert Outbox.select().where(Outbox.kind == "invite").count() == 2


@freeze_time("2026-03-02 12:00:00")
def test_the_creator_chooses_a_time_bank_and_the_timeout_ladder(client):
    form = _new_game_form(client)
    assert form.fields["clock"] == "per_move"  # the checked radio button, by default
    created = post_form(client, form, name="Heike", email="heike@example.org", players="2",
                        clock="bank", initial_days="5", bonus_days="0.5", days="",
                        reminders="12h", grace_hours="6", timeouts_before_bot="2",
                        after_timeouts="drop", **{"seat-1": "bot"})
    assert created.status_code == 303, created.text
    done = confirm_address(client, "heike@example.org")
    game = Game.get()
    assert {k: game.clock[k] for k in ("kind", "initial_days", "bonus_days", "reminders",
                                       "grace_hours", "timeouts_before_bot",
                                       "after_timeouts")} == {
        "kind": "bank", "initial_days": 5, "bonus_days": 0.5, "reminders": ["12h"],
        "grace_hours": 6, "timeouts_before_bot": 2, "after_timeouts": "drop"}
    heike = Seat.get(Seat.game == game, Seat.index == 0)
    assert (heike.deadline - heike.deadline_started).days == 5
    [seat_link] = [h for h in hrefs(done.text) if h.startswith("/s/")]
    page = client.get(seat_link).text
    assert "a time bank of 5 days plus 0.5 per move" in page


def test_a_clock_out_of_range_is_refused_beside_the_form(client):
    form = _new_game_form(client)
    before = snapshot()
    for fields, words in [
        ({"days": "0.0001"}, "days per move must be between 1 and 60"),
        ({"days": "soon"}, "Days per move: give a number"),
        ({"clock": "bank", "initial_days": "200"}, "a time bank starts with 1 to 90 days"),
        ({"clock": "bank", "bonus_days": "-1"}, "bonus is 0 to 30 days"),
        ({"clock": "hourglass"}, "Clock: choose days per move or a time bank"),
        ({"reminders": "tomorrow"}, "a reminder point is like"),
        ({"grace_hours": "nan"}, "Grace period: give a number"),
        ({"timeouts_before_bot": "2.5"}, "after 1 to 50 timeouts in a row"),
        ({"after_timeouts": "explode"}, "goes to a"),
    ]:
        response = post_form(client, form, name="A", email="a@example.org", players="2",
                             **{"seat-1": "bot", **fields})
        assert response.status_code == 400, fields
        assert words in response.text, (fields, words)
    assert snapshot() == before


def test_the_45_seal_game_is_for_2_or_3_players_only(client):
    """The rulebook recommends 45 seals for 2 or 3 experienced players; the form says so."""
    refused = post_form(client, _new_game_form(client), name="Heike", email="heike@example.org",
                        timezone="UTC", players="4", days="2",
                        **{"seat-1": "bot", "seat-2": "bot", "seat-3": "bot",
                           "opt-target": "45"})
    assert refused.status_code == 400
    assert "45" in refused.text and "2 or 3" in refused.text
    assert Game.select().count() == 0
    accepted = post_form(client, _new_game_form(client), name="Heike",
                         email="heike@example.org", timezone="UTC", players="3", days="2",
                         **{"seat-1": "bot", "seat-2": "bot", "opt-target": "45"})
    assert accepted.status_code == 303
    assert Game.get().options == {"target": 45}


@freeze_time("2026-03-02 12:00:00")
def test_a_newcomer_at_new_confirms_from_dev_mail_and_plays(ctx, sqlite_client):
    """``pbem serve``'s way for someone trying pbem: a game against bots from /new, its
    request to confirm read at /dev/mail, the click, then the game's own mails there."""
    from pbem.time.scheduler import tick

    client = sqlite_client
    created = post_form(client, _new_game_form(client), name="Nora", email="nora@example.org",
                        players="3", **{"seat-1": "bot", "seat-2": "bot"})
    assert created.status_code == 303
    tick(ctx)
    listing = client.get("/dev/mail")
    [mail] = [h for h in hrefs(listing.text) if h.startswith("/dev/mail/")]
    assert "please confirm your address" in listing.text
    [confirm] = [h.removeprefix("http://pbem.test") for h in hrefs(client.get(mail).text)
                 if "/c/" in h]
    [form] = [f for f in forms_in(client.get(confirm).text) if f.action == confirm]
    done = post_form(client, form)
    assert done.status_code == 200 and "has started" in done.text
    tick(ctx)
    listing = client.get("/dev/mail")
    assert len([h for h in hrefs(listing.text) if h.startswith("/dev/mail/")]) == 3
    assert "your move" in listing.text
    [seat] = [h for h in hrefs(done.text) if h.startswith("/s/")]
    assert len(move_forms(client.get(seat).text)) == 8


def test_the_creator_chooses_how_strongly_each_bot_plays(client):
    page = client.get("/new/visby").text
    assert all(f'<select id="level-{i}" name="level-{i}">' in page for i in (1, 2, 3))
    assert '<option value="normal" selected>' in page  # the default level
    # every game's search is measured better than its own bot (Rules.default_bot_level;
    # bench/bots.py in the README), so each offers "normal" first
    for game in ("macao", "riga", "tallinn"):
        assert '<option value="normal" selected>' in client.get(f"/new/{game}").text, game
    form = _new_game_form(client)
    refused = post_form(client, form, name="Heike", email="heike@example.org", players="3",
                        **{"seat-1": "bot", "level-1": "godlike"})
    assert refused.status_code == 400 and "how strongly its bot plays" in refused.text
    assert Game.select().count() == 0
    created = post_form(client, _new_game_form(client), name="Heike", email="heike@example.org",
                        players="4", **{"seat-1": "bot", "level-1": "strong", "seat-2": "",
                                        "level-2": "easy", "seat-3": "ute@example.org",
                                        "level-3": "strong"})
    assert created.status_code == 303
    seats = list(Seat.select().order_by(Seat.index))
    assert [(s.bot, s.bot_level) for s in seats[1:3]] == [(True, "strong"), (True, "easy")]
    assert not seats[3].bot  # an invited seat: its level is only what a bot would play
