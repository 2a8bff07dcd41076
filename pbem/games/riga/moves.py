"""Riga's moves as small values: parsed once from their notation, printed back to it.

The notation is what the log, the links and game records carry (``take set 2``,
``build Kran-Visby``, ``pay Tuch``, ``end``); rules, menu, sentences and the bot work
with these values.  A building is named by its id (``Kran-Visby``, a Riga building by
its art, ``Kloster``), a commodity by its code (``Tuch``), a set and a seat by their
number from 1 in the notation and from 0 in the value.

A large decision is split into steps (``menu <group>``, ``more``, ``back``): those are
moves too (``Menu``, ``More``, ``Back``), so that every step fits in a mail.
"""

from __future__ import annotations

from dataclasses import dataclass

from pbem.games import protocol
from pbem.games.protocol import BUILD, TAKE, Log, MalformedMoveError


@dataclass(frozen=True)
class Start:
    """Name ``seat`` the start player."""

    seat: int

    def notation(self) -> str:
        return f"start {self.seat + 1}"


@dataclass(frozen=True)
class Keep:
    """Keep ``building``, one of the two drawn at setup."""

    building: str

    def notation(self) -> str:
        return f"keep {self.building}"


@dataclass(frozen=True)
class Take:
    """Take ``building`` from the row."""

    building: str

    def notation(self) -> str:
        return f"take {self.building}"


@dataclass(frozen=True)
class TakeSet:
    """Take the commodity set ``index``."""

    index: int

    def notation(self) -> str:
        return f"take set {self.index + 1}"


@dataclass(frozen=True)
class Kloster:
    """Begin the Kloster's swap."""

    def notation(self) -> str:
        return "kloster"


@dataclass(frozen=True)
class SwapFrom:
    """The Kloster's swap takes a card of the set ``index``."""

    index: int

    def notation(self) -> str:
        return f"from {self.index + 1}"


@dataclass(frozen=True)
class Give:
    """The Kloster's swap gives ``ware`` of the first set."""

    ware: str

    def notation(self) -> str:
        return f"give {self.ware}"


@dataclass(frozen=True)
class SwapTo:
    """The Kloster's swap exchanges with the set ``index``."""

    index: int

    def notation(self) -> str:
        return f"to {self.index + 1}"


@dataclass(frozen=True)
class Get:
    """The Kloster's swap gets ``ware`` of the second set."""

    ware: str

    def notation(self) -> str:
        return f"get {self.ware}"


@dataclass(frozen=True)
class Use:
    """Use a building's function: its ``art`` (``Kontor``, ``Bauhof``…)."""

    art: str

    def notation(self) -> str:
        return f"use {self.art}"


@dataclass(frozen=True)
class Choose:
    """Keep ``card`` of a Bauhof or Schatzkammer draw; ``None``: keep none (Bauhof)."""

    card: str | None

    def notation(self) -> str:
        return f"choose {'none' if self.card is None else self.card}"


@dataclass(frozen=True)
class Build:
    """Begin a building project with ``building`` from the hand (or face down)."""

    building: str

    def notation(self) -> str:
        return f"build {self.building}"


@dataclass(frozen=True)
class Add:
    """Add ``building`` of the same city to the project."""

    building: str

    def notation(self) -> str:
        return f"add {self.building}"


@dataclass(frozen=True)
class Pay:
    """Pay one card of ``ware`` towards the project."""

    ware: str

    def notation(self) -> str:
        return f"pay {self.ware}"


@dataclass(frozen=True)
class Finish:
    """Erect the project's buildings: the payment is complete."""

    def notation(self) -> str:
        return "finish"


@dataclass(frozen=True)
class Cancel:
    """Cancel the project (or the Wechselstube's charge)."""

    def notation(self) -> str:
        return "cancel"


@dataclass(frozen=True)
class School:
    """Turn the Schule to ``face`` (``Ritter`` or ``Kaufmann``)."""

    face: str

    def notation(self) -> str:
        return f"school {self.face}"


@dataclass(frozen=True)
class Charge:
    """Begin to charge the Wechselstube."""

    def notation(self) -> str:
        return "charge"


@dataclass(frozen=True)
class Discard:
    """Discard ``card`` (a commodity or a building) in winter or to charge."""

    card: str

    def notation(self) -> str:
        return f"discard {self.card}"


