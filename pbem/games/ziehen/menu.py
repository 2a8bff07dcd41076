"""Ziehen's moves as people read them: a label and a group per legal move.

A game whose decision has many possibilities splits it into steps here, each a small
menu of at most ``MENU_CAP`` choices (see Riga's payment, Macao's action phase); a
Ziehen turn is its steps already, one move each.

Each choice names the region of the picture it acts on (``REGION``), so that the seat
page can make that place of the picture a link: the deck for a draw, the seat's own row
for a step and for the end of the turn.
"""

from __future__ import annotations

from pbem.games.protocol import Choice, State, entry_of
from pbem.games.ziehen import rules
from pbem.games.ziehen.moves import DRAW, END, STEP, Move
from pbem.games.ziehen.words import words

#: the region of the picture (``picture.draw``) each verb acts on
REGION = {DRAW: "deck", STEP: "you", END: "you"}


def choice(move: Move, lang: str) -> Choice:
    """``move`` as a choice for a reader of ``lang``."""
    w = words(lang)
    return Choice(move.notation(), w[move.verb], w["group"], region=REGION[move.verb])


def menu(state: State, seat: int, lang: str = "en") -> list[Choice]:
    """The legal moves of ``seat`` as choices, in the order of ``rules.legal``."""
    return [choice(move, lang) for move in rules.legal(state, seat)]


def entry(state: State, seat: int, notation: str, lang: str = "en") -> Choice | None:
    """The entry of ``menu`` for the move written ``notation``, labelled alone; None
    where the menu does not offer it."""
    return entry_of(rules.legal(state, seat), notation, lambda move: choice(move, lang))
