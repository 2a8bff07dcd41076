"""The open step of the seat to move (``state["pending"]``), as tagged values.

A step is a small frozen value; the state keeps it as plain JSON, a dict whose one
tagging key is the step's ``kind`` (``{"pay": 2}``, ``{"show": "use", "page": 1}``).
That key is the tag the states of running games and their snapshots have always
carried, so they read unchanged, and :func:`read` looks for the key, never at the
order of the keys (a state read back from the database has them sorted).  Values are
never changed in place: a step that moves on is a new value written back.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar


@dataclass(frozen=True)
class SecondCube:
    """Start: the 1-field's cube of ``colour`` is placed; the 2-field's come next."""

    kind: ClassVar[str] = "one"
    colour: str

    def json(self) -> dict[str, Any]:
        return {"one": self.colour}


@dataclass(frozen=True)
class SecondDie:
    """Dice: the die of ``colour`` is taken; a second die comes next."""

    kind: ClassVar[str] = "die"
    colour: str

    def json(self) -> dict[str, Any]:
        return {"die": self.colour}


@dataclass(frozen=True)
class MustDiscard:
    """Card phase: a sixth card is on the tableau; one must go (R 1.4)."""

    kind: ClassVar[str] = "discard"

    def json(self) -> dict[str, Any]:
        return {"discard": True}


@dataclass(frozen=True)
class Paying:
    """``cubes`` cubes of any colour still to pay, then ``gold`` gold to take (a
    card that converts cubes into gold)."""

    kind: ClassVar[str] = "pay"
    cubes: int
    gold: int | None = None

    def json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"pay": self.cubes}
        if self.gold is not None:
            out["then"] = {"gold": self.gold}
        return out


@dataclass(frozen=True)
class Gaining:
    """``cubes`` cubes of any colour still to take."""

    kind: ClassVar[str] = "gain"
    cubes: int

    def json(self) -> dict[str, Any]:
        return {"gain": self.cubes}


@dataclass(frozen=True)
class Giving:
    """Cubes of different colours to give for 1 PP each; ``given`` so far."""

    kind: ClassVar[str] = "give"
    given: tuple[str, ...] = ()

    def json(self) -> dict[str, Any]:
        return {"give": list(self.given)}


@dataclass(frozen=True)
class InRow:
    """The district menu narrowed to the city's row ``row``."""

    kind: ClassVar[str] = "row"
    row: int

    def json(self) -> dict[str, Any]:
        return {"row": self.row}


@dataclass(frozen=True)
class Showing:
    """Page ``page`` of the action menu's group ``group``."""

    kind: ClassVar[str] = "show"
    group: str
    page: int

    def json(self) -> dict[str, Any]:
        return {"show": self.group, "page": self.page}


Step = SecondCube | SecondDie | MustDiscard | Paying | Gaining | Giving | InRow | Showing
#: a step that only narrows the action menu: any other action leaves it
BROWSING = (InRow, Showing)


def _paying(raw: dict[str, Any]) -> Paying:
    then = raw.get("then")
    return Paying(raw["pay"], then["gold"] if then else None)


_READERS: dict[str, Any] = {
    "one": lambda raw: SecondCube(raw["one"]),
    "die": lambda raw: SecondDie(raw["die"]),
    "discard": lambda raw: MustDiscard(),
    "pay": _paying,
    "gain": lambda raw: Gaining(raw["gain"]),
    "give": lambda raw: Giving(tuple(raw["give"])),
    "row": lambda raw: InRow(raw["row"]),
    "show": lambda raw: Showing(raw["show"], raw["page"]),
}


def read(raw: dict[str, Any] | None) -> Step | None:
    """The step a state keeps as ``raw`` (``None``: no open step)."""
    if not raw:
        return None
    kind = next(k for k in _READERS if k in raw)
    return _READERS[kind](raw)


def write(step: Step | None) -> dict[str, Any] | None:
    """The JSON the state keeps for ``step``."""
    return None if step is None else step.json()
