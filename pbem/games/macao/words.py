"""Everything Macao says to people, one table per language, and the names of its cards,
cubes and goods as a reader of each language reads them.

``menu``, ``sentences``, ``text`` and ``picture`` each render once and read the
reader's table here (:func:`words`); a new language is one more table.  Card names
stay as printed (German); English adds a gloss in brackets, and its help lines are
written from each card's effect (German: the card's printed text from ``data``).  The
rulebook's abbreviations stay: GM (Goldmünzen), PP (Prestigepunkte).  An entry a table
leaves out reads in English.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from pbem.games.language import Words, table_for
from pbem.games.macao import data

DEFAULT_TIMEOUT_NOTE = (
    "On timeout a seat takes the first card or die on offer, pays or takes cubes the "
    "first way listed, and in the action phase ends its turn (using the cards that only "
    "give prestige or gold, as the menu's end of a turn does)."
)

DEFAULT_TIMEOUT_NOTE_DE = (
    "Läuft die Zeit ab, nimmt ein Spieler die erste angebotene Karte oder den ersten "
    "angebotenen Würfel, gibt oder nimmt Steine auf die erste aufgeführte Weise und beendet "
    "in der Aktionsphase seinen Zug (und nutzt vorher die Karten, die nur Prestige oder GM "
    "bringen, wie das Zugende im Menü)."
)

#: English names of the goods (S §1)
GOODS_EN = {"Lackwaren": "lacquer ware", "Reis": "rice", "Tee": "tea", "Jade": "jade",
            "Seide": "silk", "Papier": "paper", "Porzellan": "porcelain", "Gewürze": "spices"}

#: English glosses of the card names R prints
GLOSS = {
    "Amtsstube": "office room", "Böttcherei": "cooperage", "Edler": "nobleman",
    "Festung": "fortress", "Gericht": "court", "Gesandter": "envoy",
    "Goldsucher": "gold prospector", "Handwerker": "craftsman", "Kapitän": "captain",
    "Kathedrale": "cathedral", "Gaukler": "juggler", "Müßiggänger": "idler",
    "Professor": "professor", "Archiv": "archive", "Graf": "count", "Kran": "crane",
    "Heiler": "healer", "Baronesse": "baroness", "Gouverneur": "governor",
    "Hebamme": "midwife", "Präfektur": "prefecture", "Ratsherr": "councillor",
    "Residenz": "residence", "Sitzungssaal": "council chamber",
    "Vizegouverneur": "vice governor",
    "Palast": "palace", "Pfandleihe": "pawnshop", "Rathaus": "town hall",
    "Schatzkammer": "treasury", "Segelmacherei": "sail maker", "Soldat": "soldier",
    "Steinbruch": "quarry", "Steuermann": "helmsman", "Turm": "tower",
    "Zollstation": "customs house", "Abt": "abbot", "Statue": "statue", "Schmiede": "smithy",
    "Militärwesen": "military", "Justiz": "justice", "Verwaltung": "administration",
    "Finanzen": "finance", "Bau": "building", "Zoll": "customs",
    # the twelve of data version 2 (effects reconstructed, names as R prints them)
    "Brunnen": "fountain", "Kanonier": "gunner", "Tor": "gate", "Wachposten": "sentry post",
    "Herold": "herald", "Nachtwächter": "night watchman", "Spekulant": "speculator",
    "Zimmermann": "carpenter", "Leuchtturm": "lighthouse", "Schiffsjunge": "ship's boy",
    "Botschaft": "embassy", "Diplomat": "diplomat",
}

#: one line of what a card does, in English (German: the card's text from ``data``)
HELP_EN = {
    "gain": "Once per round: {what}.",
    "office_pp": "Once per round: 1 PP per own activated office card „{0}“.",
    "convert": "Once per round: any multiple of: give {give}, take {take}.",
    "colours_pp": "Once per round: give cubes of different colours (up to 6), 1 PP each.",
    "end_pp": "Game end: {0} PP.",
    "palast": "Game end: 2 PP per own activated card that scores at game end (this one too).",
    "turm": "Your disc always lies on top of its stack on the wall.",
    "abt": "Game end: no penalty markers for cards left on your tableau.",
    "boettcherei": "Each goods tile you deliver: 1 PP more.",
    "lager": "Each tile of {0} you deliver: double prestige.",
    "kapitaen": "Once per round: 1 PP if your ship moved at least 2 fields.",
    "amtsstube": "Once per round: 1 PP if you used an office card.",
    "gesandter": "Whenever you buy prestige at the tribute: 1 cube of any colour.",
    "pfandleihe": "Once per round: 1 gold if you received gold this round.",
    "soldat": "Once per round: 1 gold per 4 own markers in the city.",
    "handwerker": "Once per round: your next activation needs its cubes only in your supply.",
    "gaukler": "Each joker counts twice: 2 cubes, 1 cube and 3 gold, or 6 gold.",
    "muessig": "Card phase: you need not take a card.",
    "professor": "Dice phase: 1 gold for each die showing 1 that you take.",
    "reduce": "Each activation costs you 1 {0} cube less (at least 1 cube).",
    "free_move": "Once per round: pay {0} gold, move your ship up to {1} fields for free.",
    "free_move_cube": "Once per round: pay {2} cube(s) of any colour, move your ship up to "
                      "{1} fields for free.",
    "on_district": "Whenever you take a district: {what}.",
    "on_district_dark": "Whenever you take a dark district (with a joker): {what}.",
    "districts": "You may take up to {0} districts in your turn.",
    "district_swap": "Once per round: one cube of a district's cost may be of any colour.",
    "wall_cost": "Each field you advance on the wall costs only {0} cube.",
    "wall_below": "While another disc lies on yours, advancing on the wall costs {0} cube "
                  "less.",
    "landed_on": "Whenever another disc lands on yours on the wall: {what}.",
    "free_harbour": "Once per round: sail into a harbour without paying a cube.",
    "tribute_mod": "Whenever you buy prestige at the tribute: {what}.",
}


def _res(res: dict[str, int]) -> str:
    parts = []
    for key, word in (("gold", "gold"), ("pp", "PP"), ("any", "cube(s) of any colour")):
        if res.get(key):
            parts.append(f"{res[key]} {word}")
    return " and ".join(parts)


def _name_en(cid: str) -> str:
    """``Turm (tower)``; the eight Lager: ``Reislager (rice warehouse)``."""
    card = data.CARDS[cid]
    base = card.name.rsplit(" ", 1)[0] if card.kind == "amt" else card.name
    if card.name.endswith("lager"):
        good = card.name[:-len("lager")]
        return f"{card.name} ({GOODS_EN.get(good, good)} warehouse)"
    gloss = GLOSS.get(base)
    return f"{card.name} ({gloss})" if gloss else card.name


def _help_en(cid: str) -> str:
    """One line of what the card does, written from its effect in ``data``."""
    card = data.CARDS[cid]
    kind, *params = card.effect
    if card.name.endswith("lager"):
        return HELP_EN["lager"].format(f"{params[0]} ({GOODS_EN[params[0]]})")
    if kind == "gain":
        return HELP_EN["gain"].format(what=_res(params[0]))
    if kind == "convert":
        return HELP_EN["convert"].format(give=_res(params[0]), take=_res(params[1]))
    if kind == "free_move" and len(params) > 2:
        return HELP_EN["free_move_cube"].format(*params)
    if kind == "on_district" and params[0].get("wall"):
        return ("Whenever you take a district: your disc moves 1 field on along the wall, "
                "free (your own advance this turn stays yours).")
    if kind == "on_district":
        key = "on_district_dark" if params[1] == "dark" else "on_district"
        return HELP_EN[key].format(what=_res(params[0]))
    if kind == "landed_on":
        return HELP_EN[kind].format(what=_res(params[0]))
    if kind == "reduce":   # the colour by its name, not its letter
        return HELP_EN[kind].format(_COLOUR_EN[params[0]])
    if kind == "tribute_mod":
        gold, pp = params
        what = [f"pay {-gold} gold less" if gold < 0 else "", f"{pp} PP more" if pp else ""]
        return HELP_EN[kind].format(what=" and ".join(w for w in what if w))
    return HELP_EN[kind].format(*params)


_PHASES = ("draft", "start", "cards", "dice", "actions", "over")
_COLOUR_EN = {"r": "red", "b": "blue", "g": "green", "k": "black", "y": "grey", "v": "violet"}

EN: Words = {
    # the lobby (Rules.texts) and the result
    "description": (
        "Strategy game for 2-4 players over 12 rounds: each round everyone takes a card to "
        "their tableau and picks two of six dice, whose cubes arrive on the wind rose a few "
        "rounds later. Cubes activate cards, buy districts of the city, move you on the wall "
        "(the turn order) and sail your ship to deliver goods in Europe. Most prestige wins."),
    "default move": DEFAULT_TIMEOUT_NOTE,
    "tiebreaks": ["place on the wall (higher is further ahead)"],
    "option graf_senkt": (
        "Graf lowers costs (variant reading)",
        "The rulebook names Archiv, Kran and Heiler as the cards that lower activation "
        "costs, and the Graf only among the cards usable more than once a round. Standard: "
        "the Graf lowers no costs. With this option each activation costs 1 grey cube "
        "less, like the other three (at least 1 cube)."),
    "graf help": ("The rulebook names no effect of the Graf (only that it can be used more "
                  "than once a round): it lowers no costs here."),
    # the final scoring (R "Spielende"), in the result and in the text view
    "result line": ("{seat}: {before} PP, -{penalty} x {penalties} penalty markers, "
                    "+{end_cards} end cards, +{area} largest area = {total}"),
    "final": "Final: {before} PP − {penalty} × {penalties} + {end_cards} end cards + "
             "{area} city = {total}",
    # cards, cubes, goods
    "card name": {cid: _name_en(cid) for cid in data.CARDS},
    # a card's help (``card_help``) is written from the data version being played
    "code": "en",
    "colour": _COLOUR_EN,
    "good": {g: f"{g} ({GOODS_EN[g]})" for g in data.GOODS},
    # the menu (menu.py): a move's label, by its kind
    "take": "Take card: {card}", "discard": "Discard: {card}",
    "activate": "Activate: {card}", "use": "Use: {card}", "use times": "Use: {card} x{times}",
    "one": "1 cube to the 1-field: {colour}", "two": "2 cubes to the 2-field: {colour}",
    "die": "die: {colour}", "pay": "Pay: {cubes}", "gain": "Take: {cubes}",
    "give": "Give: {colour}",
    # an action with its payment (with), and what a payment's choice says
    "with pay": "{action}, paying {cubes}", "with gain": "{action}, taking {cubes}",
    "cubes n": ("{n} cube", "{n} cubes"), "and": " and ", "nothing": "nothing",
    "pay help": "Still owed: {owed}. Then owed: {rest}; left in your supply: {left}.",
    "gain help": "Still to take: {owed} of any colour. Then to take: {rest}.",
    "with pay help": "Costs {owed} of any colour, chosen where colours make no "
                     "difference; left in your supply: {left}.",
    "with gain help": "Gives {owed} of any colour; your supply then: {left}.",
    "end": "End turn", "finish": "End turn, first using the cards that give prestige or gold",
    "finish help": "Uses {cards}, then ends the turn; unused cubes are lost.",
    "said finish": "{seat} uses {cards} and ends the turn",
    "deliver": "Deliver goods", "tribute": "Buy prestige", "done": "Done",
    "back": "Back", "skip": "No card (Müßiggänger, idler)",
    "joker": "Use joker: {what}", "joker use": {"gold": "gold", "cube": "cube", "mixed": "mixed"},
    "show": "Show: {group} {page}", "group": {g: g for g in (
        "activate", "city", "wall", "ship", "tribute", "use", "joker")},
    "district": "District: {number}", "row": "Districts, row: {row}",
    "wall": "Wall, fields on: {fields}", "sail": "Sail to: {field}",
    # the sentences (sentences.py)
    "said": "{seat}: {label}", "round begins": "; round {round} begins", "rolled": "; dice: ",
    "said pay": "{seat} pays {cubes}", "said gain": "{seat} takes {cubes}",
    "said wall": ("{seat} moves 1 field along the wall",
                  "{seat} moves {fields} fields along the wall"),
    "said with pay": "{said}, paying {cubes}", "said with gain": "{said}, taking {cubes}",
    "owed view": "Still owed by {name}: {owed} of any colour",
    "to take view": "Still to take for {name}: {owed} of any colour",
    # the text view (text.py)
    "title": "Macao, round {r} of {n}, phase {p}", "over": "Macao, game over",
    "phase": {p: p for p in _PHASES},
    "order": "Wall order", "tribute view": "Tribute: {g} gold for {p} PP",
    "offer": "On offer", "dice": "Dice", "to move": "To move",
    "seat": "{name}: {pp} PP, {gold} gold, {pen} penalty markers, wall field {wall}, "
            "largest area {area}",
    "rose": "wind rose (0 = arrow, the action supply)", "tableau": "tableau",
    "active": "activated", "ship": "ship at {at}, cargo: {cargo}, jokers: {jokers}",
    "spent": "spent this round", "spent used": "used {cards}",
    "spent district": "districts taken: {n}", "spent wall": "advanced on the wall",
    "spent tribute": "tribute bought", "spent moved": "ship moved {n} fields",
    "city": "City, owned districts", "harbours": "Harbours (spaces, highest first)",
    "free": "free",
    # the picture (picture.py)
    "picture": {
        "round": "Round", "tribute": "Tribute: {g} gold → {p} PP",
        "deck": "deck: {n} cards", "to_move": "To move: {names}",
        "dice": "Dice", "offer": "On offer", "offices": "office cards",
        "prestige": "Prestige", "gold": "gold", "penalties": "penalty markers",
        "area": "largest area", "final": "final", "wall": "City wall (turn order)",
        "order": "Order: {names}", "city": "City", "sea": "Sea", "harbours": "Harbours",
        "free": "free", "you": "you", "cargo": "cargo", "jokers": "jokers",
        "ship": "ship", "rose": "Wind rose (cubes by die field)", "arrow": "supply",
        "tableau": "tableau", "active": "activated", "none": "–", "legend": "Players",
        "cubes": "Cubes",
        # the help (a title: hover, long press, screen readers) of the picture's places
        "tribute help": "Tribute: buy prestige once per turn, {g} gold for {p} PP",
        "die help": "Die {colour}: {value}", "cube help": "Cubes: {colour}",
        "wall help": "Wall field {n}", "row help": "City, districts {first}–{last}",
        "district help": "District {n}: costs {cost}",
        "sea help": "Sea field {field}", "harbour help": "{harbour}: takes {good}, "
                                                        "spaces {values} PP",
        "you help": "{name}: your seat", "end turn": "End turn", "jokers help": "Jokers: {n}",
        "rose help": "Wind rose, field {n}", "supply help": "Action supply: {n} {colour}"},
    "picture phase": {"draft": "draft", "start": "start cubes", "cards": "cards",
                      "dice": "dice", "actions": "actions", "over": "game over"},
    #: the letter on a cube, which makes its colour readable without colour
    "letter": {"r": "R", "b": "B", "g": "G", "k": "K", "y": "Gy", "v": "V"},
    #: the players' colours in seat order (R: Orange, Weiß, Gelb, Braun)
    "seat colour": ("orange", "white", "yellow", "brown"),
    "good short": {"Lackwaren": "lacquer", "Reis": "rice", "Tee": "tea", "Jade": "jade",
                   "Seide": "silk", "Papier": "paper", "Porzellan": "porcelain",
                   "Gewürze": "spices"},
}

#: German as the rulebook says it (R: AS, GM, PP)
DE: Words = {
    "description": (
        "Strategiespiel für 2-4 Spieler über 12 Runden: Jede Runde nimmt jeder eine Karte "
        "in sein Tableau und wählt zwei von sechs Würfeln, deren Steine einige Runden "
        "später auf der Windrose ankommen. Mit den Steinen aktivierst du Karten, kaufst "
        "Stadtteile, rückst auf der Mauer vor (der Zugreihenfolge) und segelst dein "
        "Schiff, um Waren in Europa abzuliefern. Das meiste Prestige gewinnt."),
    "default move": DEFAULT_TIMEOUT_NOTE_DE,
    # the rulebook: "wer auf der Mauer weiter vorne ist"
    "tiebreaks": ["Platz auf der Mauer (höher ist weiter vorne)"],
    "option graf_senkt": (
        "Graf senkt Kosten (Variante der Lesart)",
        "Die Regel nennt Archiv, Kran und Heiler als die Karten, die Aktivierungskosten "
        "senken, und den Graf nur unter den Karten, die mehrmals pro Runde wirken. "
        "Standard: Der Graf senkt keine Kosten. Mit dieser Option kostet jede Aktivierung "
        "1 grauen AS weniger, wie bei den anderen dreien (mindestens 1 AS)."),
    "graf help": ("Die Regel nennt keine Wirkung des Grafen (nur, dass er mehrmals pro "
                  "Runde genutzt werden kann): Er senkt hier keine Kosten."),
    "result line": ("{seat}: {before} PP, -{penalty} x {penalties} Strafmarker, "
                    "+{end_cards} Spielende-Karten, +{area} größtes Gebiet = {total}"),
    "final": "Endstand: {before} PP − {penalty} × {penalties} + {end_cards} Spielende-"
             "Karten + {area} Stadt = {total}",
    "card name": {cid: card.name for cid, card in data.CARDS.items()},
    "code": "de",
    "colour": {"r": "rot", "b": "blau", "g": "grün", "k": "schwarz", "y": "grau",
               "v": "violett"},
    "good": {g: g for g in data.GOODS},
    "take": "Karte nehmen: {card}", "discard": "Abwerfen: {card}",
    "activate": "Aktivieren: {card}", "use": "Nutzen: {card}",
    "use times": "Nutzen: {card} x{times}",
    "one": "1 Stein aufs 1er-Feld: {colour}", "two": "2 Steine aufs 2er-Feld: {colour}",
    "die": "Würfel: {colour}", "pay": "Abgeben: {cubes}", "gain": "Nehmen: {cubes}",
    "give": "Abgeben: {colour}",
    "with pay": "{action}, bezahlt mit {cubes}", "with gain": "{action}, dazu {cubes} nehmen",
    "cubes n": ("{n} Stein", "{n} Steine"), "and": " und ", "nothing": "nichts",
    "pay help": "Noch zu zahlen: {owed}. Danach noch: {rest}; im Vorrat bleiben: {left}.",
    "gain help": "Noch zu nehmen: {owed} beliebiger Farbe. Danach noch: {rest}.",
    "with pay help": "Kostet {owed} beliebiger Farbe, gewählt, wo die Farbe keinen "
                     "Unterschied macht; im Vorrat bleiben: {left}.",
    "with gain help": "Bringt {owed} beliebiger Farbe; dein Vorrat danach: {left}.",
    "end": "Zug beenden",
    "finish": "Zug beenden, vorher die Karten nutzen, die Prestige oder GM bringen",
    "finish help": "Nutzt {cards} und beendet dann den Zug; übrige Steine verfallen.",
    "said finish": "{seat} nutzt {cards} und beendet den Zug",
    "deliver": "Waren abliefern", "tribute": "Prestige erwerben",
    "done": "Fertig", "back": "Zurück", "skip": "Keine Karte (Müßiggänger)",
    "joker": "Joker nutzen: {what}",
    "joker use": {"gold": "GM", "cube": "Stein", "mixed": "GM und Stein"},
    "show": "Zeige: {group} (Seite {page_1})",
    "group": {"activate": "Karten aktivieren", "city": "Stadt", "wall": "Mauer",
              "ship": "Schiff", "tribute": "Tribut", "use": "Karten nutzen", "joker": "Joker"},
    "district": "Stadtteil: {number}", "row": "Stadtteile, Reihe: {row}",
    "wall": "Mauer, Felder vor: {fields}", "sail": "Segeln nach: {field}",
    "said": "{seat}: {label}", "round begins": "; Runde {round} beginnt", "rolled": "; Würfel: ",
    "said pay": "{seat} zahlt {cubes}", "said gain": "{seat} nimmt {cubes}",
    "said wall": ("{seat} rückt 1 Feld auf der Mauer vor",
                  "{seat} rückt {fields} Felder auf der Mauer vor"),
    "said with pay": "{said}, bezahlt mit {cubes}", "said with gain": "{said} und nimmt {cubes}",
    "owed view": "Noch zu zahlen für {name}: {owed} beliebiger Farbe",
    "to take view": "Noch zu nehmen für {name}: {owed} beliebiger Farbe",
    "title": "Macao, Runde {r} von {n}, Phase {p}", "over": "Macao, Spielende",
    "phase": {"draft": "Startkarten", "start": "Startsteine", "cards": "Karten",
              "dice": "Würfel", "actions": "Aktionen", "over": "Spielende"},
    "order": "Mauerreihenfolge", "tribute view": "Tribut: {g} GM für {p} PP",
    "offer": "Auslage", "dice": "Würfel", "to move": "Am Zug",
    "seat": "{name}: {pp} PP, {gold} GM, {pen} Strafmarker, Mauerfeld {wall}, "
            "größtes Gebiet {area}",
    "rose": "Windrose (0 = Pfeil, der Aktionsvorrat)", "tableau": "Tableau",
    "active": "aktiviert", "ship": "Schiff auf {at}, Ladung: {cargo}, Joker: {jokers}",
    "spent": "in dieser Runde genutzt", "spent used": "Karten genutzt: {cards}",
    "spent district": "Stadtteile genommen: {n}", "spent wall": "auf der Mauer vorgerückt",
    "spent tribute": "Tribut gekauft", "spent moved": "Schiff {n} Felder bewegt",
    "city": "Stadt, Stadtteile in Besitz", "harbours": "Häfen (Ablagefelder, höchstes zuerst)",
    "free": "frei",
    "picture": {
        "round": "Runde", "tribute": "Tribut: {g} GM → {p} PP",
        "deck": "Stapel: {n} Karten", "to_move": "Am Zug: {names}",
        "dice": "Würfel", "offer": "Auslage", "offices": "Ämterkarten",
        "prestige": "Prestige", "gold": "GM", "penalties": "Strafmarker",
        "area": "größtes Gebiet", "final": "Endstand", "wall": "Stadtmauer (Reihenfolge)",
        "order": "Reihenfolge: {names}", "city": "Stadt", "sea": "Meer",
        "harbours": "Häfen", "free": "frei", "you": "du", "cargo": "Ladung",
        "jokers": "Joker", "ship": "Schiff", "rose": "Windrose (AS je Würfelfeld)",
        "arrow": "Vorrat", "tableau": "Tableau", "active": "aktiviert", "none": "–",
        "legend": "Spieler", "cubes": "AS",
        "tribute help": "Tribut: einmal je Zug Prestige erwerben, {g} GM für {p} PP",
        "die help": "Würfel {colour}: {value}", "cube help": "AS: {colour}",
        "wall help": "Mauerfeld {n}", "row help": "Stadt, Stadtteile {first}–{last}",
        "district help": "Stadtteil {n}: kostet {cost}",
        "sea help": "Meeresfeld {field}", "harbour help": "{harbour}: nimmt {good}, "
                                                          "Ablagefelder {values} PP",
        "you help": "{name}: dein Platz", "end turn": "Zug beenden", "jokers help": "Joker: {n}",
        "rose help": "Windrose, Feld {n}", "supply help": "Aktionsvorrat: {n} {colour}"},
    "picture phase": {"draft": "Startkarten", "start": "Startsteine", "cards": "Karten",
                      "dice": "Würfel", "actions": "Aktionen", "over": "Spielende"},
    "letter": {"r": "R", "b": "B", "g": "G", "k": "S", "y": "Gr", "v": "V"},
    "seat colour": ("orange", "weiß", "gelb", "braun"),
    "good short": {g: g for g in data.GOODS},
}

TABLES = {"en": EN, "de": DE}


def words(lang: str | None) -> Words:
    """The table of the reader's language (English for what it leaves out)."""
    return table_for(TABLES, lang)


