"""Ziehen's moves told as sentences: what the history, the mails and the archive read.

One function for every language (the words are in ``words``) and every viewer: the
author of a draw, and the archive (``EVERYTHING``), read the card; everyone else
reads that a card was drawn.
"""

from __future__ import annotations

from pbem.games.protocol import EVERYTHING, State
from pbem.games.ziehen.moves import DRAW, Move
from pbem.games.ziehen.words import words


def describe(before: State, seat: int, move: Move, after: State, viewer: int | None,
             lang: str = "en") -> str:
    w = words(lang)
    who = f"{{{seat}}}"
    if move.verb == DRAW:
        if viewer == seat or viewer == EVERYTHING:
            return w["said draw"].format(seat=who, card=after["hand"][seat][-1])
        return w["said draw secret"].format(seat=who)
    return w[f"said {move.verb}"].format(seat=who)
