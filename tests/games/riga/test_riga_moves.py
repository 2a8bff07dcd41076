"""Riga's moves as values (pbem/games/riga/moves.py): read once from their notation and
written back to the same text, for every move a game offers; text that is no Riga move
is refused as malformed, and a well-formed move that is not allowed as illegal."""

from __future__ import annotations

from typing import get_args

import pytest
from riga_helpers import random_steps, started

from pbem.games.protocol import IllegalMoveError, MalformedMoveError
from pbem.games.riga import GAME, rules
from pbem.games.riga.moves import (
    BACK,
    CANCEL,
    CHARGE,
    END,
    FINISH,
    KLOSTER,
    MORE,
    Add,
    Build,
    Cancel,
    Charge,
    Choose,
    Discard,
    End,
    Finish,
    Get,
    Give,
    Keep,
    Kloster,
    Menu,
    Move,
    Pay,
    School,
    Start,
    SwapFrom,
    SwapTo,
    Take,
    TakeSet,
    Use,
    parse,
)


def test_every_move_two_games_offer_reads_back_to_its_own_notation():
    kinds = set()
    for players, riga in ((2, True), (4, False)):
        for state, seat, _ in random_steps(players, seed=7, riga=riga):
            for move in rules.every_move(state, seat) + rules.legal(state, seat):
                assert parse(move.notation()) == move
                assert GAME.parse(move.notation()) == move.notation()
                kinds.add(type(move))
    # the two walks met the moves of every phase: setup, take, build and pay, winter
    assert kinds >= {Start, Keep, Take, TakeSet, Kloster, Use, Choose, Build, Add, Pay,
                     Finish, Cancel, School, Charge, Discard, End, Menu}, kinds


def test_one_move_of_every_kind_reads_back_to_its_own_notation():
    samples = [Start(2), Keep("Kran-Visby"), Take("Loge-Danzig"), TakeSet(0), KLOSTER,
               SwapFrom(1), Give("Wein"), SwapTo(2), Get("Getreide"), Use("Kontor"),
               Choose(None), Choose("Glas"), Build("Kloster"), Add("Bank-Tallinn"),
               Pay("Tuch"), FINISH, CANCEL, School("Kaufmann"), CHARGE, Discard("Wein"),
               END, Menu("functions"), MORE, BACK]
    assert {type(m) for m in samples} == set(get_args(Move))
    for move in samples:
        assert parse(move.notation()) == move


def test_numbers_count_from_one_in_the_notation_and_from_zero_in_the_value():
    assert parse("take set 2") == TakeSet(1) and TakeSet(1).notation() == "take set 2"
    assert parse("start 1") == Start(0)
    assert parse("choose none") == Choose(None) and parse("choose Tuch") == Choose("Tuch")
    assert parse("  back ") == BACK and parse("menu Visby") == Menu("Visby")


@pytest.mark.parametrize("text", ["", "fly", "end now", "take set x", "take set", "start",
                                  "pay", "start -1", "Take set 1"])
def test_text_that_is_no_riga_move_is_malformed(text):
    with pytest.raises(MalformedMoveError):
        parse(text)
    with pytest.raises(MalformedMoveError):
        GAME.apply(started(), 0, text)


def test_a_well_formed_move_that_is_not_allowed_now_is_illegal():
    state = started()
    seat = GAME.to_move(state)[0]
    with pytest.raises(IllegalMoveError, match="not allowed now; the choices are: "):
        GAME.apply(state, seat, "take Festung-Nirgendwo")
