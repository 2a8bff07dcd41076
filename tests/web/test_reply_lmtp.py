"""Whole games played by replies alone, through the LMTP listener (``pbem.cli.lmtp``): the
mails a real SMTP server received are answered by LMTP, as a mail server would hand on
the replies; the tick delivers the next mails."""

from __future__ import annotations

import random
import re
import smtplib
from collections.abc import Iterator
from email.message import EmailMessage
from typing import Any

import pytest
from web_helpers import free_port, player, text_part

from pbem.cli.lmtp import controller
from pbem.context import Context, make_context
from pbem.gamelog.records import replay
from pbem.games import get_game
from pbem.lifecycle import create
from pbem.lifecycle.records import game_record
from pbem.models import Game, Inbound, Move, Seat
from pbem.time.scheduler import tick

PEOPLE = {"alice@example.org": "Alice", "bob@example.org": "Bob"}
_NUMBERED = re.compile(r"^  (\d+)\. ", re.M)


@pytest.fixture
def reply_ctx(tmp_path, smtp_server: Any) -> Context:
    return make_context(
        server={"instance": str(tmp_path / "instance"), "base_url": "http://pbem.test"},
        mail={"transport": "smtp", "smtp_host": smtp_server.host,
              "smtp_port": str(smtp_server.port)},
        # a whole game answers many replies within the hour
        inbound={"answers_per_hour": "100000", "lmtp_port": str(free_port())},
    )


@pytest.fixture
def listener(reply_ctx: Context) -> Iterator[tuple[str, int]]:
    lmtp = controller(reply_ctx)
    lmtp.start()
    try:
        yield lmtp.hostname, lmtp.port
    finally:
        lmtp.stop()


class Player:
    """One player's mailbox: the mails that can be answered, each answered once."""

    def __init__(self, sink: Any, address: str, listener: tuple[str, int], seed: int):
        self.sink, self.address, self.listener = sink, address, listener
        self.answered: set[str] = set()
        self.rng = random.Random(seed)
        self.sent = 0

    def open_mail(self) -> EmailMessage | None:
        """The newest mail with a Reply-To that asks for a choice, if not answered yet."""
        for msg in reversed(self.sink.to(self.address)):
            if msg["Reply-To"] and ("your move" in text_part(msg).partition("\n")[0]
                                    or "Your choices now" in text_part(msg)):
                return None if msg["Message-ID"] in self.answered else msg
        return None

    def answer(self, msg: EmailMessage, game: Game) -> None:
        self.answered.add(msg["Message-ID"])
        numbers = _NUMBERED.findall(text_part(msg).split("Or answer this mail")[0]
                                    .split("Your seat,")[0])
        if numbers:
            line = self.rng.choice(numbers)
        else:  # a long menu: the mail names its groups; a reply names a choice's notation
            rules = get_game(game.game)
            index = next(s.index for s in Seat.of(game) if s.player.email == self.address)
            line = self.rng.choice(rules.legal_moves(game.state, index))
        reply = EmailMessage()
        reply["From"] = self.address
        reply["To"] = str(msg["Reply-To"])
        reply["Subject"] = f"Re: {msg['Subject']}"
        reply["Message-ID"] = f"<r{len(self.answered)}.{self.address}>"
        reply["In-Reply-To"] = msg["Message-ID"]
        quoted = "\n".join("> " + x for x in text_part(msg).splitlines())
        reply.set_content(f"{line}\n\nOn Thu, 26 Nov 2026, pbem wrote:\n{quoted}\n",
                          cte="quoted-printable")
        with smtplib.LMTP(*self.listener) as lmtp:
            lmtp.send_message(reply)
        self.sent += 1


def _table(ctx: Context, name: str, seed: str) -> Game:
    alice, bob = (player(a, n) for a, n in PEOPLE.items())
    game = create.create_game(ctx, name, alice, [bob.email], seed=seed)
    create.accept_invite(ctx, game, Seat.get(Seat.game == game, Seat.index == 1), bob)
    tick(ctx)
    return Game.get_by_id(game.id)


def _humans() -> int:
    return Move.select().where(Move.kind == Move.PLAYER).count()


def test_a_whole_tallinn_game_by_replies_through_lmtp(reply_ctx, smtp_server, listener,
                                                      database):
    game = _table(reply_ctx, "tallinn", "reply-1")
    players = [Player(smtp_server, a, listener, i) for i, a in enumerate(PEOPLE)]
    while Game.get_by_id(game.id).status == Game.ACTIVE:
        game = Game.get_by_id(game.id)
        waiting = [(p, m) for p in players if (m := p.open_mail()) is not None]
        assert waiting, "the game waits, but no mail asks anyone to choose"
        person, mail = waiting[0]
        person.answer(mail, game)
        tick(reply_ctx)
        assert sum(p.sent for p in players) < 1500, "the game does not end"
    game = Game.get_by_id(game.id)
    assert replay(game_record(game)) == game.state
    # every move of a person came from a reply, and each reply was recorded once
    assert _humans() > 20
    assert Inbound.select().count() == sum(p.sent for p in players)
    assert Inbound.select().where(Inbound.outcome == "played").count() == _humans()
    for address in PEOPLE:
        assert any(" wins with " in text_part(m) or " share the win " in text_part(m)
                   for m in smtp_server.to(address))


def _whole_turns_of_several_steps() -> list[tuple[int, int]]:
    """(seat, turn) of the turns that ended after two or more steps of a person."""
    rows = list(Move.select().where(Move.kind == Move.PLAYER).order_by(Move.seq))
    ended = {(m.seat, m.turn_seq) for m in rows if m.turn_end}
    counts: dict[tuple[int, int], int] = {}
    for m in rows:
        counts[(m.seat, m.turn_seq)] = counts.get((m.seat, m.turn_seq), 0) + 1
    return [turn for turn, n in counts.items() if n >= 2 and turn in ended]


def test_a_whole_riga_turn_by_replies_through_lmtp(reply_ctx, smtp_server, listener,
                                                   database):
    """Replies until a turn of several steps (the reply's answer lists the next step's
    choices) has been played to its end."""
    game = _table(reply_ctx, "riga", "reply-2")
    players = [Player(smtp_server, a, listener, i) for i, a in enumerate(PEOPLE)]
    while not _whole_turns_of_several_steps():
        waiting = [(p, m) for p in players if (m := p.open_mail()) is not None]
        assert waiting, "the game waits, but no mail asks anyone to choose"
        person, mail = waiting[0]
        person.answer(mail, Game.get_by_id(game.id))
        tick(reply_ctx)
        assert sum(p.sent for p in players) < 80, "no turn of several steps"
    assert Inbound.select().where(Inbound.outcome == "played").count() == _humans()
    assert _humans() == sum(p.sent for p in players)
