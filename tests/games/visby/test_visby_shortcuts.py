"""What Visby keeps is what the full computation gives (issue 23: the seat page's
engine work): each line of a round's events retold, kept by data version, line and
language; a menu's choices kept by the move alone (a card played, "done"); a move kept
by its text.  Checked at every state of random games."""

from __future__ import annotations

import random

import pytest
from games.kept_menu import kept_menu_is_full

from pbem.games.render import seat_text
from pbem.games.visby import GAME, menu, moves, rules, sentences


def _states(players: int, seed: str) -> list[dict]:
    chance = random.Random(seed)
    state = GAME.setup(players, {}, seed)
    out = [state]
    while not GAME.is_over(state):
        seat = chance.choice(GAME.to_move(state))
        state = GAME.apply(state, seat, chance.choice(GAME.legal_moves(state, seat)))
        out.append(state)
    return out


@pytest.mark.parametrize(("players", "seed"), [(2, "kurz-a"), (4, "kurz-b"), (6, "kurz-c")])
def test_an_event_kept_is_the_event_told(players, seed):
    # and the round's lines as the text lists them (``event_lines``), names filled in
    for state in _states(players, seed):
        for line in state["events"]:
            for lang in ("en", "de", "de-AT", "fr"):
                assert sentences.event(line, lang) == sentences.full_event(line, lang)
        names = ("Malte", "Heike {1}", "Anne", "<Bob>", "Ute", "Jan")[:players]
        for lang in ("en", "de", "de-AT", "fr"):
            told = tuple(f"  {seat_text(sentences.full_event(line, lang), names)}"
                         for line in state["events"])
            # twice: made, then kept
            for _ in range(2):
                assert sentences.event_lines(state["events"], lang, names) == told
    assert not {lang for _, _, lang in sentences._RETOLD.kept} - {"en", "de"}


@pytest.mark.parametrize(("players", "seed"), [(2, "kurz-a"), (4, "kurz-b"), (6, "kurz-c")])
def test_a_menu_kept_by_the_move_is_the_full_menu(players, seed):
    for state in _states(players, seed):
        for seat in range(players):
            for lang in ("en", "de", "de-AT"):
                moves = rules.legal(state, seat)
                kept_menu_is_full(menu, moves, state, seat, lang)


@pytest.mark.parametrize(("players", "seed"), [(2, "kurz-a"), (4, "kurz-b")])
def test_a_move_kept_by_its_text_is_the_move_read(players, seed):
    for state in _states(players, seed):
        for seat in range(players):
            for text in GAME.legal_moves(state, seat):
                for written in (text, text.upper(), f"  {text} "):
                    assert moves.parse(written) == moves.read(written)
                    assert moves.parse(written).notation() == text
