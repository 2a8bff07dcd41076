"""A greedy bot for Macao: it never passes a chance to activate a card or take a
district it can pay, delivers whenever it can, and spends the rest on the ship
(towards a harbour for its cargo) and the wall."""

from __future__ import annotations

import random
from collections import deque
from typing import Any

from pbem.games.macao import data, moves, rules
from pbem.games.macao.moves import Move

#: the action options the bot never passes, in this order of preference
_EAGER = (moves.Activate, moves.District, moves.Deliver, moves.Use, moves.Tribute, moves.Row,
          moves.Show)


def choose(state: dict[str, Any], seat: int, rng: random.Random) -> Move:
    options = rules.legal(state, seat)
    phase, me = state["phase"], state["seats"][seat]
    if phase in ("draft", "cards"):
        return _card(options, me, rng)
    if phase == "start":
        return options[rng.randrange(len(options))]
    if phase == "dice":
        last = data.ROUNDS - state["round"] + 1   # cubes at field v arrive in v rounds
        value = {c: v for c, v in state["dice"]}

        def worth(m: Move) -> tuple[int, float]:
            assert isinstance(m, moves.Die)
            return (value[m.colour] if value[m.colour] <= last else 0, rng.random())

        return max(options, key=worth)
    return _action(state, seat, options)


def _card(options: list[Move], me: dict[str, Any], rng: random.Random) -> Move:
    """A sixth card's discard: the dearest; else the cheapest card, or none with a
    Müßiggänger and a full tableau."""
    if isinstance(options[0], moves.Discard):
        return max(options, key=lambda m: len(data.CARDS[m.card].cost))  # type: ignore[union-attr]
    takes = [m for m in options if isinstance(m, moves.Take)]
    skip = [m for m in options if isinstance(m, moves.Skip)]
    if skip and len(me["tableau"]) >= data.TABLEAU:
        return skip[0]
    return min(takes, key=lambda m: (len(data.CARDS[m.card].cost), rng.random()))


def _action(state: dict[str, Any], seat: int, options: list[Move]) -> Move:
    me = state["seats"][seat]
    for kind in _EAGER:
        for m in options:
            action = moves.bare(m)
            no_prestige = isinstance(action, moves.Tribute) and state["tribute"][1] == 0
            if isinstance(action, kind) and not no_prestige:
                return m
    for m in options:
        if isinstance(m, (moves.Gain, moves.Pay)):
            return _cube(state, seat, options, gain=isinstance(m, moves.Gain))
    gives = [m for m in options if isinstance(m, moves.Give)]
    if gives:
        return gives[0]
    target = _sail_target(state, seat)
    sails = [m for m in options if moves.bare(m) == moves.Sail(target or "")]
    if target and sails:
        return sails[0]
    walls = [m for m in options if isinstance(moves.bare(m), moves.Wall)]
    if walls:
        return walls[0]
    if me["jokers"] and moves.Joker("gold") in options:
        return moves.Joker("gold")
    for last in (moves.FINISH, moves.END):
        if last in options:
            return last
    return options[0]


def _cube(state: dict[str, Any], seat: int, options: list[Move], gain: bool) -> Move:
    """Gain the colours the tableau needs most; pay with the colours it needs least."""
    need: dict[str, int] = {}
    for c in state["seats"][seat]["tableau"]:
        for col in data.CARDS[c].cost:
            need[col] = need.get(col, 0) + 1

    def key(move: Move) -> float:
        cubes = getattr(move, "cubes", ())
        return sum(need.get(c, 0) * n for c, n in cubes) / max(1, sum(n for _, n in cubes))

    return max(options, key=key) if gain else min(options, key=key)


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


# -- what a position is worth: the searching bot's estimate (``Macao.estimate``) ----------

#: what a gold coin, a cube arriving before the end and a card's use of an unnamed kind
#: are worth in prestige, as a rough exchange rate (the tribute sells about 3 gold for 5
#: PP over a round; a card of 2-3 cubes yields 1-2 PP a round)
_GOLD, _CUBE, _OTHER_USE = 0.5, 0.4, 0.5


def worth(state: dict[str, Any], seat: int) -> float:
    """The seat's final score as it may turn out: the end scoring as if the game ended
    now, plus what its activated cards will still yield in the rounds left, what its
    tableau's cards will yield once activated (and the penalty they then escape), and
    its gold and the cubes that arrive in time."""
    me = state["seats"][seat]
    left = data.ROUNDS - max(1, int(state["round"]))     # whole rounds after this one
    total = float(rules.final_scoring(state, seat)["total"])
    total += left * sum(_per_round(state, seat, c) for c in me["active"])
    # a card on the tableau is activated in a round or three, as the cubes come
    chance = min(1.0, max(0.0, (left - 1) / 3))
    for c in me["tableau"]:
        ends = data.CARDS[c].effect[1] if data.CARDS[c].effect[0] == "end_pp" else 0
        later = max(0, left - 2) * _per_round(state, seat, c)
        total += chance * (data.PENALTY + ends + later)
    cubes = sum(n for field in me["rose"][:left + 1] for n in field.values())
    return total + _GOLD * me["gold"] + _CUBE * cubes


def _per_round(state: dict[str, Any], seat: int, card: str) -> float:
    """What an activated card gives each round, in prestige."""
    effect = data.CARDS[card].effect
    kind = effect[0]
    if kind == "gain":
        res = effect[1]
        return res.get("pp", 0) + _GOLD * res.get("gold", 0) + _CUBE * res.get("any", 0)
    if kind == "office_pp":
        return max(1, rules._offices_of(state, seat, effect[1]))
    if kind in ("kapitaen", "amtsstube", "colours_pp"):
        return 1.0
    if kind in ("end_pp", "palast", "abt", "muessig"):
        return 0.0
    return _OTHER_USE
