"""Paying in one move (issue 22, "fewer clicks a turn"): an action and its whole payment
are one choice where the ways to pay fit a menu, cubes are chosen for the player where
their colour makes no difference, what is still owed is always shown, the end of a turn
uses the cards that only give prestige, and the old cube-by-cube logs still replay."""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path

import pytest
from macao_helpers import at_actions, play, with_pool
from table_words import table_in_words, words_read

from pbem.games.macao import GAME, rules
from pbem.games.protocol import MENU_CAP, IllegalMoveError, MalformedMoveError


def _only_red_needed(cubes: str):
    """The seat to move with ``cubes`` in its supply, one card on its tableau that
    costs a red cube, its district of the turn taken: only red is asked for."""
    s, seat = at_actions(2)
    s = with_pool(s, seat, cubes, tableau=["A1"], active=[], district=True, jokers=0)
    return s, seat


def _menu(s, seat, lang="en"):
    return {c.move: c for c in GAME.menu(s, seat, lang)}


def test_a_wall_move_with_one_sensible_way_to_pay_is_one_choice():
    s, seat = _only_red_needed("rrrkk")
    menu = _menu(s, seat)
    # 3 fields cost 5 cubes, all of them: one way, so no step to pay and no bare "wall 3"
    assert "wall 3 pay r:3,k:2" in menu and "wall 3" not in menu
    assert menu["wall 3 pay r:3,k:2"].label == "Wall, fields on: 3, paying 3 red, 2 black"
    assert "left in your supply: nothing" in menu["wall 3 pay r:3,k:2"].help
    german = _menu(s, seat, "de")["wall 3 pay r:3,k:2"]
    assert german.label == "Mauer, Felder vor: 3, bezahlt mit 3 rot, 2 schwarz"
    assert "im Vorrat bleiben: nichts" in german.help
    after = GAME.apply(s, seat, "wall 3 pay r:3,k:2")
    assert after["pending"] is None and rules.wall_position(after, seat) == 3
    assert rules.pool_size(after, seat) == 0
    assert GAME.describe(s, seat, "wall 3 pay r:3,k:2", after, None) == (
        f"{{{seat}}} moves 3 fields along the wall, paying 3 red and 2 black")
    assert GAME.describe(s, seat, "wall 3 pay r:3,k:2", after, None, "de") == (
        f"{{{seat}}} rückt 3 Felder auf der Mauer vor, bezahlt mit 3 rot und 2 schwarz")


def test_colours_nothing_asks_for_are_paid_first_for_the_player():
    s, seat = _only_red_needed("rrrkkvv")
    # 2 fields cost 3 cubes: black and violet are alike (nothing asks for them), so the
    # player keeps the red; the one sensible way: the larger spare colour first
    s["wall"][0].remove(seat)
    s["wall"][13].append(seat)            # room for 2 fields only
    assert rules.sensible_payments(s, seat, 3) == [{"k": 2, "v": 1}]
    assert "wall 2 pay k:2,v" in GAME.legal_moves(s, seat)


def test_a_payment_the_menu_does_not_offer_stands_for_the_one_it_offers():
    """``offered``: paying with other spare colours, or with a colour asked for where a
    spare one would do, leaves the player no better off than the menu's way; a payment
    that keeps more of the colours asked for is a way of its own."""
    s, seat = _only_red_needed("rrrkkvv")
    s["wall"][0].remove(seat)
    s["wall"][13].append(seat)
    for paid in ("k:2,v", "k,v:2", "r,k:2", "r,k,v", "r:2,k", "r:3"):
        GAME.apply(s, seat, f"wall 2 pay {paid}")          # each is legal
        assert GAME.offered(s, seat, f"wall 2 pay {paid}") == "wall 2 pay k:2,v", paid
    opened = play(s, seat, "wall 2")
    assert GAME.offered(opened, seat, "pay r,v:2") == "pay k:2,v"
    assert GAME.offered(opened, seat, "pay r") == "pay r"   # a part: as it is
    assert GAME.offered(s, seat, "wall 2") == "wall 2"
    s, seat = at_actions(2)
    s = with_pool(s, seat, "rrvv", tableau=["A1", "A21"], active=[], district=True, jokers=0)
    assert GAME.offered(s, seat, "wall 2 pay r,v:2") == "wall 2 pay r,v:2"
    assert GAME.offered(s, seat, "wall 2 pay r:2,v") == "wall 2 pay r:2,v"


