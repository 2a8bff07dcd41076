"""Macao's card and board data, as data over a small vocabulary of effects.

Sources: ../shared/rules/macao-de.txt (the Yucata rules page, cited "R" with
its section), ../shared/data/macao-sources.md ("S") and
../shared/data/turn2-additions.md §1 ("T").  No public source prints the card
list or the board's details (S, "HEADLINE"), so most values here are
*reconstructed*: each such table says so and why, and every reconstruction
agrees with what the rulebook prints.

The values live in ``data.toml`` beside this module, each with its source; this module
gives the file its schema, checks R's constraints on it (``pbem data check macao``),
builds the decks from it and answers ``data.CARDS``, ``data.HARBOURS``… with the values
of the data version the game being played started with (``pbem.games.datafile``).

Effects are tuples ``(kind, *params)`` of the vocabulary ``EFFECT_KINDS``;
``rules`` interprets them, so a real card list can be typed in without code.

Data versions: a game keeps the data version it started with, because its state
names cards by id.  Version ``1-reconstructed`` (ids ``K1``..``K96``) is kept as it
was; version ``2-reconstructed`` (ids ``C1``..``C96``) adds the twelve cards R names
only by the rule they change (``_RECONSTRUCTED``).  The 24 office cards (``A1``..
``A24``) are the same in both.  To change a card's values, add a version: never edit
the cards of a version a running game may hold.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

import msgspec

from pbem.games.datafile import DataSets
from pbem.games.protocol import OptionError

#: the data version new games start with.  Version 1 repeated known cards to fill the
#: deck; version 2 adds the twelve cards R names without their effect (reconstructed).
#: (``DATA_VERSION``: the shipped file's, below)
#: every data version this package can still play: a running game keeps the version
#: it started with (``state["data_version"]``), because its card ids name that
#: version's cards.  Card ids differ between versions (``K…`` in 1, ``C…`` in 2), so
#: ``CARDS`` below holds the cards of all versions at once.
DATA_VERSIONS = ("1-reconstructed", "2-reconstructed")

#: action-cube colours (R "Spielmaterial": je 50x Rot, Blau, Grün, Schwarz, Grau, Violett);
#: one-letter codes keep the notation short (their names are in ``words``)
COLOURS = ("r", "b", "g", "k", "y", "v")

#: the 8 goods, 3 tiles each (R "Spielmaterial"; their English names are in ``words``)
GOODS = ("Lackwaren", "Reis", "Tee", "Jade", "Seide", "Papier", "Porzellan", "Gewürze")
TILES_PER_GOOD = 3
JOKERS = 6
#: a joker gives 1 cube of any colour or 3 gold (R 3.2)
JOKER_GOLD = 3

START_GOLD = 5          # R "Spielvorbereitung"
MARKERS = 12            # R: 12 Besitzmarker; material is unlimited (R "Limitierungen")
PENALTY = 3             # R: -3 per Strafmarker
ROUNDS = 12             # R "Spielverlauf"
TABLEAU = 5             # R 1.4: five places; a sixth card costs a Strafmarker
WALL_FIELDS = 16        # R "Spielvorbereitung"; S §2
AREA_POINTS = 2         # R "Spielende": 2 PP per marker in the largest area
#: B/P cards removed after the tribute is set, by player count (R 1.3)
REMOVED = {2: 2, 3: 1, 4: 0}
#: from round 8 on, dice showing at least this value are turned to 1 (R "Würfelphase":
#: round 8 the sixes, round 9 sixes and fives, ..., round 12 all dice)
LATE_DICE = {8: 6, 9: 5, 10: 4, 11: 3, 12: 2}


def wall_cost(fields: int) -> int:
    """Cubes to advance ``fields`` fields on the wall: 1 for the first, 2 for each further
    one (R 3.3: 1/3/5/7 for 1/2/3/4)."""
    return 0 if fields <= 0 else 2 * fields - 1


# -- the city ------------------------------------------------------------------------
# *Reconstructed*: no source gives the districts' costs or their adjacency (S §2, T §1).
# The 30 districts lie on a grid of 5 rows of 6, numbered row by row, adjacent when
# they share a side.  Costs are 2 or 3 cubes for the 24 light districts and 4 for the 6
# dark ones (R 3.2 says only "genau die abgebildeten AS"; S §2 "unterschiedlich viele
# Würfelchen verschiedener Farben"); the colours were drawn once from a fixed seed
# ("macao-reconstruction") and are frozen here.  Dark = joker districts (R, S §2).
#: (``CITY_COLUMNS``, ``DISTRICT_COST`` and ``DARK_DISTRICTS``: data.toml)


def district_neighbours(d: int) -> list[int]:
    """Districts sharing a side with ``d`` on the (reconstructed) 5 x 6 grid."""
    # each view asks this of every district owned: the version's table (``_derive``)
    known = SETS.active.derived["NEIGHBOURS"].get(d)
    return list(known) if known is not None else _grid_neighbours(
        d, SETS.active.derived["CITY_COLUMNS"], len(SETS.active.derived["DISTRICT_COST"]))


def _grid_neighbours(d: int, columns: int, districts: int) -> list[int]:
    rows = districts // columns
    row, col = divmod(d - 1, columns)
    out = []
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        r, c = row + dr, col + dc
        if 0 <= r < rows and 0 <= c < columns:
            out.append(r * columns + c + 1)
    return out


# -- the sea ---------------------------------------------------------------------------
# Harbour names from S §2 (boardgame.de).  *Reconstructed*: the sea graph, which good
# each harbour takes and the delivery spaces' prestige (S §2, T §1: NOT FOUND).  Two
# routes leave the start field "Anker"; water fields and harbours alternate, each
# harbour counting as a field (R 3.4).  Each harbour takes one good (8 goods, 8
# harbours) and has 3 spaces, one per tile of its good; farther harbours pay more, and
# earlier deliveries more than later ones (S §2, fairspielt: "nur wer früher seine
# Waren verschifft, wird auch den gewünschten hohen Ertrag erhalten").
#: (``START_FIELD``, ``SEA_EDGES`` and ``HARBOURS``, harbour -> (good it takes,
#: prestige of its spaces, highest first): data.toml)


def sea_neighbours(field: str) -> list[str]:
    """Fields one step from ``field``."""
    # every action menu asks this: the version's table (``_derive``)
    known = SETS.active.derived["SEA_NEIGHBOURS"].get(field)
    return list(known) if known is not None else _sea_neighbours(
        SETS.active.derived["SEA_EDGES"], field)


def _sea_neighbours(edges: tuple[tuple[str, str], ...], field: str) -> list[str]:
    return sorted({b for a, b in edges if a == field} | {a for a, b in edges if b == field})


# -- cards -----------------------------------------------------------------------------
#: the effect vocabulary: kind -> what its parameters mean (``rules`` implements them)
EFFECT_KINDS = {
    "gain": "once per round: take the resources in params[0] ({'gold','pp','any'})",
    "office_pp": "once per round: 1 PP per own activated office card of category params[0]",
    "convert": "once per round: give params[0], take params[1], any multiple of it",
    "colours_pp": "once per round: give cubes of different colours (up to 6), 1 PP each",
    "end_pp": "game end: params[0] PP",
    "palast": "game end: 2 PP per own activated card that scores at game end, Abt excepted",
    "turm": "always: own disc on top of its stack on the wall",
    "abt": "game end: no Strafmarker for cards left on the tableau",
    "boettcherei": "each good delivered: 1 PP more (not doubled by a Lager)",
    "lager": "each good params[0] delivered: its prestige doubled",
    "kapitaen": "once per round: 1 PP once the ship moved at least 2 fields this round",
    "amtsstube": "once per round: 1 PP once an office card was used this round",
    "gesandter": "each purchase of prestige: 1 cube of any colour",
    "pfandleihe": "once per round: 1 gold once gold was received this round",
    "soldat": "once per round: 1 gold per 4 own markers in the city",
    "handwerker": "once per round: the next activation needs its cubes only in the supply",
    "gaukler": "each joker used twice: 2 cubes, 1 cube and 3 gold, or 6 gold",
    "muessig": "card phase: may take no card (*reconstructed* reading of R 1.4)",
    "professor": "dice phase: 1 gold per die showing 1 that the seat takes (*reconstructed*)",
    "reduce": "always: each activation costs 1 cube of colour params[0] less, at least 1",
    "free_move": "once per round: move the ship up to params[1] fields for params[0] gold "
                 "(and params[2] cubes of any colour, when given)",
    # added in data version 2 for the twelve reconstructed cards (see _RECONSTRUCTED)
    "on_district": "each district taken (params[1] 'dark': each dark one): take params[0] "
                   "({'gold','pp','wall'}; 'wall' moves the disc on, free)",
    "districts": "always: up to params[0] districts per turn instead of one",
    "district_swap": "once per round: one cube of a district's cost may be of any colour",
    "wall_cost": "always: each field on the wall costs params[0] cube(s), the first one too",
    "wall_below": "while another disc lies on yours: advancing costs params[0] cube(s) less",
    "landed_on": "each time another disc lands on top of yours on the wall: take params[0]",
    "free_harbour": "once per round: sailing into a harbour costs no cube",
    "tribute_mod": "each purchase of prestige: params[0] gold more (never below 0), "
                   "params[1] PP more",
}


@dataclass(frozen=True)
class Card:
    """One of the 120 cards: ``kind`` "amt" (office), "bau" (building) or "person"."""

    id: str
    name: str
    kind: str
    cost: str                   # cube colours, e.g. "rrb"
    tribute: tuple[int, int]    # (gold, prestige), R "Die Spielkarten" 4)
    effect: tuple
    text: str                   # the card's text (printed ones quoted from R)
    printed: bool               # True when R prints the text; cost/tribute are reconstructed
    note: str = ""              # why and how a value is reconstructed, where it is


# Office categories named by R (Festung, Gericht, Rathaus, Schatzkammer, Steinbruch,
# Zollstation).  *Reconstructed*: which colour goes with which category (S HEADLINE)
# and the office cards' effects.  R: per colour four office cards costing 1 to 4
# cubes of that colour.  Reconstructed effect: once per round, 1 PP for a card of cost
# 1 or 2, 2 PP for cost 3 or 4 (more cubes, more return, like the B/P cards).
#: (``OFFICE_CATEGORY``: data.toml)

# Tribute pairs: R gives the distribution over all 120 cards (0-0, 1-1, 2-2: 20 each;
# 0-1, 1-2: 30 each) and the round's average for the 4 B/P cards (3 GM for 5 PP).
# *Reconstructed*: which card carries which pair.  Pairs are dealt to the cards in
# list order from this cycle, which keeps the printed distribution exactly.
#: (the cycle: data.toml, ``tribut.zyklus``)

# (The cards: data.toml, ``karten``: those whose text R prints ("gedruckt"), those R
# names and whose text is worked out from its hints ("genannt"), and the twelve R names
# only by the rule they change ("rekonstruiert"), each with its reason.)

#: 44 Bauwerke + 52 Personen (R "Spielmaterial").
DECK_SIZE = 96
KIND_COUNT = {"bau": 44, "person": 52}
#: cards whose number R fixes ("alle 8 Lager", R 3.4; "drei Baronessen", R "Anhang"),
#: so a filler never repeats them
FIXED_COUNT = frozenset({f"{good}lager" for good in GOODS} | {"Baronesse"})


Entry = tuple[Any, ...]


def _office_cards(category: dict[str, str], cycle: tuple[tuple[int, int], ...]) -> list[Card]:
    """The 24 office cards, the same in every data version (ids A1..A24)."""
    out = []
    for n, (colour, k) in enumerate((c, k) for c in COLOURS for k in range(1, 5)):
        pp = 1 if k <= 2 else 2
        out.append(Card(f"A{n + 1}", f"{category[colour]} {k}", "amt", colour * k,
                        cycle[n % len(cycle)], ("gain", {"pp": pp}),
                        f"Du erhältst {pp} PP.", False))
    return out


def _deck_v1(printed: list[Entry], named: list[Entry],
             cycle: tuple[tuple[int, int], ...]) -> list[Card]:
    """Data version 1 (ids K1..K96), kept unchanged for the games that started with it.
    *Reconstructed*: after one of each known card, the deck repeats the buildings and
    the persons in list order until it has 44 and 52."""
    known = list(printed + named)
    for kind, target in KIND_COUNT.items():
        same = [entry for entry in printed + named if entry[1] == kind]
        known += [same[i % len(same)] for i in range(target - len(same))]
    offset = 24
    return [Card(f"K{i + 1}", name, kind, cost,
                 cycle[(offset + i) % len(cycle)], effect, text, i < len(printed))
            for i, (name, kind, cost, effect, text) in enumerate(known)]


def _deck_v2(printed: list[Entry], named: list[Entry], reconstructed: list[Entry],
             cycle: tuple[tuple[int, int], ...]) -> list[Card]:
    """Data version 2 (ids C1..C96): every card R names, once (the Baronesse three
    times, R "Anhang"), the twelve reconstructed ones among them: 33 Bauwerke and 27
    Personen.  *Reconstructed*: the other 11 Bauwerke and 25 Personen of the real deck
    are unknown (no source names them), so the deck repeats the named cards of each
    kind in list order, never a Lager or a Baronesse, to reach 44 and 52."""
    entries = [(name, kind, cost, effect, text, name_i < len(printed), "")
               for name_i, (name, kind, cost, effect, text) in enumerate(printed + named)]
    entries += [(name, kind, cost, effect, text, False, f"reconstructed: {why}")
                for name, kind, cost, effect, text, why in reconstructed]
    for kind, target in KIND_COUNT.items():
        same = [e for e in entries if e[1] == kind]
        fill = [e for e in same if e[0] not in FIXED_COUNT]
        entries += [fill[i % len(fill)][:6]
                    + ("; ".join(filter(None, ("reconstructed: a repeat standing in for an "
                                               "unknown card", fill[i % len(fill)][6]))),)
                    for i in range(target - len(same))]
    offset = 24
    return [Card(f"C{i + 1}", name, kind, cost,
                 cycle[(offset + i) % len(cycle)], effect, text, printed_, note)
            for i, (name, kind, cost, effect, text, printed_, note) in enumerate(entries)]


def cost_cubes(cid: str) -> dict[str, int]:
    """A card's printed cost as cubes by colour."""
    cost = SETS.active.derived["CARDS"][cid].cost
    return {c: cost.count(c) for c in set(cost)}


