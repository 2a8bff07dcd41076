"""Quiet hours: when a player's local clock says night, our mail waits for morning.

Every function takes and returns naive UTC datetimes (the form every stored time
has) and works on the player's local wall clock in between, so a quiet night
that spans a DST change still starts and ends at the local hours the player
chose.
"""

from __future__ import annotations

from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

UTC = ZoneInfo("UTC")


def parse_hhmm(text: str) -> time:
    hours, _, minutes = text.partition(":")
    return time(int(hours), int(minutes or 0))


def zone(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return UTC


def to_local(when_utc: datetime, tz: str) -> datetime:
    """A naive UTC time as an aware local time in ``tz``."""
    return when_utc.replace(tzinfo=UTC).astimezone(zone(tz))


def from_local(day: date, at: time, tz: str) -> datetime:
    """The naive UTC instant of local wall time ``at`` on ``day`` in ``tz``.

    A wall time that does not exist (skipped by a DST change) resolves the way
    zoneinfo resolves it (fold=0), an hour off at worst, never an error.
    """
    local = datetime.combine(day, at).replace(tzinfo=zone(tz))
    return local.astimezone(UTC).replace(tzinfo=None)


def _in_window(t: time, start: time, end: time) -> bool:
    if start == end:
        return False
    if start < end:
        return start <= t < end
    return t >= start or t < end  # the window crosses midnight


def is_quiet(now_utc: datetime, tz: str, start: str, end: str) -> bool:
    return _in_window(to_local(now_utc, tz).time(), parse_hhmm(start), parse_hhmm(end))


def deliverable_at(now_utc: datetime, tz: str, start: str, end: str) -> datetime:
    """``now_utc`` if it is outside quiet hours, else the (naive UTC) end of them."""
    if not is_quiet(now_utc, tz, start, end):
        return now_utc
    return next_local_time(now_utc, tz, end)


def next_local_time(now_utc: datetime, tz: str, at: str) -> datetime:
    """The next (naive UTC) moment strictly after ``now_utc`` when the local clock shows ``at``."""
    local = to_local(now_utc, tz)
    at_t = parse_hhmm(at)
    day = local.date()
    for _ in range(3):
        candidate = from_local(day, at_t, tz)
        if candidate > now_utc:
            return candidate
        day += timedelta(days=1)
    raise AssertionError("unreachable: a local time recurs every day")


def quiet_began_at(when_utc: datetime, tz: str, start: str, end: str) -> datetime | None:
    """The (naive UTC) start of the quiet hours ``when_utc`` lies in; ``None`` outside them."""
    if not is_quiet(when_utc, tz, start, end):
        return None
    local = to_local(when_utc, tz)
    start_t = parse_hhmm(start)
    day = local.date()
    for _ in range(3):
        candidate = from_local(day, start_t, tz)
        if candidate <= when_utc:
            return candidate
        day -= timedelta(days=1)
    raise AssertionError("unreachable: a local time recurs every day")
