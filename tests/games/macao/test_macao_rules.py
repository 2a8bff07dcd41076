"""Macao's rules as printed (../shared/rules/macao-de.txt), one test per rule or card."""

from __future__ import annotations

import pytest
from macao_helpers import at_actions, card, office, play, with_pool

from pbem.games.macao import GAME, data, rules
from pbem.games.protocol import IllegalMoveError


def test_draft_in_reverse_wall_order_with_players_plus_two_cards():
    s = rules.new_state(3, "d")
    assert len(s["display"]) == 5
    assert rules.wall_order(s) == [0, 1, 2]
    assert rules.to_move(s) == [2]           # the bottom of the start stack drafts first
    for seat in (2, 1, 0):
        s = play(s, seat, GAME.legal_moves(s, seat)[0])
    assert len(s["discard"]) == 2 and s["phase"] == "start"
    assert rules.to_move(s) == [0]           # start cubes in wall order


def test_start_cubes_one_at_the_1_field_two_of_one_colour_at_the_2_field():
    s = rules.new_state(2, "d")
    s = play(s, 1, GAME.legal_moves(s, 1)[0])
    s = play(s, 0, GAME.legal_moves(s, 0)[0])
    s = play(s, 0, "one g", "two r")
    assert s["seats"][0]["rose"][1] == {"g": 1} and s["seats"][0]["rose"][2] == {"r": 2}


def test_tribute_sums_all_six_cards_and_two_players_drop_the_last_two():
    s, _ = at_actions(2)
    assert s["round"] == 1
    # the tribute is fixed before the removal: recount from the cards of round 1
    s0 = rules.new_state(2, "t")
    deck = s0["deck"][:4]                    # the deck after the draft
    shown = deck + s0["offices"][0]
    assert s["tribute"] == [sum(data.CARDS[c].tribute[0] for c in shown),
                            sum(data.CARDS[c].tribute[1] for c in shown)]
    assert deck[2] in s["discard"] and deck[3] in s["discard"]


def test_a_sixth_card_is_discarded_with_a_penalty_marker():
    s, _ = at_actions(2)
    s = _to_phase(s, "cards")
    seat = rules.to_move(s)[0]
    s["seats"][seat]["tableau"] = [card("Turm"), card("Abt"), card("Statue"), card("Soldat"),
                                   card("Edler")]
    s = play(s, seat, GAME.legal_moves(s, seat)[0])
    moves = GAME.legal_moves(s, seat)
    assert moves[0].startswith("discard") and len(moves) == 6
    s = play(s, seat, f"discard {card('Abt')}")
    assert len(s["seats"][seat]["tableau"]) == 5 and s["seats"][seat]["penalties"] == 1
    assert card("Abt") in s["discard"]


def test_empty_arrow_after_turning_the_wind_rose_costs_a_penalty_marker():
    s, _ = at_actions(2)
    s = _to_phase(s, "dice")
    seat = rules.to_move(s)[0]
    s["seats"][seat]["rose"] = [{} for _ in range(7)]
    s["dice"] = [[c, 3] for c in data.COLOURS]
    s = play(s, seat, "die r", "die b")
    me = s["seats"][seat]
    assert me["penalties"] == 1 and me["rose"][2] == {"r": 3, "b": 3}


def test_dice_land_on_their_field_and_the_1_field_reaches_the_arrow():
    s, _ = at_actions(2)
    s = _to_phase(s, "dice")
    seat = rules.to_move(s)[0]
    s["seats"][seat]["rose"] = [{}, {}, {"k": 1}, {}, {}, {}, {}]
    s["dice"] = [["r", 1], ["b", 2]] + [[c, 6] for c in "gkyv"]
    s = play(s, seat, "die r", "die b")
    assert s["seats"][seat]["rose"][0] == {"r": 1}
    assert s["seats"][seat]["rose"][1] == {"k": 1, "b": 2}
    assert s["seats"][seat]["penalties"] == 0


@pytest.mark.parametrize("round_, lowest_turned", sorted(data.LATE_DICE.items()))
def test_from_round_8_high_dice_are_turned_to_one(round_, lowest_turned):
    s, _ = at_actions(2)
    for k in range(40):
        t = dict(s, round=round_, draws=k)
        rules._roll(t)
        assert all(v < lowest_turned for _, v in t["dice"])
    assert lowest_turned == 14 - round_


def test_dice_are_not_turned_before_round_8():
    s, _ = at_actions(2)
    seen = set()
    for k in range(60):
        t = dict(s, round=7, draws=k)
        rules._roll(t)
        seen |= {v for _, v in t["dice"]}
    assert seen == {1, 2, 3, 4, 5, 6}


