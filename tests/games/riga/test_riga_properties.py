"""Random legal games of Riga, with hypothesis, checked at every step.

Every move is drawn by hypothesis from the menu the seat has now (a step of at
most 12 choices).  A uniform walk keeps
opening and leaving menus and cancelling projects; so before each move
hypothesis also draws whether to keep to moves that make progress (pay,
finish, take, choose…), which keeps a game to a few hundred steps.  Games run
to the end: 2, 3 and 4 players, with and without the Riga buildings.

What must hold:

* all 110 cards are always accounted for: 44 commodities, 48 buildings, and
  4 Riga buildings per seat when the option is on, each in exactly one place;
* ``apply`` changes nothing in the state it is given; the new state survives a
  JSON round trip and a state read back from JSON plays on the same;
* the seats to move have a move, the others none, every menu step has at most
  ``MENU_CAP`` choices, and a turn erects at most 3 buildings;
* after each winter every hand holds at most its limit (6, 8 with a Speicher);
* the game lasts its 8 (9 with 3 players) years; the final scores equal a
  recount from the final state (written here afresh, from the data file), and
  ranks and winners follow points, then money, then a shared place;
* replaying the seed and the move log gives the same final state.

Examples are few (``max_examples``) so that the whole file runs in seconds in
CI; set ``RIGA_EXAMPLES`` to run more locally.  Shrinking is off (see ``PHASES``).
"""

from __future__ import annotations

import copy
import json
import os
from collections import Counter

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from riga_helpers import (
    PROGRESS,
    all_moves,
    building_turn,
    check_census,
    play,
    random_steps,
    run_winter_with,
    started,
)

from pbem.games.protocol import MENU_CAP, MoveError
from pbem.games.riga import GAME, data

EXAMPLES = int(os.environ.get("RIGA_EXAMPLES", "4"))
#: no shrinking: a game is hundreds of draws, and shrinking one took minutes on a
#: failure; the failing game is reported with every draw, so it replays as it is
PHASES = (Phase.explicit, Phase.reuse, Phase.generate)


# -- a recount of the final scoring, from the rulebook and the data file --------------------


def recount(state, seat) -> tuple[int, int]:
    """(victory points, money) of ``seat`` at the end, counted afresh."""
    cards = [data.gebaeude(e["id"]) for e in state["display"][seat]]
    ritter = sum(g.ritter for g in cards)
    kaufleute = sum(g.kaufleute for g in cards)
    for e in state["display"][seat]:
        if e["id"] == "Schule":
            ritter += e["face"] == "Ritter"
            kaufleute += e["face"] == "Kaufmann"
    arts = Counter(g.art for g in cards)
    points = sum(g.punkte for g in cards)
    points += arts["Archiv"] * 2 * min(ritter, kaufleute, 3)
    points += data.LOGE_PUNKTE[arts["Loge"]]
    points -= 2 * len(state["hand"][seat]["gebaeude"])
    points -= 2 * len(state["riga_left"][seat])
    money = sum(data.WERT[w] * k for w, k in state["hand"][seat]["waren"].items())
    for e in state["display"][seat]:
        art = data.gebaeude(e["id"]).art
        if art == "Wechselstube":
            money += 8 if e["face"] == 8 else 0
        elif not e["used"]:
            money += {"Kontor": 4, "Bank": 2 * kaufleute, "Wirtshaus": 2 * ritter}.get(art, 0)
    return points, money


def hand_size(state, seat) -> int:
    return sum(state["hand"][seat]["waren"].values()) + len(state["hand"][seat]["gebaeude"])


def limit(state, seat) -> int:
    return 8 if any(e["id"] == "Speicher" for e in state["display"][seat]) else 6


# -- checks at every step ------------------------------------------------------------------


def check_menus(state) -> None:
    seats = GAME.to_move(state)
    assert seats, "nobody to move in a running game"
    for seat in range(state["players"]):
        legal = GAME.legal_moves(state, seat)
        assert (seat in seats) == bool(legal), (seat, seats, legal)
        assert len(legal) <= MENU_CAP, (seat, legal)
        assert len(set(legal)) == len(legal), legal


