"""Visby told in sentences: a move (``describe``), the lines a round's resolution wrote
(``event``), and the result's lines; one function each for every language, reading
``words``.

The state keeps what a round did in English (``state["events"]``: the state is the
same for every reader, and snapshots of running games hold those lines); :func:`event`
reads each line the rules write (``rules._event``) and tells it with the reader's
words, and a line it does not know stays as written.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from pbem.games import language
from pbem.games.language import Retelling, Retold, Words, code, retell
from pbem.games.protocol import EVERYTHING, State
from pbem.games.visby import data
from pbem.games.visby.moves import Move, Play, Trade
from pbem.games.visby.words import TABLES, count, spoken, words

#: the secret choice told of several seats at once (``Rules.together``), per language
TOGETHER = {"en": {"said play secret": "{seats} choose a card in secret"},
            "de": {"said play secret": "{seats} wählen verdeckt eine Karte"}}
#: a turn's cards chosen in secret, of one seat and of several (``Rules.tell_turn``)
CARDS = {"en": ("{seat} chooses {count} cards in secret",
                "{seats} choose {count} cards each in secret"),
         "de": ("{seat} wählt verdeckt {count} Karten",
                "{seats} wählen verdeckt je {count} Karten")}


def together(sentence: str, lang: str = "en") -> str | None:
    one, several = CARDS.get(code(lang), CARDS["en"])
    for n in range(2, 7):
        if sentence == one.format(seat="{n}", count=n):
            return several.format(seats="{n}", count=n)
    return language.together(words(lang), TOGETHER.get(code(lang), TOGETHER["en"]), sentence)


def tell_turn(seat: int, said: list[str], lang: str = "en") -> str | None:
    """Cards chosen in secret in one turn: "{2} chooses 2 cards in secret"."""
    secret = words(lang)["said play secret"].format(seat=f"{{{seat}}}")
    if len(said) > 1 and all(s == secret for s in said):
        one, _several = CARDS.get(code(lang), CARDS["en"])
        return one.format(seat=f"{{{seat}}}", count=len(said))
    return None


def describe(before: State, seat: int, move: Move, after: State, viewer: int | None,
             lang: str = "en") -> str:
    w = words(lang)
    who = f"{{{seat}}}"
    if isinstance(move, Play):
        if viewer == seat or viewer == EVERYTHING:
            return w["said play"].format(seat=who, card=move.karte)
        return w["said play secret"].format(seat=who)
    if isinstance(move, Trade):
        return w["said trade"].format(seat=who, goods=count(w, "good", move.waren),
                                      seals=count(w, "seal", move.siegel))
    return w["said done"].format(seat=who)


def result_lines(state: State, scores: list[int], lang: str) -> list[str]:
    """How each seat's final seals came about, in ``lang``."""
    w = words(lang)
    return [w["result line"].format(
        seat=f"{{{s}}}", seals=count(w, "seal", state["seals"][s]),
        converted=state["goods"][s] // data.SCHLUSSKURS,
        goods=count(w, "good", state["goods"][s]), score=scores[s])
        for s in range(state["players"])]


# -- the lines of a round's resolution ------------------------------------------------

_LOST = r"(?: \((\d+) lost above 15\))?"


def _lost(w: Words, n: str | None) -> str:
    return w["event lost"].format(n=n) if n else ""


def _reveals(m: re.Match[str], w: Words, lang: str) -> dict[str, Any]:
    cards = m[2].split(" and ")
    listed = (", ".join(cards[:-1]) + f" {w['and']} " + cards[-1] if len(cards) > 1
              else cards[0])
    return {"seat": m[1], "cards": listed}


def _takes(m: re.Match[str], w: Words, lang: str) -> dict[str, Any]:
    card, who, n, noun, track, lost = m.groups()
    return {"card": card, "seat": who,
            "amount": count(w, "seal" if noun.startswith("seal") else "good", int(n)),
            "from_track": w["from track"].get(track, track), "lost": _lost(w, lost)}


#: each line the rules write (``rules._event``): its pattern, its key in the words
#: ("event <key>") and the words that fill it
_EVENTS: list[Retelling] = [
    (re.compile(r"(\{\d+\}) reveals (.+)"), "reveals", _reveals),
    (re.compile(r"(\w+): (\{\d+\}) takes (\d+) (seals?|goods?) from (\w+)" + _LOST),
     "takes", _takes),
    (re.compile(r"Schmied: (\{\d+\}) gets (\d+) goods? from the supply" + _LOST), "Schmied",
     lambda m, w, lang: {"seat": m[1], "goods": count(w, "good", int(m[2])),
                   "lost": _lost(w, m[3])}),
    (re.compile(r"Zöllner: (\{\d+\}) gets (\d+) seals? from the supply"), "Zöllner",
     lambda m, w, lang: {"seat": m[1], "seals": count(w, "seal", int(m[2]))}),
    (re.compile(r"Kaufmann: the purse stands on field (\d+) \(rate (.+)\)"), "Kaufmann",
     lambda m, w, lang: {"field": m[1], "rate": w["no rate"] if m[2] == "none" else m[2]}),
    (re.compile(r"Bettelmönch: (\{\d+\}) gets (\d+) goods?" + _LOST
                + r" and takes the discard pile back"), "Bettelmönch",
     lambda m, w, lang: {"seat": m[1], "goods": count(w, "good", int(m[2])),
                   "lost": _lost(w, m[3])}),
    (re.compile(r"Someone has (\d+) seals or more: the game ends"), "end",
     lambda m, w, lang: {"target": m[1]}),
]


def event(line: str, lang: str = "de") -> str:
    """A line of ``state["events"]`` in ``lang`` (as written in English, and where the
    line is not one the rules write): ``full_event``, kept (``Retold``)."""
    return _RETOLD(data.SETS.active.version, line, lang)


def event_lines(lines: Sequence[str], lang: str, names: Sequence[str]) -> tuple[str, ...]:
    """The round's ``lines`` as the text lists them, told and named (``Retold.named``)."""
    return _RETOLD.named(data.SETS.active.version, tuple(lines), lang, tuple(names))


def full_event(line: str, lang: str = "de") -> str:
    """``event`` told from the patterns and the words."""
    return retell(line, _EVENTS, words(lang), "event", lang)


def _told(line: str, lang: str) -> str:
    return line if spoken(lang) in _AS_WRITTEN else full_event(line, lang)


_RETOLD = Retold(_told, TABLES)
#: the languages whose table has no words for the lines (English): each line reads as
#: the rules wrote it, without a walk through the patterns
_AS_WRITTEN = {lang for lang, table in TABLES.items()
               if not any(key.startswith("event ") for key in table)}
