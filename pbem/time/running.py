"""A player's running clocks: every seat of theirs that has a deadline now.

The vacation page, the daily digest and the calendar feed all list them, each
in its own form; the query and the words for the time left live here once.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from pbem.i18n import current
from pbem.mail import compose
from pbem.models import Game, Player, Seat
from pbem.time import clock


@dataclass(frozen=True)
class RunningClock:
    seat: Seat
    title: str
    #: the deadline in the player's own time zone, as mails and pages show it
    deadline_local: str
    #: "2 days 5 hours"; empty when the seat has no clock
    left: str
    policy: str
    #: the deadline passed and the grace period runs
    grace: bool

    @property
    def game(self) -> Game:
        return self.seat.game


def running_clocks(player: Player, now: datetime) -> list[RunningClock]:
    """The player's seats with a deadline, in active games, soonest first (bots' seats not)."""
    seats = (Seat.select(Seat, Game).join(Game)
             .where(Seat.player == player.id, Game.status == Game.ACTIVE, ~Seat.bot,
                    Seat.deadline.is_null(False))
             .order_by(Seat.deadline))
    found = []
    for seat in seats:
        left = clock.remaining(seat, now)
        found.append(RunningClock(
            seat=seat, title=compose.game_title(seat.game),
            deadline_local=compose.format_local(seat.deadline, player.timezone, current()),
            left=clock.format_duration(left) if left is not None else "",
            policy=clock.describe_policy(seat.game.clock), grace=seat.in_grace))
    return found
