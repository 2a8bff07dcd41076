"""Tallinn told in sentences: a move (``describe``), the lines the rules wrote in the
state (``event``, ``final_line``) and the result's lines; one function each for every
language, reading ``words``.

The state keeps what a round did, and how the final scoring came about, in English
(``state["events"]``, ``state["final"]["lines"]``: the state is the same for every
reader, and snapshots of running games hold those lines); :func:`event` and
:func:`final_line` read each line the rules write and tell it with the reader's words,
and a line they do not know stays as written.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from typing import Any

from pbem.games import language
from pbem.games.language import Retelling, Retold, Words, code, plural, retell
from pbem.games.protocol import EVERYTHING, State
from pbem.games.tallinn import data, rules
from pbem.games.tallinn.moves import Legat, Move, NoTower, Play
from pbem.games.tallinn.words import EN, TABLES, card_name, estate, half_text, words

#: the secret choices told of several seats at once (``Rules.together``), per language
TOGETHER = {"en": {"said play secret": "{seats} choose a card in secret",
                   "said tower secret": "{seats} decide about a tower in secret"},
            "de": {"said play secret": "{seats} wählen verdeckt eine Karte",
                   "said tower secret": "{seats} entscheiden verdeckt über einen Turm"}}


def together(sentence: str, lang: str = "en") -> str | None:
    return language.together(words(lang), TOGETHER.get(code(lang), TOGETHER["en"]), sentence)


@functools.lru_cache(maxsize=512)
def _half_said(_version: str, card: str, half: str, lang: str) -> str:
    """A half's words as a sentence names the half played (``half_text``), made once per
    data version and language: every card chosen is told in each language the server
    speaks, and its words took a dozen calls."""
    return half_text(rules.half_of(card, half), lang)


def describe(before: State, seat: int, move: Move, after: State, viewer: int | None,
             lang: str = "en") -> str:
    w = words(lang)
    who = f"{{{seat}}}"
    sees = viewer == seat or viewer == EVERYTHING
    revealed = after["decision"] != before["decision"]
    if isinstance(move, Play):
        if sees:
            text = w["said play"].format(seat=who, card=card_name(move.card, lang),
                                         half=_half_said(data.SETS.active.version, move.card,
                                                         move.half, lang))
        else:
            text = w["said play secret"].format(seat=who)
        return text + (w["said revealed"] if revealed else "")
    if isinstance(move, Legat):
        return w["said legat"].format(seat=who, estate=estate(move.stand, lang))
    public = before["options"]["tower_order"]  # the variant decides in the open
    card = None if isinstance(move, NoTower) else move.card
    source = w["source"][rules.HAND if card in before["hand"][seat] else rules.DISPLAY]
    if not sees and not public:
        text = w["said tower secret"].format(seat=who)
    elif card is None:
        text = w["said no tower"].format(seat=who)
    elif sees:
        text = w["said tower"].format(seat=who, card=card_name(card, lang), source=source)
    else:
        # the card stays face down: others learn only where it came from
        text = w["said tower public"].format(seat=who, source=source)
    if revealed and not public:
        text += w["said towers revealed"]
    return text


def result_lines(state: State, scores: list[int], lang: str) -> list[str]:
    """How each seat's final points came about, in ``lang``: a line per seat, then its
    final scoring's lines."""
    w = words(lang)
    final = state["final"]
    lines = []
    for s in range(state["players"]):
        gain = final["gain"][s]
        lines.append(w["result line"].format(seat=f"{{{s}}}", before=final["before"][s],
                                             sign="+" if gain >= 0 else "", gain=gain,
                                             score=scores[s]))
        lines.extend(f"  {final_line(line, lang)}" for line in final["lines"][s])
    return lines


# -- the lines the rules write ---------------------------------------------------------

_SEAT = r"(\{\d+\})"
_CODE_OF = {name: code for code, name in data.STAND_NAME.items()}


def _estate(english: str, lang: str) -> str:
    """An estate as the rules wrote it in English (``Ritter (knights)``), for ``lang``."""
    name = english.split(" (")[0]
    return estate(_CODE_OF[name], lang) if name in _CODE_OF else name


def _card(english: str, lang: str) -> str:
    """A card's English name (``card 7``, ``start card``, the Legat), for ``lang``."""
    if english.startswith("card "):
        return card_name(english[5:], lang)
    if english == EN["start card"]:
        return words(lang)["start card"]
    if english.startswith("Legat des Kaisers"):
        return words(lang)["legat"]
    return english


