"""A greedy bot for Macao: it never passes a chance to activate a card or take a
district it can pay, delivers whenever it can, and spends the rest on the ship
(towards a harbour for its cargo) and the wall."""

from __future__ import annotations

import random
from collections import deque
from typing import Any

from pbem.games.macao import data, rules
from pbem.games.macao.moves import (
    END,
    Activate,
    Deliver,
    Die,
    Discard,
    District,
    Gain,
    Give,
    Joker,
    Move,
    Pay,
    Row,
    Sail,
    Show,
    Skip,
    Take,
    Tribute,
    Use,
    Wall,
)

#: the action moves the bot never passes, in this order of preference
_EAGER = (Activate, District, Deliver, Use, Tribute, Row, Show)


def choose(state: dict[str, Any], seat: int, rng: random.Random) -> Move:
    moves = rules.legal(state, seat)
    phase, me = state["phase"], state["seats"][seat]
    if phase in ("draft", "cards"):
        return _card(moves, me, rng)
    if phase == "start":
        return moves[rng.randrange(len(moves))]
    if phase == "dice":
        last = data.ROUNDS - state["round"] + 1   # cubes at field v arrive in v rounds
        value = {c: v for c, v in state["dice"]}

        def worth(m: Move) -> tuple[int, float]:
            assert isinstance(m, Die)
            return (value[m.colour] if value[m.colour] <= last else 0, rng.random())

        return max(moves, key=worth)
    return _action(state, seat, moves)


def _card(moves: list[Move], me: dict[str, Any], rng: random.Random) -> Move:
    """A sixth card's discard: the dearest; else the cheapest card, or none with a
    Müßiggänger and a full tableau."""
    if isinstance(moves[0], Discard):
        return max(moves, key=lambda m: len(data.CARDS[m.card].cost))  # type: ignore[union-attr]
    takes = [m for m in moves if isinstance(m, Take)]
    skip = [m for m in moves if isinstance(m, Skip)]
    if skip and len(me["tableau"]) >= data.TABLEAU:
        return skip[0]
    return min(takes, key=lambda m: (len(data.CARDS[m.card].cost), rng.random()))


def _action(state: dict[str, Any], seat: int, moves: list[Move]) -> Move:
    me = state["seats"][seat]
    for kind in _EAGER:
        for m in moves:
            if isinstance(m, kind) and not (isinstance(m, Tribute) and state["tribute"][1] == 0):
                return m
    for m in moves:
        if isinstance(m, (Gain, Pay)):
            return _cube(state, seat, moves, gain=isinstance(m, Gain))
    gives = [m for m in moves if isinstance(m, Give)]
    if gives:
        return gives[0]
    target = _sail_target(state, seat)
    if target and Sail(target) in moves:
        return Sail(target)
    walls = [m for m in moves if isinstance(m, Wall)]
    if walls:
        return walls[0]
    if me["jokers"] and Joker("gold") in moves:
        return Joker("gold")
    return END if END in moves else moves[0]


def _cube(state: dict[str, Any], seat: int, moves: list[Move], gain: bool) -> Move:
    """Gain the colour the tableau needs most; pay with the colour it needs least."""
    need: dict[str, int] = {}
    for c in state["seats"][seat]["tableau"]:
        for col in data.CARDS[c].cost:
            need[col] = need.get(col, 0) + 1

    def key(move: Move) -> int:
        return need.get(getattr(move, "colour", ""), 0)

    return max(moves, key=key) if gain else min(moves, key=key)


def _sail_target(state: dict[str, Any], seat: int) -> str | None:
    """The first field on a shortest route to a harbour that takes a good aboard."""
    me = state["seats"][seat]
    wanted = {h for h, (g, _) in data.HARBOURS.items()
              if g in me["goods"] and None in state["harbours"][h]}
    if not wanted or me["ship"] in wanted:
        return None
    first: dict[str, str | None] = {me["ship"]: None}
    todo = deque([me["ship"]])
    while todo:
        here = todo.popleft()
        for n in data.sea_neighbours(here):
            if n not in first:
                first[n] = first[here] or n
                if n in wanted:
                    return first[n]
                todo.append(n)
    return None
