"""The check that a game's menu, with choices kept by the move alone, is the menu made in
full: shared by the games' shortcut tests (a game's ``menu`` module with ``menu``,
``entry`` and ``full_choice``)."""

from __future__ import annotations

from typing import Any


def kept_menu_is_full(menu: Any, moves: list[Any], state: dict, seat: int, lang: str) -> None:
    """``menu.menu`` and each move's ``menu.entry`` (the confirm page's one entry) are
    what ``menu.full_choice`` makes of ``moves``, the seat's legal moves."""
    assert menu.menu(state, seat, lang) == [
        menu.full_choice(state, seat, move, lang) for move in moves]
    for move in moves:
        assert menu.entry(state, seat, move.notation(), lang) == \
            menu.full_choice(state, seat, move, lang)
