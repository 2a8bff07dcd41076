"""Macao's bot: it never ends a turn while it can activate a card or take a district,
and it beats uniform random play."""

from __future__ import annotations

import random

from pbem.games.macao import GAME, rules


def _game(seed: int, check: bool = False) -> list[int]:
    s = GAME.setup(2, None, f"b{seed}")
    r = random.Random(seed)
    while not GAME.is_over(s):
        seat = GAME.to_move(s)[0]
        if seat == 0:
            move = GAME.bot_move(s, seat, r)
            if check and move == "end":
                groups = rules._action_groups(s, seat)
                assert not groups.get("activate") and not groups.get("city")
        else:
            move = r.choice(GAME.legal_moves(s, seat))
        s = GAME.apply(s, seat, move)
    return GAME.result(s).ranks


def test_the_bot_never_passes_an_activation_or_a_district():
    for seed in range(3):
        _game(seed, check=True)


def test_the_bot_beats_random_play():
    wins = sum(_game(seed)[0] == 1 for seed in range(20))
    assert wins >= 18
