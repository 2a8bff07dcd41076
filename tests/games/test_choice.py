"""``Rules.choice``: one move's entry of the menu, labelled alone (the confirm page's and
a timeout mail's label), is the menu's own entry for it, in every game, for every seat
and in "en" and "de"; a move the menu does not offer has none; a subclass that words
its menu otherwise is read through its menu."""

from __future__ import annotations

import random

import pytest

from pbem.games import all_games
from pbem.games.protocol import Choice
from pbem.games.ziehen import Ziehen


@pytest.mark.parametrize("rules", all_games(), ids=lambda r: r.name)
def test_choice_is_the_menus_entry(rules):
    rng = random.Random(7)
    state = rules.setup(rules.min_players, {}, "choice")
    checked = 0
    while not rules.is_over(state):
        for seat in range(rules.min_players):
            for lang in ("en", "de"):
                menu = rules.menu(state, seat, lang)
                for entry in menu:
                    assert rules.choice(state, seat, entry.move, lang) == entry
                    checked += 1
                assert rules.choice(state, seat, "no such move", lang) is None
        seat = rng.choice(rules.to_move(state))
        state = rules.apply(state, seat, rng.choice(rules.legal_moves(state, seat)))
    assert checked


class Relabelled(Ziehen):
    """A game that words its menu otherwise and leaves ``choice`` alone."""

    def menu(self, state, seat, lang="en"):
        return [Choice(c.move, f"{c.label}!", c.group, c.help, c.region)
                for c in super().menu(state, seat, lang)]


def test_a_subclass_menu_is_read_whole():
    rules = Relabelled()
    state = rules.setup(2, {}, "relabelled")
    seat = rules.to_move(state)[0]
    [first, *_] = rules.menu(state, seat, "en")
    assert rules.choice(state, seat, first.move, "en") == first
    assert first.label.endswith("!")
