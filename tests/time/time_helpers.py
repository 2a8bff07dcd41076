"""Helpers for the time tests: players in Tokyo, Berlin and Los Angeles, a tick driver.

``Sim`` drives ``tick`` with freezegun the way the scheduler would, but
without running 4,000 empty ticks for three days: after each tick it jumps to
the next instant anything is due (a reminder, a deadline, a mail's
``not_before``, the end of a vacation), so every mail is sent at the minute
it becomes due, exactly as a tick every minute would send it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from email.message import EmailMessage

import peewee as pw

from pbem.context import Context
from pbem.games import get_game
from pbem.lifecycle import create, moves
from pbem.mail import flowed
from pbem.models import Game, Outbox, Player, Seat, utcnow
from pbem.time import quiet, scheduler

VISBY = get_game("visby")
TOKYO, BERLIN, LA = "Asia/Tokyo", "Europe/Berlin", "America/Los_Angeles"
#: asyncio (aiosmtpd's loop) keeps real time, or its timers would stand still
REAL_TIME_FOR = ["asyncio", "aiosmtpd"]


@dataclass
class Sent:
    at: datetime
    to: str
    subject: str
    kind: str
    text: str

    @property
    def says(self) -> str:
        """What the mail is: a game's mails share the game's subject and say it in their
        body's first line."""
        return self.text.splitlines()[0] if self.text else ""


@dataclass
class Recorder:
    """A transport that keeps what it is given, with the (frozen) time it was sent."""

    sent: list[Sent] = field(default_factory=list)

    def send(self, message: EmailMessage) -> None:
        row = Outbox.get(Outbox.message_id == message["Message-ID"])
        body = flowed.text_of(message.get_body(preferencelist=("plain",)))
        self.sent.append(Sent(utcnow(), row.to_address, str(message["Subject"]), row.kind, body))

    def to(self, email: str, kind: str | None = None) -> list[Sent]:
        return [m for m in self.sent if m.to == email and (kind is None or m.kind == kind)]


class Sim:
    def __init__(self, ctx: Context, frozen) -> None:
        self.ctx = ctx
        self.frozen = frozen
        self.mail = Recorder()
        self.ticks = 0

    @property
    def now(self) -> datetime:
        return utcnow()

    def at(self, when: datetime) -> None:
        self.frozen.move_to(when)

    def tick(self) -> dict:
        self.ticks += 1
        return scheduler.tick(self.ctx, utcnow(), transport=self.mail)

    def next_due(self) -> datetime | None:
        now = self.now
        candidates = [
            Seat.select(pw.fn.MIN(Seat.remind_at)).scalar(),
            Seat.select(pw.fn.MIN(Seat.deadline)).join(Game)
            .where(Game.status == Game.ACTIVE).scalar(),
            Outbox.select(pw.fn.MIN(Outbox.not_before))
            .where(Outbox.sent_at.is_null(), Outbox.failed_at.is_null()).scalar(),
            Outbox.select(pw.fn.MIN(Outbox.claimed_until))
            .where(Outbox.sent_at.is_null(), Outbox.claimed_until.is_null(False)).scalar(),
            Player.select(pw.fn.MIN(Player.vacation_until)).scalar(),
        ]
        due = [c for c in candidates if c is not None]
        if not due:
            return None
        nxt = min(due)
        return nxt if nxt > now else now + timedelta(minutes=1)

    def run_until(self, end: datetime, on_tick=None) -> None:
        """Tick now and at every due instant up to ``end``, then at ``end``."""
        for _ in range(5000):
            self.tick()
            if on_tick is not None:
                on_tick(self)
            nxt = self.next_due()
            if nxt is None or nxt > end:
                break
            self.at(nxt)
        else:
            raise AssertionError("the simulation did not come to rest")
        if self.now < end:
            self.at(end)
            self.tick()
            if on_tick is not None:
                on_tick(self)


def player(email: str, name: str, tz: str, **fields) -> Player:
    return create.get_or_create_player(email, name, timezone=tz, **fields)


def three_zones() -> list[Player]:
    return [player("aiko@example.jp", "Aiko", TOKYO), player("bernd@example.de", "Bernd", BERLIN),
            player("lucy@example.com", "Lucy", LA)]


def table(ctx: Context, players: list[Player], clock_policy: dict | None = None,
          seed: int = 7) -> Game:
    """A running Visby game with ``players`` on seats 0.. (invitations accepted)."""
    host, *others = players
    game = create.create_game(ctx, "visby", host, [p.email for p in others],
                               clock_policy=clock_policy, seed=seed)
    for index, p in enumerate(others, start=1):
        create.accept_invite(ctx, game, Seat.get(Seat.game == game, Seat.index == index), p)
    return Game.get_by_id(game.id)


def seat(game: Game, index: int) -> Seat:
    return Seat.get(Seat.game == game, Seat.index == index)


def fresh(game: Game) -> Game:
    return Game.get_by_id(game.id)


def move_first(ctx: Context, game: Game, index: int) -> None:
    """The seat plays the first move of its menu, as a player clicking a link."""
    game = fresh(game)
    s = seat(game, index)
    moves.play(ctx, game.id, index, VISBY.legal_moves(game.state, index)[0],
                 menu_seq=s.menu_seq)


def is_quiet_for(p: Player, when: datetime) -> bool:
    return quiet.is_quiet(when, p.timezone, p.quiet_start, p.quiet_end)


def utc(text: str) -> datetime:
    return datetime.fromisoformat(text)
