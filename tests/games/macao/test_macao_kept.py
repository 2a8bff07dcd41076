"""What Macao keeps between calls is what it makes afresh: the menu's choices (kept by
the move), the text's lines (kept by what each part reads) and the picture's sections
(kept by the parts of the view each shows).  Checked along a random game, each output
made twice (the second from what was kept) and once more with nothing kept."""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import partial
from typing import Any

from pbem.games import svg
from pbem.games.macao import GAME, menu, rules, text
from pbem.games.protocol import SPECTATOR

NAMES = ["Anna", "<b>Bert & Co</b>", "Cora"]


def _states(every: int = 9) -> list[dict]:
    chance = random.Random("kept")
    state = GAME.setup(3, {"graf_senkt": True}, "kept")
    out = []
    for step in range(400):
        if GAME.is_over(state):
            break
        seat = GAME.to_move(state)[0]
        if step % every == 0:
            out.append(state)
        options = GAME.legal_moves(state, seat)
        move = chance.choice(options) if chance.random() < 0.3 else \
            GAME.default_move(state, seat)
        state = GAME.apply(state, seat, move)
    return out


def _afresh(make: Callable[[], Any]) -> Any:
    """``make()`` with nothing kept: neither the text's lines nor any picture's pieces."""
    kept = dict(text._KEPT)
    text._KEPT.clear()
    svg.forget()
    try:
        return make()
    finally:
        text._KEPT.update(kept)


def test_a_kept_menu_is_the_menu_made_afresh():
    for state in _states():
        for seat in GAME.to_move(state):
            for lang in ("en", "de"):
                full = [menu.choice(move, lang, menu.payment_help(state, seat, move, lang),
                                    menu.region(move, state, seat), rules.graf_senkt(state))
                        for move in rules.legal(state, seat)]
                assert menu.menu(state, seat, lang) == full
                assert menu.menu(state, seat, lang) == full
                for choice in full:
                    assert menu.entry(state, seat, choice.move, lang) == choice


def _outputs(view: dict, lang: str, links: dict[str, str]) -> tuple[str, ...]:
    """The view as text, as a picture and as the seat page's picture with ``links``."""
    return (GAME.render_text(view, NAMES, lang), GAME.picture(view, NAMES, lang),
            GAME.picture(view, NAMES, lang, links))


def test_kept_text_and_pictures_are_those_made_afresh():
    for n, state in enumerate(_states()):
        seat = GAME.to_move(state)[0]
        links = {c.region: f"/m/{n}/{i}" for i, c in enumerate(GAME.menu(state, seat))
                 if c.region}
        for viewer in (seat, SPECTATOR):
            view = GAME.view(state, viewer)
            for lang in ("en", "de"):
                made = _outputs(view, lang, links)
                assert _outputs(view, lang, links) == made
                assert _afresh(partial(_outputs, view, lang, links)) == made
