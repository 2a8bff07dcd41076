"""Tallinn on the game protocol: refused moves, menus, the default move, turns and
commit points, options and seeds."""

from __future__ import annotations

import copy
import json

import pytest
from tallinn_helpers import new_game, play_round, random_steps, stack

from pbem.games.protocol import (
    MENU_CAP,
    IllegalMoveError,
    MoveError,
    OptionError,
)
from pbem.games.tallinn import GAME


def refused(state, seat, move, *words):
    """``apply`` refuses with an ``IllegalMoveError`` naming ``words``; the state is untouched."""
    before = copy.deepcopy(state)
    with pytest.raises(IllegalMoveError) as caught:
        GAME.apply(state, seat, move)
    message = str(caught.value).lower()
    for word in words:
        assert word.lower() in message, (word, message)
    assert state == before


def tower_state():
    state = new_game(2)
    stack(state, 0, "S1", ["1", "7", "2", "3", "4", "5", "6", "8", "9", "10"])
    stack(state, 1, "S6", ["10", "2", "3", "1", "5", "6", "7", "8", "9", "4"])
    state = GAME.apply(state, 0, "play 1b")
    return GAME.apply(state, 1, "play 10a")


# -- refused moves -----------------------------------------------------------------


def test_a_card_not_in_hand_is_refused_with_where_it_is():
    state = tower_state()
    state = GAME.apply(state, 0, "no tower")
    refused(state, 0, "play 1a", "card 1", "not in your hand", "in your display")
    refused(state, 0, "play 9a", "card 9", "not yet drawn")
    refused(state, 0, "play La", "card L", "not in this game")


def test_moves_of_the_wrong_phase_are_illegal():
    state = new_game(2)
    refused(state, 0, "tower 7", "play 7a")
    refused(state, 0, "legat Ritter", "play 7a")
    state = tower_state()
    refused(state, 0, "play 2a", "tower <card>")
    refused(state, 0, "tower 9", "card 9", "neither in your display nor in your hand",
            "1, 2, 7")


def test_seats_that_are_not_to_move_are_refused_with_why():
    state = GAME.apply(new_game(2), 0, "play " + new_game(2)["hand"][0][0] + "a")
    refused(state, 0, "play 2a", "seat 0", "already chosen")
    refused(state, 5, "play 2a", "no seat 5")
    refused(state, -1, "play 2a", "no seat -1")
    state = tower_state()
    refused(state, 1, "no tower", "seat 1", "triggered no contest")


def test_the_tower_menu_is_the_display_then_the_hand_then_none():
    state = tower_state()
    # this round's card 1 in the display; 2 and 7 in the hand (the draw comes later)
    assert GAME.legal_moves(state, 0) == ["tower 1", "tower 2", "tower 7", "no tower"]
    state["hand"][0] = []  # as if every card were played or built
    assert GAME.legal_moves(state, 0) == ["tower 1", "no tower"]


def test_no_move_after_the_game_is_over():
    state = new_game(2)
    while not GAME.is_over(state):
        state = play_round(state, {s: f"{state['hand'][s][0]}a" for s in GAME.to_move(state)})
    refused(state, 0, "play 1a", "over")
    assert GAME.to_move(state) == [] and GAME.legal_moves(state, 0) == []


def test_every_refusal_is_a_move_error():
    with pytest.raises(MoveError):
        GAME.apply(new_game(2), 0, "play 7c")


# -- options and seeds -----------------------------------------------------------------


def test_options_are_yes_no_and_refused_when_unknown():
    assert [(o.name, o.choices, o.default, o.is_yes_no) for o in GAME.options] == [
        ("legat", (False, True), False, True), ("tower_order", (False, True), False, True)]
    with pytest.raises(OptionError):
        GAME.setup(2, {"chronik": True}, "s")
    with pytest.raises(OptionError):
        GAME.setup(5, None, "s")
    with pytest.raises(OptionError):
        GAME.setup(1, None, "s")


def test_the_seed_is_kept_as_text_and_rebuilds_the_same_deal():
    assert GAME.setup(2, None, 123)["seed"] == "123"
    assert GAME.setup(2, None, 123) == GAME.setup(2, None, "123")
    assert GAME.setup(4, None, "a") != GAME.setup(4, None, "b")
    state = GAME.setup(4, None, "a")
    assert len(set(state["start"])) == 4  # a start card each, from the six
    for seat in range(4):
        cards = sorted(state["hand"][seat] + state["pile"][seat], key=int)
        assert cards == [str(n) for n in range(1, 11)] and len(state["hand"][seat]) == 3
    assert state["points"] == [4, 4, 4, 4]
    assert json.loads(json.dumps(state)) == state


# -- menus -------------------------------------------------------------------------


@pytest.mark.parametrize("options", [{}, {"legat": True}, {"legat": True, "tower_order": True}])
@pytest.mark.parametrize("players", [2, 4])
def test_every_menu_fits_a_mail_and_reads_in_both_languages(players, options):
    seen = set()
    for state, _seat, _move in random_steps(players, 7, **options):
        for seat in GAME.to_move(state):
            moves = GAME.legal_moves(state, seat)
            assert 0 < len(moves) <= MENU_CAP
            for lang in ("en", "de"):
                menu = GAME.menu(state, seat, lang)
                assert [c.move for c in menu] == moves
                assert all(c.label and c.group and c.help for c in menu)
                assert len({c.label for c in menu}) == len(menu)
            seen.add(state["phase"])
    assert {"choose", "tower"} <= seen