def deck_ids(version: str | None = None) -> list[str]:
    """The 96 B/P card ids of a data version, in list order (before shuffling)."""
    decks = SETS.active.derived["DECKS"]
    version = version or SETS.active.version
    if version == SETS.active.version:  # an operator's "<its version>+<hash>"
        version = SETS.active.data.version
    if version not in decks:
        raise OptionError(f"Macao has no card data version {version!r}")
    return [c.id for c in decks[version]]


def card_ids(version: str | None = None) -> list[str]:
    """All 120 card ids of a data version."""
    return SETS.active.derived["OFFICE_IDS"] + deck_ids(version)




#: what the mark beside a card's help says pbem reconstructed, per language (every card's
#: cost and tribute are pbem's: no source prints them)
_MARK = {
    "en": {"office": "effect, cost and tribute", "printed": "cost and tribute",
           "named": "text, cost and tribute", "invented": "effect, cost and tribute",
           "line": "◇ {what} reconstructed: printed in no public source, chosen by pbem to "
                   "fit the rulebook.",
           "repeat": " A repeat standing in for an unknown card."},
    "de": {"office": "Wirkung, Kosten und Tribut", "printed": "Kosten und Tribut",
           "named": "Text, Kosten und Tribut", "invented": "Wirkung, Kosten und Tribut",
           "line": "◇ {what} rekonstruiert: in keiner öffentlichen Quelle gedruckt, von pbem "
                   "passend zur Spielregel gewählt.",
           "repeat": " Eine Wiederholung an Stelle einer unbekannten Karte."},
}


