"""Everything Riga says to people, one table per language, and the names of its cards
as a reader of each language reads them.

``menu``, ``sentences``, ``text`` and ``picture`` each render once and read the
reader's table here (:func:`words`); a new language is one more table.  Buildings and
commodities keep their printed German names in every language (Getreide is printed
"Korn"); English readers get a gloss in brackets where it helps ("Korn (grain)").  An
entry a table leaves out reads in English.
"""

from __future__ import annotations

from typing import Any

from pbem.games.datafile import marked
from pbem.games.language import Words, table_for
from pbem.games.riga import data

DEFAULT_TIMEOUT_NOTE = (
    "On timeout a seat names itself start player, keeps the cheaper of its two "
    "buildings, takes the commodity set of the highest regular value (the first building "
    "of the row when no set lies out), builds nothing and ends its turn; a building "
    "project in progress is cancelled (cards back to hand), a Bauhof draw keeps none, "
    "a Schatzkammer draw keeps its most valuable commodity, a Schule gives a Ritter, an "
    "open Kloster swap or Wechselstube charge is abandoned.  In winter it discards its "
    "commodity of the lowest regular value, a hand building only when no commodity is left; "
    "in the last winter its hand buildings first (each would cost 2 points at the end)."
)

DEFAULT_TIMEOUT_NOTE_DE = (
    "Läuft die Zeit ab, bestimmt ein Spieler sich selbst zum Startspieler, behält das "
    "billigere seiner zwei Gebäude, nimmt die Warenreihe mit dem höchsten Grundwert (das "
    "erste Gebäude der Auslage, wenn keine Reihe ausliegt), baut nichts und beendet seinen "
    "Zug; ein begonnener Bau wird abgebrochen (die Karten kommen zurück auf die Hand), aus "
    "einem Bauhof-Zug behält er keines, aus einem Schatzkammer-Zug die wertvollste Ware, "
    "eine Schule zeigt einen Ritter, ein offener Kloster-Tausch oder ein begonnenes Aufladen "
    "der Wechselstube wird aufgegeben.  Im Winter wirft er seine Ware mit dem niedrigsten "
    "Grundwert ab, ein Gebäude von der Hand nur, wenn er keine Ware mehr hat; im letzten "
    "Winter zuerst seine Gebäude von der Hand (jedes kostete am Ende 2 Punkte)."
)

