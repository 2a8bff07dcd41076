"""Replies to pbem's mails, as mail clients write them, for the tests of play by reply."""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Callable
from email.message import EmailMessage
from typing import Any

from web_helpers import player, text_part

from pbem.context import Context
from pbem.games import get_game
from pbem.lifecycle import create
from pbem.models import Game, Move, Outbox, Seat
from pbem.time.scheduler import tick

PEOPLE = {"alice@example.org": "Alice", "bob@example.org": "Bob"}
_NUMBERED = re.compile(r"^  (\d+)\. ", re.M)

_COUNT = itertools.count(1)


def reply_to(mail: Outbox, body: str, sender: str | None = None,
             to: str | None = None, **headers: str) -> bytes:
    """A plain-text reply to ``mail`` from its recipient (or ``sender``) with ``body``
    above the quoted mail, as a client writes it."""
    msg = EmailMessage()
    msg["From"] = sender or mail.to_address
    msg["To"] = to or mail.reply_to
    if "Subject" not in headers:
        msg["Subject"] = f"Re: {mail.subject}"
    msg["Message-ID"] = f"<reply-{next(_COUNT)}@client.example>"
    msg["In-Reply-To"] = mail.message_id
    for name, value in headers.items():
        msg[name.replace("_", "-")] = value
    quoted = "\n".join(f"> {line}" for line in mail.text_body.splitlines())
    msg.set_content(f"{body}\n\nOn Thu, 26 Nov 2026 at 17:00, pbem <pbem@localhost> "
                    f"wrote:\n{quoted}\n")
    return bytes(msg)


class Player:
    """One player's mailbox: the mails that can be answered, each answered once."""

    def __init__(self, sink: Any, address: str, deliver: Callable[[EmailMessage], None],
                 seed: int):
        self.sink, self.address, self.deliver = sink, address, deliver
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
        self.deliver(reply)
        self.sent += 1


def start_table(ctx: Context, name: str, seed: str) -> Game:
    alice, bob = (player(a, n) for a, n in PEOPLE.items())
    game = create.create_game(ctx, name, alice, [bob.email], seed=seed)
    create.accept_invite(ctx, game, Seat.get(Seat.game == game, Seat.index == 1), bob)
    tick(ctx)
    return Game.get_by_id(game.id)


def humans() -> int:
    return Move.select().where(Move.kind == Move.PLAYER).count()


def play_by_replies(ctx: Context, game: Game, players: list[Player], cap: int) -> None:
    """Each in turn answers the newest mail that asks them to choose, until the game
    ends; the tick delivers the answers and the next turn mails."""
    while Game.get_by_id(game.id).status == Game.ACTIVE:
        game = Game.get_by_id(game.id)
        waiting = [(p, m) for p in players if (m := p.open_mail()) is not None]
        assert waiting, "the game waits, but no mail asks anyone to choose"
        person, mail = waiting[0]
        person.answer(mail, game)
        tick(ctx)
        assert sum(p.sent for p in players) < cap, "the game does not end"