def mark_line(cid: str, lang: str = "en") -> str:
    """The reconstructed mark and its one line for card ``cid``, in ``lang``."""
    card = SETS.active.derived["CARDS"][cid]
    words = _MARK["de" if lang == "de" else "en"]
    which = ("office" if card.kind == "amt" else "printed" if card.printed
             else "invented" if card.note.startswith("reconstructed: ") and
             "repeat standing in" not in card.note.split(";")[0] else "named")
    if card.name in SETS.active.derived["NAMED_WITHOUT_EFFECT"]:
        which = "invented"
    what = words[which]
    line = words["line"].format(what=what[0].upper() + what[1:])
    return line + (words["repeat"] if "repeat standing in" in card.note else "")


# -- the data file -------------------------------------------------------------------------

class Kosten(msgspec.Struct, forbid_unknown_fields=True):
    wert: str
    quelle: str


class Karte(msgspec.Struct, forbid_unknown_fields=True):
    """A building or person card of the data file (the deck repeats some, see above)."""

    name: str
    art: Literal["bau", "person"]
    gruppe: Literal["gedruckt", "genannt", "rekonstruiert"]
    wirkung: list[Any]
    text: str
    quelle: str
    kosten: Kosten


class Hafen(msgspec.Struct, forbid_unknown_fields=True):
    ware: str
    prestige: list[int]


