"""Tallinn's moves as choices for people: a label, a group and a line of help each, in
the words of the reader's language (``words``).  Estate names stay as printed.

Each choice names the place of the picture (``picture.draw``) it acts on, so that the
seat page can make that place a link: a half of a hand card for playing it with that
half active (``hand 7a``), a hand card or a card of the display for a tower from it
(``hand 7``, ``display 7``), an estate of the Legat's row for its contest (``legat
R``), the place "Build no tower" for building none.  The picture computes the same
names from the view alone.
"""

from __future__ import annotations

from pbem.games.protocol import Choice, State, entry_of
from pbem.games.tallinn import data, rules
from pbem.games.tallinn.moves import Legat, Move, NoTower, Play, Tower
from pbem.games.tallinn.words import (
    TABLES,
    card_name,
    card_text,
    estate,
    half_help,
    half_text,
    marked_name,
    with_mark,
    words,
)

#: the place of "Build no tower" in the viewer's own part of the picture
NO_TOWER_REGION = "no tower"


def hand_region(card: str, half: str = "") -> str:
    """A card of the viewer's hand (a tower from it), or one of its halves ("a", "b":
    playing the card with that half active)."""
    return f"hand {card}{half}"


def display_region(card: str) -> str:
    """A card of the viewer's display (a tower from it)."""
    return f"display {card}"


def legat_region(code: str) -> str:
    """An estate in the viewer's Legat row (the Wappen's contest for it)."""
    return f"legat {code}"


def region_of(state: State, seat: int, move: Move) -> str:
    """The place of the picture ``move`` of ``seat`` acts on."""
    if isinstance(move, Play):
        return hand_region(move.card, move.half)
    if isinstance(move, Legat):
        return legat_region(move.stand)
    if isinstance(move, Tower):
        if move.card in state["hand"][seat]:
            return hand_region(move.card)
        return display_region(move.card)
    return NO_TOWER_REGION


def choice(state: State, seat: int, move: Move, lang: str) -> Choice:
    """One move of ``seat`` as a choice in ``lang``: ``full_choice``, kept per data version
    where the move alone says it (a half played, a tower from the hand or the display,
    no tower): a menu offers the same few cards move after move, and each choice's words
    took a dozen calls (a Choice is frozen: every menu may hold the same one)."""
    if isinstance(move, Play):
        key: tuple[str, ...] = ("choice play", move.card, move.half, lang)
    elif isinstance(move, Tower):
        source = rules.HAND if move.card in state["hand"][seat] else rules.DISPLAY
        key = ("choice tower", move.card, source, lang)
    elif isinstance(move, NoTower):
        key = ("choice no tower", lang)
    else:  # a Legat's contest names the seat's persons of its estate
        return full_choice(state, seat, move, lang)
    if lang not in TABLES:  # keyed by the few languages spoken, not by whatever is asked
        return full_choice(state, seat, move, lang)
    return data.SETS.active.kept(key, full_choice, state, seat, move, lang)


def full_choice(state: State, seat: int, move: Move, lang: str) -> Choice:
    """One move of ``seat`` as a choice in ``lang``, from the move, the state and the
    data version's words (``choice`` keeps what the move alone says)."""
    w = words(lang)
    lines = w["help"]
    if isinstance(move, Play):
        h = rules.half_of(move.card, move.half)
        what = half_text(h, lang)
        if h.muenze:
            what += w["coin contest"].format(estate=estate(h.coin_estate() or "K", lang))
        name = card_name(move.card, lang)
        return Choice(move.notation(),
                      w["play"].format(card=marked_name(move.card, lang), half=what), name,
                      with_mark(half_help(h, lang), move.card, lang),
                      region=region_of(state, seat, move))
    if isinstance(move, Legat):
        mine = rules.display_counts(state, seat)[move.stand]
        return Choice(move.notation(),
                      w["legat contest"].format(estate=estate(move.stand, lang), mine=mine),
                      w["group legat"],
                      lines["legat_estate"].format(estate=data.STAND_NAME[move.stand]),
                      region=region_of(state, seat, move))
    if isinstance(move, NoTower):
        return Choice(move.notation(), w["no tower"], w["group tower"], lines["no_tower"],
                      region=NO_TOWER_REGION)
    card = data.karte(move.card)
    total = sum(h.total() for h in (card.a, card.b))
    source = rules.HAND if move.card in state["hand"][seat] else rules.DISPLAY
    group = w["tower from"][source]
    return Choice(move.notation(), f"{group}: {card_text(move.card, lang)}", group,
                  with_mark(lines[f"tower_{source}"].format(total=total), move.card, lang),
                  region=region_of(state, seat, move))


def menu(state: State, seat: int, lang: str = "en") -> list[Choice]:
    """The legal moves of ``seat`` as choices, in the order of ``rules.legal``."""
    return [choice(state, seat, move, lang) for move in rules.legal(state, seat)]


def entry(state: State, seat: int, notation: str, lang: str = "en") -> Choice | None:
    """The entry of ``menu`` for the move written ``notation``, labelled alone; None
    where the menu does not offer it."""
    return entry_of(rules.legal(state, seat), notation,
                    lambda move: choice(state, seat, move, lang))
