"""Riga's card data: the one place for values the rulebook does not print.

The rulebook (../shared/rules/riga-de.txt, riga-en.txt) gives the rules, the
card counts and a few worked examples, but not what is printed on each of the
48 building cards (Gebäude) and the 16 Riga buildings.  Public sources give
only a little more (../shared/data/riga-tallinn-visby-sources.md, section 1;
../shared/data/turn2-additions.md, section 3).  Every value below says where it
comes from:

* ``RULEBOOK``: printed in the rulebook (a rule or a worked example);
* a source name (``VINDJEU``, ``OSTIA``, ``INTERVIEW``…): a cited public page;
* ``RECONSTRUCTED``: our own fill-in, chosen to agree with everything known.

What is known, and what the reconstruction keeps to (tests check each):

* commodity cards (Waren): 8 Tuch, 10 Glas, 12 Wein, 14 Korn (rulebook);
  regular values Getreide/Korn 2, Wein 3, Glas 4, Tuch 5 (vindjeu.eu);
* every commodity is worth 2 more in exactly one city and cannot be used at
  all in exactly one city (designer interview, reich-der-spiele.de);
* Danzig Tuch 5, Visby Wein 5 / Korn 2 / Glas 4 (rulebook examples); Tallinn
  Korn 4, Danzig Korn "–" (ostia-spiele.de); the Archiv pattern "Tuch –,
  Wein 5" (vindjeu.eu), read as Visby's;
* the rulebook's illustration of a cost box, "5 6 3 –", beside the Danzig
  Markthalle example, reads in the order Tuch, Glas, Wein, Korn as Danzig
  Tuch 5, Glas 6, Wein 3, Korn "–": it agrees with every sourced Danzig value
  and with the Latin-square reading below;
* the Latin-square reading (each city has exactly one "+2" and one "–";
  not confirmed by any source) then gives Stockholm Tuch 7 and leaves one of
  Wein/Glas "–" in each of Tallinn and Stockholm: we chose Tallinn Glas "–"
  and Stockholm Wein "–" (RECONSTRUCTED; the other way round is as likely);
* Markthalle in Danzig costs 8 (rulebook example: 2 Tuch pay it, 2 lost);
  Archiv + Schatzkammer in Visby cost 16 together (rulebook example, paid
  exactly by 2 Wein, 1 Korn, 1 Glas = 5+5+2+4);
* three Logen score 19 in total (rulebook);
* scoring buildings are worth 3 to 6 victory points; some buildings give none
  but help building (publisher text; spieletest.at);
* the Archiv's points come from its sets ("zählt jedes von Dir gebaute Archiv
  4 Punkte" with 2 sets), and the Loge's from the table: both print no seal
  of their own here (our reading of the examples);
* misprint: the three Markthalle cards were printed with wrong values and the
  publisher offers corrected cards (brettspielpoesie.de, zagramy.net); the
  corrected values are not reachable, and ours are reconstructed anyway
  (except Danzig's cost, from the rulebook).

To correct a value, edit it here and bump ``DATA_VERSION``; no code changes.
"""

from __future__ import annotations

from typing import NamedTuple

DATA_VERSION = "1-reconstructed"

RULEBOOK = "Riga rulebook (OSTIA-Spiele 2017)"
VINDJEU = "vindjeu.eu review (2017)"
OSTIA = "ostia-spiele.de (publisher text)"
INTERVIEW = "reich-der-spiele.de designer interview"
RECONSTRUCTED = "reconstructed"

# -- commodities (Waren) --------------------------------------------------------------

#: commodity codes, most valuable first (the order of a card's cost box)
WAREN: tuple[str, ...] = ("Tuch", "Glas", "Wein", "Getreide")
#: name as printed in the German rulebook (Getreide is printed "Korn")
WARE_NAME: dict[str, str] = {"Tuch": "Tuch", "Glas": "Glas", "Wein": "Wein", "Getreide": "Korn"}
WARE_ENGLISH: dict[str, str] = {"Tuch": "cloth", "Glas": "glass", "Wein": "wine",
                                "Getreide": "grain"}
#: regular value (Grundwert) of each commodity card: vindjeu.eu
WERT: dict[str, int] = {"Tuch": 5, "Glas": 4, "Wein": 3, "Getreide": 2}
#: cards of each commodity: rulebook ("8× Tuch, 10× Glas, 12× Wein, 14× Korn")
ANZAHL: dict[str, int] = {"Tuch": 8, "Glas": 10, "Wein": 12, "Getreide": 14}

