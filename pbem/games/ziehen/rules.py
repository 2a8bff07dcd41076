"""Ziehen's rules as pure functions over a JSON state.

State layout::

    round    from 1; the game is over after ``ROUNDS``
    turn     the seat whose turn it is
    step     index into ``TURN``: the move the seat makes next
    hand     per seat, the cards drawn (secret to the others)
    deck     the cards left, shuffled at setup from the seed (never shown)
    over     whether the game has ended

A turn is ``TURN``: step, draw, step, end, each the only legal move at its step.
"""

from __future__ import annotations

import random
from typing import Any

from pbem.games import rng
from pbem.games.protocol import IllegalMoveError, State, rank_by
from pbem.games.ziehen import data
from pbem.games.ziehen.moves import DRAW, END, STEP, Move

RULES_VERSION = "1"
ROUNDS = 3
#: the moves of a turn, in order
TURN = (STEP, DRAW, STEP, END)


def new_state(players: int, options: dict[str, Any], seed: str) -> State:
    state: State = {
        "game": "ziehen",
        "rules_version": RULES_VERSION,
        "players": players,
        "options": options,
        "seed": seed,
        "draws": 0,
        "round": 1,
        "turn": 0,
        "step": 0,
        "hand": [[] for _ in range(players)],
        "over": False,
    }
    state["deck"] = rng.shuffled(state, sorted(data.CARDS))
    return state


def to_move(state: State) -> list[int]:
    return [] if state["over"] else [state["turn"]]


def legal(state: State, seat: int) -> list[Move]:
    """The moves ``seat`` may make now (none when it is not to move)."""
    if seat not in to_move(state):
        return []
    return [Move(TURN[state["step"]])]


def apply(state: State, seat: int, move: Move) -> State:
    if seat not in to_move(state):
        raise IllegalMoveError(f"seat {seat} is not to move")
    expected = TURN[state["step"]]
    if move.verb != expected:
        raise IllegalMoveError(f"now the move is {expected!r}, not {move.verb!r}")
    new = dict(state, hand=[list(h) for h in state["hand"]], deck=list(state["deck"]))
    if move.verb == DRAW:
        new["hand"][seat].append(new["deck"].pop(0))
    if move.verb == END:
        new["step"] = 0
        new["turn"] = (seat + 1) % new["players"]
        if new["turn"] == 0:
            new["round"] += 1
            new["over"] = new["round"] > ROUNDS
    else:
        new["step"] += 1
    return new


def determinize(state: State, seat: int, chance: random.Random) -> State:
    """The state redealt for ``seat``: the other hands and the deck are what it cannot
    see, so their cards are dealt anew (same sizes), with a new seed."""
    others = [s for s in range(state["players"]) if s != seat]
    pool = [c for s in others for c in state["hand"][s]] + list(state["deck"])
    parts = rng.deal(pool, [len(state["hand"][s]) for s in others] + [len(state["deck"])],
                     chance)
    hand = [list(h) for h in state["hand"]]
    for s, part in zip(others, parts, strict=False):
        hand[s] = part
    return dict(state, hand=hand, deck=parts[-1], seed=rng.reseeded(chance))


def scores(state: State) -> list[int]:
    """The sum of the card values in each hand."""
    return [sum(data.CARDS[c] for c in hand) for hand in state["hand"]]


def ranks(state: State) -> list[int]:
    return rank_by([(s,) for s in scores(state)])


def cards_problem(state: State) -> str | None:
    """What is wrong with ``state`` for a position (each card once, in a hand or the
    deck; a turn and a step that exist), or None."""
    held = sorted([c for hand in state["hand"] for c in hand] + state["deck"])
    if held != sorted(data.CARDS):
        return f"the cards are not the deck's, each once: {held}"
    if not 0 <= state["turn"] < state["players"] or not 0 <= state["step"] < len(TURN):
        return f"there is no turn {state['turn']} or step {state['step']}"
    return None
