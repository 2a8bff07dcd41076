"""Visby's bot: a uniformly random legal move (the protocol's baseline), drawing only on
``rng``.  Visby has no better bot yet; one would weigh the cards here."""

from __future__ import annotations

import random

from pbem.games.protocol import IllegalMoveError, State
from pbem.games.visby import rules
from pbem.games.visby.moves import Move


def choose(state: State, seat: int, rng: random.Random) -> Move:
    moves = rules.legal(state, seat)
    if not moves:
        raise IllegalMoveError(f"seat {seat} has no move to make")
    return rng.choice(moves)