# -- cities (Städte) -----------------------------------------------------------------------

STAEDTE: tuple[str, ...] = ("Visby", "Tallinn", "Stockholm", "Danzig")
#: the Riga buildings form a fifth "city" for payment (one set per seat)
RIGA = "Riga"
#: card colours of the name scroll (rulebook: Visby red, Tallinn yellow, Stockholm
#: blue, Danzig green; Riga buildings brown)
FARBE: dict[str, str] = {"Visby": "#b71c1c", "Tallinn": "#d4a000", "Stockholm": "#1e5aa8",
                         "Danzig": "#2e7d32", "Riga": "#6d4c41"}

#: value of each commodity when building in each city; None = "–" (cannot pay)
STADTWERT: dict[str, dict[str, int | None]] = {
    "Visby": {"Tuch": None, "Glas": 4, "Wein": 5, "Getreide": 2},
    "Tallinn": {"Tuch": 5, "Glas": None, "Wein": 3, "Getreide": 4},
    "Stockholm": {"Tuch": 7, "Glas": 4, "Wein": None, "Getreide": 2},
    "Danzig": {"Tuch": 5, "Glas": 6, "Wein": 3, "Getreide": None},
    # Riga buildings: every commodity at its regular value (RECONSTRUCTED: no source
    # shows a Riga card's cost box)
    "Riga": {"Tuch": 5, "Glas": 4, "Wein": 3, "Getreide": 2},
}
#: where each city value comes from
STADTWERT_QUELLE: dict[str, dict[str, str]] = {
    "Visby": {"Tuch": f"{VINDJEU} (Archiv: Tuch –, Wein 5), Latin square",
              "Glas": RULEBOOK, "Wein": RULEBOOK, "Getreide": RULEBOOK},
    "Tallinn": {"Tuch": "Latin square (regular value)", "Glas": RECONSTRUCTED,
                "Wein": RECONSTRUCTED, "Getreide": OSTIA},
    "Stockholm": {"Tuch": "Latin square (Tuch +2)", "Glas": RECONSTRUCTED,
                  "Wein": RECONSTRUCTED, "Getreide": "Latin square (regular value)"},
    "Danzig": {"Tuch": RULEBOOK, "Glas": "rulebook illustration '5 6 3 –', Latin square",
               "Wein": "rulebook illustration '5 6 3 –'", "Getreide": OSTIA},
    "Riga": {w: RECONSTRUCTED for w in WAREN},
}

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

#: the Loge table: total points for 1..4 Logen.  3 → 19 is the rulebook's; the
#: others are RECONSTRUCTED (a rising table around that value).
LOGE_PUNKTE: dict[int, int] = {0: 0, 1: 4, 2: 10, 3: 19, 4: 30}
LOGE_QUELLE: dict[int, str] = {1: RECONSTRUCTED, 2: RECONSTRUCTED, 3: RULEBOOK,
                               4: RECONSTRUCTED}


class Gebaeude(NamedTuple):
    """One building card: where it stands, what it costs, what it scores."""

    art: str
    stadt: str
    kosten: int       # Baukosten in Dukaten
    punkte: int       # Siegpunkte in the seal
    ware: str | None  # the commodity a Manufactur or Markthalle shows
    quelle: str       # where cost and points come from

    @property
    def id(self) -> str:
        return f"{self.art}-{self.stadt}" if self.stadt != RIGA else self.art

    @property
    def ritter(self) -> int:
        return RITTER.get(self.art, 0)

    @property
    def kaufleute(self) -> int:
        return KAUFLEUTE.get(self.art, 0)


