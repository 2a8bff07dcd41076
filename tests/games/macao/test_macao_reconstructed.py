"""The twelve cards the rulebook names only by the rule they change (data version 2).

Their effects are reconstructed (pbem/games/macao/data.py, _RECONSTRUCTED): these
tests pin down what the data file says each one does, and that it changes only its
own rule."""

from __future__ import annotations

import pytest
from macao_helpers import at_actions, card, play, with_pool

from pbem.games.macao import GAME, data, rules
from pbem.games.macao.moves import District
from pbem.games.protocol import IllegalMoveError

LIGHT = 1     # district 1 costs "bk" (light); 5 costs "ggky" (dark)
DARK = 5


def _fresh(cubes: str = "", **fields):
    s, seat = at_actions(2)
    return with_pool(s, seat, cubes, **fields), seat


def _on_field(s, seat: int, field: int, top: bool = True) -> None:
    s["wall"] = [[x for x in stack if x != seat] for stack in s["wall"]]
    s["wall"][field].append(seat) if top else s["wall"][field].insert(0, seat)


def test_the_districts_the_tests_use_are_what_they_assume():
    assert data.DISTRICT_COST[LIGHT] == "bk" and LIGHT not in data.DARK_DISTRICTS
    assert data.DISTRICT_COST[DARK] == "ggky" and DARK in data.DARK_DISTRICTS


# -- district and wall ---------------------------------------------------------------

def test_brunnen_a_district_moves_the_disc_one_field_and_the_advance_stays():
    s, seat = _fresh("bk" + "rrr", active=[card("Brunnen")])
    s = play(s, seat, f"district {LIGHT}")
    assert rules.wall_position(s, seat) == 1 and not s["seats"][seat]["walled"]
    assert rules.pool(s, seat) == {"r": 3}            # the step cost nothing
    # the turn's own advance is still there, with its one way to pay
    assert "wall 2 pay r:3" in GAME.legal_moves(s, seat)
    s = play(s, seat, "wall 2", "pay r", "pay r", "pay r")
    assert rules.wall_position(s, seat) == 3


def test_without_brunnen_a_district_leaves_the_wall_alone():
    s, seat = _fresh("bk")
    s = play(s, seat, f"district {LIGHT}")
    assert rules.wall_position(s, seat) == 0


# -- wall ------------------------------------------------------------------------------

def test_kanonier_pays_a_gold_whenever_a_disc_lands_on_its_owners():
    s, seat = _fresh("r")
    other = 1 - seat
    _on_field(s, other, 1)
    s["seats"][other]["active"] = [card("Kanonier")]
    gold = s["seats"][other]["gold"]
    s = play(s, seat, "wall 1", "pay r")
    assert s["wall"][1] == [other, seat] and s["seats"][other]["gold"] == gold + 1
    assert s["seats"][seat]["gold"] == data.START_GOLD       # the mover gets nothing


def test_kanonier_with_a_turm_is_never_landed_on():
    s, seat = _fresh("r")
    other = 1 - seat
    _on_field(s, other, 1)
    s["seats"][other]["active"] = [card("Kanonier"), card("Turm")]
    gold = s["seats"][other]["gold"]
    s = play(s, seat, "wall 1", "pay r")
    assert rules.wall_order(s)[0] == other and s["seats"][other]["gold"] == gold


def test_kanonier_not_paid_when_nobody_lands_on_its_owner():
    s, seat = _fresh("rrr")
    other = 1 - seat
    _on_field(s, other, 1)
    s["seats"][other]["active"] = [card("Kanonier")]
    gold = s["seats"][other]["gold"]
    s = play(s, seat, "wall 2", "pay r", "pay r", "pay r")
    assert s["seats"][other]["gold"] == gold


