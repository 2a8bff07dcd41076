"""Visby's moves as choices for people: a label, a group and a line of help each.

The notation ("play Ritter", "trade 3:2", "done") stays the language of the log and
of links; a label is what a player reads on a button or in a mail, in the words of
the reader's language (``words``).  The help line says in a sentence what the card
does; a trade at a rate no source prints carries the sign of a reconstructed value
(``pbem.games.datafile.MARK``) in its label and the sign's line in its help.

Each choice names the place of the picture it acts on (:func:`region_of`), so that the
seat page can make that place a link: a card in the viewer's hand for playing it, the
Markt track for a trade, the viewer's own row for stopping trading.
"""

from __future__ import annotations

from pbem.games.datafile import MARK, marked
from pbem.games.protocol import Choice, State, entry_of
from pbem.games.visby import data, rules
from pbem.games.visby.moves import Move, Play, Trade
from pbem.games.visby.words import TABLES, count, words

#: the region of the picture (``picture.draw``) trades act on: the Markt track
MARKT = "Markt"
#: the region of the viewer's own row (name, seals, goods): where trading stops
YOU = "you"


def region_of(move: Move) -> str:
    """The place of the picture ``move`` acts on: a card in hand is its printed name."""
    if isinstance(move, Play):
        return move.karte
    if isinstance(move, Trade):
        return MARKT
    return YOU


def choice(state: State, seat: int, move: Move, lang: str = "en") -> Choice:
    """One move of ``seat`` as a choice in ``lang``: ``full_choice``, kept per data version
    where the move alone says it (a card played, "done"): a menu offers the same hand
    move after move (a Choice is frozen: every menu may hold the same one)."""
    if isinstance(move, Trade) or lang not in TABLES:
        # a trade tells the seat's goods and the purse's field; the languages spoken key it
        return full_choice(state, seat, move, lang)
    key = ("choice", move.karte if isinstance(move, Play) else None, lang)
    return data.SETS.active.kept(key, full_choice, state, seat, move, lang)


def full_choice(state: State, seat: int, move: Move, lang: str = "en") -> Choice:
    """One move of ``seat`` as a choice in ``lang``, from the move, the state and the
    words (``choice`` keeps what the move alone says)."""
    w = words(lang)
    if isinstance(move, Play):
        card = move.karte
        return Choice(move.notation(), w["play"].format(card=card, gloss=w["gloss"][card]),
                      w["group play"], w["card help"][card], region=region_of(move))
    if isinstance(move, Trade):
        have = count(w, "good", state["goods"][seat])
        ours = data.rate_reconstructed(move.waren, move.siegel, state["kurs_feld"])
        help = w["trade help"].format(rate=marked(f"{move.waren}:{move.siegel}", ours),
                                      have=have)
        return Choice(move.notation(),
                      marked(w["trade"].format(goods=count(w, "good", move.waren),
                                               seals=count(w, "seal", move.siegel)), ours),
                      w["group trade"],
                      f"{help} {w['mark rate'].format(mark=MARK)}" if ours else help,
                      region=region_of(move))
    return Choice(move.notation(), w["done"], w["group trade"], w["done help"],
                  region=region_of(move))


def menu(state: State, seat: int, lang: str = "en") -> list[Choice]:
    """The legal moves of ``seat`` as choices, in the order of ``rules.legal``."""
    return [choice(state, seat, move, lang) for move in rules.legal(state, seat)]


def entry(state: State, seat: int, notation: str, lang: str = "en") -> Choice | None:
    """The entry of ``menu`` for the move written ``notation``, labelled alone; None
    where the menu does not offer it."""
    return entry_of(rules.legal(state, seat), notation,
                    lambda move: choice(state, seat, move, lang))
