"""Riga's card data: the schema of ``data.toml`` beside this module, and the rules'
numbers.

The values printed on the cards (costs, points, city values, the Loge table) live in
``data.toml``, each with its source: the rulebook, a cited public page, or pbem's
reconstruction and why (the file's head says what is known and kept to).  This module
gives the file a schema, checks the rulebook's constraints on it (``pbem data check
riga``), and answers ``data.GEBAEUDE``, ``data.STADTWERT``… with the values of the data
version the game being played started with (``pbem.games.datafile``).  The rules'
numbers (hand limit, what a Kontor pays…) are printed rules, not card data: they stay
here.
"""

from __future__ import annotations

from typing import Any, Literal, NamedTuple

import msgspec

from pbem.games.datafile import MARK, DataSets, Wert, is_reconstructed

RULEBOOK = "Riga rulebook (OSTIA-Spiele 2017)"
RECONSTRUCTED = "reconstructed"

# -- commodities (Waren) --------------------------------------------------------------

#: commodity codes, most valuable first (the order of a card's cost box)
WAREN: tuple[str, ...] = ("Tuch", "Glas", "Wein", "Getreide")
#: name as printed in the German rulebook (Getreide is printed "Korn")
WARE_NAME: dict[str, str] = {"Tuch": "Tuch", "Glas": "Glas", "Wein": "Wein", "Getreide": "Korn"}
WARE_ENGLISH: dict[str, str] = {"Tuch": "cloth", "Glas": "glass", "Wein": "wine",
                                "Getreide": "grain"}
# (the regular value of each commodity, ``WERT``, and the cards of each, ``ANZAHL``:
# data.toml)

# -- cities (Städte) -----------------------------------------------------------------------

STAEDTE: tuple[str, ...] = ("Visby", "Tallinn", "Stockholm", "Danzig")
#: the Riga buildings form a fifth "city" for payment (one set per seat)
RIGA = "Riga"
#: card colours of the name scroll (rulebook: Visby red, Tallinn yellow, Stockholm
#: blue, Danzig green; Riga buildings brown)
FARBE: dict[str, str] = {"Visby": "#b71c1c", "Tallinn": "#d4a000", "Stockholm": "#1e5aa8",
                         "Danzig": "#2e7d32", "Riga": "#6d4c41"}

# (what each commodity pays in each city, ``STADTWERT`` with ``STADTWERT_QUELLE``:
# data.toml; None = "–", it cannot pay there)

#: a set (Reihe) in spring is dealt until its value reaches this (rulebook)
REIHE_MINDESTWERT = 9
#: setup: each seat reveals commodities until this total (rulebook)
START_MINDESTWERT = 6

# -- buildings (Gebäude) -------------------------------------------------------------------

ARTEN: tuple[str, ...] = ("Archiv", "Bank", "Bauhof", "Festung", "Gildenhaus", "Kontor",
                          "Kran", "Loge", "Manufactur", "Markthalle", "Schatzkammer",
                          "Wirtshaus")
#: English glosses of the building names (rulebook, English edition)
ART_ENGLISH: dict[str, str] = {
    "Archiv": "archives", "Bank": "bank", "Bauhof": "building yard", "Festung": "fortress",
    "Gildenhaus": "guild hall", "Kontor": "branch office", "Kran": "crane",
    "Loge": "secret society", "Manufactur": "manufactory", "Markthalle": "market hall",
    "Schatzkammer": "treasury", "Wirtshaus": "tavern",
    "Kloster": "monastery", "Schule": "school", "Speicher": "storehouse",
    "Wechselstube": "exchange office",
}
#: knights (Ritter) and merchants (Kaufleute) each art gives (rulebook, "Gebäude-Funktionen")
RITTER: dict[str, int] = {"Festung": 2, "Manufactur": 1, "Schatzkammer": 1}
KAUFLEUTE: dict[str, int] = {"Gildenhaus": 2, "Kontor": 1, "Markthalle": 1}
#: one-time functions (1x) by art (rulebook)
EINMALIG: frozenset[str] = frozenset({"Bank", "Bauhof", "Kontor", "Kran", "Schatzkammer",
                                      "Wirtshaus", "Kloster"})
