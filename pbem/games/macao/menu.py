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
from pbem.games.macao import data, rules, steps
from pbem.games.macao.moves import (
    Activate,
    Back,
    Deliver,
    Die,
    Discard,
    District,
    Done,
    End,
    Finish,
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
    With,
    cubes_count,
)
from pbem.games.macao.words import card_help_in, count, cubes, listed, words
from pbem.games.protocol import Choice, State, entry_of

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
    if isinstance(move, With):   # an action with its whole payment: where the action acts
        return region(move.action, state, seat)
    if isinstance(move, Pay):    # a payment lies on the first colour it pays with
        return f"supply {move.cubes[0][0]}"
    if isinstance(move, Give):
        return f"supply {move.colour}"
    if isinstance(move, Gain):
        return f"cubes {move.cubes[0][0]}"
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
    if isinstance(move, (End, Finish)):
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
    if isinstance(move, (Pay, Gain)):
        return {"cubes": cubes(dict(move.cubes), w)}
    colour = getattr(move, "colour", None)
    return {"colour": w["colour"][colour]} if colour else {}


def label(move: Move, lang: str = "en") -> str:
    """The move as a reader of ``lang`` reads it ("Take card: Turm (tower)")."""
    w = words(lang)
    if isinstance(move, With):
        key = "with pay" if isinstance(move.settle, Pay) else "with gain"
        return w[key].format(action=label(move.action, lang),
                             cubes=cubes(dict(move.settle.cubes), w))
    key = move.notation().split()[0]
    if isinstance(move, _CARD_MOVES):
        card = w["card name"][move.card]
        if isinstance(move, Use) and move.times is not None:
            return w["use times"].format(card=card, times=move.times)
        return w[key].format(card=card)
    return w[key].format(**_fields(move, w))


def choice(move: Move, lang: str = "en", note: str = "", place: str = "",
           graf: bool = True) -> Choice:
    """One move as a choice in ``lang``: a card's moves are grouped by the card;
    ``note`` says what a payment leaves (``payment_help``); ``place`` is the region of
    the picture it acts on (:func:`region`)."""
    text, action = move.notation(), move.action if isinstance(move, With) else move
    if isinstance(action, _CARD_MOVES):
        w = words(lang)
        card_help = card_help_in(w, action.card, graf)
        return Choice(text, label(move, lang), w["card name"][action.card],
                      f"{card_help} {note}" if note else card_help, region=place)
    return Choice(text, label(move, lang), help=note, region=place)


def payment_help(state: State, seat: int, move: Move, lang: str = "en") -> str:
    """What a payment or a taking of cubes leaves: what is still owed (or to take), and
    the supply after it; which cards the end of a turn uses (``finish``); empty for any
    other move."""
    return _payment_help(state, seat, move, words(lang), steps.read(state["pending"]))


def _payment_help(state: State, seat: int, move: Move, w: Words,
                  step: steps.Step | None) -> str:
    """``payment_help`` in the words ``w``, the seat's open step ``step`` read once for a
    whole menu."""
    if isinstance(move, Finish):
        cards = [w["card name"][c] for c in rules.free_uses(state, seat)]
        return w["finish help"].format(cards=listed(cards, w))
    if isinstance(move, With):
        left = dict(rules.supply_after(state, seat, move.action))
        sign = -1 if isinstance(move.settle, Pay) else 1
        for c, n in move.settle.cubes:
            left[c] = left.get(c, 0) + sign * n
        key = "with pay help" if isinstance(move.settle, Pay) else "with gain help"
        return w[key].format(owed=count(cubes_count(move.settle.cubes), w),
                             left=_left({c: n for c, n in left.items() if n > 0}, w))
    if isinstance(move, (Pay, Gain)) and isinstance(step, (steps.Paying, steps.Gaining)):
        rest = step.cubes - cubes_count(move.cubes)
        key = "pay help" if isinstance(move, Pay) else "gain help"
        left = dict(rules.pool(state, seat))
        for c, n in move.cubes:
            left[c] = left.get(c, 0) - n
        return w[key].format(owed=count(step.cubes, w),
                             rest=count(rest, w) if rest else w["nothing"],
                             left=_left({c: n for c, n in left.items() if n > 0}, w))
    return ""


def _left(pool: dict[str, int], w: Words) -> str:
    return cubes(pool, w) if pool else w["nothing"]


def menu(state: State, seat: int, lang: str = "en") -> list[Choice]:
    """The legal moves of ``seat`` as choices, in the order of ``rules.legal``."""
    graf = rules.graf_senkt(state)
    w, step = words(lang), steps.read(state["pending"])
    return [_kept_choice(move, lang, _payment_help(state, seat, move, w, step),
                         region(move, state, seat), graf)
            for move in rules.legal(state, seat)]


def entry(state: State, seat: int, notation: str, lang: str = "en") -> Choice | None:
    """The entry of ``menu`` for the move written ``notation``, labelled alone; None
    where the menu does not offer it."""
    return entry_of(rules.legal(state, seat), notation, lambda move: _kept_choice(
        move, lang, payment_help(state, seat, move, lang), region(move, state, seat),
        rules.graf_senkt(state)))


def _kept_choice(move: Move, lang: str, note: str, place: str, graf: bool) -> Choice:
    """``choice``, kept: a move reads the same in every menu that offers it, and a menu
    is written for every seat page, turn mail and confirm page."""
    w = words(lang)
    key = (move, id(w), data.SETS.active.version, note, place, graf)
    try:
        kept = _CHOICES.get(key)
    except TypeError:  # a move with a value that cannot be a key: made anew
        return choice(move, lang, note, place, graf)
    if kept is None or kept[0] is not w:
        if len(_CHOICES) >= _CHOICES_MOST:
            _CHOICES.clear()
        kept = _CHOICES[key] = (w, choice(move, lang, note, place, graf))
    return kept[1]


#: ``_kept_choice``'s choices (frozen) by the move, the id of the words table (kept beside
#: them, so that a table made anew at the address of one gone is never taken for it),
#: the data version (a card's help is the version's), the note, the place and the
#: reading of the Graf; forgotten all at once at ``_CHOICES_MOST``
_CHOICES: dict[tuple[Any, ...], tuple[Words, Choice]] = {}
_CHOICES_MOST = 4096
