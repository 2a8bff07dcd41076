"""Riga's rules one at a time, through ``GAME.apply`` from arranged tables.

Sections follow the German rulebook (../shared/rules/riga-de.txt):
Spielvorbereitung, Spielablauf (years), Frühling, Sommer/Herbst, Winter,
Spielende, Gebäude-Funktionen and the Riga-Gebäude.  Arranged tables come from
``riga_helpers``; moves are the game's notation.
"""

from __future__ import annotations

from collections import Counter

import pytest
from riga_helpers import (
    building_turn,
    check_census,
    entry,
    finish_turns_until,
    give_display,
    give_hand,
    hand_waren,
    new_game,
    play,
    play_out,
    set_sets,
    started,
)

from pbem.games.protocol import IllegalMoveError, MalformedMoveError
from pbem.games.riga import GAME, data, rules
from pbem.games.riga.moves import Add


def value(cards) -> int:
    return sum(data.WERT[w] for w in cards)


def project_view(state, viewer=0):
    return GAME.view(state, viewer)["project"]


def hand_size(state, seat) -> int:
    return sum(state["hand"][seat]["waren"].values()) + len(state["hand"][seat]["gebaeude"])


def step_default(state):
    seat = GAME.to_move(state)[0]
    return GAME.apply(state, seat, GAME.default_move(state, seat))


def run_to_last_turn_of_year(state):
    """Default moves until the last autumn turn of this year is in its build phase."""
    n = state["players"]
    while not (state["season"] == "autumn" and state["turn_index"] == n - 1
               and state["phase"] == "build"):
        state = step_default(state)
    return state


# -- Spielvorbereitung: start player, keep 1 of 2 ---------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_each_seat_reveals_commodities_until_6_clockwise_from_the_preliminary_start(players):
    for i in range(15):
        state = new_game(players, seed=f"reveal-{i}")
        prelim = state["prelim"]
        order = [(prelim + k) % players for k in range(players)]
        reveals = [line for line in state["log"] if " reveals " in line]
        assert [int(line[1]) for line in reveals] == order  # "{s} reveals ..."
        for seat in range(players):
            shown = state["revealed"][seat]
            assert value(shown) >= 6  # "bis der Gesamtwert der Waren 6 erreicht"
            assert value(shown[:-1]) < 6  # stops at once
            assert hand_waren(state, seat) == dict(Counter(shown))  # "Nehmt die Waren auf die Hand"
        check_census(state)


def test_the_lowest_total_names_the_start_player_ties_go_clockwise_from_the_preliminary():
    """ "Wer die kleinste Summe hat, bestimmt den endgültigen Startspieler ... Bei
    Gleichstand entscheidet der vorläufige Startspieler bzw. der am Gleichstand beteiligte,
    im Uhrzeigersinn ihm am nächsten sitzende Spieler." """
    seen = Counter()
    for players in (2, 3, 4):
        for i in range(40):
            state = new_game(players, seed=f"chooser-{i}")
            totals = [value(r) for r in state["revealed"]]
            low = min(totals)
            prelim = state["prelim"]
            expected = next((prelim + k) % players for k in range(players)
                            if totals[(prelim + k) % players] == low)
            assert GAME.to_move(state) == [expected]
            assert GAME.legal_moves(state, expected) == [f"start {k + 1}" for k in range(players)]
            for other in set(range(players)) - {expected}:
                assert GAME.legal_moves(state, other) == []
            seen["tie"] += totals.count(low) > 1
            seen["tie not at prelim"] += totals.count(low) > 1 and totals[prelim] != low
            seen["other chooses"] += expected != prelim
    assert seen["tie"] and seen["tie not at prelim"] and seen["other chooses"], seen


@pytest.mark.parametrize("named", [0, 1, 2])
def test_the_named_start_player_begins_the_summer(named):
    state = new_game(3)
    chooser = GAME.to_move(state)[0]
    state = play(state, chooser, f"start {named + 1}")
    assert state["start"] == named and state["phase"] == "keep"
    for seat in range(3):
        state = play(state, seat, f"keep {state['keep_offer'][seat][1]}")
    assert state["current"] == named and state["order"] == [(named + k) % 3 for k in range(3)]


def test_each_seat_keeps_one_of_two_buildings_in_secret_the_other_is_discarded():
    state = new_game(3)
    state = play(state, GAME.to_move(state)[0], "start 1")
    assert GAME.is_secret(state) and sorted(GAME.to_move(state)) == [0, 1, 2]
    offers = [list(o) for o in state["keep_offer"]]
    for seat in range(3):
        assert GAME.legal_moves(state, seat) == [f"keep {b}" for b in offers[seat]]
    with pytest.raises(IllegalMoveError):
        GAME.apply(state, 0, f"keep {offers[1][0]}")  # not one of its own two
    state = play(state, 0, f"keep {offers[0][1]}")
    assert GAME.to_move(state) == [1, 2] and GAME.legal_moves(state, 0) == []
    assert state["hand"][0]["gebaeude"] == []  # nothing is shown before all have chosen
    state = play(state, 1, f"keep {offers[1][0]}")
    state = play(state, 2, f"keep {offers[2][0]}")
    assert [h["gebaeude"] for h in state["hand"]] == [[offers[0][1]], [offers[1][0]],
                                                        [offers[2][0]]]
    assert {offers[0][0], offers[1][1], offers[2][1]} <= set(state["bau_discard"])
    assert not GAME.is_secret(state) and state["phase"] == "take"
    check_census(state)


