"""Random legal games of Tallinn, with hypothesis, checked at every step.

Every move of a game is drawn by hypothesis (a game lasts at most 11 rounds,
so it always ends), which lets it shrink a failure to a short game.  What
must hold:

* every card of each seat's set is in exactly one place: hand, pile, display
  or towers; a pending choice is a hand card; start cards differ;
* ``apply`` changes nothing in the state it is given, the new state survives
  a JSON round trip, and a state read back from JSON plays on the same;
* each seat to move has a legal move and every menu fits ``MENU_CAP``; seats
  not to move have none;
* points change only when contests are resolved, by exactly what a recount
  of those contests gives (written here afresh, from the data file);
* the game ends within the rounds the rulebook allows; the final scores are
  the points before plus a recount of the final scoring; ranks and winners
  follow the tie-breaker; replaying seed and moves gives the same state.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.games.protocol import MENU_CAP
from pbem.games.tallinn import GAME, data

ESTATES = ("K", "R", "M")


def persons(card: str, half: str) -> Counter:
    h = data.karte(card).half(half)
    return Counter({"K": h.K, "R": h.R, "M": h.M})


def display(state, seat) -> Counter:
    start = data.STARTKARTEN[state["start"][seat]].persons
    total = Counter({"K": start.K, "R": start.R, "M": start.M})
    for card, half in state["display"][seat]:
        total += persons(card, half)
    return Counter({e: total[e] for e in ESTATES})


def check_cards(state) -> None:
    assert len(set(state["start"])) == state["players"]
    full = Counter([str(n) for n in range(1, 11)] + (["L"] if state["options"]["legat"] else []))
    for seat in range(state["players"]):
        where = (state["hand"][seat] + state["pile"][seat]
                 + [c for c, _ in state["display"][seat]]
                 + [t["card"] for t in state["towers"][seat]])
        assert Counter(where) == full, (seat, where)
        chosen = state["chosen"][seat]
        assert chosen is None or chosen[0] in state["hand"][seat]


def expected_contests(state) -> list[int]:
    """The points this round's contests give, recounted from the displays."""
    n = state["players"]
    counts = [display(state, s) for s in range(n)]
    gains = [0] * n
    for seat in range(n):
        played = state["played"][seat]
        if played is None:
            continue
        half = data.karte(played[0]).half(played[1])
        if half.muenze:
            estate, extra = next(e for e in ESTATES if getattr(half, e)), 0
        elif half.wappen:
            estate, extra = state["legat"][seat], 2
        else:
            continue
        mine = counts[seat][estate] + extra
        for other in range(n):
            theirs = counts[other][estate]
            if other != seat:
                gains[seat] += 2 if mine > theirs else 1 if mine == theirs > 0 else 0
    return gains


def pair(mine, theirs, more, tie) -> int:
    return more if mine > theirs else tie if mine == theirs > 0 else 0


def estate_points(mine, others) -> int:
    total = 0
    for theirs in others:
        for e in ESTATES:
            total += pair(mine[e], theirs[e], 4, 2)
            total += (mine[e] - theirs[e] >= 5) - (theirs[e] - mine[e] >= 5)
    return total


def recount_final(state) -> tuple[list[int], list[int]]:
    """The final scoring from the rulebook, afresh: gains and persons on towers."""
    n = state["players"]
    base = [display(state, s) for s in range(n)]
    counts = [Counter(c) for c in base]
    for seat in range(n):
        # "Liegt die Karte ‚Legat des Kaisers' bei Spielende in Deiner Auslage": either half
        if any(card == "L" for card, _ in state["display"][seat]):
            low = min(base[seat].values())
            weakest = [e for e in ESTATES if base[seat][e] == low]
            others = [base[o] for o in range(n) if o != seat]
            best = max(weakest, key=lambda e: (
                estate_points(base[seat] + Counter({e: 2}), others), -ESTATES.index(e)))
            counts[seat][best] += 2
    towers = []
    for seat in range(n):
        t = Counter({e: 0 for e in ESTATES})
        for tower in state["towers"][seat]:
            t += persons(tower["card"], "a") + persons(tower["card"], "b")
        t = Counter({e: t[e] for e in ESTATES})
        if any(tower["card"] == "L" for tower in state["towers"][seat]):
            t[next(e for e in ESTATES if t[e] == min(t.values()))] += 2
        towers.append(t)
    value = [max(t.values()) for t in towers]
    gains = []
    for seat in range(n):
        others = [counts[o] for o in range(n) if o != seat]
        g = estate_points(counts[seat], others)
        g += sum(pair(value[seat], value[o], 6, 3) for o in range(n) if o != seat)
        gains.append(g)
    return gains, [sum(t.values()) for t in towers]


