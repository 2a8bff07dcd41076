"""Games played to the end without a server: the ``selfplay`` command, property tests
and benchmarks.  Each seat plays its game's ``bot_move`` (uniformly random unless the
game has a better bot), or uniformly random where asked."""

from __future__ import annotations

import random
from collections.abc import Iterable

from pbem.gamelog.records import GameRecord
from pbem.games import get_game
from pbem.games.protocol import State

#: a game that has not ended after this many moves is a bug in its rules
MAX_MOVES = 100_000


def play_random_game(
    game_name: str, players: int, seed: int | str, options: dict | None = None,
    bots: Iterable[int] = (),
) -> tuple[GameRecord, State]:
    """Play one game to its end; the record and the final state.

    The seats in ``bots`` play the game's ``bot_move``, every other seat a uniformly
    random legal move (the baseline a bot is measured against).
    """
    bots = frozenset(bots)
    game = get_game(game_name)
    rng = random.Random(seed)
    state = game.setup(players, options, seed)
    record = GameRecord(
        game=game_name,
        players=[f"Bot {i + 1}" for i in range(players)],
        seed=seed,
        options=dict(state.get("options", options or {})),
        rules_version=game.rules_version,
        data_version=game.data_version,
    )
    while not game.is_over(state):
        if len(record.moves) >= MAX_MOVES:
            raise RuntimeError(f"{game_name} did not end within {MAX_MOVES} moves (seed {seed})")
        seat = rng.choice(game.to_move(state))
        if seat in bots:
            move = game.bot_move(state, seat, rng)
        else:
            move = rng.choice(game.legal_moves(state, seat))
        state = game.apply(state, seat, move)
        record.moves.append((seat, move))
    return record, state
