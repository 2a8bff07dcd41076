"""Riga's engine: payment, functions, private draws, years, menus (ENGINE's own tests;
the rulebook examples and properties are in the other files of this folder)."""

from __future__ import annotations

import random

import pytest

from pbem.games.protocol import EVERYTHING, MENU_CAP, IllegalMoveError
from pbem.games.riga import GAME, data, rules
from pbem.games.riga.moves import parse


def first_turn(players: int = 2, riga: bool = False, seed: str = "engine") -> dict:
    """A game at the first take phase, every setup step played by default."""
    state = GAME.setup(players, {"riga": riga}, seed)
    while state["phase"] in ("choose_start", "keep"):
        seat = GAME.to_move(state)[0]
        state = GAME.apply(state, seat, GAME.default_move(state, seat))
    assert state["phase"] == "take"
    return state


def at_build(state: dict, waren: dict[str, int], gebaeude: list[str]) -> dict:
    """The current seat in its build phase with exactly this hand."""
    s = rules._copy(state)
    seat = s["current"]
    s["phase"] = "build"
    s["hand"][seat] = {"waren": {w: waren.get(w, 0) for w in data.WAREN},
                       "gebaeude": list(gebaeude)}
    return s


def build(state: dict, seat: int, ident: str, turn_offset: int = -1) -> None:
    """Put ``ident`` into ``seat``'s display, built ``turn_offset`` turns from now."""
    face = 0 if ident == "Wechselstube" else None
    state["display"][seat].append({"id": ident, "built_turn": state["turn"] + turn_offset,
                                   "used": False, "face": face})


def play(state: dict, seat: int, *moves: str) -> dict:
    for move in moves:
        state = GAME.apply(state, seat, move)
    return state


def test_the_rulebook_values_are_in_the_data():
    assert data.gebaeude("Markthalle-Danzig").kosten == 8
    assert data.STADTWERT["Danzig"]["Tuch"] == 5
    assert (data.gebaeude("Archiv-Visby").kosten
            + data.gebaeude("Schatzkammer-Visby").kosten) == 16
    visby = data.STADTWERT["Visby"]
    assert 2 * visby["Wein"] + visby["Getreide"] + visby["Glas"] == 16
    assert data.LOGE_PUNKTE[3] == 19
    # each commodity +2 in one city and unusable in one (the interview)
    for ware in data.WAREN:
        values = [data.STADTWERT[c][ware] for c in data.STAEDTE]
        assert values.count(None) == 1
        assert values.count(data.WERT[ware] + 2) == 1


def test_joint_payment_of_archiv_and_schatzkammer_in_visby():
    state = first_turn()
    seat = state["current"]
    state = at_build(state, {"Wein": 2, "Getreide": 1, "Glas": 1},
                     ["Archiv-Visby", "Schatzkammer-Visby"])
    state = play(state, seat, "build Archiv-Visby", "add Schatzkammer-Visby")
    assert rules.project_cost(state, state["project"]) == 16
    state = play(state, seat, "pay Wein", "pay Wein", "pay Getreide")
    assert "finish" not in GAME.legal_moves(state, seat)
    state = play(state, seat, "pay Glas")
    assert rules.project_paid(state, seat, state["project"]) == 16
    state = play(state, seat, "finish")
    assert [e["id"] for e in state["display"][seat]] == ["Archiv-Visby", "Schatzkammer-Visby"]
    assert sum(state["hand"][seat]["waren"].values()) == 0
    assert state["built_this_turn"] == 2


def test_markthalle_in_danzig_with_two_tuch_loses_two():
    state = first_turn()
    seat = state["current"]
    state = at_build(state, {"Tuch": 2}, ["Markthalle-Danzig"])
    state = play(state, seat, "build Markthalle-Danzig", "pay Tuch")
    assert "pay Tuch" in GAME.legal_moves(state, seat)
    state = play(state, seat, "pay Tuch")
    # paid 10 for 8: nothing more may be paid, the surplus is lost
    assert GAME.legal_moves(state, seat) == ["finish", "cancel"]
    state = play(state, seat, "finish")
    assert state["waren_discard"][-2:] == ["Tuch", "Tuch"]


