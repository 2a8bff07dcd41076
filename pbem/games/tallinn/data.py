"""Tallinn's card data: the one place for values the rulebook does not print.

The rulebook (../shared/rules/tallinn-de.txt) gives the rules and the scoring
numbers, but not what is printed on each of the ten influence cards
(Einfluss-Karten) and the six start cards (Start-Karten).  Public sources give
only part of it (../shared/data/riga-tallinn-visby-sources.md, section 2, and
../shared/data/turn2-additions.md, section 4).  Every value below says where
it comes from:

* ``PRINTED``: read off the rulebook or a cited public source;
* ``PARTLY``: the source gives the card's persons in total (both halves), the
  split into halves is ours;
* ``RECONSTRUCTED``: our own fill-in, chosen to agree with everything known.

What is known, and what the reconstruction keeps to (tests/games/tallinn/
test_tallinn_data.py checks each point):

* every set has ten cards, two halves each, 1 to 3 persons per half
  (brettspielbox.de preview);
* six halves per set carry a coin (Münze), two per estate (spiele-offensive.de);
  a coin half shows one person, the one the coin is drawn on
  (kinderspielmagazin.de: "die Figur mit Münze");
* the example card: 2 Mönche on one half, 1 Ritter with a coin on the other
  (spiele-offensive.de): card 1 here;
* the rulebook's illustration of phase 1 shows a card played either way:
  "Du aktivierst 2 Kaufleute" / "Du aktivierst 1 Ritter und 1 Mönch": card 10
  (we read the two captions as the two halves of one card);
* the final-scoring example: Malte's tower card holds 1 Ritter, 1 Kaufmann
  and 4 Mönche (card 7); Heike's two tower cards hold 5 Ritter, 4 Kaufleute
  and 1 Mönch together (cards 8 and 10 here); and the two displays of the
  example (Malte 9 Kaufleute, 3 Ritter, 6 Mönche after 4 contests; Heike 3,
  7 and 6 after contests for Ritter twice, Mönche and Kaufleute) can be
  reached by legal play with these cards (the test of that example plays it);
* start cards show three persons, one estate twice, one once, one not at all
  (mit80.de); two are named ("zwei Mönche und ein Ritter", "zwei Ritter und
  ein Kaufmann", spiele-offensive.de); the six cards of that pattern are
  exactly the six start cards of the box;
* Der Legat des Kaisers: one half 1 Kaufmann, 1 Ritter, 1 Mönch; the other the
  imperial coat of arms (Wappen) (rulebook, "Der Legat des Kaisers").

Our reconstruction: the six coin cards follow card 1's pattern (two persons
of one estate, one person of another with the coin), once for each ordered
pair of estates; the four cards without a coin are Malte's tower card (7),
Heike's tower card beside the illustrated one (8), the illustrated card (10)
and one more (9) that gives every estate 13 persons per set.  The numbers
1-10 printed on the cards are ours too: no source says which card bears
which number.

To correct a value, edit it here and bump ``DATA_VERSION``; no code changes.
"""

from __future__ import annotations

from typing import Any, Literal, NamedTuple

import msgspec

from pbem.games.datafile import MARK, DataSets, is_reconstructed

PRINTED = "printed"
PARTLY = "partly reconstructed"
RECONSTRUCTED = "reconstructed"

RULEBOOK = "Tallinn rulebook (OSTIA-Spiele 2016)"
SPIELE_OFFENSIVE = "spiele-offensive.de/Spiel/Tallinn-1018361.html"
MIT80 = "mit80.de review (2017)"

#: The three estates (Stände), by a one-letter code, in the rulebook's order
#: of the final scoring ("zunächst die Kaufleute ... für Ritter und Mönche").
STAENDE: tuple[str, ...] = ("K", "R", "M")
#: German plural as printed, German singular, English gloss
STAND_NAME: dict[str, str] = {"K": "Kaufleute", "R": "Ritter", "M": "Mönche"}
STAND_SINGULAR: dict[str, str] = {"K": "Kaufmann", "R": "Ritter", "M": "Mönch"}
STAND_ENGLISH: dict[str, str] = {"K": "merchants", "R": "knights", "M": "monks"}
STAND_ENGLISH_SINGULAR: dict[str, str] = {"K": "merchant", "R": "knight", "M": "monk"}
#: estate colours: monks blue, knights red, merchants yellow (spieletest.at review);
#: pictures add a shape and the letter, so colour is never the only cue
STAND_FARBE: dict[str, str] = {"K": "#e8b600", "R": "#c62828", "M": "#1e5aa8"}


