"""Macao's moves as choices for people: a label, and for a card its name as the group
and a line of help.

The notation (``take A7``, ``district 12``) stays the language of the log and of links;
a label is what a player reads on a button or in a mail, in the words of the reader's
language (``words``).  The action phase's long menus are split into steps by the rules
(``show <group> <page>``, ``row <n>``), so that each fits in a mail.

Each choice names the place of the picture it acts on (:func:`region`, drawn by
``picture.draw``), so that the seat page can make that place a link to tap.
"""

from __future__ import annotations

from typing import Any

from pbem.games.language import Words
from pbem.games.macao import rules
from pbem.games.macao.moves import (
    Activate,
    Back,
    Deliver,
    Die,
    Discard,
    District,
    Done,
    End,
    Gain,
    Give,
    Joker,
    Move,
    One,
    Pay,
    Row,
    Sail,
    Show,
    Skip,
    Take,
    Tribute,
    Two,
    Use,
    Wall,
)
from pbem.games.macao.words import words
from pbem.games.protocol import Choice, State

_CARD_MOVES = (Take, Discard, Activate, Use)

#: the place of the picture a ``show <group> <page>`` acts on: the group's heading
GROUP_REGION = {"activate": "tableau", "use": "activated", "city": "city", "wall": "wall",
                "ship": "sea", "tribute": "tribute", "joker": "jokers"}


def region(move: Move, state: State, seat: int) -> str:
    """The place of the picture (``picture.draw``) ``move`` of ``seat`` acts on: a card
    on offer or in the seat's tableau, a die, a field of the wind rose, a cube place of
    the action supply or of the cube legend (the general supply), a wall field, a
    district or a row of the city, a sea field, a harbour, a heading of the action
    menu's group; the seat's own name for what acts on nothing drawn (done, back, no
    card), and the "end turn" place for the end of the turn."""
    if isinstance(move, Take):
        return f"offer {move.card}"
    if isinstance(move, (Discard, Activate, Use)):
        return f"card {move.card}"
    if isinstance(move, (One, Two)):
        return f"rose {1 if isinstance(move, One) else 2}"
    if isinstance(move, Die):
        return f"die {move.colour}"
    if isinstance(move, (Pay, Give)):
        return f"supply {move.colour}"
    if isinstance(move, Gain):
        return f"cubes {move.colour}"
    if isinstance(move, District):
        return f"district {move.number}"
    if isinstance(move, Row):
        return f"row {move.row}"
    if isinstance(move, Wall):   # the field the disc moves to, as the picture numbers it
        return f"wall {rules.wall_position(state, seat) + move.fields + 1}"
    if isinstance(move, Sail):
        return f"sea {move.field}"
    if isinstance(move, Deliver):
        return f"harbour {state['seats'][seat]['ship']}"
    if isinstance(move, Tribute):
        return "tribute"
    if isinstance(move, Joker):
        return "jokers"
    if isinstance(move, Show):
        return GROUP_REGION[move.group]
    if isinstance(move, End):
        return "end"
    assert isinstance(move, (Skip, Done, Back)), move
    return "you"


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


def choice(move: Move, lang: str = "en", place: str = "") -> Choice:
    """One move as a choice in ``lang``: a card's moves are grouped by the card;
    ``place`` is the region of the picture it acts on (:func:`region`)."""
    text = move.notation()
    if isinstance(move, _CARD_MOVES):
        w = words(lang)
        return Choice(text, label(move, lang), w["card name"][move.card],
                      w["card help"][move.card], region=place)
    return Choice(text, label(move, lang), region=place)


def menu(state: State, seat: int, lang: str = "en") -> list[Choice]:
    """The legal moves of ``seat`` as choices, in the order of ``rules.legal``."""
    return [choice(move, lang, region(move, state, seat)) for move in rules.legal(state, seat)]
