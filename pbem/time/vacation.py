"""Vacation: a player's clocks stand still while they are away.

Each player has ``[vacation] days_per_year`` days (14 by default), accrued
monthly: a twelfth at the start of each month of their local calendar year,
so by March a player has 3 of 14 days.  ``Player.vacation_days_used`` counts
the days of ``Player.vacation_year``; a new year starts from nothing used.

Taking vacation moves every running turn of the player by the vacation's
length (``clock.shift``): the deadline and the reminders move with it, a turn
that starts meanwhile starts when they are back (``clock.start_turn``), and
their tables are told.  Coming back early gives back the whole days not used
and moves the clocks back.  The tick clears a vacation that has ended and
notes the return in the log of each game.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from pbem.context import Context
from pbem.i18n import Phrase, gettext, phrase
from pbem.lifecycle import moves
from pbem.models import Game, Player, Seat, lock_row, write_transaction
from pbem.sqlcache import Prepared
from pbem.time import clock, quiet, steps

DAY = timedelta(days=1)


@dataclass(frozen=True)
class Allowance:
    per_year: int
    accrued: int
    used: int

    @property
    def available(self) -> int:
        return max(0, self.accrued - self.used)


def allowance(ctx: Context, player: Player, now: datetime) -> Allowance:
    """The player's vacation days at ``now``, by their local calendar."""
    per_year = ctx.config.getint("vacation", "days_per_year")
    local = quiet.to_local(now, player.timezone)
    accrued = per_year * local.month // 12
    used = player.vacation_days_used if player.vacation_year == local.year else 0
    return Allowance(per_year=per_year, accrued=accrued, used=used)


def on_vacation(player: Player, now: datetime) -> bool:
    return clock.stopped_until(player, now) is not None


def _lock_player(player_id: int) -> Player:
    player = lock_row(Player, player_id)
    if player is None:
        raise moves.PlayError("no-player", gettext("There is no such player."))
    return player


def start(ctx: Context, player_id: int, days: int, now: datetime) -> datetime:
    """Begin ``days`` days of vacation now; returns when it ends."""
    with write_transaction():
        player = _lock_player(player_id)
        if on_vacation(player, now):
            raise moves.PlayError("on-vacation", gettext("You are on vacation already; come "
                                                           "back first to take a different "
                                                           "one."))
        have = allowance(ctx, player, now)
        if not 1 <= days <= have.available:
            raise moves.PlayError(
                "no-days", gettext("You can take 1 to %(most)s days of vacation now "
                                   "(%(accrued)s accrued this year, %(used)s used).",
                                   most=have.available, accrued=have.accrued, used=have.used)
                if have.available else gettext("You have no vacation days left this year."))
        until = now + days * DAY
        local = quiet.to_local(now, player.timezone)
        (Player.update(vacation_until=until, vacation_days_used=have.used + days,
                       vacation_year=local.year)
         .where(Player.id == player.id).execute())
        line = (phrase("{seat} is on vacation for 1 day: their clock stands still until they "
                       "are back") if days == 1 else
                phrase("{seat} is on vacation for {days} days: their clock stands still until "
                       "they are back", days=days))
        _move_clocks(ctx, player.id, until - now, now, line,
                     phrase("{name} is on vacation", name=player.name))
        return until


def end(ctx: Context, player_id: int, now: datetime) -> None:
    """Come back early: the whole days not used are given back, the clocks run again."""
    with write_transaction():
        player = _lock_player(player_id)
        until = clock.stopped_until(player, now)
        if until is None:
            raise moves.PlayError("not-on-vacation", gettext("You are not on vacation."))
        unused = (until - now) // DAY
        local_year = quiet.to_local(now, player.timezone).year
        used = player.vacation_days_used
        if player.vacation_year == local_year:
            used = max(0, used - unused)
        (Player.update(vacation_until=None, vacation_days_used=used)
         .where(Player.id == player.id).execute())
        _move_clocks(ctx, player.id, now - until, now,
                     phrase("{seat} is back from vacation early: their clock runs again"),
                     phrase("{name} is back", name=player.name))


def _move_clocks(ctx: Context, player_id: int, delta: timedelta, now: datetime,
                 line: Phrase, subject: Phrase) -> None:
    """Move the player's running turns by ``delta`` and tell each of their tables
    (``line`` names the player's seat by its ``{seat}`` field, said in each reader's
    language)."""
    games = (Game.select(Game.id).join(Seat)
             .where(Seat.player == player_id, Game.status == Game.ACTIVE, ~Seat.bot)
             .order_by(Game.id).distinct())
    for row in list(games):
        game = lock_row(Game, row.id)
        seats = Seat.of(game)
        for seat in seats:
            if seat.player_id == player_id and seat.deadline is not None:
                clock.shift(game.clock, seat, delta)
                seat.save()
        index = next(s.index for s in seats if s.player_id == player_id)
        text = Phrase(line.english, {**line.values, "seat": f"{{{index}}}"})
        steps.note(game, index, text)
        steps.tell_table(ctx, game, seats, text, subject, now, end=".")


#: players whose vacation is over (built once, as ``timeouts.due``'s)
_DUE = Prepared(Player, lambda now, limit: (
    Player.select(Player.id).where(Player.vacation_until <= now)
    .order_by(Player.vacation_until, Player.id).limit(limit)), 2, dates=(0,))


def due_returns(now: datetime, limit: int = steps.BATCH) -> list[int]:
    return [row.id for row in _DUE.rows(now, limit)]


def finish_due(ctx: Context, now: datetime) -> int:
    return steps.each("vacations", due_returns(now), lambda pid: finish_one(ctx, pid, now))


def finish_one(ctx: Context, player_id: int, now: datetime) -> bool:
    """A vacation has ended: clear it and note the return in each game's log."""
    with write_transaction():
        player = Player.get_or_none(Player.id == player_id)
        if player is None or player.vacation_until is None or player.vacation_until > now:
            return False
        claimed = (Player.update(vacation_until=None)
                   .where(Player.id == player.id, Player.vacation_until == player.vacation_until)
                   .execute())
        if claimed != 1:
            raise steps.Lost(player_id)
        seats = (Seat.select(Seat, Game).join(Game)
                 .where(Seat.player == player.id, Game.status == Game.ACTIVE, ~Seat.bot))
        for seat in seats:
            steps.note(seat.game, seat.index,
                       phrase("{seat} is back from vacation: their clock runs again",
                              seat=f"{{{seat.index}}}"))
        return True
