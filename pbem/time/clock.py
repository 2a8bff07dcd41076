"""Clock policies: how long a seat has for a move, and the deadline columns.

A policy is a small JSON dict stored with the game when it is created:

* ``{"kind": "per_move", "days": 3}``: every turn gets the same time;
* ``{"kind": "bank", "initial_days": 7, "bonus_days": 1}``: a chess clock;
  each turn adds the bonus to the seat's bank and spends what it uses.

Both also carry the reminder points and the timeout ladder:

* ``reminders``: ``["50%", "24h"]`` — when half of the turn's time is gone, and
  24 hours before the deadline;
* ``grace_hours``: after the deadline, how long until the default move;
* ``timeouts_before_bot``: after that many timeouts in a row a bot takes the
  seat; ``after_timeouts`` says whether the owner can reclaim it (``"bot"``)
  or has left the game (``"drop"``).

Deadlines are columns on the seat (``deadline``, ``remind_at``), so the
scheduler finds due work with an indexed query.  Every time is naive UTC; a
deadline is the start plus so many seconds, whatever the local clocks do.
While a player is on vacation their clock stands still: a turn that starts
then starts when they are back, and a running turn is moved by the length of
the vacation (``shift``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, fields
from datetime import datetime, timedelta
from typing import Any

from pbem.games.protocol import OptionError
from pbem.i18n import format_number, gettext, ngettext
from pbem.time import quiet

DAY = 86_400
HOUR = 3_600
#: a reminder that would fall inside quiet hours goes out this long before they begin
QUIET_LEAD = timedelta(hours=1)
#: two reminder points closer than this are one reminder
MERGE_WITHIN = timedelta(hours=1)

_POINT = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(%|h)\s*$")


def parse_point(spec: str | int | float) -> tuple[str, float]:
    """``"50%"`` → ``("elapsed", 0.5)``; ``"24h"`` (or a bare number) → ``("left", 86400)``."""
    if isinstance(spec, int | float):
        return "left", float(spec) * HOUR
    match = _POINT.match(str(spec))
    if not match:
        raise OptionError(f"a reminder point is like '50%' or '24h', not {spec!r}")
    value, unit = float(match.group(1)), match.group(2)
    if unit == "%":
        if not 0 < value < 100:
            raise OptionError("a reminder at a share of the turn is between 1% and 99%")
        return "elapsed", value / 100
    if not 0 < value <= 60 * 24:
        raise OptionError("a reminder is at most 60 days before the deadline")
    return "left", value * HOUR


#: a new time bank's clock where its creator does not say otherwise
BANK_DEFAULTS = {"initial_days": 7, "bonus_days": 1}


def resolve_policy(ctx: Any, given: dict[str, Any] | None) -> dict[str, Any]:
    """The game's clock from the defaults in ``[clock]`` and what its creator chose."""
    cfg = ctx.config
    policy: dict[str, Any] = {
        "kind": "per_move",
        "days": cfg.getint("clock", "days_per_move"),
        "reminders": [p.strip() for p in cfg.get("clock", "reminders").split(",") if p.strip()],
        "grace_hours": float(cfg.get("clock", "grace_hours")),
        "timeouts_before_bot": cfg.getint("clock", "timeouts_before_bot"),
        "after_timeouts": cfg.get("clock", "after_timeouts").strip(),
    }
    policy.update(given or {})
    if policy["kind"] not in ("per_move", "bank"):
        raise OptionError("a clock is 'per_move' or 'bank'")
    if policy["kind"] == "bank":
        for key, value in BANK_DEFAULTS.items():
            policy.setdefault(key, value)
        if not 1 <= float(policy["initial_days"]) <= 90:
            raise OptionError(gettext("a time bank starts with 1 to 90 days"))
        if not 0 <= float(policy["bonus_days"]) <= 30:
            raise OptionError(gettext("a time bank's bonus is 0 to 30 days per move"))
    elif not 1 <= float(policy["days"]) <= 60:
        raise OptionError(gettext("days per move must be between 1 and 60"))
    if isinstance(policy["reminders"], str):
        policy["reminders"] = [p.strip() for p in policy["reminders"].split(",") if p.strip()]
    for point in policy["reminders"]:
        parse_point(point)
    if not 0 <= float(policy["grace_hours"]) <= 7 * 24:
        raise OptionError(gettext("a grace period is 0 to 168 hours"))
    if float(policy["timeouts_before_bot"]) != int(policy["timeouts_before_bot"]) or not (
            1 <= int(policy["timeouts_before_bot"]) <= 50):
        raise OptionError(gettext("a bot takes over after 1 to 50 timeouts in a row"))
    if policy["after_timeouts"] not in ("bot", "drop"):
        raise OptionError("after repeated timeouts a seat goes to a 'bot' or is 'drop'ped")
    return policy


