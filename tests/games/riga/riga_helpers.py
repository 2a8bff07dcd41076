"""Helpers for Riga's tests: put a table into a given situation, then play on it.

Arranging is what a tester does at a real table: after ``setup`` a test moves
cards from wherever they are (draw piles, discard piles, the row, the sets,
other hands) to where it wants them: a seat's hand, its display (Auslage), the
row of buildings, the commodity sets.  Cards are only ever *moved*, so every
one of the 110 cards stays accounted for (``census`` checks it).  Everything
after the arrangement goes through ``GAME.apply`` with the game's notation.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

from pbem.games.riga import GAME, data, rules

NAMES = ["Malte", "Heike", "Anne & Bob", "<script>alert('x')</script>"]
SEED = "0123456789abcdefSEEDTEXTriga"

WAREN_IM_SPIEL = Counter(data.ANZAHL)  # 8 Tuch, 10 Glas, 12 Wein, 14 Getreide


# -- a game up to the first turn ------------------------------------------------------------


def new_game(players: int = 2, riga: bool = False, seed: str = SEED) -> dict:
    return GAME.setup(players, {"riga": riga}, seed)


def through_setup(state: dict, start: int | None = None) -> dict:
    """Name ``start`` (default: the chooser names itself) and let every seat keep the
    first of its two buildings: the state of year 1's first take phase."""
    assert state["phase"] == "choose_start"
    chooser = GAME.to_move(state)[0]
    state = GAME.apply(state, chooser, f"start {(chooser if start is None else start) + 1}")
    for seat in range(state["players"]):
        state = GAME.apply(state, seat, f"keep {state['keep_offer'][seat][0]}")
    assert state["phase"] == "take" and state["year"] == 1
    return state


def started(players: int = 2, riga: bool = False, start: int = 0, seed: str = SEED) -> dict:
    return through_setup(new_game(players, riga, seed), start)


def play(state: dict, seat: int, *moves: str) -> dict:
    for move in moves:
        state = GAME.apply(state, seat, move)
    return state


# -- where every card is --------------------------------------------------------------------


def census(state: dict) -> tuple[Counter, Counter, list[Counter]]:
    """(commodities, buildings, Riga buildings per seat) wherever they lie."""
    for hand in state["hand"]:
        assert all(k >= 0 for k in hand["waren"].values()), hand
    return rules.census(state)


def check_census(state: dict) -> None:
    """All 110 cards are there, each once: 44 commodities, 48 buildings, and the
    Riga buildings (4 per seat, 16 with four players) when the option is on."""
    waren, bauten, riga = census(state)
    assert waren == WAREN_IM_SPIEL, waren - WAREN_IM_SPIEL or WAREN_IM_SPIEL - waren
    full = Counter(list(data.GEBAEUDE))
    assert bauten == full, (bauten - full, full - bauten)
    per_seat = Counter(data.RIGA_ARTEN) if state["options"]["riga"] else Counter()
    assert riga == [per_seat] * state["players"], riga


# -- moving cards -------------------------------------------------------------------------


def _pull_ware(state: dict, ware: str, keep_from: set[int]) -> None:
    """Take one ``ware`` card out of the piles (or a set, or a hand not in ``keep_from``)."""
    for pile in ("waren_pile", "waren_discard"):
        if ware in state[pile]:
            # the last occurrence: the pile's order below stays as it was
            i = len(state[pile]) - 1 - state[pile][::-1].index(ware)
            state[pile].pop(i)
            return
    for cards in state["sets"]:
        if ware in cards:
            cards.remove(ware)
            return
    for seat, hand in enumerate(state["hand"]):
        if seat not in keep_from and hand["waren"][ware]:
            hand["waren"][ware] -= 1
            return
    raise AssertionError(f"no {ware} left to arrange")


def _pull_building(state: dict, ident: str) -> None:
    """Take building ``ident`` out of wherever it lies."""
    for pile in ("bau_pile", "bau_discard", "separated", "row"):
        if ident in state[pile]:
            i = state[pile].index(ident)
            state[pile].pop(i)
            if pile == "row" and i < state["below"]:
                state["below"] -= 1
            return
    for hand in state["hand"]:
        if ident in hand["gebaeude"]:
            hand["gebaeude"].remove(ident)
            return
    for display in state["display"]:
        for e in display:
            if e["id"] == ident:
                display.remove(e)
                return
    raise AssertionError(f"building {ident} is nowhere to be arranged")


def give_hand(state: dict, seat: int, waren: dict[str, int] | None = None,
              gebaeude: list[str] = ()) -> dict:
    """Make ``seat``'s hand exactly ``waren`` and ``gebaeude``; what it held goes to the
    discard piles."""
    hand = state["hand"][seat]
    for w, k in hand["waren"].items():
        state["waren_discard"] += [w] * k
        hand["waren"][w] = 0
    state["bau_discard"] += hand["gebaeude"]
    hand["gebaeude"] = []
    for w, k in (waren or {}).items():
        for _ in range(k):
            _pull_ware(state, w, {seat})
            hand["waren"][w] += 1
    for b in gebaeude:
        _pull_building(state, b)
        hand["gebaeude"].append(b)
    return state