EN: Words = {
    "code": "en",
    # the lobby (Rules.texts)
    "description": (
        "Card game for 2-4 players over 8 years (9 with 3 players): each turn take a "
        "building or a whole set of commodities from the table, then erect up to three "
        "buildings in Visby, Tallinn, Stockholm and Danzig, paying with commodities whose "
        "value depends on the city. Buildings give victory points, knights and merchants, "
        "money and cheaper building; buildings left in hand cost 2 points each."),
    "default move": DEFAULT_TIMEOUT_NOTE,
    "option kran_abrunden": (
        "Kran rounds down (variant reading)",
        "The rulebook says only that a Kran halves a building's cost. Standard: an odd "
        "cost is rounded up (7 becomes 4); with this option it is rounded down (7 becomes "
        "3)."),
    "option bauhof_nur_stapel": (
        "Bauhof draws from the pile only (variant reading)",
        "Standard: a Bauhof draws 5 buildings, the discard pile shuffled in whenever the "
        "draw pile runs out, and fewer only when both hold fewer. With this option it "
        "draws only what lies on the draw pile (an empty pile is refilled first)."),
    "option riga": (
        "Riga buildings (Riga-Gebäude)",
        "Each player also holds Kloster, Schule, Speicher and Wechselstube face down "
        "and may erect them like other buildings; each one not erected costs 2 points."),
    # the result (sentences.result_lines)
    "tiebreaks": ("money",),
    "result line": ("{seat}: buildings {seals}, Archiv {archiv}, Logen {loge}, buildings in "
                    "hand {hand}, Riga buildings not erected {riga} = {score}; money {money}"),
    # names of cards
    "ware": "{name} ({english})",
    "art": "{art} ({english})",
    "riga building": "{name} (Riga building)",
    "building in": "{name} in {stadt}",
    "facts": "costs {cost}, {points} points",
    # the menu (menu.py): each kind of move as (label, help); a help of None is the
    # building's own line of help
    "menu": {
        "start": ("Make {seat} start player",
                  "The start player takes the first turn of the summer."),
        "keep": ("Keep {name} ({facts})", None),
        "take": ("Take {name} from the row ({facts})", None),
        "build": ("Build {name} ({facts})", None),
        "add": ("Add {name} to this project ({facts})",
                "Buildings of one city are paid together."),
        "choose building": ("Keep {name} ({facts})", None),
        "take set": ("Take set {n}: {cards} (value {value})", "All its cards go to your hand."),
        "choose none": ("Keep none of them", "All drawn buildings are discarded."),
        "choose ware": ("Keep {ware}", "The other drawn commodities are discarded."),
        "kloster": ("Use the Kloster: swap two commodities of two sets", None),
        "from": ("Take a card from set {n} ({cards})", "Choose the sets of the swap one by one."),
        "to": ("Swap with set {n} ({cards})", "Choose the sets of the swap one by one."),
        "give": ("Give {ware}", "The two cards change sets."),
        "get": ("Get {ware}", "The two cards change sets."),
        "pay": ("Pay 1 {ware} (worth {value})",
                "The card is discarded when the building is erected."),
        "finish": ("Erect the building(s): payment complete", "Any surplus is lost (no change)."),
        "cancel charge": ("Cancel: keep the commodities",
                          "The Wechselstube stays at 0; the cards go back to your hand."),
        "cancel": ("Cancel: take the cards back",
                   "Nothing is built; cards and functions stay yours."),
        "school": ("Turn the Schule to 1 {face}", "For good: the Schule gives this person."),
        "charge": ("Charge the Wechselstube (discard commodities worth 6+, ends the turn)", None),
        "discard building": ("Discard {name}",
                             "Down to the hand limit; a building in hand costs 2 at the end."),
        "discard ware": ("Discard 1 {ware} (value {value})", "One card a step."),
        "end": ("End your turn", "Nothing more this turn."),
        "menu": ("Show {name}…", "Opens a smaller menu."),
        "more": ("More…", "The next page of choices."),
        "back": ("Back", "Back to the previous choices."),
    },
    # the functions a project may use (menu.py): label and help
    "use": {
        "Kontor": ("Use a Kontor: +4 Dukaten", "Once per Kontor: 4 Dukaten towards this "
                   "project."),
        "Bank": ("Use a Bank: +{money} Dukaten", "Once per Bank: 2 Dukaten per Kaufmann."),
        "Wirtshaus": ("Use a Wirtshaus: +{money} Dukaten",
                      "Once per Wirtshaus: 2 Dukaten per Ritter."),
        "Kran": ("Use a Kran: halve a building's cost",
                 "Once per Kran: the most expensive building without a Kran costs half, "
                 "rounded up (down with the option 'Kran rounds down')."),
        "Wechselstube": ("Turn the Wechselstube to 0: +8 Dukaten",
                         "Its 8 Dukaten pay towards this project."),
        "Bauhof": ("Use a Bauhof: draw 5 buildings", "Once per Bauhof: keep one of them "
                   "(or none), the rest are discarded."),
        "Schatzkammer": ("Use a Schatzkammer: draw 3 commodities",
                         "Once per Schatzkammer: keep one of them, discard the others."),
    },
    # the groups of the menu, and the folded groups' names
    "group": {"start": "start player", "keep": "building", "take set": "commodities",
              "use": "functions", "pay": "pay", "end": "turn", "menu": "menu"},
    "groups": {"row": "buildings in the row", "sets": "commodity sets",
               "functions": "your buildings' functions",
               "add": "add a building of the same city", "buildings": "buildings in your hand"},
    "build in": "build in {stadt}",
    # the sentences (sentences.py): a move told to every viewer
    "said start": "{me} names {other} start player",
    "said keep": "{me} keeps {building}",
    "said keep secret": "{me} keeps one of two buildings",
    "said all chose": "; all have chosen",
    "said take set": "{me} takes set {n} ({cards})",
    "said take": "{me} takes {building} from the row",
    "said kloster": "{me} uses the Kloster",
    "said from": "{me} picks a card of set {n} for the Kloster swap",
    "said give": "{me} offers {ware} for the Kloster swap",
    "said to": "{me} swaps with set {n}",
    "said get": "{me} swaps {give} of set {i} for {ware} of set {j} with the Kloster",
    "a card": "a card",
    "said draw": "{me} uses {art} and draws {cards}",
    "nothing": "nothing",
    # (English has always said "cards", also for one)
    "cards": ("{n} cards", "{n} cards"),
    "said use": "{me} uses {art}",
    "said choose none": "{me} keeps none of the buildings drawn with the Bauhof",
    "said choose": "{me} keeps {card} from {source}",
    "one card": "one card",
    "said build": "{me} starts building {building}",
    "said add": "{me} adds {building} to the project",
    "said pay": "{me} pays 1 {ware}",
    "said finish": "{me} erects {buildings} (cost {cost}, paid {paid})",
    "and": " and ",
    "said cancel": "{me} cancels",
    "said school": "{me} turns the Schule to 1 {face}",
    "said charge": "{me} begins to charge the Wechselstube",
    "said discard": "{me} discards {card}",
    "a building": "a building",
    "said charged": "{me} discards {ware} and turns the Wechselstube to 8",
    "said end": "{me} ends the turn",
    "said no kloster": "{me} decides not to use the Kloster",
    "said menu": "{me} looks through the menu",
    # a building's art with its article: "a Bauhof" (uses), "the Bauhof" (draws from it)
    "art a": {},
    "art a other": "a {art}",
    "art the": {},
    "art the other": "the {art}",
    "art the accusative": {},
    # the mail's text (text.py)
    "seat": "seat {n}",
    "points": ("{n} point", "{n} points"),
    "building line": "{name}: cost {cost}, {points}; {values}",
    "shows": "; shows {ware}",
    "ducats": "{n} ducats",
    "used": "used",
    "new": "new: counts from the next turn",
    "no wares": "no commodities",
    "commodities": "commodities",
    "buildings": "buildings",
    "no buildings": "buildings: none",
    "view help": "help",
    "final parts": (("seals", "buildings {n}"), ("archiv", "Archiv {n:+d}"),
                    ("loge", "Loge {n:+d}"), ("hand", "buildings in hand {n:+d}"),
                    ("riga", "Riga buildings not erected {n:+d}")),
    "tie money": "; money {money} for a tie",
    "you": "You",
    "sub kloster": ("{who} is using the Kloster", "{who} are using the Kloster"),
    "sub from": ": a card of set {n}",
    "sub to": " for one of set {n}",
    "sub kloster take": (
        "{who} swapped two cards with the Kloster and takes set {i} or set {j}.",
        "{who} swapped two cards with the Kloster and take set {i} or set {j}."),
    "sub school": ("{who} is choosing the Schule's side: Ritter or Kaufmann.",
                   "{who} are choosing the Schule's side: Ritter or Kaufmann."),
    "head over": "Riga, after {years} years: the game is over.",
    "head setup": "Riga, setting up: {years} years to play.",
    "head": "Riga, year {year} of {years}, {season}.",
    "season": {"setup": "setting up", "summer": "summer", "autumn": "autumn",
               "winter": "winter", "spring": "spring", "over": "the end"},
    "with riga": " With the Riga buildings.",
    "doing": {
        "choose_start": "to choose the start player",
        "keep": "to keep one of two buildings (in secret)",
        "take": "to take a building or a commodity set",
        "build": "to erect buildings (or end the turn)",
        "winter": "to discard down to the hand limit",
    },
    "you in list": "you",
    "to move": ("{who} is {doing}.", "{who} are {doing}."),
    "start player": "Start player: {name}.",
    "key": ("Commodities and their regular value: {wares}. On a building, ! marks one worth "
            "more in its city, – one it refuses."),
    "key ware": "{name} ({english}) {value}",
    "row": "Buildings in the row, newest first:",
    "separation": ("  -- separation card: below it, last year's buildings, discarded in "
                   "spring --"),
    "sets": "Commodity sets:",
    "empty": "empty",
    "set line": "  set {n}: {cards} = {value} ducats",
    "piles": ("Piles: commodities {waren} (discard {waren_discard}), buildings {bau} "
              "(discard {bau_discard}), set apart {separated}."),
    "you mark": " (you)",
    "start mark": " [start player]",
    "seat line": ("{title}: {points}; hand {hand} ({wares}, {buildings}); knights {ritter}, "
                  "merchants {kaufleute}{limit}"),
    "wares": ("{n} commodity", "{n} commodities"),
    "building count": ("{n} building", "{n} buildings"),
    "limit": "; hand limit {n} (Speicher)",
    "revealed": "  revealed at the start: {cards} = {value}",
    "display": "  display: ",
    "no display": "no buildings yet",
    "riga left": "  Riga buildings face down: ",
    "other hand": "  hand ",
    "your hand": "Your hand:",
    "keep offer": "Keep one of these two buildings (the other is discarded):",
    "you keep": "You keep {kept} (secret until all have chosen).",
    "you build": "You are building",
    "builds": "{name} is building",
    "building": "Building",
    "project": "{who} {buildings}: cost {cost}, paid {value} ({paid}).",
    "using": "  using ",
    "draw kind": "draw",
    "draw buildings": "Your {kind} draw: keep one of these buildings, or none:",
    "draw wares": "Your {kind} draw, keep one: {cards}.",
    "nothing left": "nothing left to draw",
    "drawing": "{name} is drawing with {source}.",
    "this year": "This year:",
    "final": "Final scoring:",
    # the picture (picture.py)
    "picture": {
        "year": "Riga · year {year} of {years} · {season}",
        "over": "Riga · game over after {years} years",
        "setting up": "Riga · setting up · {years} years to play",
        "setup": "setting up", "summer": "summer", "autumn": "autumn", "winter": "winter",
        "spring": "spring",
        "phase choose_start": "{names}: choose the start player",
        "phase keep": "Keeping a building (in secret): {names}",
        "phase take": "{names}: take a building or a set",
        "phase build": "{names}: erect buildings",
        "phase winter": "Down to the hand limit: {names}",
        "phase reveal": "Revealing commodities",
        "row": "Buildings in the row",
        "below": "separation card: below it, last year's (discarded in spring)",
        "cost": "cost", "points": "pts",
        "sets": "Commodity sets (in ducats)",
        "piles": "Piles: commodities {waren} (discard {waren_discard}) · buildings {bau} "
                 "(discard {bau_discard}) · set apart {separated}",
        "you": "you",
        "score": "{n} pts",
        "hand": "hand {n}: {w}, {g}",
        "ware 1": "{n} commodity", "ware n": "{n} commodities",
        "bau 1": "{n} building", "bau n": "{n} buildings",
        "people": "knights {r} · merchants {k}",
        "limit": "hand limit {n}",
        "nothing": "no buildings yet",
        "riga": "Riga, face down: {ids}",
        "used": "used", "new": "new",
        "revealed": "revealed:",
        "keep offer": "Keep one of these two buildings",
        "kept": "You keep {name} (secret until all have chosen)",
        "drawing": "{name} is drawing with the {kind}",
        "your hand": "Your hand",
        "their hand": "Hand of {name}",
        "no waren": "no commodities",
        "no gebaeude": "no buildings in hand",
        "project": "{who} building {ids} · cost {cost}, paid {paid}",
        "project you": "You are", "project other": "{name} is",
        "kloster": "{name} is using the Kloster", "kloster you": "You are using the Kloster",
        "kloster from": "(a card of set {k})",
        "kloster take": "{name} swapped with the Kloster: takes set {i} or {j}",
        "kloster take you": "You swapped with the Kloster: take set {i} or {j}",
        "school": "{name} is choosing the Schule's side",
        "school you": "Choose the Schule's side: Ritter or Kaufmann",
        "project uses": "using {uses}",
        "draw Bauhof": "Your Bauhof draw: keep one or none: {cards}",
        "draw Schatzkammer": "Your Schatzkammer draw: keep one: {cards}",
        "legend used": "struck through: used · dashed: new this turn · boxed: worth more "
                       "there · –: refused there",
        "legend waren": "regular value",
        "legend riga": "Riga building",
        "final scoring": "Final scoring",
        "final seals": "buildings {n}", "final archiv": "Archiv {n:+d}",
        "final loge": "Loge {n:+d}", "final hand": "in hand {n:+d}",
        "final riga": "Riga not built {n:+d}", "final money": "money {n} (tie-break)",
        "start mark": "Start",
        "to move": "to move",
        # the help of a card that is no building, and of a set (hover, screen readers)
        "ware help": "{name}: regular value {value}",
        "set help": "Set {n}: {cards} = {value} ducats",
        # the places to tap for the steps that act on no card (seat page only)
        "place end": "End turn",
        "place cancel": "Cancel",
        "place none": "Keep none",
        "place more": "More…",
        "place back": "Back",
        "place menu": "{name}…",
    },
}