def check_step(before, seat, move, after) -> None:
    assert after["built_this_turn"] <= 3
    assert len(after["sets"]) <= after["players"] + 2
    assert len(after["row"]) <= after["players"] + 2
    winter_over = (before["phase"] != "keep" and after["year"] != before["year"]
                   or after["phase"] == "over")
    if winter_over:  # the winter (with or without discards) has just ended
        assert before["season"] in ("autumn", "winter")
        for s in range(after["players"]):
            assert hand_size(after, s) <= limit(after, s), (s, after["hand"][s])
    if after["year"] != before["year"]:
        assert after["year"] == before["year"] + 1
        assert after["start"] == (before["start"] + (before["phase"] != "keep")) % (
            before["players"])
        n = after["players"]
        assert len(after["sets"]) == n + 2
        # every set is dealt (or topped up) to 9 ducats, unless both commodity piles ran
        # dry, the players holding the rest: then sets stay short, the engine's reading
        short = [c for c in after["sets"] if sum(data.WERT[w] for w in c) < 9]
        assert not short or (not after["waren_pile"] and not after["waren_discard"]), (
            after["sets"], len(after["waren_pile"]))
    assert after["year"] <= after["years"]


WRONG = ("take set 9", "take Loge-Visby", "pay Tuch", "finish", "end", "build Kloster",
         "use Kran", "discard Getreide", "start 1", "choose none", "school Ritter", "get Wein")


def check_refusal(state, seat, draw, frozen) -> None:
    """A move the seat may not make now is refused, with a reason, and changes nothing
    (``frozen`` is a copy of ``state`` made beforehand)."""
    moves = all_moves(state, seat)  # once, not once per wrong move
    wrong = [m for m in WRONG if m not in moves]
    move = draw(st.sampled_from(wrong))
    with pytest.raises(MoveError) as refused:
        GAME.apply(state, seat, move)
    assert str(refused.value) and state == frozen


def play_checked(draw, players: int, riga: bool):
    seed = draw(st.text(alphabet="0123456789abcdef", min_size=1, max_size=8), label="seed")
    options = {"riga": riga}
    state = GAME.setup(players, options, seed)
    check_census(state)
    # the state as JSON, made once per state: read back it is the copy that shows
    # ``apply`` changed nothing (the same as a deepcopy, as every state survives JSON:
    # checked below for each new state and here for the first)
    as_json = json.dumps(state)
    assert json.loads(as_json) == state
    moves = []
    while not GAME.is_over(state):
        check_menus(state)
        seat = draw(st.sampled_from(GAME.to_move(state)))
        legal = GAME.legal_moves(state, seat)
        if len(moves) % 5 == 0:  # the menu people read is the same list, labelled
            for lang in ("en", "de"):
                menu = GAME.menu(state, seat, lang)
                assert [c.move for c in menu] == legal and all(c.label for c in menu)
        onward = [m for m in legal if m.split()[0] in PROGRESS]
        if onward and draw(st.integers(0, 9)) < 8:
            legal = onward
        move = draw(st.sampled_from(legal))
        frozen = json.loads(as_json)
        check_refusal(state, seat, draw, frozen)
        after = GAME.apply(state, seat, move)
        assert state == frozen, f"apply changed its input state ({seat}: {move})"
        as_json = json.dumps(after)
        assert json.loads(as_json) == after
        check_step(state, seat, move, after)
        check_census(after)
        moves.append((seat, move))
        state = after
    return seed, moves, state


def check_result(state) -> None:
    n = state["players"]
    assert GAME.to_move(state) == [] and state["year"] == state["years"]
    assert state["separated"] == []
    recounted = [recount(state, s) for s in range(n)]
    result = GAME.result(state)
    assert result.scores == [p for p, _ in recounted] == GAME.scores(state)
    assert [f["total"] for f in state["final"]] == result.scores
    assert result.tiebreaks == [[m] for _, m in recounted]
    assert result.ranks == [1 + sum(k > recounted[s] for k in recounted) for s in range(n)]
    assert result.winners == [s for s in range(n) if recounted[s] == max(recounted)]
    for s in range(n):
        assert hand_size(state, s) <= limit(state, s)


def check_replay(seed, players, options, moves, state) -> None:
    again = GAME.setup(players, options, seed)
    for seat, move in moves:
        again = GAME.apply(again, seat, move)
    assert again == state