def check_step(before, seat, move, after) -> None:
    n = before["players"]
    resolved = (before["phase"] in ("choose", "legat") and after["phase"] != "legat"
                and after["decision"] != before["decision"])
    points = after["final"]["before"] if after["phase"] == "over" else after["points"]
    if resolved:
        gains = expected_contests(after)
        assert [points[s] - before["points"][s] for s in range(n)] == gains
    else:
        assert points == before["points"]
    assert after["round"] in (before["round"], before["round"] + 1)
    assert after["round"] <= (11 if before["options"]["legat"] else 10)


def play_checked(draw, players: int, options: dict):
    seed = draw(st.text(alphabet="0123456789abcdef", min_size=1, max_size=8), label="seed")
    state = GAME.setup(players, options, seed)
    moves = []
    check_cards(state)
    # the state as JSON, made once per state: read back it is both the copy that shows
    # ``apply`` changed nothing (the same as a deepcopy, as every state survives JSON:
    # checked below for each new state and here for the first) and the state read back
    as_json = json.dumps(state)
    assert json.loads(as_json) == state
    while not GAME.is_over(state):
        seats = GAME.to_move(state)
        assert seats, "nobody to move in a running game"
        for other in range(players):
            legal = GAME.legal_moves(state, other)
            assert (other in seats) == bool(legal)
            assert len(legal) <= MENU_CAP
        seat = draw(st.sampled_from(seats))
        move = draw(st.sampled_from(GAME.legal_moves(state, seat)))
        frozen = json.loads(as_json)
        after = GAME.apply(state, seat, move)
        assert state == frozen, f"apply changed its input state ({seat}: {move})"
        after_json = json.dumps(after)
        assert json.loads(after_json) == after
        assert GAME.apply(json.loads(as_json), seat, move) == after
        check_step(state, seat, move, after)
        check_cards(after)
        moves.append((seat, move))
        state, as_json = after, after_json
    return seed, moves, state


def check_result(state) -> None:
    n = state["players"]
    assert GAME.to_move(state) == [] and all(not h for h in state["hand"])
    assert all(not p for p in state["pile"])
    gains, tower_persons = recount_final(state)
    assert state["final"]["gain"] == gains
    assert [state["final"]["before"][s] + gains[s] for s in range(n)] == state["points"]
    result = GAME.result(state)
    assert result.scores == state["points"] == GAME.scores(state)
    keys = [(state["points"][s], tower_persons[s]) for s in range(n)]
    assert result.tiebreaks == [[p] for p in tower_persons]
    assert result.ranks == [1 + sum(k > keys[s] for k in keys) for s in range(n)]
    assert result.winners == [s for s in range(n) if keys[s] == max(keys)]


def check_replay(seed, players, options, moves, state) -> None:
    again = GAME.setup(players, options, seed)
    for seat, move in moves:
        again = GAME.apply(again, seat, move)
    assert again == state


OPTIONS = [{}, {"legat": True}, {"tower_order": True}, {"legat": True, "tower_order": True}]


@pytest.mark.parametrize("options", OPTIONS, ids=["base", "legat", "order", "both"])
@pytest.mark.parametrize("players", [2, 3, 4])
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_random_games_keep_every_invariant(players, options, data):
    seed, moves, state = play_checked(data.draw, players, options)
    check_result(state)
    check_replay(seed, players, options, moves, state)


def test_the_invariant_checks_can_fail():
    state = GAME.setup(3, None, "x")
    state["hand"][0] = state["hand"][0][1:]
    with pytest.raises(AssertionError):
        check_cards(state)
    state = GAME.setup(2, None, "x")
    state["pile"][1].append(state["hand"][1][0])
    with pytest.raises(AssertionError):
        check_cards(state)