class Stadt(msgspec.Struct, forbid_unknown_fields=True):
    quelle: str
    spalten: int
    dunkel: list[int]
    kosten: dict[str, str]


class Meer(msgspec.Struct, forbid_unknown_fields=True):
    quelle: str
    start: str
    wege: list[tuple[str, str]]
    haefen: dict[str, Hafen]


class Aemter(msgspec.Struct, forbid_unknown_fields=True):
    quelle: str
    kategorie: dict[str, str]


class Tribut(msgspec.Struct, forbid_unknown_fields=True):
    quelle: str
    zyklus: list[tuple[int, int]]


class Daten(msgspec.Struct, forbid_unknown_fields=True):
    """The schema of ``data.toml``."""

    version: str
    stadt: Stadt
    meer: Meer
    aemter: Aemter
    tribut: Tribut
    karten: list[Karte]


def _tuple(value: Any) -> Any:
    """An effect as the rules compare it: lists of the file as tuples, tables as dicts."""
    if isinstance(value, list):
        return tuple(_tuple(v) for v in value)
    if isinstance(value, dict):
        return {k: _tuple(v) for k, v in value.items()}
    return value


def _entries(d: Daten, gruppe: str) -> list[Entry]:
    return [(k.name, k.art, k.kosten.wert, _tuple(k.wirkung), k.text)
            + ((k.quelle.removeprefix("reconstructed: "),) if gruppe == "rekonstruiert" else ())
            for k in d.karten if k.gruppe == gruppe]