# -- years -----------------------------------------------------------------------------------


@pytest.mark.parametrize("players, years", [(2, 8), (3, 9), (4, 8)])
def test_the_game_lasts_8_years_with_2_or_4_players_and_9_with_3(players, years):
    state = started(players)
    assert state["years"] == years and len(state["separated"]) == years - 1
    springs = [1]
    while not GAME.is_over(state):
        before = state["year"]
        state = step_default(state)
        if state["year"] != before:
            springs.append(state["year"])
    assert springs == list(range(1, years + 1))
    assert state["separated"] == [] and state["year"] == years


def test_the_separated_pile_gives_the_first_new_building_or_goes_onto_the_draw_pile():
    """ "jede Runde die erste Karte von diesem Stapel ziehen.  Sollte in einer Runde kein
    Gebäude gezogen werden, legt einfach die oberste Karte des gesonderten Stapels
    verdeckt auf den regulären Stapel." """
    state = started(2)
    row = list(state["row"])  # nobody takes a building: default moves take sets
    state = run_to_last_turn_of_year(state)
    top = state["separated"][-1]
    state = step_default(state)  # the last turn ends: winter, then spring
    while state["year"] == 1:
        state = step_default(state)
    assert state["row"] == row and state["below"] == 4  # no building needed
    assert state["bau_pile"][-1] == top and top not in state["row"]
    # year 3: last year's four lie below the card and go; four new, the first the
    # separated pile's top
    state = run_to_last_turn_of_year(state)
    top = state["separated"][-1]
    while state["year"] == 2:
        state = step_default(state)
    assert state["row"][0] == top and state["below"] == 0 and len(state["row"]) == 4
    assert set(row) <= set(state["bau_discard"])


# -- Frühling ---------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_spring_lays_out_players_plus_2_sets_of_at_least_9_and_players_plus_2_buildings(players):
    state = started(players)
    assert len(state["sets"]) == players + 2 and len(state["row"]) == players + 2
    for cards in state["sets"]:
        assert value(cards) >= 9 > value(cards[:-1])  # "9 Dukaten oder mehr"
    assert state["below"] == 0


def test_sets_left_over_stay_and_new_ones_are_dealt_up_to_players_plus_2():
    state = started(2)
    state = play(state, 0, "take set 2", "end")
    state = play(state, 1, "take set 1", "end")
    state = play(state, 1, f"take {state['row'][0]}", "end")
    state = play(state, 0, f"take {state['row'][0]}", "end")
    left = [list(c) for c in state["sets"]]
    while state["phase"] == "winter":
        state = step_default(state)
    assert state["year"] == 2 and len(left) == 2
    assert state["sets"][:2] == left and len(state["sets"]) == 4
    for cards in state["sets"][2:]:
        assert value(cards) >= 9 > value(cards[:-1])


def test_all_sets_untouched_stay_as_they_are():
    state = started(2)
    for _ in range(4):
        seat = state["current"]
        state = play(state, seat, f"take {state['row'][-1]}", "end")
    sets = [list(c) for c in state["sets"]]
    while state["year"] == 1:
        state = step_default(state)
    assert state["sets"] == sets


def test_a_leftover_set_under_9_is_topped_up_in_spring():
    """ "Spielt ihr mit den Riga-Gebäuden, können Reihen aus dem vergangenen Jahr einen
    Wert von weniger als 9 Dukaten aufweisen. Ergänzt diese Reihen." """
    state = run_to_last_turn_of_year(started(2, riga=True))
    set_sets(state, [["Getreide", "Getreide"], ["Tuch", "Tuch"]])
    pile = list(state["waren_pile"])
    state = play(state, state["current"], "end")
    while state["year"] == 1:
        state = step_default(state)
    short = state["sets"][0]
    assert short[:2] == ["Getreide", "Getreide"] and value(short) >= 9 > value(short[:-1])
    assert short[2:] == pile[::-1][:len(short) - 2]  # from the top of the draw pile
    assert state["sets"][1] == ["Tuch", "Tuch"]
    check_census(state)


