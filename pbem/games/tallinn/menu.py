"""Tallinn's moves as choices for people: a label, a group and a line of help each, in
the words of the reader's language (``words``).  Estate names stay as printed."""

from __future__ import annotations

from pbem.games.protocol import Choice, State
from pbem.games.tallinn import data, rules
from pbem.games.tallinn.moves import Legat, Move, NoTower, Play
from pbem.games.tallinn.words import card_name, card_text, estate, half_help, half_text, words


def choice(state: State, seat: int, move: Move, lang: str) -> Choice:
    """One move of ``seat`` as a choice in ``lang``."""
    w = words(lang)
    lines = w["help"]
    if isinstance(move, Play):
        h = rules.half_of(move.card, move.half)
        what = half_text(h, lang)
        if h.muenze:
            what += w["coin contest"].format(estate=estate(h.coin_estate() or "K", lang))
        name = card_name(move.card, lang)
        return Choice(move.notation(), w["play"].format(card=name, half=what), name,
                      half_help(h, lang))
    if isinstance(move, Legat):
        mine = rules.display_counts(state, seat)[move.stand]
        return Choice(move.notation(),
                      w["legat contest"].format(estate=estate(move.stand, lang), mine=mine),
                      w["group legat"],
                      lines["legat_estate"].format(estate=data.STAND_NAME[move.stand]))
    if isinstance(move, NoTower):
        return Choice(move.notation(), w["no tower"], w["group tower"], lines["no_tower"])
    card = data.karte(move.card)
    total = sum(h.total() for h in (card.a, card.b))
    source = rules.HAND if move.card in state["hand"][seat] else rules.DISPLAY
    group = w["tower from"][source]
    return Choice(move.notation(), f"{group}: {card_text(move.card, lang)}", group,
                  lines[f"tower_{source}"].format(total=total))


def menu(state: State, seat: int, lang: str = "en") -> list[Choice]:
    """The legal moves of ``seat`` as choices, in the order of ``rules.legal``."""
    return [choice(state, seat, move, lang) for move in rules.legal(state, seat)]