KONTOR_DUKATEN = 4       # rulebook
BANK_JE_KAUFMANN = 2     # rulebook
WIRTSHAUS_JE_RITTER = 2  # rulebook
BAUHOF_ZIEHEN = 5        # rulebook
SCHATZKAMMER_ZIEHEN = 3  # rulebook
ARCHIV_JE_SET = 2        # rulebook
ARCHIV_MAX_SETS = 3      # rulebook
WECHSELSTUBE_DUKATEN = 8  # rulebook
WECHSELSTUBE_ABWURF = 6   # rulebook: commodities of regular value 6 or more
HANDLIMIT = 6            # rulebook
HANDLIMIT_SPEICHER = 8   # rulebook
MAX_BAUTEN = 3           # rulebook: up to 3 buildings per turn, Riga buildings included
MINUS_HAND = 2           # rulebook: -2 per building left in hand
MINUS_RIGA = 2           # rulebook: -2 per Riga building not erected

# (the Loge table, ``LOGE_PUNKTE`` with ``LOGE_QUELLE``: data.toml)


class Gebaeude(NamedTuple):
    """One building card: where it stands, what it costs, what it scores."""

    art: str
    stadt: str
    kosten: int       # Baukosten in Dukaten
    punkte: int       # Siegpunkte in the seal
    ware: str | None  # the commodity a Manufactur or Markthalle shows
    quelle: str       # where cost and points come from
    kosten_quelle: str = RECONSTRUCTED
    punkte_quelle: str = RECONSTRUCTED

    @property
    def id(self) -> str:
        return f"{self.art}-{self.stadt}" if self.stadt != RIGA else self.art

    @property
    def ritter(self) -> int:
        return RITTER.get(self.art, 0)

    @property
    def kaufleute(self) -> int:
        return KAUFLEUTE.get(self.art, 0)


#: the Riga buildings (option ``riga``): one set per seat, ids are the names
RIGA_ARTEN: tuple[str, ...] = ("Kloster", "Schule", "Speicher", "Wechselstube")


#: the art of each building (a city building's id is "<art>-<city>", a Riga building's
#: its art): the rulebook's cards, which every data version has (``_constraints``)
ART_VON: dict[str, str] = ({f"{art}-{stadt}": art for art in ARTEN for stadt in STAEDTE}
                           | {art: art for art in RIGA_ARTEN})
#: the (Ritter, Kaufleute) each building gives by its art (a Schule by its face)
PERSONEN: dict[str, tuple[int, int]] = {ident: (RITTER.get(art, 0), KAUFLEUTE.get(art, 0))
                                        for ident, art in ART_VON.items()}


def gebaeude(ident: str) -> Gebaeude:
    """The building card ``ident`` (a city building or a Riga building)."""
    # the rules ask for a card millions of times a game: one table of both kinds
    return SETS.active.derived["ALLE_GEBAEUDE"][ident]


def is_building(ident: str) -> bool:
    return ident in SETS.active.derived["ALLE_GEBAEUDE"]


