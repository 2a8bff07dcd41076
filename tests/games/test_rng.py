"""The games' seeded randomness (``pbem.games.rng``): a shuffle is the one every recorded
game was played with, ``random.Random.shuffle``'s, for every seed and length."""

from __future__ import annotations

import random

import pytest

from pbem.games import rng


@pytest.mark.parametrize("length", [0, 1, 2, 3, 5, 8, 13, 17, 31, 32, 33, 64, 65, 100])
def test_a_shuffle_is_randoms_own_for_every_seed_and_length(length):
    for n in range(200):
        seed = f"{n:032x}:{length}"
        mine, theirs = [f"card {i}" for i in range(length)], [f"card {i}" for i in range(length)]
        rng.shuffle(random.Random(seed), mine)
        random.Random(seed).shuffle(theirs)
        assert mine == theirs, seed


def test_a_shuffle_leaves_the_generator_where_randoms_own_does():
    mine, theirs = random.Random("left where"), random.Random("left where")
    rng.shuffle(mine, list(range(50)))
    theirs.shuffle(list(range(50)))
    assert mine.getstate() == theirs.getstate()


def test_shuffled_draws_from_the_seed_and_the_counter_and_counts_the_draw():
    state = {"seed": "0f1e2d3c4b5a69788796a5b4c3d2e1f0", "draws": 7}
    cards = list(range(20))
    # the deck of a recorded game: this seed and counter gave it, and always will
    assert rng.shuffled(state, cards) == [6, 19, 9, 10, 15, 16, 1, 13, 8, 7, 5, 12, 17, 4,
                                          2, 18, 14, 3, 11, 0]
    assert state["draws"] == 8 and cards == list(range(20))  # a copy is shuffled