@dataclass(frozen=True)
class End:
    """End the turn."""

    def notation(self) -> str:
        return "end"


@dataclass(frozen=True)
class Menu:
    """Open the smaller menu of ``group`` (a city, ``row``, ``functions``…)."""

    group: str

    def notation(self) -> str:
        return f"menu {self.group}"


@dataclass(frozen=True)
class More:
    """The next page of a smaller menu."""

    def notation(self) -> str:
        return "more"


@dataclass(frozen=True)
class Back:
    """Back to the previous choices (or out of the Kloster's swap)."""

    def notation(self) -> str:
        return "back"


Move = (Start | Keep | Take | TakeSet | Kloster | SwapFrom | Give | SwapTo | Get | Use
        | Choose | Build | Add | Pay | Finish | Cancel | School | Charge | Discard | End
        | Menu | More | Back)

KLOSTER, FINISH, CANCEL, CHARGE, END = Kloster(), Finish(), Cancel(), Charge(), End()
MORE, BACK = More(), Back()

#: the moves without an argument, by their notation
_BARE: dict[str, Move] = {m.notation(): m for m in (KLOSTER, FINISH, CANCEL, CHARGE, END,
                                                       MORE, BACK)}
#: the moves with one word: a building, a commodity or an art
_NAMED: dict[str, type[Keep | Take | Give | Get | Use | Build | Add | Pay | School
                       | Discard]] = {
    "keep": Keep, "take": Take, "give": Give, "get": Get, "use": Use, "build": Build,
    "add": Add, "pay": Pay, "school": School, "discard": Discard,
}
#: the moves with a number from 1
_NUMBERED: dict[str, type[Start | SwapFrom | SwapTo]] = {
    "start": Start, "from": SwapFrom, "to": SwapTo}

_EXAMPLES = "like 'take set 1', 'build Kran-Visby', 'pay Tuch', 'end'"


def _number(text: str, word: str) -> int:
    if not word.isdigit():
        raise MalformedMoveError(f"{text!r}: {word!r} is not a number from 1")
    return int(word) - 1


def parse(text: str) -> Move:
    """The move written ``text``; ``MalformedMoveError`` if it is no Riga move."""
    words = str(text).split()
    if not words:
        raise MalformedMoveError(f"{text!r} is not a Riga move ({_EXAMPLES})")
    verb, args = words[0], words[1:]
    if verb in _BARE and not args:
        return _BARE[verb]
    if verb == "take" and args[:1] == ["set"] and len(args) == 2:
        return TakeSet(_number(text, args[1]))
    if verb == "take" and args[:1] == ["set"]:
        raise MalformedMoveError(f"{text!r}: a set is taken as 'take set <number>'")
    if verb == "menu" and args:
        return Menu(" ".join(args))
    if verb == "choose" and len(args) == 1:
        return Choose(None if args[0] == "none" else args[0])
    if verb in _NAMED and len(args) == 1:
        return _NAMED[verb](args[0])
    if verb in _NUMBERED and len(args) == 1:
        return _NUMBERED[verb](_number(text, args[0]))
    raise MalformedMoveError(f"{text!r} is not a Riga move ({_EXAMPLES})")


def uses(log: Log) -> list[protocol.Use]:
    """Each building a seat took (``take``, or ``keep`` at setup) and built: a project
    begun with ``build`` and grown with ``add`` is built when its ``finish`` comes, and
    not when it is cancelled."""
    out: list[protocol.Use] = []
    project: dict[int, list[str]] = {}
    for seat, text in log:
        move = parse(text)
        if isinstance(move, Take | Keep):
            out.append(protocol.Use(seat, TAKE, move.building))
        elif isinstance(move, Build):
            project[seat] = [move.building]
        elif isinstance(move, Add):
            project.setdefault(seat, []).append(move.building)
        elif isinstance(move, Finish):
            out += [protocol.Use(seat, BUILD, building) for building in project.pop(seat, [])]
        elif isinstance(move, Cancel):
            project.pop(seat, None)
    return out


def start_seat(log: Log) -> int | None:
    """The seat a ``start`` move named (the start player of the first year)."""
    return next((move.seat for move in map(parse, (text for _seat, text in log))
                 if isinstance(move, Start)), None)