def give_display(state: dict, seat: int, ids: list[str], built_turn: int = 0,
                 used: bool = False, face: Any = None) -> dict:
    """Add erected buildings to ``seat``'s display (by default built before the game's
    first turn, so their functions count now).  Riga buildings come out of the seat's
    face-down set."""
    for b in ids:
        if b in data.RIGA_GEBAEUDE:
            state["riga_left"][seat].remove(b)
            f = face if face is not None else (0 if b == "Wechselstube" else None)
        else:
            _pull_building(state, b)
            f = face
        state["display"][seat].append({"id": b, "built_turn": built_turn, "used": used,
                                       "face": f})
    return state


def set_row(state: dict, ids: list[str], below: int = 0) -> dict:
    """The row of buildings: ``ids`` oldest first, the first ``below`` from last year."""
    state["bau_discard"] += state["row"]
    state["row"] = []
    for b in ids:
        _pull_building(state, b)
    state["row"] = list(ids)
    state["below"] = below
    return state


def set_sets(state: dict, sets: list[list[str]]) -> dict:
    """The commodity sets (Reihen) on the table, as lists of codes."""
    for cards in state["sets"]:
        state["waren_discard"] += cards
    state["sets"] = []
    for cards in sets:
        for w in cards:
            _pull_ware(state, w, set(range(state["players"])))
    state["sets"] = [list(c) for c in sets]
    return state


def building_turn(seat: int = 0, waren: dict[str, int] | None = None,
                  gebaeude: list[str] = (), display: list[str] = (),
                  take: str = "Festung-Stockholm", players: int = 2,
                  riga: bool = False) -> dict:
    """``seat``'s turn with the given hand and display, after taking ``take`` from the
    row: the state of its build phase.  The row building it takes is one no example
    uses (a hand building more changes no payment)."""
    state = started(max(players, seat + 1), riga=riga, start=seat)
    assert state["current"] == seat
    give_display(state, seat, list(display))
    give_hand(state, seat, waren, list(gebaeude))
    set_row(state, [take] + [b for b in state["row"] if b != take][:3])
    check_census(state)
    state = GAME.apply(state, seat, f"take {take}")
    assert state["phase"] == "build" and state["current"] == seat
    return state


def hand_waren(state: dict, seat: int) -> dict[str, int]:
    return {w: k for w, k in state["hand"][seat]["waren"].items() if k}


def display_ids(state: dict, seat: int) -> list[str]:
    return [e["id"] for e in state["display"][seat]]


def entry(state: dict, seat: int, ident: str) -> dict:
    return next(e for e in state["display"][seat] if e["id"] == ident)


def all_moves(state: dict, seat: int) -> set[str]:
    """Every move the seat may apply now, also those a long menu folds into groups."""
    return {move.notation() for move in rules.every_move(state, seat)}


def play_out(state: dict, until_year: int | None = None) -> dict:
    """Play on with every seat's documented default move (take the richest set, build
    nothing, end the turn; in winter discard the cheapest commodity) until the game is
    over, or until ``until_year`` has begun."""
    while not GAME.is_over(state) and (until_year is None or state["year"] < until_year):
        seat = GAME.to_move(state)[0]
        state = GAME.apply(state, seat, GAME.default_move(state, seat))
    return state


def finish_turns_until(state: dict, seat: int) -> dict:
    """Every other seat takes its turn with the default move until it is ``seat``'s."""
    while not (state["current"] == seat and state["phase"] == "take"):
        assert not GAME.is_over(state), f"seat {seat} has no turn left"
        mover = GAME.to_move(state)[0]
        state = GAME.apply(state, mover, GAME.default_move(state, mover))
    return state


# -- random play --------------------------------------------------------------------------


PROGRESS = ("finish", "school", "choose", "pay", "use", "discard", "start", "keep", "take",
            "get", "to", "give", "from")


def pick(rng: random.Random, state: dict, seat: int, patience: float = 0.8) -> str:
    """A random legal move, leaning towards moves that make progress so that games end
    in a few hundred steps: a uniform walk keeps opening and leaving menus."""
    moves = GAME.legal_moves(state, seat)
    onward = [m for m in moves if m.split()[0] in PROGRESS]
    if onward and rng.random() < patience:
        return rng.choice(onward)
    return rng.choice(moves)


def random_steps(players: int, seed: int, riga: bool = False,
                 game_seed: str | None = None) -> Iterator[tuple[dict, int, str]]:
    """``(state, seat, move)`` for every move of a random game."""
    rng = random.Random(seed)
    state = GAME.setup(players, {"riga": riga}, game_seed or f"seed-{seed}")
    while not GAME.is_over(state):
        seat = rng.choice(GAME.to_move(state))
        move = pick(rng, state, seat)
        yield state, seat, move
        state = GAME.apply(state, seat, move)


def run_winter_with(state: dict, waren: dict[str, int], gebaeude: list[str],
                    seat: int = 0) -> dict:
    """Default moves to the last turn of year 1, then ``seat`` holds the given hand
    when the winter begins."""
    n = state["players"]
    while not (state["season"] == "autumn" and state["turn_index"] == n - 1
               and state["phase"] == "build"):
        mover = GAME.to_move(state)[0]
        state = GAME.apply(state, mover, GAME.default_move(state, mover))
    give_hand(state, seat, waren, gebaeude)
    return GAME.apply(state, state["current"], "end")