class Haelfte(NamedTuple):
    """One half of a card: the persons on it, and whether it has a coin or the Wappen.

    ``muenze``: the half triggers a contest (Wettstreit) for its estate when active.
    ``wappen``: the Legat's imperial coat of arms (a contest for an estate of the
    player's choice, two extra persons for it; two persons at the end).
    """

    K: int = 0
    R: int = 0
    M: int = 0
    muenze: bool = False
    wappen: bool = False

    def persons(self) -> dict[str, int]:
        return {"K": self.K, "R": self.R, "M": self.M}

    def total(self) -> int:
        return self.K + self.R + self.M

    def coin_estate(self) -> str | None:
        """The estate a coin half holds its contest for (the one estate on it)."""
        if not self.muenze:
            return None
        return next(s for s in STAENDE if getattr(self, s))


class Karte(NamedTuple):
    """An influence card: number as printed, halves "a" and "b", where it comes from."""

    nummer: str
    a: Haelfte
    b: Haelfte
    status: str
    source: str

    def half(self, which: str) -> Haelfte:
        return self.a if which == "a" else self.b


#: (The ten influence cards of every player's set, ``EINFLUSSKARTEN`` by printed number:
#: data.toml, read below.)

#: Der Legat des Kaisers (expansion): one per player, taken into the hand at setup.
LEGAT = "L"
#: (its card, ``LEGAT_KARTE``: data.toml)
#: the Wappen's two extra persons (in its contest; at the end for the weakest estate)
LEGAT_PERSONEN = 2


class Startkarte(NamedTuple):
    """A start card: three persons open the display (its other half is the scoring overview)."""

    name: str
    persons: Haelfte
    status: str
    source: str


#: (the six start cards, ``STARTKARTEN`` by name: data.toml)

#: (every half of the influence cards and the Legat, ``HAELFTEN`` by (card, side): from
#: data.toml)

# -- numbers of the rules (all printed in the rulebook) ---------------------------

START_PUNKTE = 4  # Spielvorbereitung: "eine Silbermünze auf das Feld 4"
HANDKARTEN = 3  # Spielvorbereitung: "zieht 3 Karten auf die Hand"
NACHZIEHEN = 1  # 4. Eine Karte nachziehen
WETTSTREIT_MEHR = 2  # 3. Wettstreit: 2 Siegpunkte per player with fewer
WETTSTREIT_GLEICH = 1  # 3. Wettstreit: 1 Siegpunkt per tie
SCHLUSS_MEHR = 4  # Schlusswertung: 4 per player with fewer of an estate
SCHLUSS_GLEICH = 2  # Schlusswertung: 2 per tie
ABSTAND = 5  # Schlusswertung: "mindestens 5 Personen mehr" ...
ABGABE = 1  # ... "muss dieser einen Siegpunkt an Dich bezahlen"
TURM_MEHR = 6  # Schlusswertung, Türme: 6 per player outdone
TURM_GLEICH = 3  # Schlusswertung, Türme: 3 per tie

# -- one line of help per kind of choice, for menus and the confirm page --------

