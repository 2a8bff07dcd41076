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
    shuffle(_next_random(state), out)
    return out


def shuffle(rng: random.Random, cards: list[T]) -> None:
    """``rng.shuffle(cards)``, written out: the same Fisher-Yates shuffle, each index
    drawn as ``random.Random._randbelow`` draws it (the bits of ``n``'s length, again
    while they name no index below ``n``), so that every deck of every recorded game comes
    out as it did (a test holds it to ``random.Random.shuffle``).  A Riga year's end
    shuffles the discard pile in a player's click, and the method call of each index
    was a fifth of the shuffle (issue 23); written here, the shuffle of a recorded game
    also no longer rests on how a later Python writes ``random.shuffle``."""
    getrandbits = rng.getrandbits
    for i in range(len(cards) - 1, 0, -1):
        bound = i + 1
        bits = bound.bit_length()
        j = getrandbits(bits)
        while j >= bound:
            j = getrandbits(bits)
        cards[i], cards[j] = cards[j], cards[i]


def choice_index(state: dict[str, Any], n: int) -> int:
    """A uniform index in ``range(n)``; advances the state's draw counter."""
    return _next_random(state).randrange(n)


# -- determinization: a state a seat cannot tell from the true one ----------------------


def reseeded(rng: random.Random) -> str:
    """A seed drawn from ``rng`` for a determinized state (``Rules.determinize``): the
    future draws and dice of the true game are hidden, so a searched copy of it draws
    its own."""
    return f"{rng.getrandbits(128):032x}"


def deal(pool: list[T], sizes: list[int], rng: random.Random) -> list[list[T]]:
    """``pool`` sorted, shuffled by ``rng`` and cut into parts of ``sizes`` (which add up
    to its length): the hidden cards dealt anew to the places that hide them.  Sorting
    first makes the deal depend on which cards are hidden and never on where they lay,
    so two states a seat cannot tell apart deal alike from the same ``rng``."""
    if sum(sizes) != len(pool):
        raise ValueError(f"{len(pool)} hidden cards do not fill places of {sizes}")
    cards = sorted(pool)  # type: ignore[type-var]
    rng.shuffle(cards)
    parts, at = [], 0
    for size in sizes:
        parts.append(cards[at:at + size])
        at += size
    return parts
