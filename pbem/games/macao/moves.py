"""Macao's moves as small values: parsed once from their notation, printed back to it.

The notation is what the log, the links and game records carry (``take A7``, ``one r``,
``die b``, ``district 12``, ``use B3 2``...; the list is in ``rules``); rules, menu,
sentences and the bot work with these values.  Numbers are written as the menu writes
them (``district 12``, never ``district 012``), so that a value and its notation are
one to one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pbem.games.macao import data
from pbem.games.protocol import MalformedMoveError

_NUMBER = re.compile(r"0|[1-9][0-9]*")
_SEA = frozenset(f for edge in data.SEA_EDGES for f in edge)
#: the action menu's groups, as ``show <group> <page>`` names them
GROUPS = ("activate", "city", "wall", "ship", "tribute", "use", "joker")
JOKER_USES = ("gold", "cube", "mixed")


@dataclass(frozen=True)
class Take:
    """Take ``card`` from the display (draft and card phase)."""

    card: str

    def notation(self) -> str:
        return f"take {self.card}"


@dataclass(frozen=True)
class Discard:
    """Discard ``card`` from a tableau of six, for a Strafmarker (R 1.4)."""

    card: str

    def notation(self) -> str:
        return f"discard {self.card}"


@dataclass(frozen=True)
class Skip:
    """Take no card this round (Müßiggänger)."""

    def notation(self) -> str:
        return "skip"


@dataclass(frozen=True)
class One:
    """A start cube of ``colour`` on the wind rose's 1-field."""

    colour: str

    def notation(self) -> str:
        return f"one {self.colour}"


@dataclass(frozen=True)
class Two:
    """Two start cubes of ``colour`` on the wind rose's 2-field."""

    colour: str

    def notation(self) -> str:
        return f"two {self.colour}"


@dataclass(frozen=True)
class Die:
    """Take the die of ``colour`` (twice a round)."""

    colour: str

    def notation(self) -> str:
        return f"die {self.colour}"


@dataclass(frozen=True)
class Activate:
    """Activate ``card`` of the tableau with cubes of the action supply."""

    card: str

    def notation(self) -> str:
        return f"activate {self.card}"


@dataclass(frozen=True)
class District:
    """Take the city's district ``number``."""

    number: int

    def notation(self) -> str:
        return f"district {self.number}"


@dataclass(frozen=True)
class Row:
    """Narrow a long district menu to the city's row ``row`` (from 0)."""

    row: int

    def notation(self) -> str:
        return f"row {self.row}"


@dataclass(frozen=True)
class Wall:
    """Advance ``fields`` fields on the wall."""

    fields: int

    def notation(self) -> str:
        return f"wall {self.fields}"


@dataclass(frozen=True)
class Sail:
    """Move the ship one field on, to ``field``."""

    field: str

    def notation(self) -> str:
        return f"sail {self.field}"


@dataclass(frozen=True)
class Deliver:
    """Deliver the goods the harbour takes (R 3.4)."""

    def notation(self) -> str:
        return "deliver"


@dataclass(frozen=True)
class Tribute:
    """Buy prestige at the Tributleiste (R 3.5)."""

    def notation(self) -> str:
        return "tribute"


@dataclass(frozen=True)
class Use:
    """Use the activated ``card``; ``times`` for a card that converts any multiple
    (``None``: the plain use, written without a number)."""

    card: str
    times: int | None = None

    def notation(self) -> str:
        return f"use {self.card}" if self.times is None else f"use {self.card} {self.times}"


@dataclass(frozen=True)
class Joker:
    """Spend a joker for ``what``: "gold", "cube" or "mixed" (with a Gaukler)."""

    what: str

    def notation(self) -> str:
        return f"joker {self.what}"


@dataclass(frozen=True)
class Pay:
    """Pay one cube of ``colour`` towards the open step."""

    colour: str

    def notation(self) -> str:
        return f"pay {self.colour}"


@dataclass(frozen=True)
class Gain:
    """Take one cube of ``colour`` of the open step."""

    colour: str

    def notation(self) -> str:
        return f"gain {self.colour}"


@dataclass(frozen=True)
class Give:
    """Give one cube of ``colour`` for 1 PP (a card of ``colours_pp``)."""

    colour: str

    def notation(self) -> str:
        return f"give {self.colour}"


@dataclass(frozen=True)
class Show:
    """Show page ``page`` of the action menu's group ``group``."""

    group: str
    page: int

    def notation(self) -> str:
        return f"show {self.group} {self.page}"


@dataclass(frozen=True)
class Done:
    """Give no more cubes."""

    def notation(self) -> str:
        return "done"


@dataclass(frozen=True)
class Back:
    """Back from a row or a page of the menu to the whole action menu."""

    def notation(self) -> str:
        return "back"


@dataclass(frozen=True)
class End:
    """End the turn of the action phase (unused cubes are lost, R 3.7)."""

    def notation(self) -> str:
        return "end"


Move = (Take | Discard | Skip | One | Two | Die | Activate | District | Row | Wall | Sail
        | Deliver | Tribute | Use | Joker | Pay | Gain | Give | Show | Done | Back | End)
SKIP, DELIVER, TRIBUTE, DONE, BACK, END = Skip(), Deliver(), Tribute(), Done(), Back(), End()

_BARE: dict[str, Move] = {m.notation(): m for m in (SKIP, DELIVER, TRIBUTE, DONE, BACK, END)}
_CARD = {"take": Take, "discard": Discard, "activate": Activate}
_COLOUR = {"one": One, "two": Two, "die": Die, "pay": Pay, "gain": Gain, "give": Give}
_NUMBERED = {"district": District, "row": Row, "wall": Wall}


def _number(word: str, text: str) -> int:
    if not _NUMBER.fullmatch(word):
        raise MalformedMoveError(f"{text!r}: {word!r} is not a number")
    return int(word)


def _card(word: str, text: str) -> str:
    if word not in data.CARDS:
        raise MalformedMoveError(f"{text!r}: Macao has no card {word!r}")
    return word


def _one_argument(verb: str, arg: str, text: str) -> Move:
    if verb in _CARD:
        return _CARD[verb](_card(arg, text))
    if verb in _COLOUR and arg in data.COLOURS:
        return _COLOUR[verb](arg)
    if verb in _NUMBERED:
        return _NUMBERED[verb](_number(arg, text))
    if verb == "sail" and arg in _SEA:
        return Sail(arg)
    if verb == "use":
        return Use(_card(arg, text))
    if verb == "joker" and arg in JOKER_USES:
        return Joker(arg)
    raise MalformedMoveError(f"{text!r} is not a Macao move")


def parse(text: str) -> Move:
    """The move written ``text``; ``MalformedMoveError`` if it is no Macao move."""
    words = str(text).split()
    if not words:
        raise MalformedMoveError("an empty move")
    if len(words) == 1 and words[0] in _BARE:
        return _BARE[words[0]]
    if len(words) == 2:
        return _one_argument(words[0], words[1], text)
    if len(words) == 3 and words[0] == "use":
        return Use(_card(words[1], text), _number(words[2], text))
    if len(words) == 3 and words[0] == "show" and words[1] in GROUPS:
        return Show(words[1], _number(words[2], text))
    raise MalformedMoveError(f"{text!r} is not a Macao move")
