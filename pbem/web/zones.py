"""The time zones a player can choose: the canonical IANA names, one per place.

``zoneinfo.available_timezones()`` also lists some 180 old spellings and aliases
(``US/Eastern``, ``Asia/Calcutta``, ``Europe/Kiev``, ``GB``...), which made the list
long and offered two names for one zone.  The database's own ``zone.tab`` names each
zone of each country once, by its current name (Amsterdam and Oslo stay, which the
newer ``zone1970.tab`` folds into Brussels and Berlin); with ``UTC`` that is the list.
A name a player chose before keeps working (``is_zone``): the forms offer it too.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from pathlib import Path


def _zone_tab() -> str | None:
    """The text of ``zone.tab``: the ``tzdata`` package's, else the system's."""
    try:
        return resources.files("tzdata").joinpath("zoneinfo/zone.tab").read_text("utf-8")
    except (ModuleNotFoundError, OSError):
        pass
    from zoneinfo import TZPATH

    for folder in TZPATH:
        path = Path(folder) / "zone.tab"
        if path.is_file():
            return path.read_text("utf-8")
    return None


@cache
def _available() -> frozenset[str]:
    from zoneinfo import available_timezones

    return frozenset(z for z in available_timezones()
                     if not z.startswith(("posix/", "right/")))


@cache
def _places() -> frozenset[str]:
    """Every Area/Place name this machine knows, old spellings too (the list before)."""
    return frozenset(z for z in _available() if "/" in z and not z.startswith(("Etc/", "SystemV/")))


@cache
def timezones() -> tuple[str, ...]:
    """The zones the forms offer: ``UTC``, then the canonical names, sorted."""
    table = _zone_tab()
    if table is None:  # no zone.tab anywhere: every Area/Place name, as before
        names = set(_places())
    else:
        names = {line.split("\t")[2] for line in table.splitlines()
                 if line and not line.startswith("#")} & _available()
    return ("UTC", *sorted(names))


def is_zone(name: str) -> bool:
    """Whether ``name`` is a zone a player may keep: one of the list, or any other name
    this machine knows (an older spelling chosen before the list was shortened)."""
    return name in timezones() or name in _places()