def test_cancel_gives_everything_back():
    state = first_turn()
    seat = state["current"]
    state = at_build(state, {"Tuch": 1, "Glas": 1}, ["Kran-Danzig"])
    before = rules._copy(state)
    state = play(state, seat, "build Kran-Danzig", "pay Tuch", "cancel")
    assert state["hand"] == before["hand"] and state["project"] is None


def test_a_kran_halves_rounding_up_and_only_from_the_next_turn():
    state = first_turn()
    seat = state["current"]
    state = at_build(state, {"Getreide": 2}, ["Schatzkammer-Danzig"])  # cost 8, Korn "–"
    build(state, seat, "Kran-Visby", turn_offset=0)  # erected this very turn
    assert "build Schatzkammer-Danzig" not in GAME.legal_moves(state, seat)
    state["display"][seat][0]["built_turn"] -= 1  # a turn ago: usable now
    state["hand"][seat]["waren"] = {"Tuch": 1, "Glas": 0, "Wein": 0, "Getreide": 0}
    state = play(state, seat, "build Schatzkammer-Danzig", "use Kran")
    assert rules.project_cost(state, state["project"]) == 4
    state = play(state, seat, "pay Tuch", "finish")
    assert state["display"][seat][0]["used"]


def test_kran_rounds_an_odd_cost_up():
    project = {"stadt": "Visby", "buildings": ["Manufactur-Visby"], "paid": {},
               "functions": ["Kran-Visby"]}
    assert data.gebaeude("Manufactur-Visby").kosten == 7
    assert rules.project_cost({"options": {}}, project) == 4
    assert rules.project_cost({"options": {"kran_abrunden": True}}, project) == 3


def test_markthalle_and_manufactur_values():
    state = first_turn()
    seat = state["current"]
    assert rules.ware_value(state, seat, "Getreide", "Danzig") is None
    build(state, seat, "Markthalle-Danzig")  # shows Getreide
    assert rules.ware_value(state, seat, "Getreide", "Danzig") == 2
    build(state, seat, "Manufactur-Tallinn")  # shows Getreide
    assert rules.ware_value(state, seat, "Getreide", "Danzig") == 3
    assert rules.ware_value(state, seat, "Getreide", "Tallinn") == 5


def test_bank_and_wirtshaus_count_persons_of_earlier_turns_only():
    state = first_turn()
    seat = state["current"]
    build(state, seat, "Gildenhaus-Visby")
    build(state, seat, "Festung-Visby", turn_offset=0)
    assert rules.persons(state, seat) == (0, 2)
    assert rules.function_money(state, seat, "Bank") == 4
    assert rules.function_money(state, seat, "Wirtshaus") == 0


def test_bauhof_draw_is_private_and_a_commit_point_that_ends_no_turn():
    state = first_turn()
    seat = state["current"]
    build(state, seat, "Bauhof-Visby")
    assert "use Bauhof" in GAME.legal_moves(state, seat)
    after = GAME.apply(state, seat, "use Bauhof")
    cards = after["pending_draw"]["cards"]
    assert len(cards) == 5
    assert GAME.is_commit_point(state, seat, "use Bauhof", after)
    assert not GAME.turn_over(state, seat, "use Bauhof", after)
    other = 1 - seat
    assert cards[0] in GAME.describe(state, seat, "use Bauhof", after, seat)
    assert cards[0] in GAME.describe(state, seat, "use Bauhof", after, EVERYTHING)
    assert cards[0] not in GAME.describe(state, seat, "use Bauhof", after, other)
    assert GAME.view(after, other)["pending_draw"] is None
    assert GAME.view(after, seat)["pending_draw"]["cards"] == cards
    assert GAME.legal_moves(after, seat) == [f"choose {c}" for c in cards] + ["choose none"]
    done = GAME.apply(after, seat, f"choose {cards[2]}")
    assert cards[2] in done["hand"][seat]["gebaeude"]
    assert cards[2] not in GAME.describe(after, seat, f"choose {cards[2]}", done, other)