def test_labels_keep_the_printed_names_with_an_english_gloss():
    state = new_game(2)
    stack(state, 0, "S1", ["1", "7", "2", "3", "4", "5", "6", "8", "9", "10"])
    en = {c.move: c for c in GAME.menu(state, 0, "en")}
    de = {c.move: c for c in GAME.menu(state, 0, "de")}
    assert en["play 1b"].label == ("Play card 1, active half: 1 Ritter + coin: contest for the "
                                   "Ritter (knights)")
    assert de["play 1b"].label == ("Karte 1 ausspielen, aktiv: 1 Ritter + Münze: Wettstreit "
                                   "der Ritter")
    # card 7's persons are printed, their halves pbem's: the sign, and its line in the help
    assert en["play 7a"].label == "Play card 7◇, active half: 1 Ritter, 2 Mönche"
    assert en["play 7a"].help.endswith("◇ Halves reconstructed: the card's persons are "
                                       "printed, how they lie on its two halves pbem chose "
                                       "to fit the rulebook.")
    assert "◇" not in en["play 1b"].help
    assert en["play 1b"].group == "card 1" and de["play 1b"].group == "Karte 1"
    assert en["play 1b"].help.startswith("Coin: a contest for the Ritter")
    assert de["play 7a"].help.startswith("Bringt 1 Ritter, 2 Mönche")
    state = tower_state()
    de = GAME.menu(state, 0, "de")
    assert [de[0].label, de[2].label] == [
        "Turm aus der Auslage: Karte 1: 2 Mönche | 1 Ritter + Münze",
        "Turm aus der Hand: Karte 7◇: 1 Ritter, 2 Mönche | 1 Kaufmann, 2 Mönche"]
    assert de[-1].label == "Keinen Turm bauen"
    en = GAME.menu(state, 0)
    assert en[1].label == "Tower from your hand: card 2◇: 2 Kaufleute | 1 Mönch + coin"
    assert en[1].group == "Tower from your hand" and en[0].group == "Tower from your display"
    assert "all 3 persons of both halves" in en[1].help and "one card fewer" in en[1].help


# -- default move ----------------------------------------------------------------------


@pytest.mark.parametrize("options", [{}, {"legat": True, "tower_order": True}])
def test_the_default_move_is_always_legal(options):
    checked = 0
    for players in (2, 3):
        for state, _seat, _move in random_steps(players, 3, **options):
            for seat in GAME.to_move(state):
                default = GAME.default_move(state, seat)
                assert default in GAME.legal_moves(state, seat)
                GAME.apply(state, seat, default)
                checked += 1
    assert checked > 40


def test_the_default_move_is_modest():
    state = new_game(2)
    stack(state, 0, "S1", ["7", "1", "2", "3", "4", "5", "6", "8", "9", "10"])
    # lowest card (1), its half with more persons (2 Mönche, no coin)
    assert GAME.default_move(state, 0) == "play 1a"
    state = tower_state()
    assert GAME.default_move(state, 0) == "no tower"
    with pytest.raises(ValueError):
        GAME.default_move(state, 1)
    assert "timeout" in GAME.default_move_note


# -- turns and commit points ------------------------------------------------------------


def commit(state, seat, move):
    after = GAME.apply(state, seat, move)
    return (GAME.turn_over(state, seat, move, after),
            GAME.is_commit_point(state, seat, move, after), after)


def test_turns_and_commit_points_of_a_round():
    state = new_game(2)
    stack(state, 0, "S1", ["1", "7", "2", "3", "4", "5", "6", "8", "9", "10"])
    stack(state, 1, "S6", ["10", "2", "3", "1", "5", "6", "7", "8", "9", "4"])
    turn, point, state = commit(state, 0, "play 1b")
    assert (turn, point) == (True, False)  # a secret choice may be taken back until the reveal
    turn, point, state = commit(state, 1, "play 10a")
    assert (turn, point) == (True, True)  # the reveal
    turn, point, state = commit(state, 0, "tower 7")
    assert (turn, point) == (True, True)  # the last decision: towers revealed, cards drawn


def test_the_last_choice_that_opens_a_new_decision_for_its_author_ends_its_turn():
    state = new_game(2, legat=True)
    stack(state, 0, "S6", ["2", "3", "4", "1", "5", "6", "7", "8", "9", "10"])
    state = GAME.apply(state, 1, f"play {state['hand'][1][0]}a")
    turn, point, after = commit(state, 0, "play Lb")
    assert GAME.to_move(after) == [0] and after["phase"] == "legat"
    assert (turn, point) == (True, True)


def test_is_secret_during_card_and_tower_choices():
    state = new_game(2)
    assert GAME.is_secret(state)
    assert GAME.is_secret(tower_state())
    variant = new_game(2, tower_order=True)
    stack(variant, 0, "S1", ["1", "7", "2", "3", "4", "5", "6", "8", "9", "10"])
    variant = GAME.apply(GAME.apply(variant, 0, "play 1b"), 1, f"play {variant['hand'][1][0]}a")
    assert variant["phase"] == "tower" and not GAME.is_secret(variant)


def test_round_and_scores_while_running():
    state = tower_state()
    assert GAME.round(state) == 1 and GAME.scores(state) == [4 + 2, 4]
    with pytest.raises(ValueError):
        GAME.result(state)