def test_an_empty_commodity_pile_is_refilled_from_the_shuffled_discard_pile():
    state = run_to_last_turn_of_year(started(2))
    give_hand(state, 0, {})
    give_hand(state, 1, {})  # nobody discards in winter
    state["waren_discard"] += state["waren_pile"]
    state["waren_pile"] = []
    discard = Counter(state["waren_discard"])
    state = play(state, state["current"], "end")
    assert state["year"] == 2 and len(state["sets"]) == 4 and state["waren_discard"] == []
    dealt = Counter(w for cards in state["sets"] for w in cards)
    assert dealt + Counter(state["waren_pile"]) == discard  # every card from there
    for cards in state["sets"]:
        assert value(cards) >= 9 > value(cards[:-1])
    check_census(state)


def take_four_buildings(state):
    """Year 1 with every turn taking a row building, up to the last turn's build phase:
    next spring needs four new buildings."""
    for turn in range(4):
        seat = state["current"]
        state = play(state, seat, f"take {state['row'][-1]}")
        if turn < 3:
            state = play(state, seat, "end")
    give_hand(state, 0, {})
    give_hand(state, 1, {})  # nobody discards in winter
    assert state["row"] == [] and state["phase"] == "build"
    return state


def test_an_empty_building_pile_is_refilled_from_the_shuffled_discard_pile():
    """ "Ist der Nachziehstapel leer, mischt den Ablagestapel und macht ihn zum neuen
    Nachziehstapel." """
    state = take_four_buildings(started(2))
    state["bau_discard"] += state["bau_pile"]
    state["bau_pile"] = []
    discard = Counter(state["bau_discard"])
    first = state["separated"][-1]
    state = play(state, state["current"], "end")
    assert state["year"] == 2 and len(state["row"]) == 4 and state["below"] == 0
    assert state["row"][0] == first  # the first from the separated pile
    assert state["bau_discard"] == []
    assert Counter(state["row"][1:]) + Counter(state["bau_pile"]) == discard
    check_census(state)


def test_with_both_building_piles_empty_the_row_stays_short():
    """ "Ist auch der Ablagestapel leer, werden keine neuen Gebäude mehr ins Spiel
    gebracht (sehr selten!)." """
    state = take_four_buildings(started(2))
    hoard = state["bau_pile"] + state["bau_discard"]
    state["bau_pile"], state["bau_discard"] = [], []
    give_display(state, 1, [])  # a tester's trick: seat 1 has built all of them
    state["display"][1] += [{"id": b, "built_turn": 0, "used": False, "face": None}
                            for b in hoard]
    first = state["separated"][-1]
    state = play(state, state["current"], "end")
    assert state["year"] == 2 and state["row"] == [first]
    check_census(state)


# -- Sommer / Herbst ----------------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4])
def test_summer_runs_clockwise_autumn_counter_clockwise_and_the_start_moves_left(players):
    state = started(players, start=1)
    seen: list[tuple[int, str, int]] = []
    while not GAME.is_over(state) and state["year"] <= 2:
        if state["phase"] == "take" and (not seen or seen[-1] != (
                state["year"], state["season"], state["current"])):
            seen.append((state["year"], state["season"], state["current"]))
        state = step_default(state)
    for year, start in ((1, 1), (2, 2)):
        summer = [c for y, s, c in seen if y == year and s == "summer"]
        autumn = [c for y, s, c in seen if y == year and s == "autumn"]
        assert summer == [(start + k) % players for k in range(players)]
        assert autumn == summer[::-1]  # the player right of the start player twice in a row


def test_the_take_phase_cannot_be_passed():
    state = started(2)
    moves = GAME.legal_moves(state, 0)
    assert moves and all(m.startswith("take") for m in moves)
    for move in ("end", f"build {state['hand'][0]['gebaeude'][0]}"):
        with pytest.raises(IllegalMoveError):
            GAME.apply(state, 0, move)
    with pytest.raises(IllegalMoveError):
        GAME.apply(state, 1, "take set 1")  # not seat 1's turn
    with pytest.raises(MalformedMoveError):
        GAME.apply(state, 0, "pass")


def test_a_turn_erects_at_most_3_buildings_riga_buildings_included():
    cheap = ["Kontor-Tallinn", "Kran-Tallinn", "Bauhof-Tallinn", "Kran-Danzig"]
    state = building_turn(0, {"Tuch": 8}, cheap, riga=True)
    state = play(state, 0, "build Kontor-Tallinn", "pay Tuch", "finish")
    state = play(state, 0, "build Kran-Danzig", "pay Tuch", "finish")
    state = play(state, 0, "build Speicher", "pay Tuch", "finish")
    assert state["built_this_turn"] == 3
    moves = GAME.legal_moves(state, 0)
    assert not any(m.startswith("build") for m in moves) and "end" in moves
    with pytest.raises(IllegalMoveError):
        GAME.apply(state, 0, "build Kran-Tallinn")