def _half(english: str, w: Words) -> str:
    """A half's English text (``2 Mönche + coin``, ``Wappen (imperial arms)``)."""
    if english.startswith("Wappen"):
        return w["wappen"]
    return english.replace(EN["coin"], w["coin"])


def _contest(m: re.Match[str], w: Words, lang: str) -> dict[str, Any]:
    estate_en, seat, mine, legat, parts, winner, gained = m.groups()
    return {"estate": _estate(estate_en, lang), "seat": seat, "mine": mine,
            "extra": w["event legat extra"].format(n=legat) if legat else "", "parts": parts,
            "winner": winner, "gained": gained, "points": plural(w, "points", int(gained))}


def _final_scoring(m: re.Match[str], w: Words, lang: str) -> dict[str, Any]:
    seat, parts, towers, gain, points = m.groups()
    return {"seat": seat, "parts": parts, "towers": towers, "gain": gain, "points": points,
            "points_word": plural(w, "points", int(points))}


#: each line the rules write in ``state["events"]``: its pattern, its key in the words
#: ("event <key>") and the words that fill it
_EVENTS: list[Retelling] = [
    (re.compile(_SEAT + r" has no card left and plays none"), "no card",
     lambda m, w, lang: {"seat": m[1]}),
    (re.compile(_SEAT + r" plays (Legat des Kaisers \(emperor's legate\)|start card|card \S+): "
                r"(.+)"), "plays",
     lambda m, w, lang: {"seat": m[1], "card": _card(m[2], lang), "half": _half(m[3], w)}),
    (re.compile(r"Contest for the (.+?): " + _SEAT + r" has (\d+)(?: \+ (\d+) from the "
                r"Legat)?; (.*); " + _SEAT + r" scores (-?\d+)"), "contest", _contest),
    (re.compile(r"Towers are decided in this order: (.+)"), "tower order",
     lambda m, w, lang: {"order": m[1]}),
    (re.compile(_SEAT + r" builds no tower"), "no tower", lambda m, w, lang: {"seat": m[1]}),
    (re.compile(_SEAT + r" builds a tower from a card of the display"), "tower display",
     lambda m, w, lang: {"seat": m[1]}),
    (re.compile(_SEAT + r" builds a tower from a hand card"), "tower hand",
     lambda m, w, lang: {"seat": m[1]}),
    (re.compile(r"(.+) draws? a card"), "draws",
     lambda m, w, lang: {"who": m[1], "draw": w["draw"][1 if "," in m[1] else 0]}),
    (re.compile(r"Nobody has a card left: the final scoring"), "final scoring",
     lambda m, w, lang: {}),
    (re.compile(_SEAT + r": display (.+); towers (\d+); final scoring ([+-]?\d+), "
                r"(-?\d+) points"), "final line", _final_scoring),
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


_RETOLD = Retold(full_event, TABLES)


_PAYS = re.compile(r", and " + _SEAT + r" pays (\d+) \(at least (\d+) more\)")
_PAID = re.compile(r", pays (\d+) to " + _SEAT + r" \(at least (\d+) fewer\)")


def _transfer(rest: str, w: Words) -> str:
    """The 5-person transfer at the end of a final scoring line."""
    if m := _PAYS.fullmatch(rest):
        return w["final pays"].format(seat=m[1], n=m[2], more=m[3])
    if m := _PAID.fullmatch(rest):
        return w["final paid"].format(n=m[1], seat=m[2], fewer=m[3])
    return rest


#: the lines of a seat's final scoring (``rules.final_scoring``), as ``_EVENTS``
_FINAL_LINES: list[Retelling] = [
    (re.compile(r"(.+?) (\d+) against " + _SEAT + r" (\d+): \+(-?\d+)(.*)"), "estate",
     lambda m, w, lang: {"estate": _estate(m[1], lang), "mine": m[2], "other": m[3],
                         "theirs": m[4], "gain": m[5], "transfer": _transfer(m[6], w)}),
    (re.compile(r"Towers: (?:no tower|(\d+) (\S+)) against " + _SEAT + r" (\d+): \+(-?\d+)"),
     "towers",
     lambda m, w, lang: {"towers": f"{m[1]} {m[2]}" if m[1] else w["final no tower"],
                         "other": m[3], "theirs": m[4], "gain": m[5]}),
]


def final_line(line: str, lang: str = "de") -> str:
    """A line of a seat's final scoring in ``lang`` (as written in English, and where the
    line is not one the rules write)."""
    return retell(line, _FINAL_LINES, words(lang), "final", lang)