def test_wechselstube_charge_ends_the_turn():
    state = first_turn(riga=True)
    seat = state["current"]
    state = at_build(state, {"Getreide": 3, "Tuch": 1}, [])
    build(state, seat, "Wechselstube")
    state["riga_left"][seat].remove("Wechselstube")
    state = play(state, seat, "charge", "discard Getreide", "discard Getreide")
    assert state["current"] == seat
    after = GAME.apply(state, seat, "discard Getreide")
    assert after["current"] != seat or after["turn"] != state["turn"]
    assert after["display"][seat][0]["face"] == 8
    assert rules.money(after, seat) == 5 + 8


def test_turn_ends_only_with_end_and_the_take_is_obligatory():
    state = first_turn()
    seat = state["current"]
    assert "end" not in GAME.legal_moves(state, seat)
    state = GAME.apply(state, seat, GAME.default_move(state, seat))
    assert "end" in GAME.legal_moves(state, seat) or any(
        m.startswith("menu") for m in GAME.legal_moves(state, seat))
    with pytest.raises(IllegalMoveError):
        GAME.apply(state, 1 - seat, "end")


@pytest.mark.parametrize("players, years", [(2, 8), (3, 9), (4, 8)])
def test_the_game_lasts_its_years(players, years):
    rng = random.Random(players)
    state = GAME.setup(players, {"riga": True}, f"years{players}")
    springs = 0
    while not GAME.is_over(state):
        seat = GAME.to_move(state)[0]
        before_year = state["year"]
        state = GAME.apply(state, seat, GAME.bot_move(state, seat, rng))
        springs += state["year"] != before_year
    assert springs == years == state["year"]


def test_a_huge_hand_still_fits_every_menu():
    state = first_turn()
    seat = state["current"]
    many = [b for b in sorted(data.GEBAEUDE) if b.endswith("Visby")] + [
        "Kran-Danzig", "Loge-Danzig", "Bank-Tallinn"]
    state = at_build(state, {"Tuch": 9, "Glas": 9, "Wein": 9, "Getreide": 9}, many)
    for art in ("Kontor", "Bank", "Wirtshaus", "Kran", "Bauhof", "Schatzkammer"):
        for city in data.STAEDTE:
            build(state, seat, f"{art}-{city}")
    moves = GAME.legal_moves(state, seat)
    assert len(moves) <= MENU_CAP
    # every building can be reached through the menu steps
    for b in many:
        target = f"build {b}"
        s = state
        for _ in range(6):
            step = rules.route(s, seat, parse(target)).notation()
            assert step in GAME.legal_moves(s, seat)
            assert len(GAME.legal_moves(s, seat)) <= MENU_CAP
            s = GAME.apply(s, seat, step)
            if step == target:
                break
        assert s["project"] and s["project"]["buildings"] == [b]
    # and winter with all of them in hand
    state["phase"], state["current"] = "winter", None
    assert len(GAME.legal_moves(state, seat)) <= MENU_CAP


def test_the_bot_wins_most_games_against_random_play():
    from pbem.gamelog.selfplay import play_random_game

    games = 30
    won = sum(0 in GAME.result(play_random_game("riga", 2, seed, {}, bots=(0,))[1]).winners
              for seed in range(1, games + 1))
    assert won >= 0.9 * games


