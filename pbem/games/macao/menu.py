"""Macao's moves as choices for people: a label, and for a card its name as the group
and a line of help.

The notation (``take A7``, ``district 12``) stays the language of the log and of links;
a label is what a player reads on a button or in a mail, in the words of the reader's
language (``words``).  The action phase's long menus are split into steps by the rules
(``show <group> <page>``, ``row <n>``), so that each fits in a mail.
"""

from __future__ import annotations

from typing import Any

from pbem.games.language import Words
from pbem.games.macao import rules
from pbem.games.macao.moves import (
    Activate,
    Discard,
    District,
    Joker,
    Move,
    Row,
    Sail,
    Show,
    Take,
    Use,
    Wall,
)
from pbem.games.macao.words import words
from pbem.games.protocol import Choice, State

_CARD_MOVES = (Take, Discard, Activate, Use)


def _fields(move: Move, w: Words) -> dict[str, Any]:
    """What a move's label template names: its card, colour, number or place."""
    if isinstance(move, Joker):
        return {"what": w["joker use"][move.what]}
    if isinstance(move, Show):
        return {"group": w["group"][move.group], "page": move.page, "page_1": move.page + 1}
    if isinstance(move, (District, Row, Wall, Sail)):
        return vars(move)
    colour = getattr(move, "colour", None)
    return {"colour": w["colour"][colour]} if colour else {}


def label(move: Move, lang: str = "en") -> str:
    """The move as a reader of ``lang`` reads it ("Take card: Turm (tower)")."""
    w = words(lang)
    key = move.notation().split()[0]
    if isinstance(move, _CARD_MOVES):
        card = w["card name"][move.card]
        if isinstance(move, Use) and move.times is not None:
            return w["use times"].format(card=card, times=move.times)
        return w[key].format(card=card)
    return w[key].format(**_fields(move, w))


def choice(move: Move, lang: str = "en") -> Choice:
    """One move as a choice in ``lang``: a card's moves are grouped by the card."""
    text = move.notation()
    if isinstance(move, _CARD_MOVES):
        w = words(lang)
        return Choice(text, label(move, lang), w["card name"][move.card],
                      w["card help"][move.card])
    return Choice(text, label(move, lang))


def menu(state: State, seat: int, lang: str = "en") -> list[Choice]:
    """The legal moves of ``seat`` as choices, in the order of ``rules.legal``."""
    return [choice(move, lang) for move in rules.legal(state, seat)]
