"""Random legal play: bots, the ``selfplay`` command, property tests and benchmarks."""

from __future__ import annotations

import random

from pbem.games import get_game
from pbem.games.protocol import State
from pbem.lifecycle.records import GameRecord

#: a game that has not ended after this many moves is a bug in its rules
MAX_MOVES = 100_000


def play_random_game(
    game_name: str, players: int, seed: int, options: dict | None = None
) -> tuple[GameRecord, State]:
    """Play one game of random legal moves to its end; the record and the final state."""
    game = get_game(game_name)
    rng = random.Random(seed)
    state = game.setup(players, options, seed)
    record = GameRecord(
        game=game_name,
        players=[f"Bot {i + 1}" for i in range(players)],
        seed=seed,
        options=dict(state.get("options", options or {})),
        rules_version=game.rules_version,
    )
    while not game.is_over(state):
        if len(record.moves) >= MAX_MOVES:
            raise RuntimeError(f"{game_name} did not end within {MAX_MOVES} moves (seed {seed})")
        seat = rng.choice(game.to_move(state))
        move = rng.choice(game.legal_moves(state, seat))
        state = game.apply(state, seat, move)
        record.moves.append((seat, move))
    return record, state