@pytest.mark.parametrize("fields, cost", [(1, 1), (2, 3), (3, 5), (4, 7)])
def test_wall_costs_1_3_5_7(fields, cost):
    assert data.wall_cost(fields) == cost
    s, seat = at_actions(2)
    s = with_pool(s, seat, "r" * cost)
    s = play(s, seat, f"wall {fields}", *["pay r"] * cost)
    assert rules.wall_position(s, seat) == fields and rules.pool_size(s, seat) == 0
    s2 = with_pool(s, seat, "r" * 10)
    assert not any(m.startswith("wall") for m in GAME.legal_moves(s2, seat))  # once per round


def test_wall_landing_on_an_occupied_field_goes_on_top():
    s, seat = at_actions(2)
    other = 1 - seat
    s["wall"][0].remove(other)
    s["wall"][2].append(other)
    s = with_pool(s, seat, "rrr")
    s = play(s, seat, "wall 2", "pay r", "pay r", "pay r")
    assert s["wall"][2] == [other, seat] and rules.wall_order(s)[0] == seat


def test_the_last_wall_field_caps_the_move():
    s, seat = at_actions(2)
    s["wall"][0].remove(seat)
    s["wall"][14].append(seat)
    s = with_pool(s, seat, "r" * 9)
    assert "wall 1 pay r" in GAME.legal_moves(s, seat)
    with pytest.raises(IllegalMoveError):
        GAME.apply(s, seat, "wall 2")


def test_turm_always_on_top_of_its_stack():
    s, seat = at_actions(2)
    other = 1 - seat
    s["seats"][other]["active"].append(card("Turm"))
    s["wall"] = [[]] * 0 + [[other, seat]] + [[] for _ in range(15)]
    assert rules.wall_order(s) == [other, seat]


def test_activate_needs_exactly_the_printed_cubes():
    s, seat = at_actions(2)
    c = card("Festung")      # rrk
    s["seats"][seat]["tableau"] = [c]
    s1 = with_pool(s, seat, "rrkb")
    s1 = play(s1, seat, f"activate {c}")
    assert c in s1["seats"][seat]["active"] and rules.pool(s1, seat) == {"b": 1}
    s2 = with_pool(s, seat, "rkk")
    assert f"activate {c}" not in GAME.legal_moves(s2, seat)


def test_district_exact_cost_once_per_turn_goods_aboard_and_joker():
    s, seat = at_actions(2)
    light = next(d for d in data.DISTRICT_COST if d not in data.DARK_DISTRICTS)
    dark = min(data.DARK_DISTRICTS)
    cost = data.DISTRICT_COST[light] + data.DISTRICT_COST[dark]
    s = with_pool(s, seat, cost)
    good = s["tiles"][str(light)]
    s1 = play(s, seat, f"district {light}")
    assert s1["city"][str(light)] == seat and s1["seats"][seat]["goods"] == [good]
    assert not any(m.startswith("district") for m in GAME.legal_moves(s1, seat))
    s2 = play(s, seat, f"district {dark}", "joker gold")
    assert s2["seats"][seat]["gold"] == data.START_GOLD + 3 and s2["seats"][seat]["jokers"] == 0


def test_ship_costs_one_cube_per_field_and_delivers_on_highest_free_space():
    s, seat = at_actions(2)
    s = with_pool(s, seat, "rg", goods=["Reis", "Reis"])
    s["harbours"]["Lisboa"] = [1 - seat, None, None]
    s = play(s, seat, "sail S1", "pay r", "sail Lisboa", "pay g", "deliver")
    assert s["harbours"]["Lisboa"] == [1 - seat, seat, seat]
    assert s["seats"][seat]["pp"] == 3 + 2 and s["seats"][seat]["goods"] == []


def test_boettcherei_point_is_not_doubled_by_a_lager():
    s, seat = at_actions(2)
    s["seats"][seat]["active"] += [card("Böttcherei"), card("Reislager")]
    s["seats"][seat]["ship"] = "Lisboa"
    s["seats"][seat]["goods"] = ["Reis"]
    s = play(s, seat, "deliver")
    assert s["seats"][seat]["pp"] == 4 * 2 + 1


