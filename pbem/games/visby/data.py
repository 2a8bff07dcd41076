"""Visby's board and card data: the one place for values the rulebook does not print.

Every value carries where it came from.  ``PRINTED`` values are read off the
rulebook (../shared/rules/visby-de.md) or a cited public source;
``RECONSTRUCTED`` values are our own fill-ins for fields no reachable source
gives, chosen to agree with every known value.  Change a reconstructed value
here and bump ``DATA_VERSION``; nothing else needs to change.

Sources, in full, are listed in ../shared/data/riga-tallinn-visby-sources.md.
"""

from __future__ import annotations

from typing import NamedTuple

DATA_VERSION = "1-reconstructed"

PRINTED = "printed"
RECONSTRUCTED = "reconstructed"

RULEBOOK = "Visby rulebook (OSTIA-Spiele 2015)"

#: The eight action cards every player holds, in the printed resolution order
#: (Durchgang phase III).  German names as printed.
KARTEN: tuple[str, ...] = (
    "Truppen",  # troops: 2 seals from Feldzug, before the knights
    "Ritter",  # knight: seals one by one from Feldzug, at most 5
    "Schmied",  # smith: goods from the supply per rival Ritter/Truppen
    "Flotte",  # fleet: 3 goods from Handelsfahrt, before the ships
    "Schiff",  # ship: goods one by one from Handelsfahrt, no limit
    "Zöllner",  # customs officer: seals from the supply per rival Schiff/Flotte
    "Kaufmann",  # merchant: trade goods for seals at the Markt rate
    "Bettelmönch",  # mendicant friar: goods by cards played, takes the discard back
)
KARTEN_SOURCE = (RULEBOOK + ", Auswertung der Karten", PRINTED)

#: Supply steps per round (phase I, Nachschub), by player count.
NACHSCHUB: dict[int, int] = {2: 3, 3: 5, 4: 3, 5: 4, 6: 5}
NACHSCHUB_SOURCE = (RULEBOOK + ", I. Nachschub", PRINTED)

TRACK_END = 15  # "das letzte Feld 15 seiner Leiste" (I. Nachschub)
GOODS_MAX = 15  # "Die Warenkarte endet dagegen bei Feld 15" (Hinweise)
TRACK_START = 1  # "auf Feld 1 der Leiste" (Spielvorbereitung)

#: Cards a player plays per round, by player count (II. Karten ausspielen).
KARTEN_PRO_DURCHGANG: dict[int, int] = {2: 2, 3: 2, 4: 1, 5: 1, 6: 1}

TRUPPEN_SIEGEL = 2  # 1. Truppen
RITTER_LIMIT = 5  # 2. Ritter
SCHMIED_PRO_RITTER = 2  # 3. Schmied, goods per rival Ritter
SCHMIED_PRO_TRUPPEN = 4  # 3. Schmied, goods per rival Truppen
FLOTTE_WAREN = 3  # 4. Flotte
ZOELLNER_PRO_SCHIFF = 1  # 6. Zöllner, seals per rival Schiff
ZOELLNER_PRO_FLOTTE = 3  # 6. Zöllner, seals per rival Flotte
KAUFMANN_RUECKSCHRITT = 2  # 7. Kaufmann, purse steps back per merchant after the first
BETTELMOENCH_PRO_KAUFMANN = 2  # 8. Bettelmönch, goods per rival Kaufmann
SCHLUSSKURS = 3  # Wertung: remaining goods convert 3:1

#: Bettelmönch: goods by the number of own cards played (discard pile plus
#: this round's cards, the Bettelmönch included).  The rulebook prints the
#: goods only under every second column; we read each cell as spanning two
#: columns (see the sources file, section 5).
BETTELMOENCH_WAREN: dict[int, int] = {1: 1, 2: 1, 3: 2, 4: 2, 5: 3, 6: 3, 7: 4, 8: 4}
BETTELMOENCH_SOURCE = (RULEBOOK + ", 8. Bettelmönch (table, two columns per cell)", PRINTED)


class Kartentext(NamedTuple):
    """What a card does, in one line per language, for menus and pages.

    ``gloss`` is the English word for the card (the card keeps its printed
    German name everywhere); ``en`` and ``de`` one line of effect each.
    """

    gloss: str
    en: str
    de: str


_MOENCH = f"{min(BETTELMOENCH_WAREN.values())}–{max(BETTELMOENCH_WAREN.values())}"