def test_one_project_of_three_leaves_no_room_for_a_fourth():
    state = building_turn(0, {"Tuch": 8}, ["Kontor-Tallinn", "Kran-Tallinn",
                                           "Bauhof-Tallinn", "Bank-Tallinn"])
    state = play(state, 0, "build Kontor-Tallinn", "add Kran-Tallinn", "add Bauhof-Tallinn")
    assert not any(isinstance(m, Add) for m in rules.legal(state, 0)
                   + rules.every_move(state, 0))
    state = play(state, 0, *["pay Tuch"] * 3, "finish")
    assert state["built_this_turn"] == 3
    assert not any(m.startswith("build") for m in GAME.legal_moves(state, 0))


def test_cancel_gives_every_card_and_function_back():
    state = building_turn(0, {"Tuch": 2}, ["Markthalle-Danzig"], display=["Kontor-Visby"])
    before = (hand_waren(state, 0), sorted(state["hand"][0]["gebaeude"]))
    state = play(state, 0, "build Markthalle-Danzig", "use Kontor", "pay Tuch", "cancel")
    assert (hand_waren(state, 0), sorted(state["hand"][0]["gebaeude"])) == before
    assert not entry(state, 0, "Kontor-Visby")["used"] and state["project"] is None
    check_census(state)


# -- Winter ------------------------------------------------------------------------------------


def test_winter_seats_over_6_discard_at_once_down_to_6():
    state = run_to_last_turn_of_year(started(2))
    give_hand(state, 0, {"Getreide": 5, "Wein": 2}, ["Loge-Visby"])  # 8 cards
    give_hand(state, 1, {"Glas": 3}, ["Loge-Tallinn", "Bank-Visby", "Kran-Visby", "Kontor-Visby"])
    state = play(state, state["current"], "end")
    assert state["phase"] == "winter" and GAME.to_move(state) == [0, 1]
    state = play(state, 1, "discard Bank-Visby")
    assert GAME.to_move(state) == [0] and hand_size(state, 1) == 6
    assert GAME.legal_moves(state, 1) == []
    state = play(state, 0, "discard Getreide")
    assert GAME.to_move(state) == [0] and state["phase"] == "winter"
    state = play(state, 0, "discard Loge-Visby")
    assert state["phase"] == "take" and state["year"] == 2
    assert hand_size(state, 0) == 6 and state["hand"][0]["gebaeude"] == []
    assert "Bank-Visby" in state["bau_discard"] and "Loge-Visby" in state["bau_discard"]
    check_census(state)


def test_a_speicher_keeps_8_in_winter():
    state = run_to_last_turn_of_year(started(2, riga=True))
    give_display(state, 0, ["Speicher"])
    give_hand(state, 0, {"Getreide": 9})
    give_hand(state, 1, {"Getreide": 3})
    assert rules.hand_limit(state, 0) == data.HANDLIMIT_SPEICHER == 8
    state = play(state, state["current"], "end")
    assert GAME.to_move(state) == [0]
    state = play(state, 0, "discard Getreide")
    assert state["year"] == 2 and hand_waren(state, 0) == {"Getreide": 8}


def test_riga_buildings_and_the_display_are_no_hand_cards_in_winter():
    state = run_to_last_turn_of_year(started(2, riga=True))
    give_hand(state, 0, {"Getreide": 6})
    give_hand(state, 1, {"Getreide": 1})
    give_display(state, 0, ["Loge-Visby", "Loge-Tallinn"])
    assert len(state["riga_left"][0]) == 4
    state = play(state, state["current"], "end")
    assert state["year"] == 2  # 6 cards: nobody discards


# -- Spielende ----------------------------------------------------------------------------------


def test_buildings_in_hand_and_riga_buildings_not_erected_cost_2_each():
    state = started(2, riga=True)
    give_display(state, 0, ["Festung-Visby", "Speicher"])
    state = play_out(state, until_year=8)
    state = run_to_last_turn_of_year(state)
    give_hand(state, 0, {"Tuch": 1}, ["Loge-Visby", "Bank-Tallinn"])
    give_hand(state, 1, {}, ["Kran-Danzig"])  # few cards: nobody discards in winter
    state = play(state, state["current"], "end")
    assert GAME.is_over(state)
    assert [f["hand"] for f in state["final"]] == [-4, -2]
    assert [f["riga"] for f in state["final"]] == [-6, -8]  # 3 and 4 not erected
    seals = data.gebaeude("Festung-Visby").punkte + data.gebaeude("Speicher").punkte
    assert GAME.result(state).scores == [seals - 4 - 6, -2 - 8]


def test_a_tie_on_points_goes_to_more_money_and_then_is_shared():
    state = play_out(started(2))
    give_hand(state, 0, {"Tuch": 1}, ["Loge-Visby"])
    give_hand(state, 1, {"Getreide": 2}, ["Loge-Tallinn"])
    result = GAME.result(state)
    assert result.scores == [-2, -2]
    assert result.tiebreaks == [[5], [4]] and result.winners == [0] and result.ranks == [1, 2]
    give_hand(state, 1, {"Getreide": 1, "Wein": 1}, ["Loge-Tallinn"])
    result = GAME.result(state)
    assert result.tiebreaks == [[5], [5]] and result.winners == [0, 1]
    assert result.ranks == [1, 1]
    give_hand(state, 1, {"Tuch": 5}, [])
    result = GAME.result(state)
    assert result.scores == [-2, 0] and result.winners == [1]  # points first


