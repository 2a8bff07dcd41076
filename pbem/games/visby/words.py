"""Visby's own words in German: sentences of moves, the plain-text view, the
lines the resolution of a round writes.

The state keeps what a round did in English (``state["events"]``: the state is
the same for every reader, and snapshots of running games hold those lines);
:func:`event` reads each line the rules write in German, and a line it does not
know stays English.  Card and track names stay as printed (German) in both
languages.  ``menu`` has the German of the menus.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from pbem.games.visby.menu import _goods, _lang, _seals

__all__ = ["event", "goods", "lang_of", "seals"]

lang_of = _lang


def seals(n: int) -> str:
    """``1 Siegel``, ``2 Siegel``."""
    return _seals(n, "de")


def goods(n: int) -> str:
    """``1 Ware``, ``2 Waren``."""
    return _goods(n, "de")


#: "from the track" in German, by track
_FROM_TRACK = {"Feldzug": "vom Feldzug", "Handelsfahrt": "von der Handelsfahrt"}

_N = r"(\d+) (?:seals?|goods?)"
_LOST = r"(?: \((\d+) lost above 15\))?"


def _lost(n: str | None) -> str:
    return f" ({n} über 15 verfallen)" if n else ""


def _reveals(m: re.Match[str]) -> str:
    cards = m.group(2).split(" and ")
    listed = ", ".join(cards[:-1]) + " und " + cards[-1] if len(cards) > 1 else cards[0]
    return f"{m.group(1)} deckt {listed} auf"


def _takes(m: re.Match[str]) -> str:
    card, who, n, noun, track, lost = m.groups()
    amount = seals(int(n)) if noun.startswith("seal") else goods(int(n))
    return f"{card}: {who} nimmt {amount} {_FROM_TRACK.get(track, track)}{_lost(lost)}"


#: each line the rules write (``rules._event``) and its German
_EVENTS: list[tuple[re.Pattern[str], Callable[[re.Match[str]], str]]] = [
    (re.compile(r"(\{\d+\}) reveals (.+)"), _reveals),
    (re.compile(r"(\w+): (\{\d+\}) takes (\d+) (seals?|goods?) from (\w+)" + _LOST),
     _takes),
    (re.compile(r"Schmied: (\{\d+\}) gets (\d+) goods? from the supply" + _LOST),
     lambda m: f"Schmied: {m[1]} erhält {goods(int(m[2]))} aus dem Vorrat{_lost(m[3])}"),
    (re.compile(r"Zöllner: (\{\d+\}) gets (\d+) seals? from the supply"),
     lambda m: f"Zöllner: {m[1]} erhält {seals(int(m[2]))} aus dem Vorrat"),
    (re.compile(r"Kaufmann: the purse stands on field (\d+) \(rate (.+)\)"),
     lambda m: (f"Kaufmann: der Geldbeutel steht auf Feld {m[1]} "
                f"(Kurs {'keiner' if m[2] == 'none' else m[2]})")),
    (re.compile(r"Bettelmönch: (\{\d+\}) gets (\d+) goods?" + _LOST
                + r" and takes the discard pile back"),
     lambda m: (f"Bettelmönch: {m[1]} erhält {goods(int(m[2]))}{_lost(m[3])} und nimmt "
                "den Ablagestapel zurück")),
    (re.compile(r"Someone has (\d+) seals or more: the game ends"),
     lambda m: f"Jemand hat {m[1]} Siegel oder mehr: das Spiel endet"),
]


def event(line: str, lang: str = "de") -> str:
    """A line of ``state["events"]`` in ``lang`` (unchanged in English, and where the
    line is not one the rules write)."""
    if _lang(lang) != "de":
        return line
    for pattern, german in _EVENTS:
        m = pattern.fullmatch(line)
        if m:
            return german(m)
    return line
