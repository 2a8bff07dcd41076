"""A whole game played only from mails that a real SMTP server received.

Alice creates the game in the lobby, Bob and Carol join from their invitation
mails, and from then on every move starts at a link in the last turn mail the
player received: GET the confirm page, POST its form, and while the turn goes
on with no new mail, the buttons of the seat page the POST leads to.  The scheduler's tick
delivers the mail after each move.
"""

from __future__ import annotations

import random
from email.message import EmailMessage

from web_helpers import forms_in, move_forms, paths_in, player, post_form, text_part

from pbem.gamelog.records import replay
from pbem.lifecycle.records import game_record
from pbem.models import Game, Move, Seat
from pbem.time.scheduler import tick
from pbem.web import create_app

PEOPLE = {"alice@example.org": "Alice", "bob@example.org": "Bob",
          "carol@example.org": "Carol"}


def _follow(client, response):
    assert response.status_code == 303, response.text
    return client.get(response.headers["Location"])


class Inbox:
    """The received mails by address, read once each (header parsing is slow), each with
    what it says it is: a game's mails share the game's subject and say it in their
    body's first line."""

    def __init__(self, sink):
        self.sink = sink
        self.read = 0
        self.mails: dict[str, list[tuple[str, str, EmailMessage]]] = {a: [] for a in PEOPLE}

    def _update(self) -> None:
        for msg in self.sink.messages[self.read:]:
            address = msg["To"].addresses[0].addr_spec
            first_line = text_part(msg).partition("\n")[0]
            self.mails[address].append((msg["Message-ID"], first_line, msg))
        self.read = len(self.sink.messages)

    def of(self, address: str, says: str) -> list[tuple[str, str, EmailMessage]]:
        self._update()
        return [m for m in self.mails[address] if says in m[1]]

    def last_turn(self, address: str, unless: set[str]) -> EmailMessage | None:
        turns = self.of(address, "your move")
        return turns[-1][2] if turns and turns[-1][0] not in unless else None


