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
        before = history[-1][1]  # the copy of ``s`` made when it was new
        after = GAME.apply(s, seat, move)
        assert s == before, move
        # the round trip that shows the state survives JSON is also its copy (a deepcopy
        # of a state that survives JSON equals it)
        snapshot = json.loads(json.dumps(after))
        assert snapshot == after
        s = after
        history.append((s, snapshot))
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


def _old_extra_legal(s, seat, move) -> bool:
    """``rules._extra_legal`` as it was before it read bare groups (a copy, so that the
    test compares with the old answer, not with itself)."""
    step = rules.steps.read(s["pending"])
    if s["phase"] != "actions":
        return False
    if isinstance(step, rules.steps.Paying):
        return isinstance(move, moves.Pay)
    if isinstance(step, rules.steps.Gaining):
        return isinstance(move, moves.Gain)
    if step is not None and not isinstance(step, rules.steps.BROWSING):
        return False
    move = moves.bare(move)
    me = s["seats"][seat]
    groups = rules._action_groups(s, seat)  # offered: each payment played out
    if isinstance(move, moves.Show):
        # a page of a group as the menu has it (``_turn_groups``: the use group without
        # the uses ``finish`` takes); the whole group for a game of rules version 1, whose
        # logs browsed it (the old answer took the whole group for every game, and so
        # accepted a page no menu of rules version 2 offers)
        if s["rules_version"] != "1":
            groups = rules._turn_groups(s, seat)[0]
        return move.group in groups and move.page * rules.PAGE < len(groups[move.group])
    if isinstance(move, moves.Row):
        return not me["district"] and any((d - 1) // rules.data.CITY_COLUMNS == move.row
                                          for d in rules._affordable_districts(s, seat))
    if move == moves.END or isinstance(move, moves.Use) and move in rules._free_use_moves(
            s, seat):
        return True
    if any(move == moves.bare(m) for group in groups.values() for m in group):
        return True
    if isinstance(move, moves.District):
        return not me["district"] and move.number in rules._affordable_districts(s, seat)
    if isinstance(move, moves.Wall):
        return not me["walled"] and 1 <= move.fields <= rules._wall_steps(s, seat)
    if isinstance(move, moves.Use) and move.times is not None:
        card = move.card
        return (card in me["active"] and card not in me["used"]
                and move.times in rules._use_options(s, seat, card)
                and rules.data.CARDS[card].effect[0] == "convert")
    return False


def _accepted_by_the_whole_menu(s, seat, move) -> bool:
    """What ``apply`` accepted before it asked the cheaper question first."""
    return move in rules._moves(s, seat) or _old_extra_legal(s, seat, move)


def _candidates(s, seat) -> list:
    """The menu's moves, each bare, other payments for them, pages, rows, walls, the end."""
    menu = rules._moves(s, seat)
    out = list(menu) + [moves.bare(m) for m in menu]
    out += [moves.parse(t) for t in ("end", "finish", "show use 0", "show city 1", "row 0",
                                     "row 4", "wall 1", "wall 2", "wall 6", "pay r", "gain b",
                                     "district 3 pay r:2", "sail N1 pay k")]
    return out


def test_apply_asks_the_cheap_question_first_and_accepts_the_same_moves():
    """``apply`` answers an action from its bare groups before it builds the whole menu:
    along random games, every candidate move is accepted exactly when the whole menu (or
    what the menu reaches) accepted it."""
    rng = random.Random(5)
    checked = 0
    for players, seed in ((2, "a"), (3, "b"), (4, "c")):
        s = GAME.setup(players, None, seed)
        while not GAME.is_over(s) and checked < 4000:
            seat = GAME.to_move(s)[0]
            for move in _candidates(s, seat):
                try:
                    rules.apply(s, seat, move)
                    accepted = True
                except IllegalMoveError as exc:
                    accepted = "not a legal move" not in str(exc)  # legal, refused later
                assert accepted == _accepted_by_the_whole_menu(s, seat, move), (
                    move.notation(), s["phase"], s["pending"])
                checked += 1
            s = rules.apply(s, seat, rng.choice(rules._moves(s, seat)))
    assert checked >= 1000