def test_wachposten_a_cube_less_while_another_disc_lies_on_yours():
    s, seat = _fresh("rr", active=[card("Wachposten")])
    other = 1 - seat
    s["wall"] = [[seat, other]] + [[] for _ in range(15)]     # seat under other
    assert rules.below_another(s, seat)
    assert rules.wall_price(s, seat, 1) == 0 and rules.wall_price(s, seat, 2) == 2
    s1 = play(s, seat, "wall 2", "pay r", "pay r")
    assert rules.wall_position(s1, seat) == 2 and rules.pool_size(s1, seat) == 0
    s2 = play(s, seat, "wall 1")                               # free: no payment step
    assert s2["pending"] is None and rules.pool(s2, seat) == {"r": 2}


def test_wachposten_full_price_on_top_and_for_a_turm_owner():
    s, seat = _fresh("rrr", active=[card("Wachposten")])
    other = 1 - seat
    s["wall"] = [[other, seat]] + [[] for _ in range(15)]     # seat on top
    assert rules.wall_price(s, seat, 2) == 3
    s["wall"] = [[seat, other]] + [[] for _ in range(15)]
    s["seats"][seat]["active"].append(card("Turm"))            # the Turm keeps it on top
    assert not rules.below_another(s, seat) and rules.wall_price(s, seat, 2) == 3


@pytest.mark.parametrize("fields", [1, 2, 3, 4])
def test_tor_each_wall_field_costs_one_cube(fields):
    s, seat = _fresh("r" * fields, active=[card("Tor")])
    assert rules.wall_price(s, seat, fields) == fields
    # the most it can afford, paid with all it has
    assert f"wall {fields} pay r" + (f":{fields}" if fields > 1 else "") in GAME.legal_moves(
        s, seat)
    s = play(s, seat, f"wall {fields}", *["pay r"] * fields)
    assert rules.wall_position(s, seat) == fields and rules.pool_size(s, seat) == 0
    assert not any(m.startswith("wall") for m in GAME.legal_moves(
        with_pool(s, seat, "rrrr"), seat))                     # still once per round


# -- districts -------------------------------------------------------------------------

def test_herold_one_cube_of_any_colour_once_per_round():
    s, seat = _fresh("br", active=[card("Herold")])             # district 1 wants b, k
    assert f"district {LIGHT} pay r" in GAME.legal_moves(s, seat)   # the red stands in
    s = play(s, seat, f"district {LIGHT}")            # the district alone opens the step
    assert s["pending"] == {"pay": 1} and GAME.legal_moves(s, seat) == ["pay r"]
    s = play(s, seat, "pay r")
    assert s["city"][str(LIGHT)] == seat and rules.pool_size(s, seat) == 0
    assert card("Herold") in s["seats"][seat]["used"]


def test_herold_not_needed_pays_exactly_and_stays_unused():
    s, seat = _fresh("bkr", active=[card("Herold")])
    s = play(s, seat, f"district {LIGHT}")
    assert rules.pool(s, seat) == {"r": 1} and card("Herold") not in s["seats"][seat]["used"]


def test_without_herold_a_missing_colour_is_missing():
    s, seat = _fresh("br")
    assert f"district {LIGHT}" not in GAME.legal_moves(s, seat)
    with pytest.raises(IllegalMoveError):
        GAME.apply(s, seat, f"district {LIGHT}")
    s, seat = _fresh("b", active=[card("Herold")])             # two cubes needed, one there
    assert f"district {LIGHT}" not in GAME.legal_moves(s, seat)


def test_nachtwaechter_two_pp_for_a_dark_district_only():
    s, seat = _fresh("ggky" + "bk", active=[card("Nachtwächter")])
    s1 = play(s, seat, f"district {DARK}")
    assert s1["seats"][seat]["pp"] == 2 and s1["seats"][seat]["jokers"] == 1
    s2 = play(s, seat, f"district {LIGHT}")
    assert s2["seats"][seat]["pp"] == 0


def test_spekulant_a_gold_for_each_district_counts_as_gold_received():
    s, seat = _fresh("bk", active=[card("Spekulant"), card("Pfandleihe")])
    s = play(s, seat, f"district {LIGHT}")
    assert s["seats"][seat]["gold"] == data.START_GOLD + 1
    s = play(s, seat, f"use {card('Pfandleihe')}")
    assert s["seats"][seat]["gold"] == data.START_GOLD + 2


