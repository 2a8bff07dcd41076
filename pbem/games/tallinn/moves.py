"""Tallinn's moves as small values: parsed once from their notation, printed back to it.

``play <card><half>`` chooses a hand card and its active half (``play 7a``, ``play La``
for the Legat), ``legat <Stand>`` names the estate of a Legat's contest, ``tower
<card>`` builds a tower from the display or the hand, ``no tower`` builds none.  The
notation is what the log, the links and game records carry; rules, menu, sentences and
the bot work with these values.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from pbem.games.protocol import BUILD, PLAY, Log, MalformedMoveError, Use
from pbem.games.tallinn import data

HALVES = ("a", "b")

_ESTATE_WORDS = {
    "k": "K", "kaufleute": "K", "kaufmann": "K", "merchants": "K", "merchant": "K",
    "r": "R", "ritter": "R", "knights": "R", "knight": "R",
    "m": "M", "mönche": "M", "moenche": "M", "monche": "M", "mönch": "M", "moench": "M",
    "monks": "M", "monk": "M",
}


@dataclass(frozen=True)
class Play:
    """Choose ``card`` from the hand with its half ``half`` ("a" or "b") active."""

    card: str
    half: str

    def notation(self) -> str:
        return f"play {self.card}{self.half}"


@dataclass(frozen=True)
class Legat:
    """The Legat's Wappen holds its contest for the estate ``stand`` ("K", "R", "M")."""

    stand: str

    def notation(self) -> str:
        return f"legat {data.STAND_NAME[self.stand]}"


@dataclass(frozen=True)
class Tower:
    """Build a tower from ``card`` (of the display or the hand)."""

    card: str

    def notation(self) -> str:
        return f"tower {self.card}"


@dataclass(frozen=True)
class NoTower:
    """Build no tower this round."""

    def notation(self) -> str:
        return "no tower"


Move = Play | Legat | Tower | NoTower
NO_TOWER = NoTower()


def _is_card(card: str) -> bool:
    return card in data.EINFLUSSKARTEN or card == data.LEGAT


def parse(text: str) -> Move:
    """The move written ``text``; ``MalformedMoveError`` if it is no Tallinn move."""
    if type(text) is not str:
        return _parse(text)
    return _parsed(data.SETS.active.version, text)


# a move is read again and again (a click parses it four times: its confirm page, the
# move, its sentences for two readers): kept by its text and the data version, which
# names the cards; a move is a frozen value, the same one for every reader
@functools.lru_cache(maxsize=1024)
def _parsed(_version: str, text: str) -> Move:
    return _parse(text)


def _parse(text: str) -> Move:
    parts = str(text).lower().split()
    if not parts:
        raise MalformedMoveError("empty move")
    verb = parts[0]
    if verb == "play" and len(parts) in (2, 3):
        joined = "".join(parts[1:])
        card, half = joined[:-1].upper(), joined[-1:]
        if half in HALVES and _is_card(card):
            return Play(card, half)
        raise MalformedMoveError(
            f"{text!r}: a card is played like 'play 7a' (card 1-10 or L, then half a or b)")
    if verb == "legat" and len(parts) == 2:
        code = _ESTATE_WORDS.get(parts[1])
        if code is None:
            raise MalformedMoveError(
                f"{parts[1]!r} is no estate; the estates are Kaufleute, Ritter and Mönche")
        return Legat(code)
    if verb == "tower" and len(parts) == 2:
        if _is_card(parts[1].upper()):
            return Tower(parts[1].upper())
        raise MalformedMoveError(
            f"{text!r}: a tower is 'tower <card>' (1-10 or L, from display or hand) or 'no tower'")
    if parts == ["no", "tower"]:
        return NO_TOWER
    raise MalformedMoveError(
        f"{text!r} is not a Tallinn move; moves are 'play <card><a|b>', 'legat <estate>', "
        "'tower <card>' and 'no tower'")


def card_name(card: str) -> str:
    """An influence card as the statistics name it: ``Legat``, ``Karte 7``."""
    return "Legat" if card == data.LEGAT else f"Karte {card}"


def uses(log: Log) -> list[Use]:
    """Each card a seat played (``play 7a``) and built as a tower (``tower 7``)."""
    out = []
    for seat, text in log:
        move = parse(text)
        if isinstance(move, Play):
            out.append(Use(seat, PLAY, card_name(move.card)))
        elif isinstance(move, Tower):
            out.append(Use(seat, BUILD, card_name(move.card)))
    return out


def start_seat(log: Log) -> int | None:
    """Nobody: every round begins with all seats choosing their cards at once."""
    return None