#: one line of help per building art, English and German (the rulebook's
#: "Gebäude-Funktionen", shortened)
HELP: dict[str, dict[str, str]] = {
    "en": {
        "Archiv": "Final scoring: 2 points per pair of Kaufmann and Ritter you have, "
                  "at most 3 pairs.",
        "Bank": "Once: 2 Dukaten per Kaufmann (merchant) you have, towards a building.",
        "Bauhof": "Once: draw 5 buildings, keep one in hand, discard the rest.",
        "Festung": "Gives 2 Ritter (knights).",
        "Gildenhaus": "Gives 2 Kaufleute (merchants).",
        "Kontor": "Once: 4 Dukaten towards a building. Gives 1 Kaufmann.",
        "Kran": "Once: halves one building's cost (rounded up); one Kran per building.",
        "Loge": "Your Logen score together by the table: 1: {1}, 2: {2}, 3: {3}, 4: {4}.",
        "Manufactur": "Each {ware} you pay is worth 1 Dukat more where usable. Gives 1 Ritter.",
        "Markthalle": "{ware} may pay where the card shows '–', at its regular value. "
                      "Gives 1 Kaufmann.",
        "Schatzkammer": "Once: draw 3 commodities, keep one, discard the others. Gives 1 Ritter.",
        "Wirtshaus": "Once: 2 Dukaten per Ritter (knight) you have, towards a building.",
        "Kloster": "Once, before taking a set: swap two commodities between two sets, "
                   "then take one of those two sets.",
        "Schule": "When built, choose: it gives 1 Ritter or 1 Kaufmann, for good.",
        "Speicher": "You keep up to 8 cards in winter instead of 6.",
        "Wechselstube": "End of a turn: discard commodities worth 6+ to charge it to 8; "
                        "later spend the 8 Dukaten on a building.",
    },
    "de": {
        "Archiv": "Schlusswertung: 2 Punkte je Paar aus Kaufmann und Ritter, höchstens 3 Paare.",
        "Bank": "1x: 2 Dukaten je eigenem Kaufmann für einen Bau.",
        "Bauhof": "1x: 5 Gebäude ziehen, eines auf die Hand, den Rest ablegen.",
        "Festung": "Du hast 2 Ritter.",
        "Gildenhaus": "Du hast 2 Kaufleute.",
        "Kontor": "1x: 4 Dukaten für einen Bau. Du hast 1 Kaufmann.",
        "Kran": "1x: halbiert die Baukosten eines Gebäudes (aufgerundet); ein Kran je Gebäude.",
        "Loge": "Deine Logen zählen zusammen nach Tabelle: 1: {1}, 2: {2}, 3: {3}, 4: {4}.",
        "Manufactur": "Jedes {ware} bringt 1 Dukaten mehr, wo es einsetzbar ist. "
                      "Du hast 1 Ritter.",
        "Markthalle": "{ware} darf auch bei '–' zahlen, zum Grundwert. Du hast 1 Kaufmann.",
        "Schatzkammer": "1x: 3 Waren ziehen, eine auf die Hand, den Rest ablegen. "
                        "Du hast 1 Ritter.",
        "Wirtshaus": "1x: 2 Dukaten je eigenem Ritter für einen Bau.",
        "Kloster": "1x, vor dem Nehmen: zwei Waren zweier Reihen tauschen, dann eine der "
                   "beiden Reihen nehmen.",
        "Schule": "Beim Bau wählen: 1 Ritter oder 1 Kaufmann, für immer.",
        "Speicher": "Du behältst im Winter bis zu 8 Karten statt 6.",
        "Wechselstube": "Am Zugende Waren im Wert ab 6 abwerfen: zeigt 8; in einem späteren "
                        "Zug 8 Dukaten für einen Bau.",
    },
}


def help_line(ident: str, lang: str = "en") -> str:
    """One line of what building ``ident`` does, in ``lang`` ("en" or "de")."""
    # the help of every building in every menu and picture: once per data version
    lang = "de" if lang == "de" else "en"
    return SETS.active.kept(("help_line", ident, lang), _help_line, ident, lang)


def _help_line(ident: str, lang: str) -> str:
    g = gebaeude(ident)
    text = HELP[lang][g.art]
    if g.art == "Loge":
        text = text.format(*[SETS.active.derived["LOGE_PUNKTE"][k] for k in range(5)])
    elif g.ware:
        text = text.replace("{ware}", WARE_NAME[g.ware])
    mark = mark_line(ident, lang)
    return f"{text} {mark}" if mark else text


#: what the mark beside a building's help says is reconstructed, per language
_MARK_WHAT = {
    "en": {"both": "Cost and points", "kosten": "Cost", "punkte": "Points",
           "line": "{mark} {what} reconstructed: printed in no public source, chosen by "
                   "pbem to fit the rulebook."},
    "de": {"both": "Kosten und Punkte", "kosten": "Kosten", "punkte": "Punkte",
           "line": "{mark} {what} rekonstruiert: in keiner öffentlichen Quelle gedruckt, "
                   "von pbem passend zur Spielregel gewählt."},
}


def mark_line(ident: str, lang: str = "en") -> str:
    """The reconstructed mark and its one line for building ``ident`` ("" if printed)."""
    g = gebaeude(ident)
    words = _MARK_WHAT["de" if lang == "de" else "en"]
    kosten, punkte = is_reconstructed(g.kosten_quelle), is_reconstructed(g.punkte_quelle)
    what = ("both" if kosten and punkte else "kosten" if kosten
            else "punkte" if punkte else None)
    return words["line"].format(mark=MARK, what=words[what]) if what else ""


def cost_points_reconstructed(ident: str) -> tuple[bool, bool]:
    """Whether building ``ident``'s cost, and its points, are pbem's (no source prints
    them): where players read the number, it carries the sign."""
    return SETS.active.kept(("cost_points_reconstructed", ident), _cost_points_reconstructed,
                            ident)


def _cost_points_reconstructed(ident: str) -> tuple[bool, bool]:
    g = gebaeude(ident)
    return is_reconstructed(g.kosten_quelle), is_reconstructed(g.punkte_quelle)