@pytest.mark.parametrize("name, fields, gold", [("Segelmacherei", 2, 0), ("Steuermann", 4, 1)])
def test_free_moves_may_deliver_mid_move(name, fields, gold):
    s, seat = at_actions(2)
    c = card(name)
    s = with_pool(s, seat, "", active=[c], goods=["Reis"])
    s = play(s, seat, f"use {c}", "sail S1", "sail Lisboa", "deliver")
    assert s["seats"][seat]["pp"] == 4
    if fields == 4:
        s = play(s, seat, "sail S2", "sail Barcelona")
        assert s["seats"][seat]["ship"] == "Barcelona"
    assert s["seats"][seat]["gold"] == data.START_GOLD - gold
    assert not any(m.startswith("sail") for m in GAME.legal_moves(s, seat))


def test_tribute_once_per_turn_and_gesandter_even_for_nothing():
    s, seat = at_actions(2)
    s["tribute"] = [0, 0]
    s["seats"][seat]["active"] = [card("Gesandter")]
    s = play(s, seat, "tribute", "gain v")
    assert rules.pool(s, seat).get("v") == 1 and "tribute" not in GAME.legal_moves(s, seat)


def test_tribute_pays_gold_for_prestige():
    s, seat = at_actions(2)
    s["tribute"] = [3, 6]
    s = play(s, seat, "tribute")
    assert s["seats"][seat]["gold"] == data.START_GOLD - 3 and s["seats"][seat]["pp"] == 6


@pytest.mark.parametrize("category, name", [("Militärwesen", "Festung"), ("Justiz", "Gericht"),
                                            ("Verwaltung", "Rathaus"),
                                            ("Finanzen", "Schatzkammer"), ("Bau", "Steinbruch"),
                                            ("Zoll", "Zollstation")])
def test_office_category_cards_count_only_activated_offices(category, name):
    s, seat = at_actions(2)
    s["seats"][seat]["active"] = [card(name), office(category, 1), office(category, 2)]
    s["seats"][seat]["tableau"] = [office(category, 3)]
    s = play(s, seat, f"use {card(name)}")
    assert s["seats"][seat]["pp"] == 2
    assert f"use {card(name)}" not in GAME.legal_moves(s, seat)   # once per round


def test_edler_any_multiple_of_two_gold_once_per_round():
    s, seat = at_actions(2)
    c = card("Edler")
    s = with_pool(s, seat, "", active=[c])
    assert f"use {c} 2" in GAME.legal_moves(s, seat)     # 5 gold: at most 2 cubes
    s = play(s, seat, f"use {c} 2", "gain r", "gain b")
    assert s["seats"][seat]["gold"] == 1 and rules.pool(s, seat) == {"r": 1, "b": 1}
    assert not any(m.startswith(f"use {c}") for m in GAME.legal_moves(s, seat))


def test_goldsucher_any_multiple_of_three_cubes():
    s, seat = at_actions(2)
    c = card("Goldsucher")
    s = with_pool(s, seat, "rrbbggk", active=[c])
    s = play(s, seat, f"use {c} 2", *["pay r", "pay r", "pay b", "pay b", "pay g", "pay g"])
    assert s["seats"][seat]["gold"] == data.START_GOLD + 2 and rules.pool(s, seat) == {"k": 1}


def test_handwerker_needs_the_full_cubes_but_keeps_them():
    s, seat = at_actions(2)
    h, f = card("Handwerker"), card("Festung")
    s = with_pool(s, seat, "rrk", active=[h], tableau=[f])
    s = play(s, seat, f"use {h}", f"activate {f}")
    assert f in s["seats"][seat]["active"] and rules.pool(s, seat) == {"r": 2, "k": 1}
    s2 = with_pool(s, seat, "rk", active=[h], tableau=[f])
    assert f"use {h}" not in GAME.legal_moves(s2, seat)


def test_kapitaen_counts_moves_before_its_activation():
    s, seat = at_actions(2)
    k = card("Kapitän")      # bg
    s = with_pool(s, seat, "rrbg", tableau=[k])
    s = play(s, seat, "sail S1", "pay r", "sail Anker", "pay r", f"activate {k}", f"use {k}")
    assert s["seats"][seat]["pp"] == 1


def test_amtsstube_after_an_office_used_before_it_was_activated():
    s, seat = at_actions(2)
    a, o = card("Amtsstube"), office("Zoll", 1)
    s = with_pool(s, seat, "rb", tableau=[a], active=[o])
    s = play(s, seat, f"use {o}", f"activate {a}", f"use {a}")
    assert s["seats"][seat]["pp"] == 1 + 1