HELP: dict[str, dict[str, str]] = {
    "en": {
        "persons": "Adds {persons} to your display for the contests and the final scoring.",
        "coin": ("Coin: a contest for the {estate}. You score 2 per rival with fewer {estate} "
                 "in their display, 1 per tie; then you may build a tower."),
        "legat_persons": ("Counts as one Kaufmann, one Ritter and one Mönch in your display; "
                          "at the end two persons join your weakest estate."),
        "wappen": ("Imperial arms: a contest for an estate of your choice, with two extra "
                   "persons for it; at the end two persons join your weakest estate."),
        "legat_estate": "Your Legat's contest for the {estate}, with two extra persons.",
        "tower_display": ("Takes the card out of your display, face down as a tower: it "
                          "counts all {total} persons of both halves at the end."),
        "tower_hand": ("Lays the hand card face down as a tower (all {total} persons of both "
                       "halves count at the end); you play one card fewer."),
        "no_tower": "Build no tower this round.",
        # beside a card no source prints whole (the sign of pbem.games.datafile)
        "mark reconstructed": "{mark} {what} reconstructed: printed in no public source, "
                              "chosen by pbem to fit the rulebook.",
        "mark partly": "{mark} Halves reconstructed: the card's persons are printed, how "
                       "they lie on its two halves pbem chose to fit the rulebook.",
        "mark card": "Persons and coin",
        "mark start": "Persons",
    },
    "de": {
        "persons": "Bringt {persons} in Deine Auslage, für Wettstreite und Schlusswertung.",
        "coin": ("Münze: Wettstreit der {estate}. 2 Siegpunkte je Mitspieler mit weniger "
                 "{estate}, 1 bei Gleichstand; danach darfst Du einen Turm bauen."),
        "legat_persons": ("Zählt als je 1 Kaufmann, 1 Ritter und 1 Mönch in Deiner Auslage; "
                          "bei Spielende kommen 2 Personen zu Deinem schwächsten Stand."),
        "wappen": ("Kaiserliches Wappen: Wettstreit für einen beliebigen Stand mit zwei "
                   "zusätzlichen Personen; am Ende 2 Personen für Deinen schwächsten Stand."),
        "legat_estate": "Wettstreit des Legaten für die {estate}, mit zwei zusätzlichen Personen.",
        "tower_display": ("Nimmt die Karte aus Deiner Auslage, verdeckt als Turm: am Ende "
                          "zählen alle {total} Personen beider Hälften."),
        "tower_hand": ("Legt die Handkarte verdeckt als Turm aus (am Ende zählen alle {total} "
                       "Personen beider Hälften); Du spielst eine Karte weniger aus."),
        "no_tower": "In dieser Runde keinen Turm bauen.",
        "mark reconstructed": "{mark} {what} rekonstruiert: in keiner öffentlichen Quelle "
                              "gedruckt, von pbem passend zur Spielregel gewählt.",
        "mark partly": "{mark} Hälften rekonstruiert: die Personen der Karte sind gedruckt, "
                       "wie sie auf ihren beiden Hälften liegen, hat pbem passend zur "
                       "Spielregel gewählt.",
        "mark card": "Personen und Münze",
        "mark start": "Personen",
    },
}


def karte(nummer: str) -> Karte:
    """An influence card or the Legat by its printed number (``"L"`` for the Legat)."""
    derived = SETS.active.derived
    return derived["LEGAT_KARTE"] if nummer == LEGAT else derived["EINFLUSSKARTEN"][nummer]


def status(nummer: str) -> str:
    """``PRINTED``, ``PARTLY`` or ``RECONSTRUCTED``: an influence card, the Legat or a
    start card (by its name, ``"S3"``) of the active data version."""
    start = SETS.active.derived["STARTKARTEN"].get(nummer)
    return start.status if start is not None else karte(nummer).status


def mark_line(nummer: str, lang: str = "en") -> str:
    """The reconstructed mark and its one line for card ``nummer`` ("" if printed)."""
    kind = status(nummer)
    if kind == PRINTED:
        return ""
    lines = HELP["de" if lang == "de" else "en"]
    if kind == PARTLY:
        return lines["mark partly"].format(mark=MARK)
    what = lines["mark start" if nummer in SETS.active.derived["STARTKARTEN"] else "mark card"]
    return lines["mark reconstructed"].format(mark=MARK, what=what)


def reconstructed_cards() -> list[str]:
    """Influence and start cards whose contents are not (wholly) printed."""
    derived = SETS.active.derived
    cards = [k.nummer for k in derived["EINFLUSSKARTEN"].values() if k.status != PRINTED]
    return cards + [s.name for s in derived["STARTKARTEN"].values() if s.status != PRINTED]


# -- the data file -------------------------------------------------------------------------

Status = Literal["printed", "partly reconstructed", "reconstructed"]


class Haelften(msgspec.Struct, forbid_unknown_fields=True):
    """A half in the data file: persons of each estate, a coin, the Wappen."""

    K: int = 0
    R: int = 0
    M: int = 0
    muenze: bool = False
    wappen: bool = False

    def haelfte(self) -> Haelfte:
        return Haelfte(self.K, self.R, self.M, self.muenze, self.wappen)


class KarteDaten(msgspec.Struct, forbid_unknown_fields=True):
    a: Haelften
    b: Haelften
    status: Status
    quelle: str


class StartDaten(msgspec.Struct, forbid_unknown_fields=True):
    persons: Haelften
    status: Status
    quelle: str