def city_value_reconstructed(stadt: str, ware: str) -> bool:
    """Whether what commodity ``ware`` pays in ``stadt`` is pbem's reading."""
    quelle = SETS.active.derived["STADTWERT_QUELLE"].get(stadt, {}).get(ware)
    return quelle is not None and is_reconstructed(quelle)


# -- the data file -------------------------------------------------------------------------

#: a city value as printed: a number, or "–" (the commodity cannot pay there)
Stadtwert = int | Literal["–"]


class StadtWert(msgspec.Struct, forbid_unknown_fields=True):
    wert: Stadtwert
    quelle: str


class Waren(msgspec.Struct, forbid_unknown_fields=True):
    """A number per commodity, with one source for the table."""

    quelle: str
    Tuch: int
    Glas: int
    Wein: int
    Getreide: int


class StadtWaren(msgspec.Struct, forbid_unknown_fields=True):
    Tuch: StadtWert
    Glas: StadtWert
    Wein: StadtWert
    Getreide: StadtWert


class ProStadt(msgspec.Struct, forbid_unknown_fields=True):
    """The commodity each city's Manufactur (or Markthalle) shows."""

    quelle: str
    Visby: str
    Tallinn: str
    Stockholm: str
    Danzig: str


class Karte(msgspec.Struct, forbid_unknown_fields=True):
    kosten: Wert
    punkte: Wert


class Daten(msgspec.Struct, forbid_unknown_fields=True):
    """The schema of ``data.toml``."""

    version: str
    grundwert: Waren
    anzahl: Waren
    stadtwert: dict[str, StadtWaren]
    loge: dict[str, Wert]
    manufactur_ware: ProStadt
    markthalle_ware: ProStadt
    gebaeude: dict[str, Karte]
    riga_gebaeude: dict[str, Karte]


def _zahl(wert: Stadtwert) -> int | None:
    return None if wert == "–" else int(wert)


def _derive(d: Daten) -> dict[str, Any]:
    stadtwert = {stadt: {w: _zahl(getattr(werte, w).wert) for w in WAREN}
                 for stadt, werte in d.stadtwert.items()}
    quelle = {stadt: {w: getattr(werte, w).quelle for w in WAREN}
              for stadt, werte in d.stadtwert.items()}
    manufactur = {s: getattr(d.manufactur_ware, s) for s in STAEDTE}
    markthalle = {s: getattr(d.markthalle_ware, s) for s in STAEDTE}
    gebaeude: dict[str, Gebaeude] = {}
    for ident, karte in d.gebaeude.items():
        art, stadt = ident.split("-", 1)
        ware = (manufactur[stadt] if art == "Manufactur"
                else markthalle[stadt] if art == "Markthalle" else None)
        gebaeude[ident] = Gebaeude(art, stadt, karte.kosten.wert, karte.punkte.wert, ware,
                                   f"cost: {karte.kosten.quelle}; points: {karte.punkte.quelle}",
                                   karte.kosten.quelle, karte.punkte.quelle)
    riga = {ident: Gebaeude(ident, RIGA, k.kosten.wert, k.punkte.wert, None,
                            f"cost: {k.kosten.quelle}; points: {k.punkte.quelle}",
                            k.kosten.quelle, k.punkte.quelle)
            for ident, k in d.riga_gebaeude.items()}
    return {
        "DATA_VERSION": d.version,
        "WERT": {w: getattr(d.grundwert, w) for w in WAREN},
        "ANZAHL": {w: getattr(d.anzahl, w) for w in WAREN},
        "STADTWERT": stadtwert, "STADTWERT_QUELLE": quelle,
        "LOGE_PUNKTE": {0: 0} | {int(n): w.wert for n, w in sorted(d.loge.items())},
        "LOGE_QUELLE": {int(n): w.quelle for n, w in sorted(d.loge.items())},
        "MANUFACTUR_WARE": manufactur, "MARKTHALLE_WARE": markthalle,
        "GEBAEUDE": gebaeude, "RIGA_GEBAEUDE": riga, "ALLE_GEBAEUDE": gebaeude | riga,
    }