def test_pfandleihe_after_gold_received_earlier():
    s, seat = at_actions(2)
    p = card("Pfandleihe")
    s = with_pool(s, seat, "yk", tableau=[p], jokers=1)
    assert f"use {p}" not in GAME.legal_moves(play(s, seat, f"activate {p}"), seat)
    s = play(s, seat, "joker gold", f"activate {p}", f"use {p}")
    assert s["seats"][seat]["gold"] == data.START_GOLD + 3 + 1


def test_kathedrale_different_colours_one_pp_each():
    s, seat = at_actions(2)
    c = card("Kathedrale")
    s = with_pool(s, seat, "rrbgk", active=[c])
    s = play(s, seat, f"use {c}", "give r")
    assert "give r" not in GAME.legal_moves(s, seat)
    s = play(s, seat, "give b", "give g", "done")
    assert s["seats"][seat]["pp"] == 3 and rules.pool(s, seat) == {"r": 1, "k": 1}


def test_soldat_one_gold_per_four_markers_in_the_city():
    s, seat = at_actions(2)
    c = card("Soldat")
    s["seats"][seat]["active"] = [c]
    s["city"] = {str(d): seat for d in range(1, 10)}
    s = play(s, seat, f"use {c}")
    assert s["seats"][seat]["gold"] == data.START_GOLD + 2


def test_end_scoring_penalties_end_cards_palast_and_largest_area():
    s, _ = at_actions(2)
    me = s["seats"][0]
    me.update(pp=20, penalties=1, tableau=[card("Turm"), card("Edler")],
              active=[card("Palast"), card("Statue"), card("Abt")])
    s["city"] = {"1": 0, "2": 0, "8": 0, "4": 0, "3": 1}
    f = rules.final_scoring(s, 0)
    # Abt: no markers for the tableau; Statue 3 + Palast 2 x (Statue, Palast), Abt not counted
    assert f["tableau_penalties"] == 0 and f["end_cards"] == 3 + 4
    assert f["area"] == 2 * 3 and f["total"] == 20 - 3 + 7 + 6


def test_cards_left_on_the_tableau_cost_a_penalty_marker_each():
    s, _ = at_actions(2)
    s["seats"][0].update(pp=10, penalties=0, tableau=[card("Turm"), card("Edler")], active=[])
    s["city"] = {}
    assert rules.final_scoring(s, 0)["total"] == 10 - 6


def test_largest_area_uses_side_adjacency():
    city = {"1": 0, "7": 0, "13": 0, "8": 0, "30": 0, "29": 0, "2": 1}
    assert rules.largest_area(city, 0) == 4
    assert data.district_neighbours(1) == [7, 2]


def test_ties_go_to_the_player_further_ahead_on_the_wall():
    from pbem.games.macao import GAME
    s, _ = at_actions(2)
    s["round"] = data.ROUNDS
    for seat in (0, 1):
        s["seats"][seat].update(pp=10, penalties=0, tableau=[], active=[])
    s["city"] = {}
    s["wall"] = [[], [0], [1]] + [[] for _ in range(13)]
    s["phase"], s["queue"] = "actions", [0]
    s = play(s, 0, "end")
    result = GAME.result(s)
    assert result.scores == [10, 10] and result.winners == [1] and result.ranks == [2, 1]


def _to_phase(s, phase):
    """Play the bot-free default (first move, "end" in actions) until ``phase``."""
    while s["phase"] != phase:
        seat = rules.to_move(s)[0]
        moves = GAME.legal_moves(s, seat)
        s = GAME.apply(s, seat, "end" if "end" in moves else moves[0])
    return s


@pytest.mark.parametrize("use, gold, cubes", [("joker gold", 6, 0), ("joker cube", 0, 2),
                                              ("joker mixed", 3, 1)])
def test_gaukler_uses_each_joker_twice(use, gold, cubes):
    s, seat = at_actions(2)
    s = with_pool(s, seat, "", active=[card("Gaukler")], jokers=1)
    s = play(s, seat, use, *["gain g"] * cubes)
    assert s["seats"][seat]["gold"] == data.START_GOLD + gold
    assert rules.pool_size(s, seat) == cubes and s["seats"][seat]["jokers"] == 0


def test_without_gaukler_a_joker_is_one_cube_or_three_gold():
    s, seat = at_actions(2)
    s = with_pool(s, seat, "", jokers=1)
    assert "joker mixed" not in GAME.legal_moves(s, seat)
    assert play(s, seat, "joker gold")["seats"][seat]["gold"] == data.START_GOLD + 3


