"""How Tallinn's cards and estates read, in German (as printed) and English.

Estates keep their printed German names in both languages; English readers
get a gloss in brackets ("Ritter (knights)").
"""

from __future__ import annotations

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
