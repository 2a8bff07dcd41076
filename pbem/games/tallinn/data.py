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

from typing import NamedTuple

DATA_VERSION = "1-reconstructed"

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


_COIN_PATTERN = ("reconstructed: card 1's pattern (two persons of one estate / one person of "
                 "another with a coin); the six coin cards are the six ways to pair two estates")

#: The ten influence cards of every player's set, by printed number.
EINFLUSSKARTEN: dict[str, Karte] = {
    k.nummer: k
    for k in (
        # the coin cards: two persons of one estate / one person of another with a coin
        Karte("1", Haelfte(M=2), Haelfte(R=1, muenze=True), PRINTED,
              SPIELE_OFFENSIVE + ": 'eine Hälfte 2 Mönche, andere 1 Ritter + Münze'"),
        Karte("2", Haelfte(K=2), Haelfte(M=1, muenze=True), RECONSTRUCTED, _COIN_PATTERN),
        Karte("3", Haelfte(R=2), Haelfte(K=1, muenze=True), RECONSTRUCTED, _COIN_PATTERN),
        Karte("4", Haelfte(K=2), Haelfte(R=1, muenze=True), RECONSTRUCTED, _COIN_PATTERN),
        Karte("5", Haelfte(R=2), Haelfte(M=1, muenze=True), RECONSTRUCTED, _COIN_PATTERN),
        Karte("6", Haelfte(M=2), Haelfte(K=1, muenze=True), RECONSTRUCTED, _COIN_PATTERN),
        # the cards without a coin
        Karte("7", Haelfte(M=2, R=1), Haelfte(K=1, M=2), PARTLY,
              RULEBOOK + ", Beispiel für eine Schlusswertung: Malte's tower card holds "
              "'1 Ritter, 1 Kaufmann und 4 Mönche' (the split into halves is ours)"),
        Karte("8", Haelfte(K=2, R=1), Haelfte(R=3), PARTLY,
              RULEBOOK + ", Beispiel für eine Schlusswertung: Heike's two tower cards hold "
              "'5 Ritter, 4 Kaufleute und 1 Mönch'; with card 10 that leaves 2 Kaufleute and "
              "4 Ritter for this card (which cards she built, and the split, are ours)"),
        Karte("9", Haelfte(M=2), Haelfte(K=2, R=1), RECONSTRUCTED,
              "reconstructed: brings every estate to 13 persons per set, and lets the "
              "rulebook's final-scoring example be reached in play"),
        # the card of the rulebook's illustration of phase 1
        Karte("10", Haelfte(K=2), Haelfte(R=1, M=1), PRINTED,
              RULEBOOK + ", phase 1: 'Du aktivierst 2 Kaufleute' / 'Du aktivierst 1 Ritter "
              "und 1 Mönch' (read as the two halves of one card)"),
    )
}

#: Der Legat des Kaisers (expansion): one per player, taken into the hand at setup.
LEGAT = "L"
LEGAT_KARTE = Karte(
    LEGAT, Haelfte(K=1, R=1, M=1), Haelfte(wappen=True), PRINTED,
    RULEBOOK + ", Der Legat des Kaisers: 'je 1 Mönch, 1 Ritter und 1 Kaufmann' / "
    "'kaiserliches Wappen'",
)
#: the Wappen's two extra persons (in its contest; at the end for the weakest estate)
LEGAT_PERSONEN = 2


class Startkarte(NamedTuple):
    """A start card: three persons open the display (its other half is the scoring overview)."""

    name: str
    persons: Haelfte
    status: str
    source: str


_START_PATTERN = (MIT80 + ": 'one estate twice, one once, one not at all'; the six cards of "
                  "that pattern are the rulebook's '6 Start-Karten' (reconstructed)")

STARTKARTEN: dict[str, Startkarte] = {
    s.name: s
    for s in (
        Startkarte("S1", Haelfte(M=2, R=1), PRINTED,
                   SPIELE_OFFENSIVE + ": 'zwei Mönche und ein Ritter'"),
        Startkarte("S2", Haelfte(R=2, K=1), PRINTED,
                   SPIELE_OFFENSIVE + ": 'zwei Ritter und ein Kaufmann'"),
        Startkarte("S3", Haelfte(K=2, M=1), RECONSTRUCTED, _START_PATTERN),
        Startkarte("S4", Haelfte(M=2, K=1), RECONSTRUCTED, _START_PATTERN),
        Startkarte("S5", Haelfte(R=2, M=1), RECONSTRUCTED, _START_PATTERN),
        Startkarte("S6", Haelfte(K=2, R=1), RECONSTRUCTED, _START_PATTERN),
    )
}

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
    },
}


def karte(nummer: str) -> Karte:
    """An influence card or the Legat by its printed number (``"L"`` for the Legat)."""
    return LEGAT_KARTE if nummer == LEGAT else EINFLUSSKARTEN[nummer]


def reconstructed_cards() -> list[str]:
    """Influence and start cards whose contents are not (wholly) printed."""
    cards = [k.nummer for k in EINFLUSSKARTEN.values() if k.status != PRINTED]
    return cards + [s.name for s in STARTKARTEN.values() if s.status != PRINTED]
