"""Seeded randomness that lives in the game state.

A state stores ``seed`` and ``draws``; every shuffle or draw is seeded from
both and bumps the counter, so replaying the move log redoes the same draws on
any machine and a snapshot stays small.  ``random.Random`` seeded with a
``str`` hashes it with SHA-512, which is stable across platforms and Python
versions.
"""

from __future__ import annotations

import random
from typing import Any, TypeVar

T = TypeVar("T")


def _next_random(state: dict[str, Any]) -> random.Random:
    rng = random.Random(f"{state['seed']}:{state['draws']}")
    state["draws"] += 1
    return rng


def shuffled(state: dict[str, Any], items: list[T]) -> list[T]:
    """A shuffled copy of ``items``; advances the state's draw counter."""
    out = list(items)
    _next_random(state).shuffle(out)
    return out


def choice_index(state: dict[str, Any], n: int) -> int:
    """A uniform index in ``range(n)``; advances the state's draw counter."""
    return _next_random(state).randrange(n)