def card_name(cid: str, lang: str = "en") -> str:
    """``Turm`` (German) or ``Turm (tower)`` (English)."""
    return words(lang)["card name"][cid]


def card_help(cid: str, lang: str = "en", graf_senkt: bool = True) -> str:
    """One line of what the card does (a Graf's as the game reads it: ``graf_senkt``,
    see ``rules.graf_senkt``)."""
    return card_help_in(words(lang), cid, graf_senkt)


def card_help_in(w: Words, cid: str, graf_senkt: bool = True) -> str:
    """``card_help`` from the words table ``w``."""
    if not graf_senkt and data.CARDS[cid].name == "Graf":
        return w["graf help"]
    return _card_help(cid, w["code"], data.SETS.active.version)


def card_text_in(w: Words, cid: str, graf_senkt: bool = True) -> str:
    """What the card does, without the line about its reconstructed values: for the
    table in words, which marks the card's name and ends with the sign's note once."""
    if not graf_senkt and data.CARDS[cid].name == "Graf":
        return w["graf help"]
    return _card_text(cid, w["code"], data.SETS.active.version)


@lru_cache(maxsize=4096)
def _card_text(cid: str, lang: str, version: str) -> str:
    """A card's effect in ``lang``, written from the active data ``version`` (the cache's
    key): an operator's corrected effect or text reads as corrected, the shipped as
    shipped."""
    return _help_en(cid) if lang == "en" else data.CARDS[cid].text