def test_a_whole_game_played_from_the_links_in_the_mails(smtp_ctx, smtp_server, database):
    for address, name in PEOPLE.items():  # no quiet hours: mail leaves whatever the hour
        player(address, name)
    app = create_app(smtp_ctx)
    browsers = {address: app.test_client() for address in PEOPLE}
    rng = random.Random(7)

    # Alice creates the game in the lobby
    alice = browsers["alice@example.org"]
    page = alice.get("/new/visby")
    form = next(f for f in forms_in(page.text) if f.action == "/new/visby")
    created = post_form(alice, form, name="Alice", email="alice@example.org", players="3",
                        **{"seat-1": "bob@example.org", "seat-2": "carol@example.org"})
    assert _follow(alice, created).status_code == 200
    tick(smtp_ctx)
    # the open form proves nothing about the address, though Alice has played here:
    # the game waits for her click from the mail that asks her to confirm
    assert smtp_server.to("bob@example.org") == []
    [confirm] = smtp_server.to("alice@example.org")
    [path] = [p for p in paths_in(text_part(confirm)) if p.startswith("/c/")]
    [form] = [f for f in forms_in(alice.get(path).text) if f.action == path]
    assert post_form(alice, form).status_code == 200
    tick(smtp_ctx)

    # Bob and Carol join from their invitation mails
    for address in ("bob@example.org", "carol@example.org"):
        [invite] = smtp_server.to(address)
        [path] = [p for p in paths_in(text_part(invite)) if p.startswith("/i/")]
        page = browsers[address].get(path)
        assert page.status_code == 200
        [form] = [f for f in forms_in(page.text) if f.action == path]
        joined = post_form(browsers[address], form, name=PEOPLE[address], timezone="UTC")
        assert _follow(browsers[address], joined).status_code == 200
    tick(smtp_ctx)
    game = Game.get()
    assert game.status == Game.ACTIVE

    inbox = Inbox(smtp_server)
    handled: set[str] = set()
    posts = 0
    while not all(inbox.of(address, " wins with ") or inbox.of(address, " share the win ")
                  for address in PEOPLE):
        waiting = [(a, m) for a in PEOPLE if (m := inbox.last_turn(a, handled)) is not None]
        assert waiting, "nobody has a turn mail to answer, but the game is not over"
        address, mail = waiting[0]
        handled.add(mail["Message-ID"])
        browser = browsers[address]
        links = [p for p in paths_in(text_part(mail)) if p.startswith("/m/")]
        assert links, text_part(mail)
        link = rng.choice(links)
        confirm = browser.get(link)
        assert confirm.status_code == 200, confirm.text
        [form] = [f for f in forms_in(confirm.text) if f.action == link]
        page = _follow(browser, post_form(browser, form))
        posts += 1
        assert page.status_code == 200 and "Played:" in page.text
        tick(smtp_ctx)
        # while the turn goes on without a new mail (a trade after a trade, the second
        # card), its next step is on the page the POST led to
        while inbox.last_turn(address, handled) is None and (
                forms := move_forms(page.text)):
            page = _follow(browser, post_form(browser, rng.choice(forms)))
            posts += 1
            assert page.status_code == 200
            tick(smtp_ctx)
        assert posts < 400, "the game does not end"

    game = Game.get_by_id(game.id)
    assert game.status == Game.FINISHED
    assert replay(game_record(game)) == game.state
    humans = Move.select().where(Move.game == game, Move.kind == Move.PLAYER).count()
    # every move came from a click but the formalities the server plays itself (Visby's
    # last card left to choose), and none from elsewhere
    formalities = Move.select().where(Move.game == game, Move.kind == Move.FORMALITY).count()
    assert humans == posts and humans + formalities == game.seq
    for address in PEOPLE:
        [(_id, headline, result)] = [m for m in inbox.mails[address]
                                     if " wins with " in m[1] or " share the win " in m[1]]
        assert headline.startswith(f"Visby #{game.id}: ")
        assert f"/archive/games/{game.id}.html" in text_part(result)
        # one thread per player: after the invitation (the creator has the request to
        # confirm instead), every mail has the game's subject; the first is the root,
        # every later one refers to it
        thread = [m for _i, _h, m in inbox.mails[address]
                  if "/i/" not in text_part(m) and "/c/" not in text_part(m)]
        assert {str(m["Subject"]) for m in thread} == {f"Visby #{game.id} — Alice, Bob, Carol"}
        root = thread[0]["Message-ID"]
        assert thread[0]["In-Reply-To"] is None and root.endswith("@localhost>")  # the sender's
        assert all(m["In-Reply-To"] == m["References"] == root for m in thread[1:])
    assert all(s.deadline is None for s in Seat.select())


def test_a_two_player_game_against_a_bot_from_the_mails_alone(smtp_ctx, smtp_server,
                                                             database):
    """The demo's path: every move comes from a link of the latest turn mail, never the
    seat page; in a two-card round both cards are chosen from one mail."""
    from pbem.lifecycle import create

    alice = player("alice@example.org", "Alice")
    create.create_game(smtp_ctx, "visby", alice, [None], seed=12)
    tick(smtp_ctx)
    browser = create_app(smtp_ctx).test_client()
    inbox = Inbox(smtp_server)
    rng = random.Random(3)
    handled: set[str] = set()
    most_from_one_mail = 0
    while not inbox.of("alice@example.org", " with "):
        mail = inbox.last_turn("alice@example.org", handled)
        assert mail is not None, "the game waits, but no turn mail asks Alice to move"
        handled.add(mail["Message-ID"])
        links = [p for p in paths_in(text_part(mail)) if p.startswith("/m/")]
        rng.shuffle(links)
        played = 0
        for link in links:
            confirm = browser.get(link)
            if confirm.status_code != 200:  # that choice was the other card, or is gone
                assert confirm.status_code in (409, 410), confirm.text
                continue
            [form] = [f for f in forms_in(confirm.text) if f.action == link]
            assert _follow(browser, post_form(browser, form)).status_code == 200
            played += 1
            tick(smtp_ctx)
            if inbox.last_turn("alice@example.org", handled) is not None:
                break  # the turn is over and the next one has its own mail
        assert played >= 1, "no link of the turn mail could be played"
        most_from_one_mail = max(most_from_one_mail, played)
        assert len(handled) < 300, "the game does not end"
    assert most_from_one_mail >= 2  # two cards a round, from one mail
    game = Game.get()
    assert game.status == Game.FINISHED
    assert replay(game_record(game)) == game.state
    assert not Move.select().where(Move.game == game, Move.kind == Move.TIMEOUT).exists()
