"""The contract every game implements (see DESIGN.md, "The game contract").

A game is a pure, deterministic state machine.  The server, the mails, the
scheduler and the archive only ever talk to a game through this interface, so
none of them knows which game it is running.

Conventions shared by every game:

* A **state** is a plain JSON-serialisable ``dict``.  It carries everything,
  including the seed and the draw counter of its random generator, so a
  snapshot plus the move log is the whole truth.
* A **move** is its own stable text notation (a short ``str`` such as
  ``"play Ritter"``).  Mails, links, the move log and game records all carry
  the notation; there is no second representation to keep in sync.
* **Seats** are numbered from 0.  Texts meant for people (``describe``, events
  in a view) name seats by ``str.format`` placeholders ``{0}``, ``{1}``…, which
  the caller fills with display names, escaped for the medium it writes to.
* ``apply`` never mutates its input; an illegal move raises a ``MoveError``
  subclass whose message says what is wrong, and the caller's state is
  untouched.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any

State = dict[str, Any]
View = dict[str, Any]

#: Pass as ``seat`` to :meth:`Game.view` to see everything (the archive, after
#: the game is over).
EVERYTHING = -1
#: Pass as ``seat`` to :meth:`Game.view` for a spectator who sits at no seat.
SPECTATOR = None


class MoveError(ValueError):
    """A move that cannot be applied; the message says why."""


class MalformedMoveError(MoveError):
    """The text is not a move of this game at all (bad notation)."""


class IllegalMoveError(MoveError):
    """A well-formed move that is not allowed in this state or for this seat."""


class OptionError(ValueError):
    """Setup was asked for an option value or player count the game does not have."""


@dataclass(frozen=True)
class Option:
    """One setup option a rulebook offers (a variant, a game length)."""

    name: str
    label: str
    choices: tuple[Any, ...]
    default: Any
    help: str = ""


@dataclass(frozen=True)
class Result:
    """Final standing of a finished game.

    ``scores`` is the headline number per seat (victory points, seals…);
    ``tiebreaks`` the rulebook's tie-breaker values per seat, in the order the
    rulebook applies them; ``ranks`` the placing per seat (1 = winner, equal
    numbers for a shared place); ``winners`` the seats ranked 1.
    """

    scores: list[int]
    ranks: list[int]
    winners: list[int]
    tiebreaks: list[list[int]] = field(default_factory=list)
    tiebreak_names: list[str] = field(default_factory=list)
    details: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "scores": self.scores,
            "ranks": self.ranks,
            "winners": self.winners,
            "tiebreaks": self.tiebreaks,
            "tiebreak_names": self.tiebreak_names,
            "details": self.details,
        }


def rank_by(keys: list[tuple[int, ...]]) -> list[int]:
    """Competition ranking (1, 2, 2, 4) of seats by descending key tuples."""
    return [1 + sum(1 for other in keys if other > mine) for mine in keys]


class Rules(ABC):
    """Static facts about one game plus the pure functions over its states."""

    #: registry key and URL part, e.g. ``"visby"``
    name: str
    #: printed title
    title: str
    min_players: int
    max_players: int
    #: bump when a rules change could make an old move log replay differently
    rules_version: str
    #: version of the card/board data file (see the game's ``data`` module)
    data_version: str = "1"
    options: tuple[Option, ...] = ()
    #: a paragraph for the lobby and the archive, including what data is
    #: reconstructed rather than printed
    description: str = ""
    #: Jinja template (under ``templates/``) that renders a view on a page
    template: str = ""
    #: what :meth:`default_move` plays, in a sentence for the people choosing a clock
    default_move_note: str = ""

    # -- setup and turn order -------------------------------------------------

    def resolve_options(self, options: dict[str, Any] | None, players: int) -> dict[str, Any]:
        """Fill defaults and refuse unknown options or values, with a message."""
        if not self.min_players <= players <= self.max_players:
            raise OptionError(
                f"{self.title} is for {self.min_players} to {self.max_players} players, "
                f"not {players}"
            )
        given = dict(options or {})
        known = {o.name: o for o in self.options}
        unknown = sorted(set(given) - set(known))
        if unknown:
            raise OptionError(f"{self.title} has no option {', '.join(unknown)}")
        resolved = {}
        for opt in self.options:
            value = given.get(opt.name, opt.default)
            if value not in opt.choices:
                raise OptionError(
                    f"option {opt.name} of {self.title} must be one of "
                    f"{', '.join(map(str, opt.choices))}, not {value!r}"
                )
            resolved[opt.name] = value
        return resolved

    @abstractmethod
    def setup(self, players: int, options: dict[str, Any] | None, seed: int) -> State:
        """The state before the first move."""

    @abstractmethod
    def to_move(self, state: State) -> list[int]:
        """Seats that must act now: one, several (secret simultaneous choices), none when over."""

    @abstractmethod
    def legal_moves(self, state: State, seat: int) -> list[str]:
        """A short menu of moves in notation; empty when ``seat`` is not to move."""

    @abstractmethod
    def apply(self, state: State, seat: int, move: str) -> State:
        """The state after ``seat`` plays ``move``; raises ``MoveError`` if it cannot."""

    @abstractmethod
    def is_over(self, state: State) -> bool:
        """Whether the game has ended."""

    @abstractmethod
    def result(self, state: State) -> Result:
        """Final scores with the rulebook's tie-breakers (only when over)."""

    @abstractmethod
    def scores(self, state: State) -> list[int]:
        """The running score per seat, for charts; equals ``result().scores`` at the end."""

    def round(self, state: State) -> int:
        """The round (Durchgang, year…) the game is in, for grouping moves."""
        return int(state.get("round", 1))

    # -- information -------------------------------------------------------

    @abstractmethod
    def view(self, state: State, seat: int | None) -> View:
        """What ``seat`` may see; ``SPECTATOR`` for the public, ``EVERYTHING`` for the archive."""

    @abstractmethod
    def render_text(self, view: View, names: list[str]) -> str:
        """A view as plain text for a mail (names already fit for plain text)."""

    @abstractmethod
    def describe(self, state: State, seat: int, move: str, viewer: int | None) -> str:
        """A sentence for ``move`` by ``seat`` played in ``state``, as ``viewer`` may read it.

        Uses ``{0}``… placeholders for seats.  A secret choice reads as such to
        anyone but its author and ``EVERYTHING``.
        """

    # -- server support ----------------------------------------------------

    @abstractmethod
    def default_move(self, state: State, seat: int) -> str:
        """The documented move played for ``seat`` when its clock runs out."""

    @abstractmethod
    def is_commit_point(self, before: State, seat: int, move: str, after: State) -> bool:
        """Whether this move makes the earlier steps of ``seat`` (and all before it) final.

        True when the seat's turn ended for good, or hidden information was
        revealed (cards drawn, secret choices opened).  The server offers
        "take back" only for moves after the last commit point.
        """

    def parse(self, move: str) -> str:
        """Canonical notation of ``move`` (whitespace folded); games may override."""
        return " ".join(str(move).split())
