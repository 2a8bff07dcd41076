"""Macao told in sentences: a move (``describe``) and the result's lines, one function
each for every language, reading ``words``.

Everything a move shows lies open on the table (the cards revealed, the dice rolled),
so every viewer reads the same sentence.
"""

from __future__ import annotations

from pbem.games.language import Words
from pbem.games.macao import menu, rules
from pbem.games.macao.moves import Back, Finish, Gain, Move, Pay, Row, Show, Wall, With
from pbem.games.macao.words import cubes_said, final_terms, listed, words
from pbem.games.protocol import State


def _said(seat: int, move: Move, lang: str, w: Words, before: State) -> str:
    """The move itself told: a payment as what was paid ("{2} pays 3 red and 2 violet"),
    an action with its payment as one sentence ("{2} moves 3 fields along the wall,
    paying 3 red and 2 violet")."""
    who = f"{{{seat}}}"
    if isinstance(move, (Pay, Gain)):
        key = "said pay" if isinstance(move, Pay) else "said gain"
        return w[key].format(seat=who, cubes=cubes_said(dict(move.cubes), w))
    if isinstance(move, With):
        key = "said with pay" if isinstance(move.settle, Pay) else "said with gain"
        return w[key].format(said=_said(seat, move.action, lang, w, before),
                             cubes=cubes_said(dict(move.settle.cubes), w))
    if isinstance(move, Finish):
        cards = [w["card name"][c] for c in rules.free_uses(before, seat)]
        return w["said finish"].format(seat=who, cards=listed(cards, w))
    if isinstance(move, Wall):
        return w["said wall"][move.fields != 1].format(seat=who, fields=move.fields)
    return w["said"].format(seat=who, label=menu.label(move, lang))


def describe(before: State, seat: int, move: Move, after: State, lang: str = "en") -> str:
    if isinstance(move, Show | Row | Back):
        return ""  # menu navigation (a page, a row of the city, back): never told
    w = words(lang)
    text = _said(seat, move, lang, w, before)
    if after["round"] != before["round"] and after["phase"] == "cards":
        text += w["round begins"].format(round=after["round"])
    if after["dice"] != before["dice"] and after["phase"] == "dice":
        text += w["rolled"] + ", ".join(f"{w['colour'][c]} {v}" for c, v in after["dice"])
    return text


def result_lines(state: State, lang: str) -> list[str]:
    """How each seat's final prestige came about (R "Spielende"), in ``lang``."""
    w = words(lang)
    return [w["result line"].format(seat=f"{{{s}}}", **final_terms(f))
            for s, f in enumerate(state["final"])]