def _derive(d: Daten) -> dict[str, Any]:
    cycle = tuple(tuple(p) for p in d.tribut.zyklus)
    printed, named = _entries(d, "gedruckt"), _entries(d, "genannt")
    reconstructed = _entries(d, "rekonstruiert")
    offices = _office_cards(d.aemter.kategorie, cycle)  # type: ignore[arg-type]
    decks = {}
    if d.version == "2-reconstructed":  # the shipped file: version 1's deck beside it
        decks["1-reconstructed"] = _deck_v1(printed, named, cycle)  # type: ignore[arg-type]
    decks[d.version] = _deck_v2(printed, named, reconstructed, cycle)  # type: ignore[arg-type]
    edges = tuple((a, b) for a, b in d.meer.wege)
    cards = {c.id: c for c in offices}
    for deck in decks.values():
        cards.update({c.id: c for c in deck})
    return {
        "DATA_VERSION": d.version,
        "CITY_COLUMNS": d.stadt.spalten,
        "DISTRICT_COST": {int(k): v for k, v in d.stadt.kosten.items()},
        # the districts as the rules walk them, for each menu: number, key in a state's
        # ``city`` and ``tiles``, cost (``DISTRICT_COST``'s order)
        "DISTRICTS": tuple((int(k), str(int(k)), v) for k, v in d.stadt.kosten.items()),
        "DARK_DISTRICTS": frozenset(d.stadt.dunkel),
        "START_FIELD": d.meer.start,
        "SEA_EDGES": tuple(tuple(e) for e in d.meer.wege),
        # ``sea_neighbours`` and ``district_neighbours`` of every field and district
        "SEA_NEIGHBOURS": {f: tuple(_sea_neighbours(edges, f))
                           for f in sorted({f for e in edges for f in e})},
        "NEIGHBOURS": {n: tuple(_grid_neighbours(n, d.stadt.spalten, len(d.stadt.kosten)))
                       for n in range(1, len(d.stadt.kosten) + 1)},
        "HARBOURS": {h: (x.ware, tuple(x.prestige)) for h, x in d.meer.haefen.items()},
        "OFFICE_CATEGORY": dict(d.aemter.kategorie),
        "NAMED_WITHOUT_EFFECT": ("Professor",) + tuple(e[0] for e in reconstructed),
        "_RECONSTRUCTED": tuple(reconstructed),
        "DECKS": decks, "CARDS": cards, "OFFICE_IDS": [c.id for c in offices],
        "DECK_IDS": [c.id for c in decks[d.version]],
    }