def test_the_kloster_swaps_two_cards_then_one_of_the_two_sets_is_taken():
    state = first_turn(riga=True)
    seat = state["current"]
    build(state, seat, "Kloster")
    state["riga_left"][seat].remove("Kloster")
    state["sets"] = [["Tuch", "Getreide", "Getreide"], ["Wein", "Wein", "Wein"],
                     ["Glas", "Glas", "Getreide"], ["Tuch", "Tuch"]]
    assert "kloster" in GAME.legal_moves(state, seat)
    state = play(state, seat, "kloster")
    assert "from 2" in GAME.legal_moves(state, seat) and "back" in GAME.legal_moves(state, seat)
    state = play(state, seat, "from 2", "give Wein")
    # set 2 holds only Wein: a swap with it must bring another commodity
    assert "to 4" in GAME.legal_moves(state, seat)
    state = play(state, seat, "to 4")
    assert GAME.legal_moves(state, seat) == ["get Tuch", "back"]
    state = play(state, seat, "get Tuch")
    assert state["sets"][1] == ["Wein", "Wein", "Tuch"] and state["sets"][3] == ["Tuch", "Wein"]
    assert GAME.legal_moves(state, seat) == ["take set 2", "take set 4"]
    assert state["display"][seat][0]["used"]
    state = play(state, seat, "take set 2")
    assert state["hand"][seat]["waren"]["Tuch"] >= 1 and state["phase"] == "build"
    assert len(state["sets"]) == 3


def test_abandoning_the_kloster_keeps_it_unused():
    state = first_turn(riga=True)
    seat = state["current"]
    build(state, seat, "Kloster")
    state = play(state, seat, "kloster", "from 1", "back")
    assert state["sub"] is None and not state["display"][seat][0]["used"]
    assert "kloster" in GAME.legal_moves(state, seat)


def test_the_schule_face_is_chosen_when_built_and_counts_from_the_next_turn():
    state = first_turn(riga=True)
    seat = state["current"]
    state = at_build(state, {"Tuch": 2}, [])
    state = play(state, seat, "build Schule", "pay Tuch", "pay Tuch", "finish")
    assert GAME.legal_moves(state, seat) == ["school Ritter", "school Kaufmann"]
    state = play(state, seat, "school Kaufmann")
    assert rules.persons(state, seat) == (0, 0)  # not in the turn it was built
    assert rules.persons(state, seat, active_only=False) == (0, 1)
    assert "Schule" not in state["riga_left"][seat]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_lowest_reveal_names_the_start_player_ties_nearest_the_preliminary(players):
    ties = 0
    for k in range(40):
        state = GAME.setup(players, None, f"start{k}")
        prelim = state["prelim"]
        totals = [sum(data.WERT[w] for w in state["revealed"][s]) for s in range(players)]
        assert all(t >= 6 and t - data.WERT[state["revealed"][s][-1]] < 6
                   for s, t in enumerate(totals))
        clockwise = [(prelim + i) % players for i in range(players)]
        lowest = min(totals)
        ties += totals.count(lowest) > 1
        assert GAME.to_move(state) == [next(s for s in clockwise if totals[s] == lowest)]
        assert GAME.legal_moves(state, GAME.to_move(state)[0]) == [
            f"start {s + 1}" for s in range(players)]
    assert ties > 0


def test_the_timeout_move_in_the_last_winter_discards_hand_buildings_first():
    """In the last winter a hand building would cost 2 points at the end, a commodity
    only tie-break money: the timeout discards the building; in an earlier winter the
    cheapest commodity."""
    state = GAME.setup(2, None, 5)
    while state["phase"] not in ("take", "build"):
        seat = GAME.to_move(state)[0]
        state = GAME.apply(state, seat, GAME.default_move(state, seat))
    state = dict(state, phase="winter", season="winter", current=None)
    state["hand"] = [{"waren": {"Tuch": 2, "Glas": 0, "Wein": 0, "Getreide": 5},
                      "gebaeude": ["Loge-Visby"]},
                     {"waren": {"Tuch": 0, "Glas": 0, "Wein": 0, "Getreide": 0},
                      "gebaeude": []}]
    assert GAME.to_move(state) == [0]
    assert GAME.default_move(state, 0) == "discard Getreide"
    state["year"] = state["years"]
    assert GAME.default_move(state, 0) == "discard Loge-Visby"
