"""Building Macao states for tests: play to the first action phase, then set the
table as a test needs it."""

from __future__ import annotations

import copy
from typing import Any

from pbem.games.macao import GAME, data, rules


def card(name: str) -> str:
    """The first card id with this name in the current data version's deck."""
    return next(c for c in data.card_ids() if data.CARDS[c].name == name)


def office(category: str, k: int) -> str:
    return card(f"{category} {k}")


def at_actions(players: int = 2, seed: str = "t") -> tuple[dict[str, Any], int]:
    """A state in round 1's action phase (default moves so far) and the seat to move."""
    s = rules.new_state(players, seed)
    while s["phase"] != "actions":
        seat = rules.to_move(s)[0]
        s = GAME.apply(s, seat, GAME.legal_moves(s, seat)[0])
    return s, rules.to_move(s)[0]


def with_pool(s: dict[str, Any], seat: int, cubes: str, **fields: Any) -> dict[str, Any]:
    """A copy of ``s`` with the seat's action supply set to ``cubes`` ("rrb")."""
    s = copy.deepcopy(s)
    s["seats"][seat]["rose"][0] = {c: cubes.count(c) for c in set(cubes)}
    s["seats"][seat].update(fields)
    return s


def play(s: dict[str, Any], seat: int, *moves: str) -> dict[str, Any]:
    for move in moves:
        s = GAME.apply(s, seat, move)
    return s
