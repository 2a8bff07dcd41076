"""How Tallinn's cards and estates read, in German (as printed) and English.

Estates keep their printed German names in both languages; English readers
get a gloss in brackets ("Ritter (knights)").
"""

from __future__ import annotations

import re
from collections.abc import Callable

from pbem.games.tallinn import data
from pbem.games.tallinn.data import Haelfte


def estate(code: str, lang: str = "en") -> str:
    """``Ritter`` (German) or ``Ritter (knights)`` (English)."""
    name = data.STAND_NAME[code]
    return name if lang == "de" else f"{name} ({data.STAND_ENGLISH[code]})"


def count(n: int, code: str) -> str:
    """``1 Mönch``, ``2 Mönche``: German names, as on the cards."""
    return f"{n} {data.STAND_SINGULAR[code] if n == 1 else data.STAND_NAME[code]}"


def persons(counts: dict[str, int]) -> str:
    """``2 Mönche, 1 Ritter`` (estates in printed order, none left out but zeros)."""
    parts = [count(counts[s], s) for s in data.STAENDE if counts.get(s)]
    return ", ".join(parts) if parts else "0"


def half_text(half: Haelfte, lang: str = "en") -> str:
    """What a half shows: persons, and a coin or the imperial arms."""
    if half.wappen:
        return "Wappen (imperial arms)" if lang != "de" else "kaiserliches Wappen"
    text = persons(half.persons())
    if half.muenze:
        text += " + coin" if lang != "de" else " + Münze"
    return text


def card_text(nummer: str, lang: str = "en") -> str:
    """``card 7: 2 Mönche, 1 Ritter | 2 Mönche, 1 Kaufmann``."""
    card = data.karte(nummer)
    name = card_name(nummer, lang)
    return f"{name}: {half_text(card.a, lang)} | {half_text(card.b, lang)}"


def card_name(nummer: str, lang: str = "en") -> str:
    if nummer == data.LEGAT:
        return "Legat des Kaisers" + ("" if lang == "de" else " (emperor's legate)")
    if nummer in data.STARTKARTEN:
        return ("Startkarte" if lang == "de" else "start card")
    return f"{'Karte' if lang == 'de' else 'card'} {nummer}"


def half_help(half: Haelfte, lang: str = "en") -> str:
    """One line from the data file on what playing ``half`` does."""
    lines = data.HELP["de" if lang == "de" else "en"]
    if half.wappen:
        return lines["wappen"]
    if half.muenze:
        return lines["coin"].format(estate=data.STAND_NAME[half.coin_estate() or "K"])
    if half.K == half.R == half.M == 1:
        return lines["legat_persons"]
    return lines["persons"].format(persons=persons(half.persons()))


# -- German of the lines the rules and the view write ----------------------------------
#
# The state keeps what a round did in English (``state["events"]``: the state is the
# same for every reader, and snapshots of running games hold those lines); ``event``
# reads each line the rules write in German, and a line it does not know stays
# English.  Estate names are German in both languages already.

#: where a tower came from, in German
SOURCE_DE = {"display": "Auslage", "hand": "Hand"}

#: a seat's status (``view._status``) in German
STATUS_DE = {
    "done": "fertig",
    "out of cards": "keine Karten mehr",
    "choosing": "wählt",
    "has chosen": "hat gewählt",
    "choosing the Legat's estate": "wählt den Stand des Legaten",
    "waiting": "wartet",
    "deciding about a tower": "entscheidet über einen Turm",
    "has decided about a tower": "hat über einen Turm entschieden",
}


def is_german(lang: str | None) -> bool:
    """Whether ``lang`` reads German ("de", "de-AT"); any other language reads English."""
    return bool(lang) and str(lang).split("-")[0].lower() == "de"


def _estate_de(english: str) -> str:
    """``Ritter (knights)`` -> ``Ritter``."""
    return english.split(" (")[0]


def _card_de(english: str) -> str:
    """A card's English name (``card 7``, ``start card``, the Legat) in German."""
    if english.startswith("card "):
        return "Karte " + english[5:]
    if english == "start card":
        return "Startkarte"
    if english.startswith("Legat des Kaisers"):
        return "Legat des Kaisers"
    return english


def _half_de(english: str) -> str:
    """A half's English text (``2 Mönche + coin``, ``Wappen (imperial arms)``) in German."""
    if english.startswith("Wappen"):
        return "kaiserliches Wappen"
    return english.replace(" + coin", " + Münze")


_SEAT = r"(\{\d+\})"


