"""The time zones a player can choose (the IANA names this machine knows)."""

from __future__ import annotations

from functools import cache


@cache
def timezones() -> tuple[str, ...]:
    from zoneinfo import available_timezones

    names = {z for z in available_timezones() if "/" in z and not z.startswith(
        ("Etc/", "SystemV/", "posix/", "right/"))}
    return ("UTC", *sorted(names))
