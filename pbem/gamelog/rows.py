"""Move rows for a replayed record, as the service would have recorded them.

The service writes each move's sentences, its round and its turn when it
records the move (:func:`pbem.lifecycle.moves.record`).  Games written into
the database without the service (``pbem import``, the archive's sample
games) get the same columns here, from one replay, so that the archive, the
pages and the mails read their rows as they read any game's and never
replay them.

Turns are counted here, for the service (``pbem.lifecycle.moves``) and for imports alike: a
**change** is a move by a person followed by the moves nobody has to think
about (a bot's, a formality).  A seat's turn ends with a move the game calls
``turn_over``; a bot's or formality's move with no turn open begins one of its
own; and at the end of each change a seat no longer to move has its turn
ended, and a seat to move with no turn open begins one (``Seat.turn_seq`` and
its menu version each go up by one).  The start of the game is a change
without a first move.  So a game the service played, exported and imported
again gets the rows it had.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from pbem.gamelog.history import sentences
from pbem.games.protocol import Rules, State, facts_of
from pbem.models import Move

Step = tuple[int, int, str, State, State]
#: moves the service plays itself, at once, within the change of the move before
AUTOMATIC = (Move.BOT, Move.FORMALITY)


class Turns(Protocol):
    """What counting turns reads and writes of a seat: ``Seat`` rows and ``SeatTurns``."""

    index: int
    turn_seq: int
    menu_seq: int
    in_turn: bool


T = TypeVar("T", bound=Turns)


@dataclass
class SeatTurns:
    """Where a seat stands after the replay: what ``Seat`` keeps of its turns."""

    index: int
    turn_seq: int = 0
    menu_seq: int = 0
    in_turn: bool = False


def kind_of(rules: Rules, bots: Iterable[int]) -> Callable[[Step], str]:
    """``Move.kind`` of a replayed step: the bot seats' moves are ``BOT``; a seat's only
    move that the game calls a formality is ``FORMALITY`` (the service plays it at once,
    so no person ever made it); every other move is ``PLAYER``."""
    bot_seats = frozenset(bots)

    def kind(step: Step) -> str:
        _index, seat, move, before, _after = step
        if seat in bot_seats:
            return Move.BOT
        if rules.formality(before, seat) == move:
            return Move.FORMALITY
        return Move.PLAYER

    return kind


def begin_turn(seat: Turns) -> None:
    """A turn of ``seat`` begins: one turn more, one menu version more (a link of the
    turn before is stale now).  The service counts a ``Seat`` row's turns with it
    (``moves.after_change``), an import a replay's ``SeatTurns``."""
    seat.in_turn = True
    seat.turn_seq += 1
    seat.menu_seq += 1


def end_turn(seat: Turns) -> None:
    seat.in_turn = False


def settle(seats: Sequence[T], to_move: set[int], begin: Callable[[T], None] = begin_turn,
           end: Callable[[T], None] = end_turn, held: Collection[int] = ()) -> None:
    """At the end of a change: the turn of each seat no longer to move ends, and each
    seat to move with no turn open begins one, but for the ``held``: seats whose own
    move the service still owes (a bot's, a formality) where a change stopped at its
    cap and goes on at the next tick; their turns begin as their moves are played."""
    for seat in seats:
        if seat.in_turn and seat.index not in to_move:
            end(seat)
        if seat.index in to_move and not seat.in_turn and seat.index not in held:
            begin(seat)


def _settle(rules: Rules, state: State, seats: list[SeatTurns]) -> None:
    settle(seats, set() if rules.is_over(state) else set(rules.to_move(state)))


def move_rows(rules: Rules, setup: State, steps: Sequence[Step], kinds: Sequence[str],
              players: int) -> tuple[list[dict[str, Any]], list[SeatTurns]]:
    """The column values of every move of a replay, and each seat's turns at its end.

    ``steps`` are :func:`pbem.gamelog.records.replay_steps` of the record whose
    starting state is ``setup``; ``kinds[i]`` is the ``Move.kind`` of move ``i``
    (see :func:`kind_of`).  The rows lack only ``game`` (and ``created_at``).
    """
    seats = [SeatTurns(i) for i in range(players)]
    state = setup
    rows: list[dict[str, Any]] = []
    for index, seat, move, before, after in steps:
        if kinds[index] not in AUTOMATIC:  # a person's move: the change before is settled
            _settle(rules, before, seats)
        elif not seats[seat].in_turn:  # a bot's or a formality's move begins its own turn
            begin_turn(seats[seat])
        facts = facts_of(rules, before, seat, move, after)
        turn_end = facts.turn_over
        rows.append({
            "seq": index + 1, "seat": seat, "move": move, "kind": kinds[index],
            "menu_seq": seats[seat].menu_seq, "turn_seq": seats[seat].turn_seq,
            "round": facts.round, "commit": facts.commit, "turn_end": turn_end,
            **sentences(rules, before, seat, move, after),
        })
        seats[seat].menu_seq += 1
        if turn_end:
            seats[seat].in_turn = False
        state = after
    _settle(rules, state, seats)
    return rows, seats