@dataclass(frozen=True)
class ClockPolicy:
    """A game's clock as a value: read from what the game stored (``Game.clock``, a dict,
    see :func:`resolve_policy`) by :meth:`of`, whose defaults are those of a game stored
    before a setting existed.  Its methods return times and words; none changes a seat.
    """

    kind: str
    #: per_move: the days of every turn; bank: the first turn's days and each turn's bonus
    days: Any = None
    initial_days: Any = BANK_DEFAULTS["initial_days"]
    bonus_days: Any = BANK_DEFAULTS["bonus_days"]
    reminders: tuple[str, ...] = ("24h",)
    grace_hours: float = 12.0
    timeouts_before_bot: int = 3
    after_timeouts: str = "bot"

    @classmethod
    def of(cls, stored: Mapping[str, Any] | ClockPolicy) -> ClockPolicy:
        if isinstance(stored, ClockPolicy):
            return stored
        reminders = (stored["reminders"] if "reminders" in stored
                     else [f"{h}h" for h in stored.get("reminders_hours", [24])])
        given = {f.name: stored[f.name] for f in fields(cls)
                 if f.name in stored and f.name not in ("reminders", "grace_hours",
                                                        "timeouts_before_bot")}
        return cls(**{"kind": "per_move", **given}, reminders=tuple(reminders),
                   grace_hours=float(stored.get("grace_hours", cls.grace_hours)),
                   timeouts_before_bot=int(stored.get("timeouts_before_bot",
                                                      cls.timeouts_before_bot)))

    @property
    def bank(self) -> bool:
        return self.kind == "bank"

    def grace(self) -> timedelta:
        return timedelta(hours=self.grace_hours)

    def drops(self) -> bool:
        return self.after_timeouts == "drop"

    def turn_seconds(self, bank_seconds: int | None) -> int:
        """Seconds for a turn that starts now; of a bank, what it holds then (its first
        days, or what it kept plus the bonus): the seat's new ``bank_seconds``."""
        if self.bank:
            if bank_seconds is None:
                return int(float(self.initial_days) * DAY)
            return bank_seconds + int(float(self.bonus_days) * DAY)
        return int(float(self.days) * DAY)

    def reminder_times(self, started: datetime, deadline: datetime,
                       player: Any) -> list[datetime]:
        """When the seat is reminded during a turn from ``started`` to ``deadline``, in order.

        Each point of the policy is placed in the turn; one that falls inside the
        player's quiet hours moves to an hour before they begin, and is dropped
        when that is not after the turn's start (the turn mail itself arrives when
        the quiet hours end).  Points closer than an hour are one reminder.
        """
        length = deadline - started
        times = []
        for spec in self.reminders:
            kind, value = parse_point(spec)
            at = started + length * value if kind == "elapsed" else deadline - timedelta(
                seconds=value)
            if not started < at < deadline:
                continue
            if player is not None:
                began = quiet.quiet_began_at(at, player.timezone, player.quiet_start,
                                             player.quiet_end)
                if began is not None:
                    at = began - QUIET_LEAD
                    if at <= started:
                        continue
            times.append(at)
        merged: list[datetime] = []
        for at in sorted(times):
            if not merged or at - merged[-1] >= MERGE_WITHIN:
                merged.append(at)
        return merged

    def next_reminder(self, seat: Any, player: Any, sent: int | None = None) -> datetime | None:
        """The seat's next reminder once ``sent`` (its ``reminders_sent``) have gone."""
        if seat.deadline is None or seat.deadline_started is None or seat.in_grace:
            return None
        times = self.reminder_times(seat.deadline_started, seat.deadline, player)
        sent = seat.reminders_sent if sent is None else sent
        return times[sent] if sent < len(times) else None

    def reminders_due(self, seat: Any, player: Any, now: datetime) -> int:
        """How many reminder points of the running turn lie at or before ``now``."""
        times = self.reminder_times(seat.deadline_started, seat.deadline, player)
        return sum(1 for at in times if at <= now)


