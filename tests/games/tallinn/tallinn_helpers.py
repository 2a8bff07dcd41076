"""Helpers for Tallinn's tests: stacked decks and scripted rounds.

Stacking is what a tester does at a real table: after ``setup`` the test
decides which start card each seat has and in which order its cards come
(the first three in the hand, the rest on the pile, top first).  Everything
after that goes through ``GAME.apply``.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from pbem.games.tallinn import GAME, rules
from pbem.games.tallinn.data import LEGAT

NAMES = ["Malte", "Heike", "Anne & Bob", "<script>alert('x')</script>"]


def stack(state: dict, seat: int, start: str, usage: list[str]) -> dict:
    """Deal ``seat`` the start card ``start`` and its cards in the order ``usage``."""
    state["start"][seat] = start
    hand = list(usage[:3])
    if state["options"]["legat"] and LEGAT not in usage:
        hand.append(LEGAT)
    state["hand"][seat] = sorted(hand, key=rules.card_key)
    state["pile"][seat] = list(usage[3:])
    return state


def new_game(players: int = 2, **options) -> dict:
    return GAME.setup(players, options, "test-seed")


def play_round(state: dict, plays: dict[int, str], towers: dict | None = None,
               legat: dict | None = None) -> dict:
    """One round: ``plays`` like ``{0: "3b"}``, then the Legat's estates (``{seat:
    "Ritter"}``), then towers (``{seat: ("hand", "7")}``: where from, checked, and the
    card; a seat not named builds none)."""
    towers, legat = towers or {}, legat or {}
    for seat, half in plays.items():
        state = GAME.apply(state, seat, f"play {half}")
    while state["phase"] == "legat":
        for seat in GAME.to_move(state):
            state = GAME.apply(state, seat, f"legat {legat[seat]}")
    while state["phase"] == "tower":
        for seat in GAME.to_move(state):
            plan = towers.get(seat)
            if plan is None:
                state = GAME.apply(state, seat, "no tower")
                continue
            source, card = plan
            held = state["hand"][seat] if source == "hand" else rules.display_cards(state, seat)
            assert card in held, f"card {card} is not in the {source} of seat {seat}"
            state = GAME.apply(state, seat, f"tower {card}")
    return state


def random_steps(players: int, seed: int, **options) -> Iterator[tuple[dict, int, str]]:
    """``(state, seat, move)`` for every move of a random game."""
    rng = random.Random(seed)
    state = GAME.setup(players, options, seed)
    while not GAME.is_over(state):
        seat = rng.choice(GAME.to_move(state))
        move = rng.choice(GAME.legal_moves(state, seat))
        yield state, seat, move
        state = GAME.apply(state, seat, move)