class Daten(msgspec.Struct, forbid_unknown_fields=True):
    """The schema of ``data.toml``."""

    version: str
    einflusskarten: dict[str, KarteDaten]
    legat: KarteDaten
    startkarten: dict[str, StartDaten]


def _derive(d: Daten) -> dict[str, Any]:
    karten = {n: Karte(n, k.a.haelfte(), k.b.haelfte(), k.status, k.quelle)
              for n, k in d.einflusskarten.items()}
    start = {n: Startkarte(n, k.persons.haelfte(), k.status, k.quelle)
             for n, k in d.startkarten.items()}
    legat = Karte(LEGAT, d.legat.a.haelfte(), d.legat.b.haelfte(), d.legat.status,
                  d.legat.quelle)
    # every half by card and side, the Legat's too: the rules, a view and a contest look
    # up a half at every step, and ``karte(…).half(…)`` took four calls
    halves = {(k.nummer, side): k.half(side) for k in (*karten.values(), legat)
              for side in ("a", "b")}
    return {"DATA_VERSION": d.version, "EINFLUSSKARTEN": karten, "STARTKARTEN": start,
            "LEGAT_KARTE": legat, "HAELFTEN": halves}


def _sum(*halves: Haelften) -> dict[str, int]:
    return {s: sum(getattr(h, s) for h in halves) for s in STAENDE}


def _constraints(d: Daten) -> tuple[list[str], list[str]]:
    errors: list[str] = []
    warnings: list[str] = []
    karten = d.einflusskarten
    if sorted(karten, key=int) != [str(n) for n in range(1, 11)]:
        errors.append("einflusskarten: the cards 1 to 10")
        return errors, warnings
    coins = 0
    for nummer, k in karten.items():
        for side, h in (("a", k.a), ("b", k.b)):
            n = h.K + h.R + h.M
            if not 1 <= n <= 3 or h.wappen:
                errors.append(f"einflusskarten.{nummer}.{side}: 1 to 3 persons and no Wappen "
                              "(sources: 1 to 3 persons per half)")
            if h.muenze:
                coins += 1
                if sum(1 for s in STAENDE if getattr(h, s)) != 1:
                    errors.append(f"einflusskarten.{nummer}.{side}: a coin half holds one estate")
        if k.status != "printed" and not is_reconstructed(k.quelle):
            errors.append(f"einflusskarten.{nummer}: a {k.status} card's quelle begins with "
                          "'reconstructed'")
    if coins != 6:
        errors.append(f"einflusskarten: six halves with a coin (sources), not {coins}")
    # the rulebook's final-scoring example
    if _sum(karten["7"].a, karten["7"].b) != {"K": 1, "R": 1, "M": 4}:
        errors.append("einflusskarten.7: 1 Kaufmann, 1 Ritter and 4 Mönche (rulebook, "
                      "final-scoring example: Malte's tower)")
    if _sum(karten["8"].a, karten["8"].b, karten["10"].a, karten["10"].b) != \
            {"K": 4, "R": 5, "M": 1}:
        errors.append("einflusskarten.8 and 10: 4 Kaufleute, 5 Ritter and 1 Mönch together "
                      "(rulebook, final-scoring example: Heike's towers)")
    total = _sum(*[h for k in karten.values() for h in (k.a, k.b)])
    if len(set(total.values())) != 1:
        warnings.append(f"einflusskarten: the estates have {total} persons per set, not the "
                        "same number each (pbem's reconstruction gives 13 each)")
    for name, s in d.startkarten.items():
        if sorted(_sum(s.persons).values()) != [0, 1, 2] or s.persons.muenze:
            errors.append(f"startkarten.{name}: one estate twice, one once, one not at all "
                          "(mit80.de)")
    if len(d.startkarten) != 6:
        errors.append(f"startkarten: six start cards (rulebook), not {len(d.startkarten)}")
    return errors, warnings


SETS: DataSets[Daten] = DataSets(__name__.rpartition(".")[0], Daten, _derive, _constraints)
#: the version of the shipped file (a game records the version it starts on)
DATA_VERSION = SETS.shipped.version


def __getattr__(name: str) -> Any:
    # ``EINFLUSSKARTEN``, ``STARTKARTEN`` and ``LEGAT_KARTE`` of the data version the game
    # being played started with
    return SETS.attribute(name)


# last: the names this module defines above stay its own (``DataSets.install``)
SETS.install(globals())