DE: Words = {
    "code": "de",
    "description": (
        "Kartenspiel für 2-4 Spieler über 8 Jahre (9 zu dritt): In jedem Zug nimmst Du "
        "ein Gebäude oder eine ganze Warenreihe aus der Auslage und baust danach bis zu "
        "drei Gebäude in Visby, Tallinn, Stockholm und Danzig; Du bezahlst mit Waren, "
        "deren Wert von der Stadt abhängt. Gebäude bringen Siegpunkte, Ritter und "
        "Kaufleute, Geld und günstigeres Bauen; jedes Gebäude, das am Ende noch auf der "
        "Hand ist, kostet 2 Siegpunkte."),
    "default move": DEFAULT_TIMEOUT_NOTE_DE,
    "option kran_abrunden": (
        "Kran rundet ab (Variante der Lesart)",
        "Die Regel sagt nur, dass ein Kran die Baukosten eines Gebäudes halbiert. "
        "Standard: ungerade Kosten werden aufgerundet (aus 7 wird 4); mit dieser Option "
        "abgerundet (aus 7 wird 3)."),
    "option bauhof_nur_stapel": (
        "Bauhof zieht nur vom Stapel (Variante der Lesart)",
        "Standard: Ein Bauhof zieht 5 Gebäude; ist der Nachziehstapel leer, wird der "
        "Ablagestapel gemischt, und weniger als 5 gibt es nur, wenn beide zusammen weniger "
        "haben. Mit dieser Option zieht er nur, was auf dem Nachziehstapel liegt (ein "
        "leerer Stapel wird vorher aufgefüllt)."),
    "option riga": (
        "Riga-Gebäude",
        "Jeder Spieler hat außerdem Kloster, Schule, Speicher und Wechselstube verdeckt "
        "vor sich und darf sie wie andere Gebäude bauen; jedes nicht gebaute kostet 2 "
        "Siegpunkte."),
    # the rulebook: "der größte Geldwert"
    "tiebreaks": ("Geldwert",),
    "result line": ("{seat}: Gebäude {seals}, Archiv {archiv}, Logen {loge}, Gebäude auf der "
                    "Hand {hand}, nicht gebaute Riga-Gebäude {riga} = {score}; Geldwert {money}"),
    "ware": "{name}",
    "art": "{art}",
    "riga building": "{name} (Riga-Gebäude)",
    "facts": "kostet {cost}, {points} Siegpunkte",
    "menu": {
        "start": ("{seat} wird Startspieler", "Der Startspieler macht den ersten Zug im Sommer."),
        "keep": ("{name} behalten ({facts})", None),
        "take": ("{name} aus der Auslage nehmen ({facts})", None),
        "build": ("{name} bauen ({facts})", None),
        "add": ("{name} dazunehmen ({facts})", "Gebäude derselben Stadt werden zusammen bezahlt."),
        "choose building": ("{name} auf die Hand nehmen ({facts})", None),
        "take set": ("Reihe {n} nehmen: {cards} (Wert {value})",
                     "Alle ihre Karten kommen auf Deine Hand."),
        "choose none": ("Keines davon nehmen", "Alle gezogenen Gebäude abwerfen."),
        "choose ware": ("{ware} behalten",
                        "Die anderen gezogenen Waren kommen auf den Ablagestapel."),
        "kloster": ("Kloster nutzen: zwei Waren zweier Reihen tauschen", None),
        "from": ("Karte aus Reihe {n} ({cards})", "Die Reihen des Tauschs nacheinander wählen."),
        "to": ("Tauschen mit Reihe {n} ({cards})", "Die Reihen des Tauschs nacheinander wählen."),
        "give": ("{ware} abgeben", "Die beiden Karten wechseln die Reihe."),
        "get": ("{ware} bekommen", "Die beiden Karten wechseln die Reihe."),
        "pay": ("1 {ware} zahlen (Wert {value})", "Die Karte wird beim Bau abgeworfen."),
        "finish": ("Bauen: Bezahlung vollständig", "Überzählige Dukaten verfallen."),
        "cancel charge": ("Abbrechen: Waren behalten",
                          "Die Wechselstube bleibt auf 0; die Karten kommen zurück auf die Hand."),
        "cancel": ("Abbrechen: Karten zurücknehmen",
                   "Nichts wird gebaut; Karten und Funktionen bleiben."),
        "school": ("Schule auf 1 {face} drehen", "Für immer: die Schule zeigt ihn."),
        "charge": ("Wechselstube aufladen (Waren ab Wert 6 abwerfen, beendet den Zug)", None),
        "discard building": ("{name} abwerfen",
                             "Bis zum Handlimit; ein Gebäude auf der Hand kostet am Ende 2 "
                             "Punkte."),
        "discard ware": ("1 {ware} abwerfen (Wert {value})", "Eine Karte je Schritt."),
        "end": ("Zug beenden", "In diesem Zug nichts mehr."),
        "menu": ("{name} zeigen…", "Öffnet ein kleineres Menü."),
        "more": ("Weitere…", "Die nächste Seite."),
        "back": ("Zurück", "Zurück zur vorigen Auswahl."),
    },
    "use": {
        "Kontor": ("Kontor nutzen: +4 Dukaten", "1x je Kontor: 4 Dukaten für diesen Bau."),
        "Bank": ("Bank nutzen: +{money} Dukaten", "1x je Bank: 2 Dukaten je Kaufmann."),
        "Wirtshaus": ("Wirtshaus nutzen: +{money} Dukaten",
                      "1x je Wirtshaus: 2 Dukaten je Ritter."),
        "Kran": ("Kran nutzen: Baukosten halbieren", "1x je Kran: das teuerste Gebäude ohne "
                 "Kran kostet die Hälfte, aufgerundet (abgerundet mit der Option "
                 "„Kran rundet ab“)."),
        "Wechselstube": ("Wechselstube auf 0 drehen: +8 Dukaten",
                         "Ihre 8 Dukaten zahlen für diesen Bau."),
        "Bauhof": ("Bauhof nutzen: 5 Gebäude ziehen", "1x je Bauhof: eines davon (oder "
                   "keines) auf die Hand, den Rest ablegen."),
        "Schatzkammer": ("Schatzkammer nutzen: 3 Waren ziehen",
                         "1x je Schatzkammer: eine davon auf die Hand, den Rest ablegen."),
    },
    "group": {"start": "Startspieler", "keep": "Gebäude", "take set": "Waren",
              "use": "Funktionen", "pay": "bezahlen", "end": "Zug", "menu": "Menü"},
    "groups": {"row": "Gebäude der Auslage", "sets": "Warenreihen",
               "functions": "Funktionen Deiner Gebäude",
               "add": "Gebäude derselben Stadt dazunehmen", "buildings": "Gebäude auf der Hand"},
    "build in": "Gebäude in {stadt} bauen",
    "said start": "{me} bestimmt {other} zum Startspieler",
    "said keep": "{me} behält {building}",
    "said keep secret": "{me} behält eines von zwei Gebäuden",
    "said all chose": "; alle haben gewählt",
    "said take set": "{me} nimmt Reihe {n} ({cards})",
    "said take": "{me} nimmt {building} aus der Auslage",
    "said kloster": "{me} nutzt das Kloster",
    "said from": "{me} wählt für den Tausch mit dem Kloster eine Karte aus Reihe {n}",
    "said give": "{me} bietet {ware} für den Tausch mit dem Kloster an",
    "said to": "{me} tauscht mit Reihe {n}",
    "said get": "{me} tauscht mit dem Kloster {give} aus Reihe {i} gegen {ware} aus Reihe {j}",
    "a card": "eine Karte",
    "said draw": "{me} nutzt {art} und zieht {cards}",
    "nothing": "nichts",
    "cards": ("{n} Karte", "{n} Karten"),
    "said use": "{me} nutzt {art}",
    "said choose none": "{me} behält keines der mit dem Bauhof gezogenen Gebäude",
    "said choose": "{me} behält {card} aus {source}",
    "one card": "eine Karte",
    "said build": "{me} beginnt, {building} zu bauen",
    "said add": "{me} nimmt {building} zum Bauvorhaben dazu",
    "said pay": "{me} zahlt 1 {ware}",
    "said finish": "{me} baut {buildings} (Kosten {cost}, bezahlt {paid})",
    "and": " und ",
    "said cancel": "{me} bricht ab",
    "said school": "{me} dreht die Schule auf 1 {face}",
    "said charge": "{me} beginnt, die Wechselstube aufzuladen",
    "said discard": "{me} wirft {card} ab",
    "a building": "ein Gebäude",
    "said charged": "{me} wirft {ware} ab und dreht die Wechselstube auf 8",
    "said end": "{me} beendet den Zug",
    "said no kloster": "{me} nutzt das Kloster doch nicht",
    "said menu": "{me} blättert im Menü",
    # "einen Bauhof": an art in the accusative with its indefinite article; "dem
    # Bauhof": a drawing building in the dative; "den Bauhof": in the accusative
    "art a": {"Bauhof": "einen Bauhof", "Schatzkammer": "eine Schatzkammer",
              "Kontor": "ein Kontor", "Bank": "eine Bank", "Wirtshaus": "ein Wirtshaus",
              "Kran": "einen Kran", "Wechselstube": "eine Wechselstube"},
    "art a other": "{art}",
    "art the": {"Bauhof": "dem Bauhof", "Schatzkammer": "der Schatzkammer"},
    "art the other": "{art}",
    "art the accusative": {"Bauhof": "den Bauhof", "Schatzkammer": "die Schatzkammer"},
    "seat": "Platz {n}",
    "points": ("{n} Siegpunkt", "{n} Siegpunkte"),
    "building line": "{name}: kostet {cost}, {points}; {values}",
    "shows": "; zeigt {ware}",
    "ducats": "{n} Dukaten",
    "used": "genutzt",
    "new": "neu: zählt ab dem nächsten Zug",
    "no wares": "keine Waren",
    "commodities": "Waren",
    "buildings": "Gebäude",
    "no buildings": "Gebäude: keine",
    "view help": "help_de",
    "final parts": (("seals", "Gebäude {n}"), ("archiv", "Archiv {n:+d}"),
                    ("loge", "Loge {n:+d}"), ("hand", "Gebäude auf der Hand {n:+d}"),
                    ("riga", "nicht gebaute Riga-Gebäude {n:+d}")),
    "tie money": "; Geld {money} bei Gleichstand",
    "you": "Du",
    "sub kloster": ("{who} nutzt das Kloster", "{who} nutzt das Kloster"),
    "sub from": ": eine Karte aus Reihe {n}",
    "sub to": " gegen eine aus Reihe {n}",
    "sub kloster take": (
        "{who} hat mit dem Kloster zwei Karten getauscht und nimmt Reihe {i} oder Reihe {j}.",
        "{who} hast mit dem Kloster zwei Karten getauscht und nimmst Reihe {i} oder Reihe {j}."),
    "sub school": ("{who} wählt die Seite der Schule: Ritter oder Kaufmann.",
                   "{who} wählst die Seite der Schule: Ritter oder Kaufmann."),
    "head over": "Riga, nach {years} Jahren: das Spiel ist zu Ende.",
    "head setup": "Riga, Vorbereitung: {years} Jahre zu spielen.",
    "head": "Riga, Jahr {year} von {years}, {season}.",
    "season": {"setup": "Vorbereitung", "summer": "Sommer", "autumn": "Herbst",
               "winter": "Winter", "spring": "Frühling", "over": "Spielende"},
    "with riga": " Mit den Riga-Gebäuden.",
    "doing": {
        "choose_start": "den Startspieler bestimmen",
        "keep": "eines von zwei Gebäuden behalten (geheim)",
        "take": "ein Gebäude oder eine Warenreihe nehmen",
        "build": "Gebäude bauen (oder den Zug beenden)",
        "winter": "bis zum Handlimit abwerfen",
    },
    "you in list": "Du",
    "to move": ("Am Zug: {who} – {doing}.", "Am Zug: {who} – {doing}."),
    "start player": "Startspieler: {name}.",
    "key": ("Waren und ihr Grundwert: {wares}. Auf einem Gebäude markiert ! eine Ware, die "
            "in seiner Stadt mehr wert ist, – eine, die dort nicht zahlt."),
    "key ware": "{name} {value}",
    "row": "Gebäude in der Auslage, neueste zuerst:",
    "separation": ("  -- Trenn-Karte: darunter die Gebäude des Vorjahres, im Frühling "
                   "abgeworfen --"),
    "sets": "Warenreihen:",
    "empty": "leer",
    "set line": "  Reihe {n}: {cards} = {value} Dukaten",
    "piles": ("Stapel: Waren {waren} (Ablage {waren_discard}), Gebäude {bau} (Ablage "
              "{bau_discard}), abgetrennt {separated}."),
    "you mark": " (Du)",
    "start mark": " [Startspieler]",
    "seat line": ("{title}: {points}; Hand {hand} ({wares}, {buildings}); Ritter {ritter}, "
                  "Kaufleute {kaufleute}{limit}"),
    "wares": ("{n} Ware", "{n} Waren"),
    "building count": ("{n} Gebäude", "{n} Gebäude"),
    "limit": "; Handlimit {n} (Speicher)",
    "revealed": "  zu Beginn aufgedeckt: {cards} = {value}",
    "display": "  Auslage: ",
    "no display": "noch keine Gebäude",
    "riga left": "  Riga-Gebäude verdeckt: ",
    "other hand": "  Hand ",
    "your hand": "Deine Hand:",
    "keep offer": "Behalte eines dieser zwei Gebäude (das andere wird abgeworfen):",
    "you keep": "Du behältst {kept} (geheim, bis alle gewählt haben).",
    "you build": "Du baust",
    "builds": "{name} baut",
    "building": "Bau:",
    "project": "{who} {buildings}: Kosten {cost}, bezahlt {value} ({paid}).",
    "using": "  genutzt: ",
    "draw kind": "Schatzkammer",
    "draw buildings": "Mit {source} gezogen: behalte eines dieser Gebäude oder keines:",
    "draw wares": "Mit {source} gezogen, behalte eine: {cards}.",
    "nothing left": "nichts mehr zu ziehen",
    "drawing": "{name} zieht mit {source}.",
    "this year": "Dieses Jahr:",
    "final": "Schlusswertung:",
    # the lines the rules write in English (sentences.event): "event <key>"
    "event prelim": "{seat} ist vorläufiger Startspieler",
    "event reveals": "{seat} deckt {cards} auf (Wert {value})",
    "event lowest": "{seat} hat die kleinste Summe und bestimmt den Startspieler",
    "event names": "{seat} bestimmt {other} zum Startspieler",
    "event all keep": "Alle behalten eines ihrer zwei Gebäude und werfen das andere ab",
    "event spring": "Jahr {year}: Frühling",
    "event lie out": ("{sets} Warenreihen und {buildings} Gebäude liegen aus; {left} Karten "
                      "bleiben auf dem abgetrennten Stapel"),
    "event winter": "Winter: Handlimit",
    "event new start": "{seat} ist neuer Startspieler",
    "event over": "Das Spiel ist zu Ende: Schlusswertung",
    "event final": ("{seat}: Gebäude {seals}, Archiv {archiv}, Logen {loge}, Hand {hand}, "
                    "Riga {riga}: {total} Siegpunkte (Geld {money})"),
    "event take set": "{seat} nimmt Reihe {n}: {cards}",
    "event take": "{seat} nimmt {buildings}",
    "event kloster": "{seat} nutzt das Kloster: {give} aus Reihe {i} gegen {get} aus Reihe {j}",
    "event draw": "{seat} nutzt {art} und zieht {n} Karten",
    "event keeps none": "{seat} behält keines der gezogenen Gebäude",
    "event keeps building": "{seat} behält eines der gezogenen Gebäude",
    "event keeps ware": "{seat} behält eine der gezogenen Waren",
    "event builds": "{seat} baut {buildings} (Kosten {cost}) und zahlt mit {paid} ({value})",
    "event school": "{seat} dreht die Schule auf 1 {face}",
    "event discards building": "{seat} wirft ein Gebäude ab",
    "event charged": "{seat} wirft {cards} ab und dreht die Wechselstube auf 8",
    "event discards": "{seat} wirft {cards} ab",
    "event ends": "{seat} beendet den Zug",
    "picture": {
        "year": "Riga · Jahr {year} von {years} · {season}",
        "over": "Riga · Spielende nach {years} Jahren",
        "setting up": "Riga · Aufbau · {years} Jahre",
        "setup": "Aufbau", "summer": "Sommer", "autumn": "Herbst", "winter": "Winter",
        "spring": "Frühling",
        "phase choose_start": "{names}: Startspieler bestimmen",
        "phase keep": "Behalten ein Gebäude (geheim): {names}",
        "phase take": "{names}: Gebäude oder Warenreihe nehmen",
        "phase build": "{names}: Gebäude errichten",
        "phase winter": "Auf das Handkartenlimit: {names}",
        "phase reveal": "Waren werden aufgedeckt",
        "row": "Gebäude zur Auswahl",
        "below": "Trennkarte: darunter die vom Vorjahr (im Frühling abgelegt)",
        "cost": "Kosten", "points": "SP",
        "sets": "Warenreihen (in Dukaten)",
        "piles": "Stapel: Waren {waren} (Ablage {waren_discard}) · Gebäude {bau} "
                 "(Ablage {bau_discard}) · beiseite {separated}",
        "you": "du",
        "score": "{n} SP",
        "hand": "Hand {n}: {w}, {g}",
        "ware 1": "{n} Ware", "ware n": "{n} Waren",
        "bau 1": "{n} Gebäude", "bau n": "{n} Gebäude",
        "people": "Ritter {r} · Kaufleute {k}",
        "limit": "Handlimit {n}",
        "nothing": "noch keine Gebäude",
        "riga": "Riga, verdeckt: {ids}",
        "used": "genutzt", "new": "neu",
        "revealed": "aufgedeckt:",
        "keep offer": "Behalte eines dieser zwei Gebäude",
        "kept": "Du behältst {name} (geheim, bis alle gewählt haben)",
        "drawing": "{name} zieht mit dem {kind}",
        "your hand": "Deine Hand",
        "their hand": "Hand von {name}",
        "no waren": "keine Waren",
        "no gebaeude": "keine Gebäude auf der Hand",
        "project": "{who} {ids} · Kosten {cost}, bezahlt {paid}",
        "project you": "Du baust", "project other": "{name} baut",
        "kloster": "{name} nutzt das Kloster", "kloster you": "Du nutzt das Kloster",
        "kloster from": "(eine Karte aus Reihe {k})",
        "kloster take": "{name} hat mit dem Kloster getauscht: nimmt Reihe {i} oder {j}",
        "kloster take you": "Getauscht mit dem Kloster: nimm Reihe {i} oder {j}",
        "school": "{name} wählt die Seite der Schule",
        "school you": "Wähle die Seite der Schule: Ritter oder Kaufmann",
        "project uses": "genutzt: {uses}",
        "draw Bauhof": "Dein Bauhof-Zug: eines oder keines behalten: {cards}",
        "draw Schatzkammer": "Dein Schatzkammer-Zug: eine behalten: {cards}",
        "legend used": "durchgestrichen: genutzt · gestrichelt: neu in diesem Zug · "
                       "umrahmt: dort mehr wert · –: dort nicht verwendbar",
        "legend waren": "Grundwert",
        "legend riga": "Riga-Gebäude",
        "final scoring": "Schlusswertung",
        "final seals": "Gebäude {n}", "final archiv": "Archiv {n:+d}",
        "final loge": "Loge {n:+d}", "final hand": "auf der Hand {n:+d}",
        "final riga": "Riga nicht gebaut {n:+d}", "final money": "Geld {n} (Gleichstand)",
        "start mark": "Start",
        "to move": "am Zug",
        "ware help": "{name}: Grundwert {value}",
        "set help": "Reihe {n}: {cards} = {value} Dukaten",
        "place end": "Zug beenden",
        "place cancel": "Abbrechen",
        "place none": "Keines behalten",
        "place more": "Mehr…",
        "place back": "Zurück",
        "place menu": "{name}…",
    },
}