def test_zimmermann_two_districts_in_a_turn_not_three():
    s, seat = _fresh("bk" + "ggky" + "gv", active=[card("Zimmermann")])
    s = play(s, seat, f"district {LIGHT}")
    assert District(DARK) in rules._action_groups(s, seat)["city"]
    s = play(s, seat, f"district {DARK}")
    assert s["seats"][seat]["district"] is True and "city" not in rules._action_groups(s, seat)
    with pytest.raises(IllegalMoveError):
        GAME.apply(s, seat, "district 6")            # "gv" is there, a third is not
    draft = rules._Draft(s)
    rules._start_round(draft)
    s = draft.state
    assert s["seats"][seat]["district"] is False and "districts" not in s["seats"][seat]


def test_without_zimmermann_one_district_a_turn():
    s, seat = _fresh("bk" + "gv")
    s = play(s, seat, f"district {LIGHT}")
    assert not any(m.startswith("district") for m in GAME.legal_moves(s, seat))
    assert "districts" not in s["seats"][seat]     # no counter in games without one


# -- ship ------------------------------------------------------------------------------

def test_leuchtturm_one_harbour_entered_free_each_round():
    s, seat = _fresh("", active=[card("Leuchtturm")], ship="S1")
    moves = GAME.legal_moves(s, seat)
    assert "sail Lisboa" in moves and "sail Anker" not in moves   # only a harbour is free
    s = play(s, seat, "sail Lisboa")
    assert s["seats"][seat]["ship"] == "Lisboa" and s["pending"] is None
    assert not any(m.startswith("sail") for m in GAME.legal_moves(s, seat))
    s = with_pool(s, seat, "r")
    s = play(s, seat, "sail S1", "pay r")
    s = with_pool(s, seat, "g")
    s = play(s, seat, "sail Lisboa")
    assert s["pending"] == {"pay": 1}           # the second harbour this round costs


def test_leuchtturm_keeps_the_segelmacherei_fields():
    s, seat = _fresh("", active=[card("Leuchtturm"), card("Segelmacherei")], ship="S1")
    s = play(s, seat, f"use {card('Segelmacherei')}", "sail Lisboa")
    assert s["seats"][seat]["free_moves"] == 2


def test_schiffsjunge_one_cube_for_up_to_three_fields():
    c = card("Schiffsjunge")
    s, seat = _fresh("k", active=[c], goods=["Reis"])
    s = play(s, seat, f"use {c}", "pay k", "sail S1", "sail Lisboa", "deliver", "sail S2")
    assert s["seats"][seat]["ship"] == "S2" and s["seats"][seat]["pp"] == 4
    assert s["seats"][seat]["gold"] == data.START_GOLD and rules.pool_size(s, seat) == 0
    assert not any(m.startswith("sail") for m in GAME.legal_moves(s, seat))
    s2, seat = _fresh("", active=[c])
    assert f"use {c}" not in GAME.legal_moves(s2, seat)      # no cube, no use


# -- prestige --------------------------------------------------------------------------

def test_botschaft_one_pp_more_for_each_purchase():
    s, seat = _fresh("", active=[card("Botschaft")])
    s["tribute"] = [3, 6]
    s = play(s, seat, "tribute")
    assert s["seats"][seat]["pp"] == 7 and s["seats"][seat]["gold"] == data.START_GOLD - 3


def test_diplomat_one_gold_less_never_below_nothing():
    s, seat = _fresh("", active=[card("Diplomat")], gold=2)
    s["tribute"] = [3, 6]
    assert "tribute" in GAME.legal_moves(s, seat)            # 2 gold suffice now
    s1 = play(s, seat, "tribute")
    assert s1["seats"][seat]["gold"] == 0 and s1["seats"][seat]["pp"] == 6
    s["tribute"] = [0, 1]
    s2 = play(s, seat, "tribute")
    assert s2["seats"][seat]["gold"] == 2 and s2["seats"][seat]["pp"] == 1


def test_without_the_cards_the_tribute_is_as_printed():
    s, seat = _fresh("")
    s["tribute"] = [3, 6]
    assert rules.tribute_rate(s, seat) == (3, 6)