# -- Gebäude-Funktionen -------------------------------------------------------------------------


def test_festung_gildenhaus_and_the_others_give_their_ritter_and_kaufleute():
    state = started(2)
    give_display(state, 0, ["Festung-Visby", "Gildenhaus-Visby", "Kontor-Visby",
                            "Markthalle-Visby", "Manufactur-Visby", "Schatzkammer-Visby"])
    assert rules.persons(state, 0) == (2 + 1 + 1, 2 + 1 + 1)
    seat = GAME.view(state, 1)["seats"][0]
    assert (seat["ritter"], seat["kaufleute"]) == (4, 4)


def test_kontor_gives_4_once():
    state = building_turn(0, {"Getreide": 1}, ["Kran-Danzig", "Kontor-Tallinn"],
                          display=["Kontor-Visby"])
    state = play(state, 0, "build Kontor-Tallinn", "use Kontor")
    assert project_view(state)["paid_value"] == 4
    state = play(state, 0, "finish")
    assert entry(state, 0, "Kontor-Visby")["used"]
    assert "build Kran-Danzig" not in GAME.legal_moves(state, 0)


def test_bank_gives_2_per_kaufmann_once_and_keeps_the_kaufleute():
    state = building_turn(0, {"Getreide": 1}, ["Bank-Tallinn"],
                          display=["Bank-Visby", "Gildenhaus-Visby", "Markthalle-Danzig"])
    state = play(state, 0, "build Bank-Tallinn", "use Bank")
    assert project_view(state)["paid_value"] == 2 * 3
    assert "finish" not in GAME.legal_moves(state, 0)  # 6 of 7
    assert "use Bank" not in GAME.legal_moves(state, 0)  # once
    assert "finish" in GAME.legal_moves(play(state, 0, "pay Getreide"), 0)
    state = play(state, 0, "cancel")
    assert not entry(state, 0, "Bank-Visby")["used"]
    assert rules.persons(state, 0) == (0, 3)


def test_a_used_function_stays_used_in_later_turns():
    state = building_turn(0, {"Wein": 1}, ["Kran-Danzig"], display=["Kontor-Visby"])
    state = play(state, 0, "build Kran-Danzig", "use Kontor", "pay Wein", "finish", "end")
    state = finish_turns_until(state, 0)
    give_hand(state, 0, {"Wein": 3}, ["Kran-Tallinn"])
    state = play(state, 0, GAME.default_move(state, 0), "build Kran-Tallinn")
    assert "use Kontor" not in GAME.legal_moves(state, 0)
    usable = {e["id"]: e["usable"] for e in GAME.view(state, 1)["seats"][0]["display"]}
    assert usable["Kontor-Visby"] is False


def test_bauhof_draws_5_keeps_one_or_none_discards_the_rest():
    state = started(2)
    give_display(state, 0, ["Bauhof-Visby"])
    top5 = state["bau_pile"][-5:][::-1]
    state = play(state, 0, "use Bauhof")
    assert state["pending_draw"] == {"kind": "Bauhof", "cards": top5}
    assert GAME.legal_moves(state, 0) == [f"choose {b}" for b in top5] + ["choose none"]
    with pytest.raises(IllegalMoveError):
        GAME.apply(state, 0, "take set 1")  # the draw is settled first
    kept = play(state, 0, f"choose {top5[2]}")
    assert top5[2] in kept["hand"][0]["gebaeude"]
    assert kept["bau_discard"][-4:] == top5[:2] + top5[3:]
    assert entry(kept, 0, "Bauhof-Visby")["used"] and kept["pending_draw"] is None
    assert "use Bauhof" not in GAME.legal_moves(kept, 0)
    none = play(state, 0, "choose none")
    assert none["hand"][0]["gebaeude"] == state["hand"][0]["gebaeude"]
    assert none["bau_discard"][-5:] == top5
    check_census(kept)
    check_census(none)