def test_several_sensible_ways_are_whole_choices_with_the_action():
    s, seat = at_actions(2)
    # red and violet are both asked for (Militärwesen 1 costs red, Zoll 1 violet)
    s = with_pool(s, seat, "rrvv", tableau=["A1", "A21"], active=[], district=True, jokers=0)
    assert rules.sensible_payments(s, seat, 3) == [{"r": 2, "v": 1}, {"r": 1, "v": 2}]
    moves = GAME.legal_moves(s, seat)
    assert len(moves) <= MENU_CAP
    # the menu has room: each way is a choice of its own, the action and its payment
    # (and each shorter advance, each with its ways)
    assert [m for m in moves if m.startswith("wall 2")] == ["wall 2 pay r:2,v",
                                                            "wall 2 pay r,v:2"]
    assert [m for m in moves if m.startswith("wall 1")] == ["wall 1 pay r", "wall 1 pay v"]
    # the action alone opens its step, whose menu lists the same two whole ways
    step = play(s, seat, "wall 2")
    assert GAME.legal_moves(step, seat) == ["pay r:2,v", "pay r,v:2"]


def test_the_old_action_alone_opens_a_step_that_shows_what_is_still_owed():
    s, seat = at_actions(2)
    s = with_pool(s, seat, "rrrbbvv")
    s = play(s, seat, "wall 3")                      # the old notation: 5 cubes owed
    assert s["pending"] == {"pay": 5}
    menu = GAME.menu(s, seat)
    assert 1 < len(menu) <= MENU_CAP
    for choice in menu:
        assert choice.move.startswith("pay ") and choice.help.startswith("Still owed: 5 cubes.")
    for choice in GAME.menu(s, seat, "de"):
        assert choice.label.startswith("Abgeben: ") and "Noch zu zahlen: 5 Steine." in choice.help
    names = ["Ann", "Bob"]
    assert f"Still owed by {names[seat]}: 5 cubes of any colour" in GAME.render_text(
        GAME.view(s, None), names)
    assert f"Noch zu zahlen für {names[seat]}: 5 Steine beliebiger Farbe" in GAME.render_text(
        GAME.view(s, None), names, "de")
    # a cube at a time, as older logs paid, is still legal, and so is a part of the payment
    s1 = play(s, seat, "pay r")
    assert s1["pending"] == {"pay": 4}
    assert "Still owed by" in GAME.render_text(GAME.view(s1, seat), names)
    s2 = play(s1, seat, "pay r:2,v:2")
    assert s2["pending"] is None and rules.pool(s2, seat) == {"b": 2}
    assert "Still owed" not in GAME.render_text(GAME.view(s2, seat), names)
    assert GAME.describe(s1, seat, "pay r:2,v:2", s2, None) == f"{{{seat}}} pays 2 red and 2 violet"
    assert GAME.describe(s1, seat, "pay r:2,v:2", s2, None, "de") == (
        f"{{{seat}}} zahlt 2 rot und 2 violett")


def test_too_many_ways_to_pay_leave_a_step_of_one_colour_each():
    s, seat = at_actions(2)
    s = with_pool(s, seat, "rrrbbbgggkkkyyyvvv")
    s = play(s, seat, "wall 4")                      # 7 cubes of any of six colours
    menu = GAME.legal_moves(s, seat)
    assert len(menu) <= MENU_CAP
    for move in menu:
        parsed = [part.split(":") for part in move.split()[1].split(",")]
        assert len(parsed) == 1                      # one colour a move: 1 or as many as fit
    while s["pending"]:
        owed = s["pending"]["pay"]
        s = play(s, seat, GAME.legal_moves(s, seat)[-1])
        assert (s["pending"] or {"pay": 0})["pay"] < owed
    assert rules.pool_size(s, seat) == 18 - 7


def test_a_payment_that_does_not_fit_is_refused_and_changes_nothing():
    s, seat = _only_red_needed("rrrkk")
    before = json.dumps(s, sort_keys=True)
    for wrong in ("wall 3 pay r:3,k", "wall 3 pay r:4,k", "wall 1 pay r:3", "tribute gain r"):
        with pytest.raises(IllegalMoveError):
            GAME.apply(s, seat, wrong)
    assert json.dumps(s, sort_keys=True) == before
    for malformed in ("pay r:1", "pay k,r", "pay r,r", "end pay r", "pay r:0", "wall 3 pay"):
        with pytest.raises(MalformedMoveError):
            GAME.parse(malformed)
    assert GAME.parse("wall   3 pay r:3,k:2") == "wall 3 pay r:3,k:2"


