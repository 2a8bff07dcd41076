"""Macao's apply copies only what a move changes (rules._Draft), so it must be checked
that it never changes the caller's state: every state of random games, deep-compared
before and after each apply, and every state of a game still as it was at its end."""

from __future__ import annotations

import copy
import json
import random

import pytest

from pbem.games.macao import GAME, moves, rules
from pbem.games.protocol import IllegalMoveError, MalformedMoveError


@pytest.mark.parametrize("players,seed", [(2, 1), (3, 2), (4, 3)])
def test_apply_never_changes_its_input_over_a_random_game(players, seed):
    r = random.Random(seed)
    s = GAME.setup(players, None, f"pure{seed}")
    history = [(s, copy.deepcopy(s))]
    while not GAME.is_over(s):
        seat = GAME.to_move(s)[0]
        move = (GAME.bot_move(s, seat, r) if r.random() < 0.5
                else r.choice(GAME.legal_moves(s, seat)))
        before = copy.deepcopy(s)
        after = GAME.apply(s, seat, move)
        assert s == before, move
        assert json.loads(json.dumps(after)) == after
        s = after
        history.append((s, copy.deepcopy(s)))
    # states of one game share what no move changed: no later move changed an earlier one
    for state, snapshot in history:
        assert state == snapshot


def test_a_failed_apply_leaves_the_state_as_it_was():
    s = GAME.setup(2, None, "fail")
    before = copy.deepcopy(s)
    with pytest.raises(IllegalMoveError):
        GAME.apply(s, GAME.to_move(s)[0], "discard A1")
    assert s == before


def test_a_state_read_back_with_sorted_keys_plays_the_same():
    r = random.Random(7)
    s = GAME.setup(3, None, "sorted")
    while not GAME.is_over(s):
        seat = GAME.to_move(s)[0]
        move = r.choice(GAME.legal_moves(s, seat))
        stored = json.loads(json.dumps(s, sort_keys=True))
        assert GAME.legal_moves(stored, seat) == GAME.legal_moves(s, seat)
        assert GAME.apply(stored, seat, move) == GAME.apply(s, seat, move)
        s = GAME.apply(s, seat, move)


@pytest.mark.parametrize("text", ["take A1", "discard A2", "skip", "one r", "two k", "die v",
                                  "activate A3", "district 12", "row 0", "wall 3",
                                  "sail Lisboa", "deliver", "tribute", "use A1", "use A1 2",
                                  "joker mixed", "pay y", "gain g", "give b", "show use 1",
                                  "done", "back", "end"])
def test_every_move_reads_back_to_its_notation(text):
    assert moves.parse(text).notation() == text
    assert moves.parse(f"  {text}  ") == moves.parse(text)


@pytest.mark.parametrize("text", ["", "take", "take Z99", "one red", "district 012",
                                  "district x", "sail Atlantis", "joker silver",
                                  "show nothing 0", "end now", "use A1 2 3"])
def test_what_is_no_move_is_refused_as_malformed(text):
    with pytest.raises(MalformedMoveError):
        moves.parse(text)


def test_apply_takes_move_values_and_the_menu_lists_them():
    s = GAME.setup(2, None, "values")
    seat = GAME.to_move(s)[0]
    legal = rules.legal(s, seat)
    assert [m.notation() for m in legal] == GAME.legal_moves(s, seat)
    assert rules.apply(s, seat, legal[0]) == GAME.apply(s, seat, legal[0].notation())
