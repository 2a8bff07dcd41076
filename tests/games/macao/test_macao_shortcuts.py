"""The answers ``rules`` gives without building the whole action menu (issue 23: the
menu plays every action out for its payment) are the menu's: the formality, the
timeout's move, whether ``finish`` is legal, a move on the wall or at sea offered
with its payment, and the supply such a move leaves.  Checked at every state of
random games, which browse the menu's pages and rows, pay cube by cube and use the
Graf's variant."""

from __future__ import annotations

import random

import pytest

from pbem.games.macao import GAME, moves, rules, view
from pbem.games.macao.moves import DONE, END, FINISH, Sail, Wall, With


def _states(players: int, graf: bool, seed: str) -> list[dict]:
    chance = random.Random(seed)
    state = GAME.setup(players, {"graf_senkt": graf}, seed)
    out = [state]
    while not GAME.is_over(state):
        seat = GAME.to_move(state)[0]
        options = GAME.legal_moves(state, seat)
        move = chance.choice(options) if chance.random() < 0.6 else \
            GAME.bot_move(state, seat, chance)
        state = GAME.apply(state, seat, move)
        out.append(state)
    return out


@pytest.mark.parametrize(("players", "graf", "seed"), [(2, False, "kurz-a"), (4, True, "kurz-b")])
def test_the_answers_without_the_menu_are_the_menus(players, graf, seed):
    for state in _states(players, graf, seed):
        for seat in GAME.to_move(state):
            legal = rules.legal(state, seat)
            only_end = legal[0] if len(legal) == 1 and legal[0] in (END, FINISH) else None
            assert rules.formality(state, seat) == only_end
            ends = [last for last in (END, FINISH, DONE) if last in legal]
            assert rules.timeout_move(state, seat) == (ends[0] if ends else legal[0])
            assert rules._listed(state, seat, FINISH) == (FINISH in legal)
            if state["phase"] != "actions":
                continue
            for move in legal:   # what the menu says a payment leaves
                if isinstance(move, With):
                    played = rules.pool(rules.opened(state, seat, move.action)[0], seat)
                    assert rules.supply_after(state, seat, move.action) == played
            groups = rules._action_groups(state, seat, offer=False)
            kept: dict = {}
            for move in [m for group in groups.values() for m in group]:
                if isinstance(move, (Wall, Sail)):
                    # with ``kept``, without playing it out; without, played out
                    assert rules._offer(state, seat, move, kept) == \
                        rules._offer(state, seat, move), moves.bare(move).notation()


@pytest.mark.parametrize(("players", "graf", "seed"), [(3, True, "teilen-a")])
def test_a_card_entry_is_shared_and_stays_as_made(players, graf, seed):
    """A card's entry in a view (its names, costs, helps) is made once per data version
    and whether the Graf lowers costs, and shared by every view; drawing the views (text
    and picture, both languages) changes none."""
    names = ["Ada", "Ben", "Cy"][:players]
    shared = []
    for n, state in enumerate(_states(players, graf, seed)):
        if n % 3:
            continue
        for seat in [*range(players), None]:
            shown = GAME.view(state, seat)
            for lang in ("en", "de"):
                GAME.render_text(shown, names, lang)
                GAME.picture(shown, names, lang)
            for card, entry in shown["cards"].items():
                assert entry is GAME.view(state, seat)["cards"][card]
                shared.append((card, shown["graf_senkt"], entry))
    assert len(shared) > 100
    for card, lowers, entry in shared:
        assert entry == view._card_words(card, lowers)