def test_a_bauhof_draws_5_refilling_the_pile_from_the_discards():
    """Riga, "Bauhof: Du ziehst 5 Gebäude vom Stapel … Sind weniger als 5 Gebäude
    vorhanden, ziehst Du alle Gebäude", with "Ist der Nachziehstapel leer, mischt den
    Ablagestapel und macht ihn zum neuen Nachziehstapel": 3 on the pile and more on the
    discard pile draw 5; the option ``bauhof_nur_stapel`` (and rules version 1) draw the
    3 that lie on the pile."""
    state = started(2)
    give_display(state, 0, ["Bauhof-Visby"])
    state["bau_discard"] += state["bau_pile"][:-3]
    state["bau_pile"] = state["bau_pile"][-3:]
    three = state["bau_pile"][::-1]
    discard = Counter(state["bau_discard"])
    drawn = play(state, 0, "use Bauhof")
    cards = drawn["pending_draw"]["cards"]
    assert len(cards) == 5 and cards[:3] == three and drawn["bau_discard"] == []
    assert Counter(cards[3:]) + Counter(drawn["bau_pile"]) == discard
    check_census(drawn)
    variant = {**state, "options": {**state["options"], "bauhof_nur_stapel": True}}
    drawn = play(variant, 0, "use Bauhof")
    assert drawn["pending_draw"]["cards"] == three and drawn["bau_pile"] == []
    assert Counter(drawn["bau_discard"]) == discard
    old = GAME.setup_version(2, {"riga": False}, "seed", None, "1")
    assert old["rules_version"] == "1" and old["options"] == {"riga": False}
    assert rules.bauhof_nur_stapel(old) and not rules.bauhof_nur_stapel(state)


def test_a_bauhof_draws_all_when_pile_and_discards_hold_fewer_than_5():
    state = started(2)
    give_display(state, 0, ["Bauhof-Visby"])
    state["separated"] += state["bau_pile"][:-2] + state["bau_discard"][:-1]
    state["bau_pile"], state["bau_discard"] = state["bau_pile"][-2:], state["bau_discard"][-1:]
    state = play(state, 0, "use Bauhof")
    assert len(state["pending_draw"]["cards"]) == 3
    assert state["bau_pile"] == state["bau_discard"] == []


def test_a_kran_halves_an_odd_cost_rounded_up_or_down_with_the_option():
    """Riga, "Kran: Du darfst die Baukosten eines Gebäudes halbieren (1x)": an odd cost
    (Bank in Tallinn, 7) is rounded up, 4; with the option ``kran_abrunden``, down, 3."""
    assert data.gebaeude("Bank-Tallinn").kosten == 7
    state = building_turn(0, {"Wein": 2}, ["Bank-Tallinn"], display=["Kran-Visby"])
    state = play(state, 0, "build Bank-Tallinn", "use Kran")
    assert rules.project_cost(state, state["project"]) == 4
    variant = {**state, "options": {**state["options"], "kran_abrunden": True}}
    assert rules.project_cost(variant, variant["project"]) == 3
    assert GAME.setup(2, {"kran_abrunden": True}, "seed")["options"]["kran_abrunden"] is True


def test_schatzkammer_draws_3_commodities_one_must_be_kept():
    state = started(2)
    give_display(state, 0, ["Schatzkammer-Visby"])
    top3 = state["waren_pile"][-3:][::-1]
    before = Counter(hand_waren(state, 0))
    state = play(state, 0, "use Schatzkammer")
    assert state["pending_draw"] == {"kind": "Schatzkammer", "cards": top3}
    moves = GAME.legal_moves(state, 0)
    assert sorted(moves) == sorted({f"choose {w}" for w in top3})
    assert "choose none" not in moves
    pick = top3[0]
    after = play(state, 0, f"choose {pick}")
    assert Counter(hand_waren(after, 0)) == before + Counter([pick])
    rest = list(top3)
    rest.remove(pick)
    assert sorted(after["waren_discard"][-2:]) == sorted(rest)
    assert entry(after, 0, "Schatzkammer-Visby")["used"]
    check_census(after)


# -- Riga-Gebäude ------------------------------------------------------------------------------


def kloster_table():
    state = started(2, riga=True)
    give_display(state, 0, ["Kloster"])
    set_sets(state, [["Tuch", "Tuch"], ["Getreide"] * 5, ["Wein"] * 3, ["Glas"] * 3])
    return state


def test_kloster_swaps_two_cards_of_two_sets_then_one_of_them_is_taken():
    """ "Vertausche in der ersten Phase Deines Zugs zwei beliebige Waren in zwei Reihen der
    Auslage miteinander, bevor Du eine dieser Reihen auf die Hand nimmst (1x)." """
    state = kloster_table()
    assert "kloster" in GAME.legal_moves(state, 0)
    state = play(state, 0, "kloster", "from 1", "give Tuch", "to 2", "get Getreide")
    assert state["sets"][0] == ["Tuch", "Getreide"] and state["sets"][1][-1] == "Tuch"
    assert Counter(state["sets"][1]) == Counter({"Getreide": 4, "Tuch": 1})
    assert GAME.legal_moves(state, 0) == ["take set 1", "take set 2"]
    with pytest.raises(IllegalMoveError):
        GAME.apply(state, 0, "take set 3")  # only one of the two sets swapped
    before = Counter(hand_waren(state, 0))
    state = play(state, 0, "take set 2")
    assert Counter(hand_waren(state, 0)) - before == Counter({"Getreide": 4, "Tuch": 1})
    assert state["sets"][0] == ["Tuch", "Getreide"]  # the other swapped set stays
    assert entry(state, 0, "Kloster")["used"] and state["phase"] == "build"
    check_census(state)