def _constraints(d: Daten) -> tuple[list[str], list[str]]:
    """The rulebook's and the sources' constraints on the values (errors), and the
    readings of pbem's that no source confirms (warnings)."""
    errors: list[str] = []
    warnings: list[str] = []
    staedte = list(STAEDTE)
    if sorted(d.stadtwert) != sorted([*STAEDTE, RIGA]):
        errors.append(f"stadtwert: the cities {', '.join([*STAEDTE, RIGA])}, "
                      f"not {', '.join(d.stadtwert)}")
        return errors, warnings
    grund = {w: getattr(d.grundwert, w) for w in WAREN}
    werte = {s: {w: _zahl(getattr(d.stadtwert[s], w).wert) for w in WAREN} for s in staedte}
    for ware in WAREN:
        # designer interview: each commodity is worth 2 more in exactly one city and
        # cannot pay in exactly one
        column = [werte[s][ware] for s in staedte]
        if column.count(None) != 1:
            errors.append(f"stadtwert: {ware} must be '–' in exactly one city "
                          "(designer interview, reich-der-spiele.de)")
        if column.count(grund[ware] + 2) != 1:
            errors.append(f"stadtwert: {ware} must be worth {grund[ware] + 2} (2 more) in "
                          "exactly one city (designer interview, reich-der-spiele.de)")
        for s in staedte:
            v = werte[s][ware]
            if v not in (None, grund[ware], grund[ware] + 2):
                errors.append(f"stadtwert.{s}.{ware}: its regular value {grund[ware]}, "
                              f"{grund[ware] + 2} or '–', not {v}")
    for s in staedte:
        row = list(werte[s].values())
        if row.count(None) != 1 or sum(
                1 for w in WAREN if werte[s][w] == grund[w] + 2) != 1:
            warnings.append(f"stadtwert.{s}: not one '–' and one '+2' (pbem's Latin-square "
                            "reading, which no source confirms)")
    arten = {f"{art}-{stadt}" for art in ARTEN for stadt in STAEDTE}
    if set(d.gebaeude) != arten:
        errors.append("gebaeude: the 48 cards " + ", ".join(sorted(arten ^ set(d.gebaeude))))
        return errors, warnings
    if set(d.riga_gebaeude) != set(RIGA_ARTEN):
        errors.append(f"riga_gebaeude: the cards {', '.join(RIGA_ARTEN)}")
    if sorted(d.loge) != ["1", "2", "3", "4"]:
        errors.append("loge: the points of 1, 2, 3 and 4 Logen")
    else:
        punkte = [d.loge[n].wert for n in "1234"]
        if punkte != sorted(set(punkte)):
            errors.append("loge: more Logen score more")
    # rulebook example: Archiv and Schatzkammer in Visby cost 16 together
    paar = d.gebaeude["Archiv-Visby"].kosten.wert + d.gebaeude["Schatzkammer-Visby"].kosten.wert
    if paar != 16:
        errors.append(f"gebaeude: Archiv-Visby and Schatzkammer-Visby cost 16 together "
                      f"({RULEBOOK}: Visby example), not {paar}")
    for ident, karte in d.gebaeude.items():
        art = ident.split("-", 1)[0]
        p = karte.punkte.wert
        if art in ("Archiv", "Loge", "Kontor", "Kran") and p != 0:
            errors.append(f"gebaeude.{ident}.punkte: 0 (it scores by its own rule or "
                          f"helps building), not {p}")
        elif art not in ("Archiv", "Loge", "Kontor", "Kran") and not 3 <= p <= 6:
            errors.append(f"gebaeude.{ident}.punkte: 3 to 6 (publisher text), not {p}")
        if karte.kosten.wert < 1:
            errors.append(f"gebaeude.{ident}.kosten: 1 or more, not {karte.kosten.wert}")
    for name, table in (("manufactur_ware", d.manufactur_ware),
                        ("markthalle_ware", d.markthalle_ware)):
        shown = [getattr(table, s) for s in STAEDTE]
        bad = [w for w in shown if w not in WAREN]
        if bad:
            errors.append(f"{name}: commodities are {', '.join(WAREN)}, not {bad[0]}")
    return errors, warnings


SETS: DataSets[Daten] = DataSets(__name__.rpartition(".")[0], Daten, _derive, _constraints)
#: the version of the shipped file (a game records the version it starts on)
DATA_VERSION = SETS.shipped.version


def __getattr__(name: str) -> Any:
    # the card values (``GEBAEUDE``, ``STADTWERT``, ``WERT``…) of the data version the
    # game being played started with
    return SETS.attribute(name)


# last: the names this module defines above stay its own (``DataSets.install``)
SETS.install(globals())