Policy = Mapping[str, Any] | ClockPolicy


def grace(policy: Policy) -> timedelta:
    return ClockPolicy.of(policy).grace()


def timeouts_before_bot(policy: Policy) -> int:
    return ClockPolicy.of(policy).timeouts_before_bot


def drops(policy: Policy) -> bool:
    return ClockPolicy.of(policy).drops()


# -- turns -------------------------------------------------------------------------


def turn_seconds(policy: Policy, seat: Any) -> int:
    """Seconds the seat has for the turn that starts now (a bank gets its bonus here)."""
    value = ClockPolicy.of(policy)
    seconds = value.turn_seconds(seat.bank_seconds)
    if value.bank:
        seat.bank_seconds = seconds
    return seconds


def player_of(seat: Any) -> Any:
    return seat.player if seat.player_id is not None else None


def stopped_until(player: Any, now: datetime) -> datetime | None:
    """When the player's clocks start again, if they are on vacation at ``now``."""
    if player is not None and player.vacation_until is not None and player.vacation_until > now:
        return player.vacation_until
    return None


def _clock_from(player: Any, now: datetime) -> datetime:
    return max(now, stopped_until(player, now) or now)


def start_turn(game: Any, seat: Any, now: datetime) -> None:
    """The seat must act from ``now``: set its deadline and its first reminder.

    A bot has no clock.  A step of a turn already running changes nothing.  A
    player on vacation gets the turn's full time from the day they are back.
    """
    if seat.bot:
        stop(seat)
        return
    if seat.deadline is not None and seat.deadline_started is not None:
        # still the same turn (a step of it was played): the clock keeps running
        return
    player = player_of(seat)
    start = _clock_from(player, now)
    seat.deadline_started = start
    seat.deadline = start + timedelta(seconds=turn_seconds(game.clock, seat))
    seat.reminders_sent = 0
    seat.in_grace = False
    schedule_reminder(game.clock, seat, player)


def end_turn(game: Any, seat: Any, now: datetime) -> None:
    """The seat has nothing more to do: stop its clock, charging a bank for the time used.

    The bank keeps what was left: time spent on vacation is not charged, and a
    seat that ran into its grace period has nothing left.
    """
    if ClockPolicy.of(game.clock).bank and seat.deadline is not None:
        if seat.in_grace:
            seat.bank_seconds = 0
        else:
            left = seat.deadline - _clock_from(player_of(seat), now)
            seat.bank_seconds = max(0, min(int(left.total_seconds()), seat.bank_seconds or 0))
    stop(seat)


_SNAPSHOT_TIMES = ("deadline", "deadline_started", "remind_at")
_SNAPSHOT_VALUES = ("reminders_sent", "in_grace", "bank_seconds")


def snapshot(seat: Any) -> dict[str, Any]:
    """The seat's running clock as plain values, to :func:`restore` it later."""
    taken: dict[str, Any] = {}
    for name in _SNAPSHOT_TIMES:
        value = getattr(seat, name)
        taken[name] = value.isoformat() if value is not None else None
    for name in _SNAPSHOT_VALUES:
        taken[name] = getattr(seat, name)
    return taken


def restore(seat: Any, taken: dict[str, Any]) -> None:
    """Put back a clock :func:`snapshot` took: the turn goes on where it stood.

    A deadline that passed meanwhile stays passed: the next tick treats it as it
    would have treated the turn, so taking a move back buys no time.
    """
    for name in _SNAPSHOT_TIMES:
        value = taken.get(name)
        setattr(seat, name, datetime.fromisoformat(value) if value else None)
    for name in _SNAPSHOT_VALUES:
        if name in taken:
            setattr(seat, name, taken[name])


def stop(seat: Any) -> None:
    seat.deadline = None
    seat.deadline_started = None
    seat.remind_at = None
    seat.in_grace = False