def test_kloster_is_used_once_and_back_abandons_it_unused():
    state = kloster_table()
    back = play(state, 0, "kloster", "from 1", "back")
    assert back["sub"] is None and not entry(back, 0, "Kloster")["used"]
    assert "kloster" in GAME.legal_moves(back, 0)
    used = play(state, 0, "kloster", "from 1", "give Tuch", "to 2", "get Getreide",
                "take set 1", "end")
    used = finish_turns_until(used, 0)
    assert "kloster" not in GAME.legal_moves(used, 0)


def test_a_kloster_built_this_turn_waits_for_the_next_turn():
    state = building_turn(0, {"Tuch": 1}, [], riga=True)
    state = play(state, 0, "build Kloster", "pay Tuch", "finish")
    assert entry(state, 0, "Kloster")["built_turn"] == state["turn"]
    assert not GAME.view(state, 0)["seats"][0]["display"][0]["usable"]


@pytest.mark.parametrize("face, persons", [("Ritter", (1, 0)), ("Kaufmann", (0, 1))])
def test_schule_is_turned_once_when_built_for_a_ritter_or_a_kaufmann(face, persons):
    state = building_turn(0, {"Tuch": 2}, [], riga=True)
    state = play(state, 0, "build Schule", "pay Tuch", "pay Tuch", "finish")
    assert GAME.legal_moves(state, 0) == ["school Ritter", "school Kaufmann"]
    with pytest.raises(IllegalMoveError):
        GAME.apply(state, 0, "end")
    state = play(state, 0, f"school {face}")
    assert entry(state, 0, "Schule")["face"] == face
    assert not any(m.startswith("school") for m in GAME.legal_moves(state, 0))
    with pytest.raises(IllegalMoveError):
        GAME.apply(state, 0, "school Ritter" if face == "Kaufmann" else "school Kaufmann")
    state = play(state, 0, "end")
    assert rules.persons(state, 0) == persons  # from the owner's next turn on... and at the end
    final = play_out(state)
    assert rules.persons(final, 0) == persons


def test_wechselstube_is_charged_at_the_end_of_a_later_turn_and_then_pays_8():
    state = building_turn(0, {"Tuch": 2, "Wein": 2}, [], riga=True)
    state = play(state, 0, "build Wechselstube", "pay Tuch", "pay Tuch", "finish")
    assert entry(state, 0, "Wechselstube")["face"] == 0
    assert "charge" not in GAME.legal_moves(state, 0)  # not in the turn it was built
    state = play(state, 0, "end")
    state = finish_turns_until(state, 0)
    state = play(state, 0, GAME.default_move(state, 0))
    give_hand(state, 0, {"Wein": 1, "Getreide": 2, "Tuch": 1}, ["Festung-Visby"])
    assert "charge" in GAME.legal_moves(state, 0)
    charging = play(state, 0, "charge", "discard Wein")
    assert charging["current"] == 0 and entry(charging, 0, "Wechselstube")["face"] == 0
    charging = play(charging, 0, "discard Getreide")  # 3 + 2 = 5: not yet
    assert charging["current"] == 0 and entry(charging, 0, "Wechselstube")["face"] == 0
    charged = play(charging, 0, "discard Tuch")  # 10 >= 6: turned, and the turn ends
    assert entry(charged, 0, "Wechselstube")["face"] == 8
    assert charged["decision"] != charging["decision"]
    assert GAME.turn_over(charging, 0, "discard Tuch", charged)
    assert (charged["year"], charged["season"]) != (charging["year"], charging["season"])
    assert hand_waren(charged, 0) == {"Getreide": 1}
    check_census(charged)
    # a later turn: the 8 Dukaten pay for a building, and it may be charged again
    later = finish_turns_until(charged, 0)
    give_hand(later, 0, {"Getreide": 1, "Tuch": 2}, ["Festung-Visby"])
    later = play(later, 0, GAME.default_move(later, 0))
    give_hand(later, 0, {"Getreide": 1, "Tuch": 2}, ["Festung-Visby"])
    later = play(later, 0, "build Festung-Visby", "use Wechselstube", "pay Getreide")
    assert project_view(later)["paid_value"] == 8 + 2
    later = play(later, 0, "finish")
    assert entry(later, 0, "Wechselstube")["face"] == 0
    assert "charge" in GAME.legal_moves(later, 0)  # "im gleichen Zug wieder auf 8"
    again = play(later, 0, "charge", "discard Tuch", "discard Tuch")
    assert entry(again, 0, "Wechselstube")["face"] == 8


def test_wechselstube_charge_can_be_cancelled_with_the_cards_back():
    state = building_turn(0, {}, [], riga=True)
    give_display(state, 0, ["Wechselstube"])
    give_hand(state, 0, {"Getreide": 3})
    state = play(state, 0, "charge", "discard Getreide", "discard Getreide", "cancel")
    assert hand_waren(state, 0) == {"Getreide": 3} and state["sub"] is None
    assert entry(state, 0, "Wechselstube")["face"] == 0


