"""Ziehen's moves as people read them: a label and a group per legal move.

A game whose decision has many possibilities splits it into steps here, each a small
menu of at most ``MENU_CAP`` choices (see Riga's payment, Macao's action phase); a
Ziehen turn is its steps already, one move each.
"""

from __future__ import annotations

from pbem.games.protocol import Choice, State
from pbem.games.ziehen import rules
from pbem.games.ziehen.moves import Move
from pbem.games.ziehen.words import words


def choice(move: Move, lang: str) -> Choice:
    """``move`` as a choice for a reader of ``lang``."""
    w = words(lang)
    return Choice(move.notation(), w[move.verb], w["group"])


def menu(state: State, seat: int, lang: str = "en") -> list[Choice]:
    """The legal moves of ``seat`` as choices, in the order of ``rules.legal``."""
    return [choice(move, lang) for move in rules.legal(state, seat)]