def test_muessiggaenger_may_take_no_card_everyone_else_must():
    s, _ = at_actions(2)
    s = _to_phase(s, "cards")
    seat = rules.to_move(s)[0]
    assert "skip" not in GAME.legal_moves(s, seat)
    s["seats"][seat]["active"].append(card("Müßiggänger"))
    before = list(s["seats"][seat]["tableau"])
    s = play(s, seat, "skip")
    assert s["seats"][seat]["tableau"] == before and rules.to_move(s) == [1 - seat]


def test_professor_gold_for_each_die_showing_one():
    s, _ = at_actions(2)
    s = _to_phase(s, "dice")
    seat = rules.to_move(s)[0]
    s["seats"][seat]["active"].append(card("Professor"))
    gold = s["seats"][seat]["gold"]
    s["dice"] = [["r", 1], ["b", 1]] + [[c, 4] for c in "gkyv"]
    s = play(s, seat, "die r", "die g")
    assert s["seats"][seat]["gold"] == gold + 1


def test_a_cost_reducer_saves_one_cube_of_its_colour_every_time():
    s, seat = at_actions(2)
    f, z = card("Festung"), card("Zollstation")     # rrk, vvk
    s = with_pool(s, seat, "rrvv", active=[card("Kran")], tableau=[f, z])
    s = play(s, seat, f"activate {f}", f"activate {z}")
    assert rules.pool_size(s, seat) == 0 and {f, z} <= set(s["seats"][seat]["active"])


def test_handwerker_needs_the_full_cubes_even_with_a_cost_reducer():
    s, seat = at_actions(2)
    h, f = card("Handwerker"), card("Festung")       # Festung: rrk
    s = with_pool(s, seat, "rr", active=[h, card("Kran")], tableau=[f])
    assert f"activate {f}" in GAME.legal_moves(s, seat)     # reduced: rr
    assert f"use {h}" not in GAME.legal_moves(s, seat)      # the full rrk is not there
    s = with_pool(s, seat, "rrk", active=[h, card("Kran")], tableau=[f])
    s = play(s, seat, f"use {h}", f"activate {f}")
    assert rules.pool(s, seat) == {"r": 2, "k": 1}


def test_the_graf_lowers_no_costs_unless_the_option_or_rules_version_1_says_so():
    """Macao, "Erläuterungen", HANDWERKER: "… auch wenn er eine der Karten (Archiv, Kran
    oder Heiler) besitzt, welche die Aktivierungskosten reduzieren würden": the cards that
    reduce costs are named, the Graf is not (it is named only among the cards usable more
    than once a round).  The option ``graf_senkt`` and games of rules version 1 read it as
    a reducer of grey cubes."""
    s, seat = at_actions(2)
    grey = next(c for c in data.card_ids() if data.CARDS[c].cost.count("y") == 1
                and len(data.CARDS[c].cost) > 1 and data.CARDS[c].kind != "amt")
    cost = data.CARDS[grey].cost
    s = with_pool(s, seat, "", active=[card("Graf")], tableau=[grey])
    assert not rules.graf_senkt(s) and s["options"] == {"graf_senkt": False}
    assert rules.activation_cost(s, seat, grey) == cost
    assert "lowers no costs" in GAME.view(s, seat)["cards"][card("Graf")]["help"]
    variant = {**s, "options": {"graf_senkt": True}}
    assert rules.activation_cost(variant, seat, grey) == cost.replace("y", "", 1)
    assert "grey" in GAME.view(variant, seat)["cards"][card("Graf")]["help"]
    assert rules.graf_senkt(GAME.setup(2, {"graf_senkt": True}, "g"))
    old = GAME.setup_version(2, None, "g", None, "1")
    assert old["rules_version"] == "1" and "options" not in old and rules.graf_senkt(old)


def test_the_view_shows_what_a_seat_has_spent_of_its_actions():
    """R 3: each action once a turn (a card once a round): the view says, as data and
    in words, which cards the seat used and which actions it took."""
    s, seat = at_actions(2)
    s = with_pool(s, seat, "rrrr")
    spent = GAME.view(s, None)["seats"][seat]["spent"]
    assert spent == {"used": [], "wall": False, "tribute": False, "district": False,
                     "districts": 0, "moved": 0}
    wall = next(m for m in GAME.legal_moves(s, seat) if m.startswith("wall 1"))
    s = play(s, seat, wall)
    assert GAME.view(s, None)["seats"][seat]["spent"]["wall"] is True
    assert "spent this round: advanced on the wall" in GAME.render_text(
        GAME.view(s, None), ["A", "B"])
    assert "in dieser Runde genutzt: auf der Mauer vorgerückt" in GAME.render_text(
        GAME.view(s, None), ["A", "B"], "de")
