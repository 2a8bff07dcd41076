"""One replay of a game's move log, told to any number of visitors.

Like python-chess's PGN visitors: the walk replays the record once through
the game's own ``apply``, or ``apply_played`` for a log every move of which was
accepted when it was played (:func:`pbem.gamelog.records.replay_steps`), and tells each
visitor what happened: the setup, every move with the states before and
after it, the end of each round, the end of the game.  The Markdown page and
the score chart are two visitors over one replay.

A round ends where ``game.round`` changes between two states, or where the
game ends; a move belongs to the round of the state it was played in.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain

from pbem.gamelog.records import GameRecord, replay_steps
from pbem.games.protocol import Rules, State


class Visitor:
    """Override what you need; every hook defaults to doing nothing."""

    def begin(self, game: Rules, record: GameRecord, setup: State) -> None:
        pass

    def begin_round(self, number: int, state: State) -> None:
        pass

    def move(self, index: int, seat: int, move: str, before: State, after: State) -> None:
        pass

    def end_round(self, number: int, state: State) -> None:
        pass

    def end(self, state: State) -> None:
        pass


def walk(game: Rules, record: GameRecord, visitors: Sequence[Visitor],
         played: bool = False) -> State:
    """Replay ``record`` once, telling every visitor; the final state.

    Raises :class:`pbem.gamelog.records.RecordError` when the record does not replay
    (another rules version, a refused move, a setup the engine refuses).  ``played``
    replays a log whose every move was accepted when it was played, without checking
    each move again (``replay_steps``): a move that was not legal may then fail in any
    way, or not.
    """
    steps = replay_steps(record, played)
    first = next(steps, None)
    # the replay's own setup is the state before its first move (set up only once)
    state = first[3] if first is not None else game.setup_version(
        len(record.players), record.options, record.seed, record.data_version,
        record.rules_version)
    for v in visitors:
        v.begin(game, record, state)
    current: int | None = None
    #: the round of ``state`` where the last move's check asked it (the next round's
    #: number: each state's round is asked once)
    upcoming: int | None = None
    for index, seat, move, before, after in chain([first] if first else [], steps):
        if current is None:
            current = game.round(before) if upcoming is None else upcoming
            for v in visitors:
                v.begin_round(current, before)
        for v in visitors:
            v.move(index, seat, move, before, after)
        state = after
        upcoming = None if game.is_over(after) else game.round(after)
        if upcoming != current:
            for v in visitors:
                v.end_round(current, after)
            current = None
    for v in visitors:
        v.end(state)
    return state
