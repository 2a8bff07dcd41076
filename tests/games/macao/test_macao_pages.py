"""The action menu's pages hold what the menu counted them for.

A state from a random contract playout (PBEM_CONTRACT_SEED=13f5f0f1352bdb1316d0e0cc10e18aab,
4 players): seat 2 may use the Goldsucher (C7: 1 gold for every 3 cubes given) up to 7
times, besides six offices that only give prestige (A11 Verwaltung 3 …), which
``finish`` uses (the menu does not offer them on their own).  The top menu counted one
page of uses without those cards; the page then listed them too, and ``use C7 3``,
``2`` and ``1`` fell onto a second page that no menu offered, though ``apply`` accepts
them."""

from __future__ import annotations

import json
from pathlib import Path

from pbem.games import get_game
from pbem.games.macao import rules

GAME = get_game("macao")
SAVED = json.loads((Path(__file__).parent / "paged_uses_state.json").read_text())


def _offered(state: dict, seat: int) -> set[str]:
    """The top menu's moves and those of every page it offers."""
    top = GAME.legal_moves(state, seat)
    found = set(top)
    for move in top:
        if move.startswith("show "):
            found |= set(GAME.legal_moves(GAME.apply(state, seat, move), seat))
    return found


def test_every_use_the_rules_accept_is_on_a_page_the_menu_offers():
    state, seat = SAVED["state"], SAVED["seat"]
    offered = _offered(state, seat)
    for times in range(1, 8):
        move = f"use C7 {times}"
        GAME.apply(state, seat, move)  # accepted
        assert move in offered, (move, sorted(offered))


def test_pages_hold_at_most_what_the_menu_counted():
    state, seat = SAVED["state"], SAVED["seat"]
    for move in GAME.legal_moves(state, seat):
        if move.startswith("show "):
            page = GAME.legal_moves(GAME.apply(state, seat, move), seat)
            assert len(page) <= rules.PAGE + 1  # its moves and "back"