# (Kosten, Punkte) per art and city, in the order of STAEDTE.  All RECONSTRUCTED but
# the marked ones: costs 4 to 11, points 3 to 6 for scoring buildings, none for the
# Kontor and the Kran (they help building), the Archiv and the Loge (they score by
# their own rules).
_TABELLE: dict[str, tuple[tuple[int, int], ...]] = {
    #               Visby    Tallinn  Stockholm Danzig
    "Archiv":       ((8, 0), (8, 0), (10, 0), (9, 0)),
    "Bank":         ((6, 3), (7, 3), (6, 3), (7, 4)),
    "Bauhof":       ((6, 3), (5, 3), (6, 3), (7, 4)),
    "Festung":      ((9, 5), (8, 4), (11, 6), (9, 5)),
    "Gildenhaus":   ((8, 4), (9, 5), (9, 5), (11, 6)),
    "Kontor":       ((5, 0), (4, 0), (5, 0), (6, 0)),
    "Kran":         ((6, 0), (5, 0), (6, 0), (5, 0)),
    "Loge":         ((8, 0), (7, 0), (8, 0), (9, 0)),
    "Manufactur":   ((7, 3), (6, 3), (8, 4), (7, 3)),
    "Markthalle":   ((7, 3), (8, 3), (7, 3), (8, 3)),
    "Schatzkammer": ((8, 3), (8, 4), (7, 3), (8, 4)),
    "Wirtshaus":    ((6, 3), (7, 3), (7, 4), (6, 3)),
}
#: values the rulebook prints (the rest of _TABELLE is reconstructed)
_GEDRUCKT: dict[str, str] = {
    "Markthalle-Danzig": "cost 8: rulebook example (2 Tuch pay it, 2 Dukaten lost)",
    "Archiv-Visby": "cost 8 + Schatzkammer-Visby 8 = 16: rulebook example "
                    "(the even split is reconstructed: it is the one under which the "
                    "example's cards, 2 Wein, 1 Korn, 1 Glas, pay the two only together, "
                    "the example's point)",
    "Schatzkammer-Visby": "cost 8 + Archiv-Visby 8 = 16: rulebook example "
                          "(split reconstructed, see Archiv-Visby)",
}
#: the commodity each Manufactur and Markthalle shows (RECONSTRUCTED): a Markthalle
#: shows the commodity its own city refuses, a Manufactur the one its city values
#: most, so every commodity has one of each
MANUFACTUR_WARE: dict[str, str] = {"Visby": "Wein", "Tallinn": "Getreide",
                                   "Stockholm": "Tuch", "Danzig": "Glas"}
MARKTHALLE_WARE: dict[str, str] = {"Visby": "Tuch", "Tallinn": "Glas",
                                   "Stockholm": "Wein", "Danzig": "Getreide"}


def _gebaeude() -> dict[str, Gebaeude]:
    out: dict[str, Gebaeude] = {}
    for art in ARTEN:
        for stadt, (kosten, punkte) in zip(STAEDTE, _TABELLE[art], strict=True):
            ware = (MANUFACTUR_WARE[stadt] if art == "Manufactur"
                    else MARKTHALLE_WARE[stadt] if art == "Markthalle" else None)
            key = f"{art}-{stadt}"
            quelle = (f"{RULEBOOK}: {_GEDRUCKT[key]}; points {RECONSTRUCTED}"
                      if key in _GEDRUCKT else RECONSTRUCTED)
            g = Gebaeude(art, stadt, kosten, punkte, ware, quelle)
            out[g.id] = g
    return out


#: the 48 building cards by id (``Archiv-Visby``)
GEBAEUDE: dict[str, Gebaeude] = _gebaeude()

#: the Riga buildings (option ``riga``): one set per seat, ids are the names.
#: Cost and points RECONSTRUCTED (no source prints them).
RIGA_ARTEN: tuple[str, ...] = ("Kloster", "Schule", "Speicher", "Wechselstube")
RIGA_GEBAEUDE: dict[str, Gebaeude] = {
    "Kloster": Gebaeude("Kloster", RIGA, 5, 2, None, RECONSTRUCTED),
    "Schule": Gebaeude("Schule", RIGA, 6, 3, None, RECONSTRUCTED),
    "Speicher": Gebaeude("Speicher", RIGA, 5, 2, None, RECONSTRUCTED),
    "Wechselstube": Gebaeude("Wechselstube", RIGA, 6, 2, None, RECONSTRUCTED),
}


def gebaeude(ident: str) -> Gebaeude:
    """The building card ``ident`` (a city building or a Riga building)."""
    if ident in GEBAEUDE:
        return GEBAEUDE[ident]
    return RIGA_GEBAEUDE[ident]


def is_building(ident: str) -> bool:
    return ident in GEBAEUDE or ident in RIGA_GEBAEUDE


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
    g = gebaeude(ident)
    text = HELP["de" if lang == "de" else "en"][g.art]
    if g.art == "Loge":
        return text.format(*[LOGE_PUNKTE[k] for k in range(5)])
    if g.ware:
        return text.replace("{ware}", WARE_NAME[g.ware])
    return text
