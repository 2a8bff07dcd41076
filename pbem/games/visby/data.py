"""Visby's board and card data: the rules' printed numbers here, the board's values (the
Markt track, the Bettelmönch's table) in ``data.toml`` beside this module.

Every value carries where it came from.  ``PRINTED`` values are read off the
rulebook (../shared/rules/visby-de.md) or a cited public source;
``RECONSTRUCTED`` values are our own fill-ins for fields no reachable source
gives, chosen to agree with every known value.  An operator corrects a reconstructed
value in a copy of ``data.toml`` (``pbem data check visby``); nothing else changes.

Sources, in full, are listed in ../shared/data/riga-tallinn-visby-sources.md.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import msgspec

from pbem.games.datafile import DataSets, is_reconstructed

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
#: (``BETTELMOENCH_WAREN``: data.toml, read below)
BETTELMOENCH_SOURCE = (RULEBOOK + ", 8. Bettelmönch (table, two columns per cell)", PRINTED)


class Kurs(NamedTuple):
    """An exchange rate on the Markt track: ``waren`` goods buy ``siegel`` seals."""

    waren: int
    siegel: int
    status: str
    source: str

    def __str__(self) -> str:
        return f"{self.waren}:{self.siegel}"


class Feld(msgspec.Struct, forbid_unknown_fields=True):
    """One field of the Markt track in the data file (0 goods and 0 seals: no exchange)."""

    feld: int
    waren: int
    siegel: int
    quelle: str


class Daten(msgspec.Struct, forbid_unknown_fields=True):
    """The schema of ``data.toml``."""

    version: str
    bettelmoench_waren: dict[str, int | str]
    markt: list[Feld]


def _derive(d: Daten) -> dict[str, Any]:
    markt = tuple(None if f.waren == 0 else
                  Kurs(f.waren, f.siegel,
                       RECONSTRUCTED if is_reconstructed(f.quelle) else PRINTED, f.quelle)
                  for f in d.markt)
    moench = {int(k): int(v) for k, v in d.bettelmoench_waren.items() if k != "quelle"}
    return {"DATA_VERSION": d.version, "MARKT": markt, "BETTELMOENCH_WAREN": moench}


def _constraints(d: Daten) -> tuple[list[str], list[str]]:
    errors: list[str] = []
    warnings: list[str] = []
    if [f.feld for f in d.markt] != list(range(TRACK_END + 1)):
        errors.append(f"markt: the fields 0 to {TRACK_END}, in order")
        return errors, warnings
    if not any((f.waren, f.siegel) == (2, 1) for f in d.markt[:7]):
        errors.append("markt: a field below 7 with the rate 2:1 (rulebook, Kaufmann example)")
    rates = [f.siegel / f.waren for f in d.markt if f.waren]
    if rates != sorted(rates):
        warnings.append("markt: the rates do not rise along the track (pbem's reading)")
    moench = {k: v for k, v in d.bettelmoench_waren.items() if k != "quelle"}
    if sorted(moench, key=int) != [str(n) for n in range(1, 9)]:
        errors.append("bettelmoench_waren: goods for 1 to 8 cards played")
    return errors, warnings


SETS: DataSets[Daten] = DataSets(__name__.rpartition(".")[0], Daten, _derive, _constraints)
#: the version of the shipped file (a game records the version it starts on)
DATA_VERSION = SETS.shipped.version
#: the shipped table (the card texts are written with it)
BETTELMOENCH_WAREN_SHIPPED: dict[int, int] = SETS.shipped.derived["BETTELMOENCH_WAREN"]


def __getattr__(name: str) -> Any:
    # ``MARKT`` and ``BETTELMOENCH_WAREN`` of the data version the game being played
    # started with
    return SETS.attribute(name)


MARKT_FIELD_0_STATUS = RECONSTRUCTED  # field 0 offering no exchange is our reading


def reconstructed_fields() -> list[int]:
    """Markt fields whose rate is our reconstruction, not printed."""
    markt = SETS.active.derived["MARKT"]
    return [i for i, k in enumerate(markt) if k is None or k.status == RECONSTRUCTED]


def field_reconstructed(field: int) -> bool:
    """Whether Markt field ``field``'s rate (or its offering none) is ours, not printed."""
    kurs = SETS.active.derived["MARKT"][field]
    return kurs is None or kurs.status == RECONSTRUCTED


def rate_reconstructed(waren: int, siegel: int, up_to: int | None) -> bool:
    """Whether the rate ``waren``:``siegel`` a purse on field ``up_to`` offers stands on
    no printed field at or below it (then only our fields give it)."""
    fields = SETS.active.derived["MARKT"][: (up_to or 0) + 1]
    return not any(k is not None and k.status == PRINTED and (k.waren, k.siegel) ==
                   (waren, siegel) for k in fields)


def fields_text(fields: list[int]) -> str:
    """``0–6, 8, 10–15``: field numbers with runs joined, as the mark's line names them."""
    runs: list[list[int]] = []
    for f in fields:
        if runs and f == runs[-1][-1] + 1:
            runs[-1].append(f)
        else:
            runs.append([f])
    return ", ".join(f"{r[0]}–{r[-1]}" if len(r) > 2 else ", ".join(map(str, r))
                     for r in runs)


class Kartentext(NamedTuple):
    """What a card does, in one line per language, for menus and pages.

    ``gloss`` is the English word for the card (the card keeps its printed
    German name everywhere); ``en`` and ``de`` one line of effect each.
    """

    gloss: str
    en: str
    de: str


_MOENCH = f"{min(BETTELMOENCH_WAREN_SHIPPED.values())}–{max(BETTELMOENCH_WAREN_SHIPPED.values())}"

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


# last: the names this module defines above stay its own (``DataSets.install``)
SETS.install(globals())