def _contest(m: re.Match[str]) -> str:
    estate_en, seat, mine, legat, parts, seat2, gained = m.groups()
    extra = f" + {legat} vom Legaten" if legat else ""
    return (f"Wettstreit der {_estate_de(estate_en)}: {seat} hat {mine}{extra}; {parts}; "
            f"{seat2} erhält {gained} {'Punkt' if gained == '1' else 'Punkte'}")


def _final_line(m: re.Match[str]) -> str:
    seat, parts, towers, gain, points = m.groups()
    return (f"{seat}: Auslage {parts}; Türme {towers}; Schlusswertung {gain}, "
            f"{points} {'Punkt' if points == '1' else 'Punkte'}")


_EVENTS: list[tuple[re.Pattern[str], Callable[[re.Match[str]], str]]] = [
    (re.compile(_SEAT + r" has no card left and plays none"),
     lambda m: f"{m[1]} hat keine Karte mehr und spielt keine"),
    (re.compile(_SEAT + r" plays (Legat des Kaisers \(emperor's legate\)|start card|card \S+): "
                r"(.+)"),
     lambda m: f"{m[1]} spielt {_card_de(m[2])}: {_half_de(m[3])}"),
    (re.compile(r"Contest for the (.+?): " + _SEAT + r" has (\d+)(?: \+ (\d+) from the "
                r"Legat)?; (.*); " + _SEAT + r" scores (-?\d+)"), _contest),
    (re.compile(r"Towers are decided in this order: (.+)"),
     lambda m: f"Die Türme werden in dieser Reihenfolge entschieden: {m[1]}"),
    (re.compile(_SEAT + r" builds no tower"), lambda m: f"{m[1]} baut keinen Turm"),
    (re.compile(_SEAT + r" builds a tower from a card of the display"),
     lambda m: f"{m[1]} baut einen Turm aus einer Karte der Auslage"),
    (re.compile(_SEAT + r" builds a tower from a hand card"),
     lambda m: f"{m[1]} baut einen Turm aus einer Handkarte"),
    (re.compile(r"(.+) draws? a card"),
     lambda m: f"{m[1]} {'ziehen' if ',' in m[1] else 'zieht'} eine Karte"),
    (re.compile(r"Nobody has a card left: the final scoring"),
     lambda m: "Niemand hat mehr eine Karte: die Schlusswertung"),
    (re.compile(_SEAT + r": display (.+); towers (\d+); final scoring ([+-]?\d+), "
                r"(-?\d+) points"), _final_line),
]


#: the lines of a seat's final scoring (``rules.final_scoring``, kept in ``state["final"]``
#: in English) and their German, for the result's details
_FINAL_LINES: list[tuple[re.Pattern[str], Callable[[re.Match[str]], str]]] = [
    (re.compile(r"(.+?) (\d+) against " + _SEAT + r" (\d+): \+(-?\d+)(.*)"),
     lambda m: (f"{_estate_de(m[1])} {m[2]} gegen {m[3]} {m[4]}: +{m[5]}"
                f"{_final_transfer(m[6])}")),
    (re.compile(r"Towers: (?:no tower|(\d+) (\S+)) against " + _SEAT + r" (\d+): \+(-?\d+)"),
     lambda m: (f"Türme: {f'{m[1]} {m[2]}' if m[1] else 'kein Turm'} gegen {m[3]} {m[4]}: "
                f"+{m[5]}")),
]
_PAYS = re.compile(r", and " + _SEAT + r" pays (\d+) \(at least (\d+) more\)")
_PAID = re.compile(r", pays (\d+) to " + _SEAT + r" \(at least (\d+) fewer\)")


def _final_transfer(rest: str) -> str:
    """The 5-person transfer at the end of a final scoring line, in German."""
    if m := _PAYS.fullmatch(rest):
        return f", und {m[1]} zahlt {m[2]} (mindestens {m[3]} mehr)"
    if m := _PAID.fullmatch(rest):
        return f", zahlt {m[1]} an {m[2]} (mindestens {m[3]} weniger)"
    return rest


def final_line(line: str) -> str:
    """A line of a seat's final scoring in German (one it does not know stays English)."""
    for pattern, german in _FINAL_LINES:
        m = pattern.fullmatch(line)
        if m:
            return german(m)
    return line


def event(line: str, lang: str = "de") -> str:
    """A line of ``state["events"]`` in ``lang`` (unchanged in English, and where the
    line is not one the rules write)."""
    if not is_german(lang):
        return line
    for pattern, german in _EVENTS:
        m = pattern.fullmatch(line)
        if m:
            return german(m)
    return line