TABLES = {"en": EN, "de": DE}


def words(lang: str | None) -> Words:
    """The words of ``lang`` (English for a language Riga does not speak)."""
    return table_for(TABLES, lang)


def ware(code: str, lang: str = "en") -> str:
    """``Korn`` (German) or ``Korn (grain)`` (English)."""
    return words(lang)["ware"].format(name=data.WARE_NAME.get(code, code),
                                      english=data.WARE_ENGLISH.get(code, code))


def building(ident: str, lang: str = "en") -> str:
    """``Kran in Visby`` / ``Kran (crane) in Visby``; Riga buildings without a city."""
    w = words(lang)
    # every building of every menu and sentence: once per data version and language
    return data.SETS.active.kept(("building", ident, w["code"]), _building, ident, w)


def _building(ident: str, w: Words) -> str:
    g = data.gebaeude(ident)
    name = w["art"].format(art=g.art, english=data.ART_ENGLISH[g.art])
    if g.stadt == data.RIGA:
        return w["riga building"].format(name=name)
    return w["building in"].format(name=name, stadt=g.stadt)


def building_name(b: Any) -> str:
    """``Festung (Danzig)`` for a building view or id, as the mail and the picture name
    it in every language; a Riga building by its name."""
    if isinstance(b, dict):
        name, stadt = b.get("name") or b.get("art") or b.get("id"), b.get("stadt")
    elif isinstance(b, str) and data.is_building(b):
        g = data.gebaeude(b)
        name, stadt = g.art, g.stadt
    else:
        return str(b)
    return f"{name} ({stadt})" if stadt and stadt != data.RIGA else str(name)


def building_facts(ident: str, lang: str = "en") -> str:
    """``costs 7◇, 4◇ points``: a building's cost and victory points, each with the sign
    when no source prints it (the building's help says what the sign means)."""
    w = words(lang)
    return data.SETS.active.kept(("building_facts", ident, w["code"]), _building_facts,
                                 ident, w)


def _building_facts(ident: str, w: Words) -> str:
    g = data.gebaeude(ident)
    kosten, punkte = data.cost_points_reconstructed(ident)
    return w["facts"].format(cost=marked(str(g.kosten), kosten),
                             points=marked(str(g.punkte), punkte))


def building_help(ident: str, lang: str = "en") -> str:
    """One line of what building ``ident`` does, in ``lang``."""
    return data.help_line(ident, words(lang)["code"])