def test_without_the_option_there_are_no_riga_buildings():
    state = building_turn(0, {"Tuch": 8}, [])
    assert state["riga_left"] == [[], []]
    moves = GAME.legal_moves(state, 0)
    assert "build Festung-Stockholm" in moves  # money enough to build
    assert not any(m.split()[-1] in data.RIGA_GEBAEUDE for m in moves)
    with pytest.raises(IllegalMoveError):
        GAME.apply(state, 0, "build Speicher")


# -- readings around the Riga buildings ----------------------------------------------------


def test_reading_riga_buildings_are_paid_at_regular_values_and_together_like_one_city():
    """Reading: no source shows a Riga card's cost box, so every commodity pays its
    regular value there, and Riga buildings erected at once share one payment like
    buildings of one city."""
    assert data.STADTWERT["Riga"] == data.WERT
    cost = data.gebaeude("Kloster").kosten + data.gebaeude("Speicher").kosten
    state = building_turn(0, {"Glas": 1, "Getreide": 5}, [], riga=True)
    state = play(state, 0, "build Kloster", "add Speicher")
    assert project_view(state)["cost"] == cost
    state = play(state, 0, "pay Glas", "pay Getreide")
    assert project_view(state)["paid_value"] == 4 + 2
    while "finish" not in GAME.legal_moves(state, 0):
        state = play(state, 0, "pay Getreide")
    state = play(state, 0, "finish")
    assert {"Kloster", "Speicher"} <= {e["id"] for e in state["display"][0]}
    assert state["riga_left"][0] == ["Schule", "Wechselstube"]


def test_reading_a_speicher_built_in_the_last_turn_counts_in_that_winter():
    """Reading: the winter is no turn, so a Speicher erected in the year's last turn
    already keeps 8 cards in the winter that follows."""
    state = run_to_last_turn_of_year(started(2, riga=True))
    seat = state["current"]
    give_hand(state, seat, {"Tuch": 1, "Getreide": 8})
    give_hand(state, 1 - seat, {})
    state = play(state, seat, "build Speicher", "pay Tuch", "finish", "end")
    assert state["year"] == 2 and hand_waren(state, seat) == {"Getreide": 8}


def test_reading_bauhof_does_not_shuffle_the_discard_pile_in_while_cards_are_left():
    """Reading of "Sind weniger als 5 Gebäude vorhanden, ziehst Du alle Gebäude": the
    discard pile is shuffled in only when the draw pile is empty."""
    state = started(2)
    give_display(state, 0, ["Bauhof-Visby"])
    state["bau_discard"] += state["bau_pile"]
    state["bau_pile"] = []
    discard = Counter(state["bau_discard"])
    state = play(state, 0, "use Bauhof")
    cards = state["pending_draw"]["cards"]
    assert len(cards) == 5 and state["bau_discard"] == []
    assert Counter(cards) + Counter(state["bau_pile"]) == discard


# -- notation ----------------------------------------------------------------------------------


def test_notation_folds_whitespace_and_a_refusal_says_why():
    state = started(2)
    assert GAME.parse("  take   set 1 ") == "take set 1"
    assert play(state, 0, "take  set 1") == play(state, 0, "take set 1")
    with pytest.raises(IllegalMoveError, match="take set 1"):
        GAME.apply(state, 0, "take set 9")  # the message lists the choices
    with pytest.raises(MalformedMoveError, match="not a Riga move"):
        GAME.apply(state, 0, "dance")


# -- turns and commit points (DESIGN.md: "Turns and commit points are two things") ------------


def test_a_private_draw_is_a_commit_point_that_ends_no_turn():
    state = started(2)
    give_display(state, 0, ["Schatzkammer-Visby"])
    drawn = play(state, 0, "use Schatzkammer")
    assert GAME.is_commit_point(state, 0, "use Schatzkammer", drawn)
    assert not GAME.turn_over(state, 0, "use Schatzkammer", drawn)
    chosen = play(drawn, 0, f"choose {drawn['pending_draw']['cards'][0]}")
    took = play(chosen, 0, "take set 1")
    assert not GAME.turn_over(chosen, 0, "take set 1", took)  # the build phase follows
    ended = play(took, 0, "end")
    assert GAME.turn_over(took, 0, "end", ended) and GAME.is_commit_point(took, 0, "end", ended)


def test_the_first_of_two_turns_back_to_back_ends_a_turn():
    state = play(started(2), 0, "take set 1", "end")
    took = play(state, 1, "take set 1")
    assert not GAME.turn_over(state, 1, "take set 1", took)
    state = took
    after = play(state, 1, "end")
    assert after["current"] == 1 and after["season"] == "autumn"
    assert GAME.turn_over(state, 1, "end", after) and GAME.is_commit_point(state, 1, "end", after)