def test_the_end_of_a_turn_uses_the_cards_that_only_give_prestige():
    s, seat = at_actions(2)
    s = with_pool(s, seat, "", tableau=[], active=["A1", "A5"], used=[], district=True,
                  bought=True)
    pp = s["seats"][seat]["pp"]
    moves = GAME.legal_moves(s, seat)
    # nothing else to do: the end is the only move, played by the server
    assert moves == ["finish"] and GAME.formality(s, seat) == "finish"
    assert not any(m.startswith("use A") for m in moves)
    choice = GAME.menu(s, seat)[0]
    assert "Militärwesen 1" in choice.help and "Justiz 1" in choice.help
    after = GAME.apply(s, seat, "finish")
    assert after["seats"][seat]["pp"] == pp + 2 and seat not in rules.to_move(after)
    said = GAME.describe(s, seat, "finish", after, None)
    assert said.startswith(f"{{{seat}}} uses Militärwesen 1") and said.endswith(
        "and ends the turn")
    assert GAME.describe(s, seat, "finish", after, None, "de").endswith("und beendet den Zug")
    # a timeout ends the turn as the menu does; "end" alone is still legal and uses nothing
    assert GAME.default_move(s, seat) == "finish"
    assert GAME.apply(s, seat, "end")["seats"][seat]["pp"] == pp


def test_every_menu_of_bot_games_fits_and_every_payment_move_settles_at_once():
    for players, seed in ((2, "pay-2"), (3, "pay-3"), (4, "pay-4")):
        s = GAME.setup(players, None, seed)
        rng = random.Random(seed)
        while not GAME.is_over(s):
            seat = GAME.to_move(s)[0]
            moves = GAME.legal_moves(s, seat)
            assert 1 <= len(moves) <= MENU_CAP and len(set(moves)) == len(moves)
            move = GAME.bot_move(s, seat, rng)
            after = GAME.apply(s, seat, move)
            if " pay " in move or " gain " in move:
                assert after["pending"] is None or after["decision"] != s["decision"], move
            s = after


def test_a_log_paid_cube_by_cube_replays_to_the_same_end():
    """A game the bots played before payments were whole moves (954aea5: ``wall 3`` then
    ``pay r`` five times) replays move for move to the state that engine reached."""
    log = (Path(__file__).parent / "v2_cube_by_cube.log").read_text(
        encoding="utf-8").splitlines()
    s = GAME.setup_version(3, None, "cube-by-cube", None, "1")  # played under rules 1
    for line in log:
        seat, move = line.split(" ", 1)
        s = GAME.apply(s, int(seat), move)
    assert GAME.is_over(s) and sum(1 for line in log if " pay " in line) == 98
    digest = hashlib.sha256(json.dumps(s, sort_keys=True).encode()).hexdigest()
    assert digest == "b752e55e92961ff261e70d438083cedd62fb49dfcbdf95dc8d0923354570b462"


def _page(state, seat: int, names: list[str], lang: str = "en") -> str:
    """What the table in words on the seat's page reads (as pages and mails show it)."""
    return words_read(table_in_words(GAME, GAME.view(state, seat), names, lang))


def test_the_page_shows_what_is_still_owed_while_a_payment_is_open():
    s, seat = at_actions(2)
    s = play(with_pool(s, seat, "rrrbbvv"), seat, "wall 3")
    names = ["Ann", "<b>Bob</b>"]
    assert f"Still owed by {names[seat]}: 5 cubes of any colour" in _page(s, seat, names)
    assert f"Noch zu zahlen für {names[seat]}: 5 Steine beliebiger Farbe" in _page(
        s, seat, names, "de")
    paid = play(s, seat, "pay r:3,b:2")
    assert "Still owed" not in _page(paid, seat, names)


def test_the_page_shows_what_is_still_to_take_while_cubes_are_open():
    s, seat = at_actions(2)
    s = play(with_pool(s, seat, "", jokers=1), seat, "joker cube")   # the old notation
    assert s["pending"] == {"gain": 1}
    names = ["Ann", "Bob"]
    assert f"Still to take for {names[seat]}: 1 cube of any colour" in _page(s, seat, names)
    assert f"Noch zu nehmen für {names[seat]}: 1 Stein beliebiger Farbe" in _page(
        s, seat, names, "de")
