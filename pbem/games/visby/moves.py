"""Visby's moves as small values: parsed once from their notation, printed back to it.

``play <Karte>`` chooses a card, ``trade <waren>:<siegel>`` trades at a Markt rate,
``done`` ends a merchant's trading.  The notation is what the log, the links and game
records carry; rules, menu and sentences work with these values.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from pbem.games.protocol import PLAY, Log, MalformedMoveError, Use
from pbem.games.visby.data import KARTEN

_CARD_BY_LOWER = {k.lower(): k for k in KARTEN}


@dataclass(frozen=True)
class Play:
    """Choose ``karte`` (secretly) for this round."""

    karte: str

    def notation(self) -> str:
        return f"play {self.karte}"


@dataclass(frozen=True)
class Trade:
    """Trade ``waren`` goods for ``siegel`` seals at the Markt."""

    waren: int
    siegel: int

    def notation(self) -> str:
        return f"trade {self.waren}:{self.siegel}"


@dataclass(frozen=True)
class Done:
    """Stop trading this round."""

    def notation(self) -> str:
        return "done"


Move = Play | Trade | Done
DONE = Done()
#: each card's move, made once: the rules list a hand's moves at every question (a move
#: is a frozen value, so every list may hold the same one)
PLAYS: dict[str, Play] = {k: Play(k) for k in KARTEN}


def parse(text: str) -> Move:
    """The move written ``text``; ``MalformedMoveError`` if it is no Visby move."""
    return _parsed(text) if type(text) is str else read(text)


# a click's move is parsed by its POST, its ``apply`` and each ``describe``: what was
# read is kept by the text (a move is a frozen value, the same one for every reader)
@functools.lru_cache(maxsize=1024)
def _parsed(text: str) -> Move:
    return read(text)


def read(text: str) -> Move:
    """``parse`` read from the text."""
    parts = str(text).split()
    if not parts:
        raise MalformedMoveError("empty move")
    verb = parts[0].lower()
    if verb == "play" and len(parts) == 2:
        card = _CARD_BY_LOWER.get(parts[1].lower())
        if card is None:
            raise MalformedMoveError(
                f"Visby has no card {parts[1]!r}; the cards are {', '.join(KARTEN)}"
            )
        return PLAYS[card]
    if verb == "trade" and len(parts) == 2:
        rate = parts[1].split(":")
        if len(rate) == 2 and all(p.isdigit() for p in rate):
            waren, siegel = int(rate[0]), int(rate[1])
            if waren > 0 and siegel > 0:
                return Trade(waren, siegel)
        raise MalformedMoveError(f"a trade is written like 'trade 3:2', not {text!r}")
    if verb == DONE.notation() and len(parts) == 1:
        return DONE
    raise MalformedMoveError(
        f"{text!r} is not a Visby move; moves are 'play <card>', 'trade <goods>:<seals>' "
        "and 'done'"
    )


def uses(log: Log) -> list[Use]:
    """Each card a seat played (``play <Karte>``), for the archive's statistics."""
    out = []
    for seat, text in log:
        move = parse(text)
        if isinstance(move, Play):
            out.append(Use(seat, PLAY, move.karte))
    return out


def start_seat(log: Log) -> int | None:
    """Nobody: every round begins with all seats choosing their cards at once."""
    return None
