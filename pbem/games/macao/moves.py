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

from pbem.games import protocol
from pbem.games.macao import data
from pbem.games.protocol import PLAY, TAKE, Log, MalformedMoveError

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


Cubes = tuple[tuple[str, int], ...]


def cubes_notation(cubes: Cubes) -> str:
    """``r:3,v:2`` (a count of one is not written: ``r``, ``r:3,v``)."""
    return ",".join(c if n == 1 else f"{c}:{n}" for c, n in cubes)


def cubes_count(cubes: Cubes) -> int:
    return sum(n for _, n in cubes)


def cubes_of(pool: dict[str, int]) -> Cubes:
    """A pool (colour -> cubes) as the value a move carries, colours in their order."""
    return tuple((c, pool[c]) for c in data.COLOURS if pool.get(c))


@dataclass(frozen=True)
class Pay:
    """Pay ``cubes`` (colour, count pairs, colours in ``data.COLOURS`` order) towards the
    open step: the whole payment, or a part of it where the ways to pay are too many for
    one menu.  ``pay r`` (one cube) is the notation of old logs, and means what it meant."""

    cubes: Cubes

    def notation(self) -> str:
        return f"pay {cubes_notation(self.cubes)}"


@dataclass(frozen=True)
class Gain:
    """Take ``cubes`` of the open step (``gain r``: one red cube)."""

    cubes: Cubes

    def notation(self) -> str:
        return f"gain {cubes_notation(self.cubes)}"


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


@dataclass(frozen=True)
class Finish:
    """End the turn after using every card that only gives prestige or gold and can be
    used now (``rules.free_uses``): the end of a turn as the menu offers it where there
    are such cards; ``end`` alone stays legal and means what it always meant."""

    def notation(self) -> str:
        return "finish"


@dataclass(frozen=True)
class With:
    """An action and the whole payment (or the cubes taken) it opens, in one move:
    ``wall 3 pay r:3,v:2``, ``sail Lisboa pay r``, ``tribute gain b``.  The menu offers it
    where the payment has one sensible way (``rules``: the cubes are chosen for the
    player); the action alone (``wall 3``) still opens the step it always opened."""

    action: District | Wall | Sail | Tribute | Use | Joker
    settle: Pay | Gain

    def notation(self) -> str:
        return f"{self.action.notation()} {self.settle.notation()}"


Move = (Take | Discard | Skip | One | Two | Die | Activate | District | Row | Wall | Sail
        | Deliver | Tribute | Use | Joker | Pay | Gain | Give | Show | Done | Back | End | Finish
        | With)
SKIP, DELIVER, TRIBUTE, DONE, BACK, END = Skip(), Deliver(), Tribute(), Done(), Back(), End()
FINISH = Finish()

_BARE: dict[str, Move] = {m.notation(): m
                          for m in (SKIP, DELIVER, TRIBUTE, DONE, BACK, END, FINISH)}
_CARD = {"take": Take, "discard": Discard, "activate": Activate}
_COLOUR = {"one": One, "two": Two, "die": Die, "give": Give}
_CUBES = {"pay": Pay, "gain": Gain}
_NUMBERED = {"district": District, "row": Row, "wall": Wall}
_PART = re.compile(r"([a-z])(?::([2-9]|[1-9][0-9]+))?")


def bare(move: Move) -> Move:
    """The action of a move that carries its payment (``wall 3`` of ``wall 3 pay r:5``)."""
    return move.action if isinstance(move, With) else move


def _number(word: str, text: str) -> int:
    if not _NUMBER.fullmatch(word):
        raise MalformedMoveError(f"{text!r}: {word!r} is not a number")
    return int(word)


def _card(word: str, text: str) -> str:
    if word not in data.CARDS:
        raise MalformedMoveError(f"{text!r}: Macao has no card {word!r}")
    return word


def _cubes(word: str, text: str) -> Cubes:
    """``r:3,v:2`` read back: colours in their order, each once, a count of one unwritten."""
    out: list[tuple[str, int]] = []
    for part in word.split(","):
        m = _PART.fullmatch(part)
        if not m or m.group(1) not in data.COLOURS:
            raise MalformedMoveError(f"{text!r}: {part!r} is not a colour and a count")
        out.append((m.group(1), int(m.group(2) or 1)))
    order = [data.COLOURS.index(c) for c, _ in out]
    if order != sorted(set(order)):
        raise MalformedMoveError(f"{text!r}: the colours go in the order "
                                 f"{','.join(data.COLOURS)}, each once")
    return tuple(out)


def _one_argument(verb: str, arg: str, text: str) -> Move:
    if verb in _CARD:
        return _CARD[verb](_card(arg, text))
    if verb in _COLOUR and arg in data.COLOURS:
        return _COLOUR[verb](arg)
    if verb in _CUBES:
        return _CUBES[verb](_cubes(arg, text))
    if verb in _NUMBERED:
        return _NUMBERED[verb](_number(arg, text))
    if verb == "sail" and arg in _SEA:
        return Sail(arg)
    if verb == "use":
        return Use(_card(arg, text))
    if verb == "joker" and arg in JOKER_USES:
        return Joker(arg)
    raise MalformedMoveError(f"{text!r} is not a Macao move")


def _simple(words: list[str], text: str) -> Move:
    if len(words) == 1 and words[0] in _BARE:
        return _BARE[words[0]]
    if len(words) == 2:
        return _one_argument(words[0], words[1], text)
    if len(words) == 3 and words[0] == "use":
        return Use(_card(words[1], text), _number(words[2], text))
    if len(words) == 3 and words[0] == "show" and words[1] in GROUPS:
        return Show(words[1], _number(words[2], text))
    raise MalformedMoveError(f"{text!r} is not a Macao move")


#: the actions that may carry their payment
_WITH = (District, Wall, Sail, Tribute, Use, Joker)


def parse(text: str) -> Move:
    """The move written ``text``; ``MalformedMoveError`` if it is no Macao move."""
    words = str(text).split()
    if not words:
        raise MalformedMoveError("an empty move")
    if len(words) >= 3 and words[-2] in _CUBES:
        action = _simple(words[:-2], text)
        if not isinstance(action, _WITH):
            raise MalformedMoveError(f"{text!r}: {action.notation()!r} pays nothing")
        settle = _CUBES[words[-2]](_cubes(words[-1], text))
        return With(action, settle)
    return _simple(words, text)


def card_name(card: str) -> str:
    """A card as the statistics name it: its printed name and its id (``Festung (A7)``),
    since several cards share a name."""
    known = data.CARDS.get(card)
    return f"{known.name} ({card})" if known is not None else card


def uses(log: Log) -> list[protocol.Use]:
    """Each card a seat took from the display (``take A7``) and each it activated,
    paying its cubes (``activate A7``, alone or with its payment)."""
    out = []
    for seat, text in log:
        move = parse(text)
        action = move.action if isinstance(move, With) else move
        if isinstance(action, Take):
            out.append(protocol.Use(seat, TAKE, card_name(action.card)))
        elif isinstance(action, Activate):
            out.append(protocol.Use(seat, PLAY, card_name(action.card)))
    return out


def start_seat(log: Log) -> int | None:
    """Nobody: the draft begins with every seat choosing at once, and the order of
    every later phase follows the wall."""
    return None