@lru_cache(maxsize=4096)
def _card_help(cid: str, lang: str, version: str) -> str:
    """A card's help in ``lang`` with the mark of its reconstructed values
    (``data.mark_line``), written from the active data ``version``."""
    return f"{_card_text(cid, lang, version)} {data.mark_line(cid, lang)}"


def cubes(pool: dict[str, int], w: Words) -> str:
    """``2 rot, 1 blau``: cubes by colour, the colours named (not only shown)."""
    cost = "".join(c * n for c, n in pool.items())
    return ", ".join(f"{cost.count(c)} {w['colour'][c]}" for c in data.COLOURS
                     if c in cost) or "-"


def count(n: int, w: Words) -> str:
    """``1 cube``, ``5 cubes`` in the reader's words."""
    one, many = w["cubes n"]
    return (one if n == 1 else many).format(n=n)


def cubes_said(pool: dict[str, int], w: Words) -> str:
    """``3 red and 2 violet``: cubes as a sentence names them."""
    return listed([f"{pool[c]} {w['colour'][c]}" for c in data.COLOURS if pool.get(c)], w)


def listed(parts: list[str], w: Words) -> str:
    """``a, b and c`` in the reader's words."""
    if len(parts) <= 1:
        return "".join(parts) or w["nothing"]
    return ", ".join(parts[:-1]) + w["and"] + parts[-1]


def pool_text(pool: dict[str, int], lang: str = "en") -> str:
    return cubes(pool, words(lang))


def colour(code: str, lang: str = "en") -> str:
    return words(lang)["colour"][code]


def good(name: str, lang: str = "en") -> str:
    return words(lang)["good"][name]


def final_terms(final: dict[str, Any]) -> dict[str, Any]:
    """What a seat's final scoring line says (R "Spielende"), for the words' ``result
    line`` and ``final``: its numbers and the penalty per marker."""
    return {"before": final["before"], "penalty": data.PENALTY,
            "penalties": final["penalties"], "end_cards": final["end_cards"],
            "area": final["area"], "total": final["total"]}