def _constraints(d: Daten) -> tuple[list[str], list[str]]:
    """R's constraints on the values (errors)."""
    errors: list[str] = []
    if sorted(d.stadt.kosten, key=int) != [str(n) for n in range(1, 31)]:
        errors.append("stadt.kosten: the districts 1 to 30")
    for n, cost in d.stadt.kosten.items():
        if not cost or set(cost) - set(COLOURS):
            errors.append(f"stadt.kosten.{n}: cube colours of {''.join(COLOURS)}, not {cost!r}")
    if len(d.stadt.dunkel) != 6:
        errors.append("stadt.dunkel: six dark (joker) districts")
    if sorted(d.aemter.kategorie) != sorted(COLOURS):
        errors.append(f"aemter.kategorie: one category per colour {', '.join(COLOURS)}")
    if sorted(x.ware for x in d.meer.haefen.values()) != sorted(GOODS):
        errors.append("meer.haefen: each of the 8 goods taken by one harbour")
    fields = {f for edge in d.meer.wege for f in edge}
    for h, x in d.meer.haefen.items():
        if h not in fields:
            errors.append(f"meer.haefen.{h}: a harbour on the sea's routes")
        if len(x.prestige) != TILES_PER_GOOD or x.prestige != sorted(x.prestige, reverse=True):
            errors.append(f"meer.haefen.{h}.prestige: {TILES_PER_GOOD} spaces, earlier "
                          "deliveries paying more")
    # R 1.3: the tribute pairs over all 120 cards, 0-0, 1-1, 2-2: 20 each; 0-1, 1-2: 30 each
    cycle = [tuple(p) for p in d.tribut.zyklus]
    dealt = [cycle[i % len(cycle)] for i in range(24 + DECK_SIZE)] if cycle else []
    wanted = {(0, 0): 20, (1, 1): 20, (2, 2): 20, (0, 1): 30, (1, 2): 30}
    if {p: dealt.count(p) for p in set(dealt)} != wanted:
        errors.append("tribut.zyklus: the 120 cards' pairs as R prints them (0-0, 1-1, 2-2: "
                      "20 each; 0-1, 1-2: 30 each)")
    for i, k in enumerate(d.karten):
        if not 1 <= len(k.kosten.wert) <= 4 or set(k.kosten.wert) - set(COLOURS):
            errors.append(f"karten[{i}].kosten: 1 to 4 cubes (R \"Die Spielkarten\"), "
                          f"not {k.kosten.wert!r}")
        if not k.wirkung or k.wirkung[0] not in EFFECT_KINDS:
            errors.append(f"karten[{i}].wirkung: a kind of EFFECT_KINDS, not {k.wirkung!r}")
    counts = {kind: sum(1 for k in d.karten if k.art == kind) for kind in KIND_COUNT}
    for kind, target in KIND_COUNT.items():
        if counts[kind] > target:
            errors.append(f"karten: at most {target} of kind {kind}")
    return errors, []


SETS: DataSets[Daten] = DataSets(__name__.rpartition(".")[0], Daten, _derive, _constraints)
#: the data version new games start with (the shipped file's)
DATA_VERSION = SETS.shipped.version
#: the current version's deck (kept under its old name for callers and tests)
DECK_IDS = SETS.shipped.derived["DECK_IDS"]


def __getattr__(name: str) -> Any:
    # the cards and the board (``CARDS``, ``HARBOURS``, ``DISTRICT_COST``…) of the data
    # version the game being played started with
    return SETS.attribute(name)


# last: the names this module defines above stay its own (``DataSets.install``)
SETS.install(globals())
