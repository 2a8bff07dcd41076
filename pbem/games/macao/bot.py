"""A greedy bot for Macao: it never passes a chance to activate a card or take a
district it can pay, delivers whenever it can, and spends the rest on the ship
(towards a harbour for its cargo) and the wall."""

from __future__ import annotations

import random
from collections import deque
from typing import Any

from pbem.games.macao import data, rules


def choose(state: dict[str, Any], seat: int, rng: random.Random) -> str:
    moves = rules.legal_moves(state, seat)
    phase, me = state["phase"], state["seats"][seat]
    if phase in ("draft", "cards"):
        if moves[0].startswith("discard"):
            return max(moves, key=lambda m: len(data.CARDS[m.split()[1]].cost))
        takes = [m for m in moves if m.startswith("take")]
        if "skip" in moves and len(me["tableau"]) >= data.TABLEAU:
            return "skip"
        return min(takes, key=lambda m: (len(data.CARDS[m.split()[1]].cost), rng.random()))
    if phase == "start":
        return moves[rng.randrange(len(moves))]
    if phase == "dice":
        last = data.ROUNDS - state["round"] + 1   # cubes at field v arrive in v rounds
        value = {f"die {c}": v for c, v in state["dice"]}
        return max(moves, key=lambda m: (value[m] if value[m] <= last else 0, rng.random()))
    for prefix in ("activate", "district", "deliver", "use", "tribute", "row", "show"):
        for m in moves:
            if m.startswith(prefix) and not (m == "tribute" and state["tribute"][1] == 0):
                return m
    for m in moves:
        if m.startswith("gain") or m.startswith("pay"):
            return _cube(state, seat, moves, m.split()[0])
    if "give" in " ".join(moves):
        return next(m for m in moves if m.startswith("give"))
    target = _sail_target(state, seat)
    if target and f"sail {target}" in moves:
        return f"sail {target}"
    walls = [m for m in moves if m.startswith("wall")]
    if walls:
        return walls[0]
    if me["jokers"] and "joker gold" in moves:
        return "joker gold"
    return "end" if "end" in moves else moves[0]


def _cube(state: dict[str, Any], seat: int, moves: list[str], verb: str) -> str:
    """Gain the colour the tableau needs most; pay with the colour it needs least."""
    need: dict[str, int] = {}
    for c in state["seats"][seat]["tableau"]:
        for col in data.CARDS[c].cost:
            need[col] = need.get(col, 0) + 1

    def key(move: str) -> int:
        return need.get(move.split()[1], 0)

    return max(moves, key=key) if verb == "gain" else min(moves, key=key)


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
