"""Macao told in sentences: a move (``describe``) and the result's lines, one function
each for every language, reading ``words``.

Everything a move shows lies open on the table (the cards revealed, the dice rolled),
so every viewer reads the same sentence.
"""

from __future__ import annotations

from pbem.games.macao import menu
from pbem.games.macao.moves import Move
from pbem.games.macao.words import final_terms, words
from pbem.games.protocol import State


def describe(before: State, seat: int, move: Move, after: State, lang: str = "en") -> str:
    w = words(lang)
    text = w["said"].format(seat=f"{{{seat}}}", label=menu.label(move, lang))
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
