"""Visby's moves as choices for people, in English and German.

The notation ("play Ritter", "trade 3:2", "done") stays the language of the
log and of links; a label is what a player reads on a button or in a mail.
Card names stay as printed on the cards (German) in both languages; English
labels add the card's English word, since an English reader cannot guess what a
Zöllner is, and the choice's help line says in a sentence what the card does.
"""

from __future__ import annotations

from pbem.games.protocol import Choice, State
from pbem.games.visby import data, rules

LANGS = ("en", "de")

_GROUP = {
    "en": {"play": "Your card", "trade": "Trade at the Markt"},
    "de": {"play": "Deine Karte", "trade": "Handel am Markt"},
}


def _lang(lang: str) -> str:
    # "de-AT" reads German; a language Visby does not speak reads English
    lang = lang.split("-")[0].lower()
    return lang if lang in LANGS else "en"


def _seals(n: int, lang: str) -> str:
    if lang == "de":
        return f"{n} Siegel"
    return f"{n} seal" if n == 1 else f"{n} seals"


def _goods(n: int, lang: str) -> str:
    if lang == "de":
        return f"{n} Ware" if n == 1 else f"{n} Waren"
    return f"{n} good" if n == 1 else f"{n} goods"


def choice(state: State, seat: int, move: str, lang: str = "en") -> Choice:
    """One move of ``seat`` as a choice in ``lang``."""
    lang = _lang(lang)
    kind, arg = rules.parse(move)
    group = _GROUP[lang]
    if kind == "play":
        text = data.KARTENTEXT[arg]
        if lang == "de":
            return Choice(move, f"{arg} ausspielen", group["play"], text.de)
        return Choice(move, f"Play {arg} ({text.gloss})", group["play"], text.en)
    if kind == "trade":
        waren, siegel = arg
        have = state["goods"][seat]
        if lang == "de":
            return Choice(move, f"{_goods(waren, lang)} gegen {_seals(siegel, lang)} tauschen",
                          group["trade"], f"Kurs {waren}:{siegel} am Markt; du hast "
                                          f"{_goods(have, lang)}.")
        return Choice(move, f"Trade {_goods(waren, lang)} for {_seals(siegel, lang)}",
                      group["trade"], f"At the Markt rate {waren}:{siegel}; you have "
                                      f"{_goods(have, lang)}.")
    if lang == "de":
        return Choice(move, "Handel beenden", group["trade"],
                      "Du tauschst in diesem Durchgang nicht mehr.")
    return Choice(move, "Stop trading", group["trade"], "You trade no more this round.")


def menu(state: State, seat: int, lang: str = "en") -> list[Choice]:
    """The legal moves of ``seat`` as choices, in the order of ``legal_moves``."""
    return [choice(state, seat, move, lang) for move in rules.legal_moves(state, seat)]
