"""Ziehen's bot.  Every step of a Ziehen turn has one move, so the bot plays it; a game
with real choices weighs them here (see ``riga/bot.py``), drawing only on ``rng``."""

from __future__ import annotations

import random

from pbem.games.protocol import IllegalMoveError, State
from pbem.games.ziehen import rules
from pbem.games.ziehen.moves import Move


def choose(state: State, seat: int, rng: random.Random) -> Move:
    moves = rules.legal(state, seat)
    if not moves:
        raise IllegalMoveError(f"seat {seat} is not to move")
    return moves[0]
