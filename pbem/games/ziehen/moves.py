"""Ziehen's moves as small values: parsed once from their notation, printed back to it.

The notation ("step", "draw", "end") is what the log, the links and the game records
carry; everything inside the game (rules, menu, sentences) works with :class:`Move`
values, as python-chess works with ``chess.Move`` and its ``uci()``/``from_uci()``.
A game with several kinds of move has one small frozen class per kind (Visby: ``Play``,
``Trade``, ``Done``) and one :func:`parse` that returns the right one.
"""

from __future__ import annotations

from dataclasses import dataclass

from pbem.games.protocol import TAKE, Log, MalformedMoveError, Use

STEP, DRAW, END = "step", "draw", "end"
VERBS = (STEP, DRAW, END)


@dataclass(frozen=True)
class Move:
    """One move of Ziehen: its verb."""

    verb: str

    @classmethod
    def from_notation(cls, text: str) -> Move:
        """The move written ``text`` (white space folded); ``MalformedMoveError`` if
        it is no move of Ziehen."""
        verb = " ".join(str(text).split())
        if verb not in VERBS:
            raise MalformedMoveError(
                f"{verb!r} is not a move of Ziehen; moves are {', '.join(VERBS)}")
        return cls(verb)

    def notation(self) -> str:
        return self.verb


parse = Move.from_notation


def uses(log: Log) -> list[Use]:
    """What each seat took, for the archive's statistics: a ``draw`` takes a card from
    the deck.  Which card stays secret in the notation, so it is named "Karte"; a game
    whose notation names its cards names them here (Visby's ``play Ritter``)."""
    return [Use(seat, TAKE, "Karte") for seat, move in log if move == DRAW]


def start_seat(log: Log) -> int | None:
    """Seat 0 begins (``rules.new_state``); the log's first move is its."""
    return log[0][0] if log else 0