#: One line of effect per card, summarised from the rulebook's "III. Auswertung
#: der Karten" (sections 1-8); the numbers are the ones of this file.
KARTENTEXT: dict[str, Kartentext] = {
    "Truppen": Kartentext(
        "troops",
        f"{TRUPPEN_SIEGEL} seals from the Feldzug track, taken before the knights.",
        f"{TRUPPEN_SIEGEL} Siegel von der Leiste „Feldzug“, vor den Rittern."),
    "Ritter": Kartentext(
        "knight",
        f"Seals one at a time from the Feldzug track, at most {RITTER_LIMIT}.",
        f"Je ein Siegel von der Leiste „Feldzug“, höchstens {RITTER_LIMIT}."),
    "Schmied": Kartentext(
        "smith",
        f"From the supply: {SCHMIED_PRO_RITTER} goods per rival Ritter and "
        f"{SCHMIED_PRO_TRUPPEN} per rival Truppen played this round.",
        f"Aus dem Vorrat: {SCHMIED_PRO_RITTER} Waren pro fremdem Ritter und "
        f"{SCHMIED_PRO_TRUPPEN} pro fremden Truppen in diesem Durchgang."),
    "Flotte": Kartentext(
        "fleet",
        f"{FLOTTE_WAREN} goods from the Handelsfahrt track, taken before the ships.",
        f"{FLOTTE_WAREN} Waren von der Leiste „Handelsfahrt“, vor den Schiffen."),
    "Schiff": Kartentext(
        "ship",
        "Goods one at a time from the Handelsfahrt track, no limit.",
        "Je eine Ware von der Leiste „Handelsfahrt“, ohne Limit."),
    "Zöllner": Kartentext(
        "customs officer",
        f"From the supply: {ZOELLNER_PRO_SCHIFF} seal per rival Schiff and "
        f"{ZOELLNER_PRO_FLOTTE} per rival Flotte played this round.",
        f"Aus dem Vorrat: {ZOELLNER_PRO_SCHIFF} Siegel pro fremdem Schiff und "
        f"{ZOELLNER_PRO_FLOTTE} pro fremder Flotte in diesem Durchgang."),
    "Kaufmann": Kartentext(
        "merchant",
        f"Trade goods for seals at the Markt rate; the purse moves back "
        f"{KAUFMANN_RUECKSCHRITT} fields per extra merchant.",
        f"Waren zum Kurs am Markt in Siegel tauschen; der Geldbeutel geht pro weiterem "
        f"Kaufmann {KAUFMANN_RUECKSCHRITT} Felder zurück."),
    "Bettelmönch": Kartentext(
        "mendicant friar",
        f"{_MOENCH} goods by your cards played, {BETTELMOENCH_PRO_KAUFMANN} more per rival "
        "Kaufmann; take your discard pile back.",
        f"{_MOENCH} Waren nach Zahl deiner gespielten Karten, {BETTELMOENCH_PRO_KAUFMANN} mehr pro "
        "fremdem Kaufmann; Ablagestapel zurück auf die Hand."),
}
KARTENTEXT_SOURCE = (RULEBOOK + ", III. Auswertung der Karten, 1-8", PRINTED)


class Kurs(NamedTuple):
    """An exchange rate on the Markt track: ``waren`` goods buy ``siegel`` seals."""

    waren: int
    siegel: int
    status: str
    source: str

    def __str__(self) -> str:
        return f"{self.waren}:{self.siegel}"


_R = ("reconstructed: no source prints this field; chosen to rise monotonically "
      "between the known rates")

#: The Markt track, field 0..15.  ``None`` means the field offers no exchange.
#: Known: field 7 = 3:2 and field 9 = 2:2 (rulebook's Kaufmann example: the
#: purse on 9 moves back 2 to the rate 3:2), and a 2:1 rate on a field below 7
#: (Heike's second trade in the same example).  The rest is reconstructed.
MARKT: tuple[Kurs | None, ...] = (
    None,  # 0: the purse is reset here after a Kaufmann round; reconstructed as no trade
    Kurs(4, 1, RECONSTRUCTED, _R),  # 1 (start field)
    Kurs(4, 1, RECONSTRUCTED, _R),  # 2
    Kurs(3, 1, RECONSTRUCTED, _R),  # 3
    Kurs(3, 1, RECONSTRUCTED, _R),  # 4
    Kurs(2, 1, RECONSTRUCTED, _R + "; the rulebook shows a 2:1 field below field 7"),  # 5
    Kurs(2, 1, RECONSTRUCTED, _R),  # 6
    Kurs(3, 2, PRINTED, RULEBOOK + ", Kaufmann example: field 9 minus 2 fields = 3:2"),  # 7
    Kurs(3, 2, RECONSTRUCTED, _R),  # 8
    Kurs(2, 2, PRINTED, RULEBOOK + ", Kaufmann example: 'Feld 9 (Kurs 2:2)'"),  # 9
    Kurs(2, 2, RECONSTRUCTED, _R),  # 10
    Kurs(3, 4, RECONSTRUCTED, _R),  # 11
    Kurs(3, 4, RECONSTRUCTED, _R),  # 12
    Kurs(2, 3, RECONSTRUCTED, _R),  # 13
    Kurs(2, 3, RECONSTRUCTED, _R),  # 14
    Kurs(2, 4, RECONSTRUCTED, _R),  # 15
)
MARKT_FIELD_0_STATUS = RECONSTRUCTED  # field 0 offering no exchange is our reading


def reconstructed_fields() -> list[int]:
    """Markt fields whose rate is our reconstruction, not printed."""
    return [i for i, k in enumerate(MARKT) if k is None or k.status == RECONSTRUCTED]