def shift(policy: dict[str, Any], seat: Any, delta: timedelta) -> None:
    """Move a running turn by ``delta`` (a vacation began, was extended or ended early)."""
    if seat.deadline is None:
        return
    seat.deadline += delta
    if seat.deadline_started is not None:
        seat.deadline_started += delta
    if not seat.in_grace:
        schedule_reminder(policy, seat, player_of(seat))


def remaining(seat: Any, now: datetime) -> timedelta | None:
    """Time the seat has left on its clock (stopped during a vacation); None without a clock."""
    if seat.deadline is None:
        return None
    return max(timedelta(0), seat.deadline - _clock_from(player_of(seat), now))


# -- reminders ------------------------------------------------------------------


def reminder_times(policy: Policy, started: datetime, deadline: datetime,
                   player: Any) -> list[datetime]:
    return ClockPolicy.of(policy).reminder_times(started, deadline, player)


def next_reminder(policy: Policy, seat: Any, player: Any,
                  sent: int | None = None) -> datetime | None:
    return ClockPolicy.of(policy).next_reminder(seat, player, sent)


def schedule_reminder(policy: Policy, seat: Any, player: Any) -> None:
    """Set ``seat.remind_at`` to its next reminder (a turn starts or moves)."""
    seat.remind_at = next_reminder(policy, seat, player)


def reminders_due(policy: Policy, seat: Any, player: Any, now: datetime) -> int:
    return ClockPolicy.of(policy).reminders_due(seat, player, now)


# -- words -------------------------------------------------------------------------


def format_duration(delta: timedelta) -> str:
    """'2 days 5 hours', '5 hours 10 minutes', '10 minutes': the two largest units, in the
    language being written (``pbem.i18n``)."""
    minutes = int(delta.total_seconds()) // 60
    days, rest = divmod(minutes, 24 * 60)
    hours, minutes = divmod(rest, 60)
    parts = [(days, ngettext("%(num)d day", "%(num)d days", days)),
             (hours, ngettext("%(num)d hour", "%(num)d hours", hours)),
             (minutes, ngettext("%(num)d minute", "%(num)d minutes", minutes))]
    words = [said for n, said in parts if n]
    if not words:
        return gettext("less than a minute")
    first = next(i for i, (n, _said) in enumerate(parts) if n)
    return " ".join(words[:2]) if first < 2 and parts[first + 1][0] else words[0]


def _days(value: Any) -> str:
    return format_number(float(f"{float(value):g}"))


def describe_policy(policy: Policy) -> str:
    """The clock in one sentence, for pages and mails (in the language being written)."""
    value = ClockPolicy.of(policy)
    if value.bank:
        return ngettext("a time bank of %(initial)s day plus %(bonus)s per move",
                        "a time bank of %(initial)s days plus %(bonus)s per move",
                        _plural(value.initial_days), initial=_days(value.initial_days),
                        bonus=_days(value.bonus_days))
    return ngettext("%(days)s day per move", "%(days)s days per move", _plural(value.days),
                    days=_days(value.days))


def _plural(days: Any) -> int:
    """The count gettext chooses the form by: one day is "1 day", half a day "0.5 days"."""
    return 1 if float(days) == 1 else 2


def describe_ladder(policy: Policy) -> str:
    """What happens when a seat does not move in time, plainly (in the language being
    written)."""
    value = ClockPolicy.of(policy)
    hours, n = value.grace_hours, value.timeouts_before_bot
    if value.drops():
        after = gettext("a bot plays the seat to the end")
    else:
        after = gettext("a bot takes the seat until its owner takes it back with their link")
    timeouts = (gettext("timeout") if n == 1
                else gettext("%(n)s timeouts in a row", n=n))
    if hours:
        return gettext("When the time is up, everyone is told and a grace period of %(hours)s "
                       "hours begins, then the game's default move is played for the seat; "
                       "after %(timeouts)s, %(after)s.", hours=_days(hours),
                       timeouts=timeouts, after=after)
    return gettext("When the time is up, the game's default move is played for the seat; "
                   "after %(timeouts)s, %(after)s.", timeouts=timeouts, after=after)