@pytest.mark.parametrize("riga", [False, True], ids=["base", "riga"])
@pytest.mark.parametrize("players", [2, 3, 4])
@settings(max_examples=EXAMPLES, deadline=None, phases=PHASES,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_random_games_keep_every_invariant(players, riga, data):
    seed, moves, state = play_checked(data.draw, players, riga)
    check_result(state)
    check_replay(seed, players, {"riga": riga}, moves, state)
    assert len(moves) > 4 * players * data_years(players)  # a real game was played


def data_years(players: int) -> int:
    return 9 if players == 3 else 8


# -- the checks can fail -----------------------------------------------------------------


def test_the_invariant_checks_can_fail():
    state = GAME.setup(3, {"riga": True}, "x")
    check_census(state)
    lost = copy.deepcopy(state)
    lost["waren_pile"].pop()
    with pytest.raises(AssertionError):
        check_census(lost)
    doubled = copy.deepcopy(state)
    doubled["bau_discard"].append(doubled["bau_pile"][0])
    with pytest.raises(AssertionError):
        check_census(doubled)
    riga_lost = copy.deepcopy(state)
    riga_lost["riga_left"][1].remove("Kloster")
    with pytest.raises(AssertionError):
        check_census(riga_lost)


def test_the_recount_is_not_the_engines_own():
    """The recount reads the data file itself: a display of 3 Logen, an Archiv with 5
    Ritter and 2 Kaufleute and a building in hand."""
    state = GAME.setup(2, {"riga": False}, "x")
    state["display"][0] = [{"id": b, "built_turn": 0, "used": False, "face": None} for b in (
        "Loge-Visby", "Loge-Tallinn", "Loge-Danzig", "Archiv-Visby", "Festung-Visby",
        "Festung-Tallinn", "Schatzkammer-Danzig", "Gildenhaus-Visby", "Kontor-Visby")]
    state["hand"][0] = {"waren": {"Tuch": 1, "Glas": 0, "Wein": 0, "Getreide": 0},
                        "gebaeude": ["Kran-Visby"]}
    seals = sum(data.gebaeude(e["id"]).punkte for e in state["display"][0])
    # Kaufleute: Gildenhaus 2 + Kontor 1 = 3; Ritter 5: 3 sets
    assert recount(state, 0) == (seals + 19 + 6 - 2, 5 + 4)


# -- every legal move is reachable through menu steps of at most 12 --------------------------

NAVIGATION = ("menu", "more", "back")


def explore(state, seat) -> set[str]:
    """Every move reached from the seat's menu by opening groups and paging; each step
    checked against ``MENU_CAP``."""
    seen: set[tuple[str, ...]] = set()  # menus already listed (pages cycle round)
    reached: set[str] = set()
    todo = [state]
    while todo:
        current = todo.pop()
        legal = GAME.legal_moves(current, seat)
        assert 0 < len(legal) <= MENU_CAP, legal
        if tuple(legal) in seen:
            continue
        seen.add(tuple(legal))
        for move in legal:
            if move.split()[0] in NAVIGATION and not (
                    move == "back" and (current["sub"] or {}).get("kind") != "menu"):
                todo.append(GAME.apply(current, seat, move))
            else:
                reached.add(move)
        assert len(seen) < 40, "the menus do not close"
    return reached


def check_reachable(state) -> None:
    for seat in GAME.to_move(state):
        assert explore(state, seat) >= all_moves(state, seat)


@pytest.mark.parametrize("players", [2, 4])
def test_every_move_of_random_games_is_reachable_through_small_menus(players):
    checked = 0
    for n, (state, _seat, _move) in enumerate(random_steps(players, 11, riga=True)):
        if n % 3 == 0 and (state["sub"] or {}).get("kind") != "menu":
            check_reachable(state)
            checked += 1
    assert checked > 50


def test_huge_hands_still_fit_the_menus():
    visby = sorted(b for b in data.GEBAEUDE if b.endswith("-Visby"))
    danzig = sorted(b for b in data.GEBAEUDE if b.endswith("-Danzig"))
    state = building_turn(0, {"Glas": 10, "Wein": 12, "Tuch": 8}, visby[:11] + danzig,
                          players=4, riga=True)
    assert len(all_moves(state, 0)) > MENU_CAP
    check_reachable(state)
    project = play(state, 0, "build Archiv-Visby")
    assert len(all_moves(project, 0)) > MENU_CAP - 2
    check_reachable(project)
    winter = run_winter_with(started(4, riga=True), {"Getreide": 14, "Glas": 10},
                             visby + danzig[:6])
    assert winter["phase"] == "winter"
    assert len(all_moves(winter, 0)) > MENU_CAP
    check_reachable(winter)


