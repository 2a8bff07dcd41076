"""Macao's card and board data, as data over a small vocabulary of effects.

Sources: ../shared/rules/macao-de.txt (the Yucata rules page, cited "R" with
its section), ../shared/data/macao-sources.md ("S") and
../shared/data/turn2-additions.md §1 ("T").  No public source prints the card
list or the board's details (S, "HEADLINE"), so most values here are
*reconstructed*: each such table says so and why, and every reconstruction
agrees with what the rulebook prints.

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

from pbem.games.protocol import OptionError

#: the data version new games start with.  Version 1 repeated known cards to fill the
#: deck; version 2 adds the twelve cards R names without their effect (reconstructed).
DATA_VERSION = "2-reconstructed"
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
CITY_COLUMNS = 6
DISTRICT_COST = {
    1: "bk", 2: "rgy", 3: "bgk", 4: "yvv", 5: "ggky", 6: "gv",
    7: "rgy", 8: "rgv", 9: "bkyv", 10: "bky", 11: "kyv", 12: "bbg",
    13: "rky", 14: "rbyv", 15: "bky", 16: "gv", 17: "rbbv", 18: "bkv",
    19: "ry", 20: "gk", 21: "bgy", 22: "rggv", 23: "bgk", 24: "ggk",
    25: "rkv", 26: "rrbv", 27: "kvv", 28: "rgg", 29: "bkk", 30: "rbv",
}
DARK_DISTRICTS = frozenset({5, 9, 14, 17, 22, 26})


def district_neighbours(d: int) -> list[int]:
    """Districts sharing a side with ``d`` on the (reconstructed) 5 x 6 grid."""
    row, col = divmod(d - 1, CITY_COLUMNS)
    out = []
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        r, c = row + dr, col + dc
        if 0 <= r < len(DISTRICT_COST) // CITY_COLUMNS and 0 <= c < CITY_COLUMNS:
            out.append(r * CITY_COLUMNS + c + 1)
    return out


# -- the sea ---------------------------------------------------------------------------
# Harbour names from S §2 (boardgame.de).  *Reconstructed*: the sea graph, which good
# each harbour takes and the delivery spaces' prestige (S §2, T §1: NOT FOUND).  Two
# routes leave the start field "Anker"; water fields and harbours alternate, each
# harbour counting as a field (R 3.4).  Each harbour takes one good (8 goods, 8
# harbours) and has 3 spaces, one per tile of its good; farther harbours pay more, and
# earlier deliveries more than later ones (S §2, fairspielt: "nur wer früher seine
# Waren verschifft, wird auch den gewünschten hohen Ertrag erhalten").
START_FIELD = "Anker"
SEA_EDGES = (
    ("Anker", "S1"), ("S1", "Lisboa"), ("Lisboa", "S2"), ("S2", "Barcelona"),
    ("Barcelona", "S3"), ("S3", "Marseille"), ("Marseille", "S4"), ("S4", "Genova"),
    ("Anker", "N1"), ("N1", "Antwerpen"), ("Antwerpen", "N2"), ("N2", "Amsterdam"),
    ("Amsterdam", "N3"), ("N3", "Hamburg"), ("Hamburg", "N4"), ("N4", "London"),
)
#: harbour -> (good it takes, prestige of its spaces, highest first)
HARBOURS = {
    "Lisboa": ("Reis", (4, 3, 2)),
    "Antwerpen": ("Tee", (4, 3, 2)),
    "Barcelona": ("Papier", (6, 5, 4)),
    "Amsterdam": ("Gewürze", (6, 5, 4)),
    "Marseille": ("Lackwaren", (8, 7, 6)),
    "Hamburg": ("Porzellan", (8, 7, 6)),
    "Genova": ("Seide", (10, 9, 8)),
    "London": ("Jade", (10, 9, 8)),
}


def sea_neighbours(field: str) -> list[str]:
    """Fields one step from ``field``."""
    return sorted({b for a, b in SEA_EDGES if a == field} | {a for a, b in SEA_EDGES if b == field})


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
OFFICE_CATEGORY = {"r": "Militärwesen", "b": "Justiz", "g": "Verwaltung", "k": "Finanzen",
                   "y": "Bau", "v": "Zoll"}

# Tribute pairs: R gives the distribution over all 120 cards (0-0, 1-1, 2-2: 20 each;
# 0-1, 1-2: 30 each) and the round's average for the 4 B/P cards (3 GM for 5 PP).
# *Reconstructed*: which card carries which pair.  Pairs are dealt to the cards in
# list order from this cycle, which keeps the printed distribution exactly.
_TRIBUTE_CYCLE = ((0, 0), (0, 1), (1, 1), (1, 2), (2, 2), (0, 1), (1, 2), (0, 0),
                  (1, 1), (2, 2), (0, 1), (1, 2))

# B/P cards whose text R prints ("Erläuterungen"), with reconstructed costs.
_PRINTED = (
    ("Amtsstube", "bau", "rb", ("amtsstube",),
     "Hast du mindestens 1 Ämterkarte genutzt, erhältst du 1 PP."),
    ("Böttcherei", "bau", "gk", ("boettcherei",),
     "Du erhältst für jedes Warenplättchen, das du ablieferst, 1 PP mehr."),
    ("Edler", "person", "vy", ("convert", {"gold": 2}, {"any": 1}),
     "Für jeweils 2 GM, die du abgibst, erhältst du je 1 beliebigen AS."),
    ("Festung", "bau", "rrk", ("office_pp", "Militärwesen"),
     "Du erhältst für jede deiner aktivierten Ämterkarten „Militärwesen“ 1 PP."),
    ("Gericht", "bau", "bbk", ("office_pp", "Justiz"),
     "Du erhältst für jede deiner aktivierten Ämterkarten „Justiz“ 1 PP."),
    ("Gesandter", "person", "bv", ("gesandter",),
     "Nimm dir 1 beliebigen AS, immer wenn du Prestige aufgrund der Tributleiste erwirbst."),
    ("Goldsucher", "person", "ky", ("convert", {"any": 3}, {"gold": 1}),
     "Für jeweils 3 beliebige AS, die du abgibst, erhältst du je 1 GM."),
    ("Handwerker", "person", "gy", ("handwerker",),
     "Du musst die Aktivierungskosten für eine beliebige Karte nicht abgeben, sondern "
     "lediglich in deinem Aktionsvorrat liegen haben."),
    ("Kapitän", "person", "bg", ("kapitaen",),
     "Du erhältst 1 PP, wenn sich dein Schiff mindestens 2 Felder bewegt hat."),
    ("Kathedrale", "bau", "rgkv", ("colours_pp",),
     "Gib verschiedenfarbige AS ab (bis zu 6); pro abgegebenem AS erhältst du 1 PP."),
    ("Palast", "bau", "rbgv", ("palast",),
     "Am Spielende erhältst du für jede aktivierte eigene Karte (inkl. dieser), die "
     "Prestigepunkte am Spielende bringt, 2 PP."),
    ("Pfandleihe", "bau", "yk", ("pfandleihe",),
     "Du erhältst 1 GM, wenn du diese Runde mindestens 1 GM erhalten hast."),
    ("Rathaus", "bau", "ggk", ("office_pp", "Verwaltung"),
     "Du erhältst für jede deiner aktivierten Ämterkarten „Verwaltung“ 1 PP."),
    ("Schatzkammer", "bau", "kkv", ("office_pp", "Finanzen"),
     "Du erhältst für jede deiner aktivierten Ämterkarten „Finanzen“ 1 PP."),
    ("Segelmacherei", "bau", "bb", ("free_move", 0, 2),
     "Du darfst dein Schiff bis zu 2 Felder weit bewegen."),
    ("Soldat", "person", "rr", ("soldat",),
     "Du erhältst für jeweils 4 eigene Besitzmarker in der Stadt 1 GM."),
    ("Steinbruch", "bau", "yyk", ("office_pp", "Bau"),
     "Du erhältst für jede deiner aktivierten Ämterkarten „Bau“ 1 PP."),
    ("Steuermann", "person", "gb", ("free_move", 1, 4),
     "Gib 1 GM ab und bewege dafür dein Schiff um bis zu 4 Felder."),
    ("Turm", "bau", "ry", ("turm",),
     "In einem Stapel auf der Mauer liegt deine Scheibe immer oben."),
    ("Zollstation", "bau", "vvk", ("office_pp", "Zoll"),
     "Du erhältst für jede deiner aktivierten Ämterkarten „Zoll“ 1 PP."),
)

# Cards R names with their effect in passing.  Texts are pbem's wording of what R says.
_NAMED = (
    ("Abt", "person", "rgy", ("abt",),
     "Am Spielende erhältst du keine Strafmarker für Karten auf deinem Tableau."),
    ("Gaukler", "person", "rv", ("gaukler",),
     "Jedes Jokerplättchen kannst du doppelt nutzen: 2 beliebige AS, 1 beliebigen AS und "
     "3 GM oder 6 GM."),   # R 3.2, Hinweis: the Gaukler's effect as printed there
    ("Müßiggänger", "person", "kv", ("muessig",),
     "Du musst in der Kartenphase keine Karte nehmen."),   # R 1.4: "(Ausnahme Müßiggänger)"
    ("Professor", "person", "by", ("professor",),
     "2. Phase: Für jeden gewählten 1er-Würfel erhältst du 1 GM."),  # R "Haarspalter"
    # Cost reducers (R "Erläuterungen", HANDWERKER: "Archiv, Graf, Kran and Heiler" reduce
    # activation costs and, unlike the Handwerker, work more than once per round).
    # *Reconstructed*: by how much: one cube of one colour per activation, never below 1.
    ("Archiv", "bau", "bv", ("reduce", "v"),
     "Jede Aktivierung kostet dich 1 violetten AS weniger (mindestens 1 AS)."),
    ("Graf", "person", "ry", ("reduce", "y"),
     "Jede Aktivierung kostet dich 1 grauen AS weniger (mindestens 1 AS)."),
    ("Kran", "bau", "gk", ("reduce", "k"),
     "Jede Aktivierung kostet dich 1 schwarzen AS weniger (mindestens 1 AS)."),
    ("Heiler", "person", "bg", ("reduce", "g"),
     "Jede Aktivierung kostet dich 1 grünen AS weniger (mindestens 1 AS)."),
    ("Statue", "bau", "yv", ("end_pp", 3),
     "Spielende: 3 PP."),          # R's end example: Statue brings 3 PP
    ("Schmiede", "bau", "rkk", ("end_pp", 5),
     "Spielende: 5 PP."),          # R's end example: Schmiede brings 5 PP (*reconstructed* as flat)
) + tuple(
    # R "Anhang" names these as cards that bring PP at game end; *reconstructed*: how many
    # (2 to 6, more for dearer cards) and their costs, because no source prints them
    (name, kind, cost, ("end_pp", pp), f"Spielende: {pp} PP.")
    for name, kind, cost, pp in (
        ("Baronesse", "person", "rb", 2), ("Baronesse", "person", "gk", 2),
        ("Baronesse", "person", "yv", 2), ("Gouverneur", "person", "rbgk", 6),
        ("Hebamme", "person", "gv", 2), ("Präfektur", "bau", "bky", 4),
        ("Ratsherr", "person", "rgv", 4), ("Residenz", "bau", "rbyv", 6),
        ("Sitzungssaal", "bau", "kyv", 4), ("Vizegouverneur", "person", "bgy", 4),
    )
) + tuple(
    (f"{good}lager", "bau", cost, ("lager", good),
     f"Für jedes abgelieferte Warenplättchen {good} erhältst du doppelte PP.")
    for good, cost in zip(GOODS, ("rv", "gy", "bk", "gg", "vv", "yb", "kr", "rb"), strict=True)
)  # "alle 8 Lager" (R 3.4) double a delivery's PP (R: "nicht verdoppelt" of Böttcherei)


# -- the twelve cards R names only by the rule they change (data version 2) -------------
# *Reconstructed*, every one: R names these cards in its "Hinweise" as changing one rule
# of the action phase and prints nothing else about them; no public source prints their
# effects (S HEADLINE, T §1).  Each effect below changes exactly the rule R names, in
# the manner of the cards R does print (a short text; once per round unless it says
# "immer wenn"/"jeder"), and its kind (Bauwerk or Person) is our reading of the name.
# Costs are reconstructed like every other cost (1 to 4 cubes, R "Die Spielkarten").
# Entries: name, kind, cost, effect, text, reason.
_RECONSTRUCTED = (
    # R 3.2 and 3.3 name the Brunnen under both the district and the wall rule: the one
    # effect that touches both is a district that moves the disc on the wall.
    ("Brunnen", "bau", "bgv", ("on_district", {"wall": 1}, "any"),
     "Immer wenn du einen Stadtteil in Besitz nimmst, rückt deine Scheibe 1 Feld auf der "
     "Mauer vor (ohne AS; dein Vorrücken in diesem Zug bleibt dir).",
     "R 3.2 and R 3.3 both name it: a district taken moves the disc on the wall"),
    # R 3.3; R "Erläuterungen", TURM: a Turm's owner might want to decline it "um die
    # Vorteile von Kanonier oder Wachposten zu nutzen oder dem Gegner dies zu verwehren".
    # So both reward a disc that lies *under* another: the Turm (always on top) keeps its
    # owner from that reward and gives it to the rivals it covers.
    ("Kanonier", "person", "rk", ("landed_on", {"gold": 1}),
     "Immer wenn eine andere Scheibe auf der Mauer auf deiner landet, erhältst du 1 GM.",
     "R 3.3 and the Turm's note: rewards a disc that another lands on"),
    ("Wachposten", "bau", "yk", ("wall_below", 1),
     "Liegt eine andere Scheibe auf deiner, kostet dich das Vorrücken auf der Mauer 1 AS "
     "weniger.",
     "R 3.3 and the Turm's note: rewards a disc that lies under another"),
    # R 3.3: the price of the wall, 1 cube and then 2 for each further field
    ("Tor", "bau", "ryy", ("wall_cost", 1),
     "Jedes Feld, das du auf der Mauer vorrückst, kostet dich nur 1 AS.",
     "R 3.3 names it: changes the wall's price (2 AS for each further field)"),
    # R 3.2: exact colours, one district per turn, the tile taken
    ("Herold", "person", "rbg", ("district_swap",),
     "Nimmst du einen Stadtteil in Besitz, darf 1 der abgegebenen AS eine beliebige Farbe "
     "haben.",
     "R 3.2 names it: changes 'genau die abgebildeten AS' for one cube"),
    ("Nachtwächter", "person", "kkv", ("on_district", {"pp": 2}, "dark"),
     "Immer wenn du einen dunklen Stadtteil (mit Joker) in Besitz nimmst, erhältst du 2 PP.",
     "R 3.2 names it: a reward for the dark districts (the night's)"),
    ("Spekulant", "person", "rbk", ("on_district", {"gold": 1}, "any"),
     "Immer wenn du einen Stadtteil in Besitz nimmst, erhältst du 1 GM.",
     "R 3.2 names it: gold for each district taken"),
    ("Zimmermann", "person", "gyy", ("districts", 2),
     "Du darfst in deinem Zug bis zu 2 Stadtteile in Besitz nehmen.",
     "R 3.2 names it: changes 'maximal einen Stadtteil' per turn"),
    # R 3.4: 1 cube per field, each harbour counting as a field
    ("Leuchtturm", "bau", "bbv", ("free_harbour",),
     "Du darfst dein Schiff in einen Hafen bewegen, ohne dafür einen AS abzugeben.",
     "R 3.4 names it: a harbour entered without a cube ('jeder Hafen zählt als ein Feld')"),
    ("Schiffsjunge", "person", "b", ("free_move", 0, 3, 1),
     "Gib 1 beliebigen AS ab und bewege dafür dein Schiff um bis zu 3 Felder.",
     "R 3.4 names it: in the manner of the Steuermann, paid with a cube"),
    # R 3.5: once per turn, the tribute's gold for the tribute's PP
    ("Botschaft", "bau", "rbgy", ("tribute_mod", 0, 1),
     "Immer wenn du Prestige aufgrund der Tributleiste erwirbst, erhältst du 1 PP mehr.",
     "R 3.5 names it: the PP side of the tribute, in the manner of the Gesandter"),
    ("Diplomat", "person", "gvv", ("tribute_mod", -1, 0),
     "Immer wenn du Prestige aufgrund der Tributleiste erwirbst, zahlst du 1 GM weniger.",
     "R 3.5 names it: the gold side of the tribute"),
)

#: B/P cards R names whose effect it does not print.  Data version 1 left them out;
#: version 2 has them with the reconstructed effects above (Professor: see _NAMED).
NAMED_WITHOUT_EFFECT = ("Professor",) + tuple(entry[0] for entry in _RECONSTRUCTED)

#: 44 Bauwerke + 52 Personen (R "Spielmaterial").
DECK_SIZE = 96
KIND_COUNT = {"bau": 44, "person": 52}
#: cards whose number R fixes ("alle 8 Lager", R 3.4; "drei Baronessen", R "Anhang"),
#: so a filler never repeats them
FIXED_COUNT = frozenset({f"{good}lager" for good in GOODS} | {"Baronesse"})


def _office_cards() -> list[Card]:
    """The 24 office cards, the same in every data version (ids A1..A24)."""
    out = []
    for n, (colour, k) in enumerate((c, k) for c in COLOURS for k in range(1, 5)):
        pp = 1 if k <= 2 else 2
        out.append(Card(f"A{n + 1}", f"{OFFICE_CATEGORY[colour]} {k}", "amt", colour * k,
                        _TRIBUTE_CYCLE[n % len(_TRIBUTE_CYCLE)], ("gain", {"pp": pp}),
                        f"Du erhältst {pp} PP.", False))
    return out


def _deck_v1() -> list[Card]:
    """Data version 1 (ids K1..K96), kept unchanged for the games that started with it.
    *Reconstructed*: after one of each known card, the deck repeats the buildings and
    the persons in list order until it has 44 and 52."""
    known = list(_PRINTED + _NAMED)
    for kind, target in KIND_COUNT.items():
        same = [entry for entry in _PRINTED + _NAMED if entry[1] == kind]
        known += [same[i % len(same)] for i in range(target - len(same))]
    offset = 24
    return [Card(f"K{i + 1}", name, kind, cost,
                 _TRIBUTE_CYCLE[(offset + i) % len(_TRIBUTE_CYCLE)], effect, text,
                 i < len(_PRINTED))
            for i, (name, kind, cost, effect, text) in enumerate(known)]


def _deck_v2() -> list[Card]:
    """Data version 2 (ids C1..C96): every card R names, once (the Baronesse three
    times, R "Anhang"), the twelve reconstructed ones among them: 33 Bauwerke and 27
    Personen.  *Reconstructed*: the other 11 Bauwerke and 25 Personen of the real deck
    are unknown (no source names them), so the deck repeats the named cards of each
    kind in list order, never a Lager or a Baronesse, to reach 44 and 52."""
    entries = [(name, kind, cost, effect, text, name_i < len(_PRINTED), "")
               for name_i, (name, kind, cost, effect, text) in enumerate(_PRINTED + _NAMED)]
    entries += [(name, kind, cost, effect, text, False, f"reconstructed: {why}")
                for name, kind, cost, effect, text, why in _RECONSTRUCTED]
    for kind, target in KIND_COUNT.items():
        same = [e for e in entries if e[1] == kind]
        fill = [e for e in same if e[0] not in FIXED_COUNT]
        entries += [fill[i % len(fill)][:6]
                    + ("; ".join(filter(None, ("reconstructed: a repeat standing in for an "
                                               "unknown card", fill[i % len(fill)][6]))),)
                    for i in range(target - len(same))]
    offset = 24
    return [Card(f"C{i + 1}", name, kind, cost,
                 _TRIBUTE_CYCLE[(offset + i) % len(_TRIBUTE_CYCLE)], effect, text, printed,
                 note)
            for i, (name, kind, cost, effect, text, printed, note) in enumerate(entries)]


_OFFICES = _office_cards()
_DECKS = {"1-reconstructed": _deck_v1(), "2-reconstructed": _deck_v2()}

#: every card of every data version by id (ids never repeat across versions)
CARDS: dict[str, Card] = {c.id: c for c in _OFFICES}
for _deck in _DECKS.values():
    CARDS.update({c.id: c for c in _deck})
OFFICE_IDS = [c.id for c in _OFFICES]


def cost_cubes(cid: str) -> dict[str, int]:
    """A card's printed cost as cubes by colour."""
    cost = CARDS[cid].cost
    return {c: cost.count(c) for c in set(cost)}


def deck_ids(version: str = DATA_VERSION) -> list[str]:
    """The 96 B/P card ids of a data version, in list order (before shuffling)."""
    if version not in _DECKS:
        raise OptionError(f"Macao has no card data version {version!r}")
    return [c.id for c in _DECKS[version]]


def card_ids(version: str = DATA_VERSION) -> list[str]:
    """All 120 card ids of a data version."""
    return OFFICE_IDS + deck_ids(version)


#: the current version's deck (kept under its old name for callers and tests)
DECK_IDS = deck_ids()


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
    card = CARDS[cid]
    words = _MARK["de" if lang == "de" else "en"]
    which = ("office" if card.kind == "amt" else "printed" if card.printed
             else "invented" if card.note.startswith("reconstructed: ") and
             "repeat standing in" not in card.note.split(";")[0] else "named")
    if card.name in NAMED_WITHOUT_EFFECT:
        which = "invented"
    what = words[which]
    line = words["line"].format(what=what[0].upper() + what[1:])
    return line + (words["repeat"] if "repeat standing in" in card.note else "")
