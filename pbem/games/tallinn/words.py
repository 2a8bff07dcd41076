"""Everything Tallinn says to people, one table per language, and the names of its cards
and halves as a reader of each language reads them.

``menu``, ``sentences``, ``text`` and ``picture`` each render once and read the
reader's table here (:func:`words`); a new language is one more table.  Estates keep
their printed German names in every language; English readers get a gloss in
brackets ("Ritter (knights)").  Card names stay as printed.  A count is a pair (one,
more) of templates (``pbem.games.language.plural``).  An entry a table leaves out
reads in English.
"""

from __future__ import annotations

from pbem.games.datafile import marked
from pbem.games.language import Words, table_for
from pbem.games.tallinn import data
from pbem.games.tallinn.data import Haelfte

DEFAULT_TIMEOUT_NOTE = (
    "On timeout a seat that must choose a card plays its lowest-numbered hand card "
    "(the Legat last) with the half that shows more persons, the first half on a tie; "
    "a Legat's Wappen holds its contest for the estate that scores most, the first in "
    "the order Kaufleute, Ritter, Mönche on a tie; a seat that may build a tower builds "
    "none."
)

DEFAULT_TIMEOUT_NOTE_DE = (
    "Läuft die Zeit ab, spielt ein Platz, der eine Karte wählen muss, seine Handkarte mit "
    "der niedrigsten Nummer (den Legaten zuletzt), und zwar die Hälfte mit mehr Personen, "
    "bei Gleichstand die erste; das Wappen eines Legaten hält seinen Wettstreit um den "
    "Stand, der am meisten einbringt, bei Gleichstand den ersten in der Reihenfolge "
    "Kaufleute, Ritter, Mönche; ein Platz, der einen Turm bauen darf, baut keinen."
)

EN: Words = {
    # names of estates, cards and halves
    "estate": "{name} ({english})",
    "wappen": "Wappen (imperial arms)",
    "coin": " + coin",
    "legat": "Legat des Kaisers (emperor's legate)",
    "start card": "start card",
    "card": "card {n}",
    "help": data.HELP["en"],
    "and": "and",
    "none": "none",
    # where a tower comes from
    "source": {"display": "display", "hand": "hand"},
    # the lobby (Rules.texts)
    "description": (
        "Card game for 2-4 players: every round all choose an influence card in secret "
        "and which half is active; coins on the active halves start contests for the "
        "Kaufleute, Ritter or Mönche, and whoever held a contest may build a tower. The "
        "final scoring compares every estate and the towers."),
    "default move": DEFAULT_TIMEOUT_NOTE,
    "option legat": (
        "Der Legat des Kaisers (expansion)",
        "Each player also holds the emperor's legate: one of each estate, or a "
        "contest for an estate of your choice with two extra persons. Up to 11 rounds."),
    "option tower_order": (
        "Tower-order variant",
        "Towers are decided one after another in the open: most points first, then "
        "most towers, then seat order, instead of all at once in secret."),
    # the menu (menu.py)
    "play": "Play {card}, active half: {half}",
    "coin contest": ": contest for the {estate}",
    "legat contest": "Contest for the {estate} ({mine} + 2 persons)",
    "group legat": "Legat",
    "no tower": "Build no tower",
    "group tower": "tower",
    "tower from": {"hand": "Tower from your hand", "display": "Tower from your display"},
    # the sentences (sentences.py)
    "said play": "{seat} chooses {card} with {half} active",
    "said play secret": "{seat} chooses a card in secret",
    "said revealed": "; all cards are revealed",
    "said legat": "{seat} holds the Legat's contest for the {estate}",
    "said tower secret": "{seat} decides about a tower in secret",
    "said no tower": "{seat} builds no tower",
    "said tower": "{seat} builds a tower from {card} of their {source}",
    "said tower public": "{seat} builds a tower from their {source}",
    "said towers revealed": "; the tower decisions are revealed",
    # the result (Rules.result)
    "tiebreaks": ["persons on tower cards"],
    "result line": "{seat}: {before} points before the final scoring {sign}{gain} = {score}",
    # the text view (text.py); the view holds each text of a card in each language
    "text field": "text",
    "heading": "Tallinn, round {round} of at most {rounds}.",
    "variants": {"legat": "Der Legat des Kaisers", "tower_order": "tower-order variant"},
    "with variants": " With {variants}.",
    "over": "The game is over.",
    "you": " (you)",
    "seat line": "{name}: {points} points; {hand} in hand, {pile} on the pile; {status}",
    "status": {},
    "persons": "  persons: {counts}",
    "display": "  display: {shown}",
    "start": "{text} (start)",
    "towers": ("{n} tower", "{n} towers"),
    "no towers": "no towers",
    "tower from where": {"display": "from the display", "hand": "from the hand"},
    "face down": "face down",
    "legat line": "  Legat's contest: {estate}",
    "public tower": "  tower decision: {said}",
    "public said": {"none": "none", "display": "display", "hand": "hand"},
    "hand line": "  hand: {hand}",
    "chosen line": "  chosen: card {card}, {text}",
    "your hand": "Your hand:",
    "your hand empty": "Your hand is empty.",
    "you have chosen": "You have chosen card {card} with {text} active (secret until all "
                       "have chosen).",
    "your tower": "Your tower: card {card} from your {source} (secret until all have "
                  "decided).",
    "your no tower": "You build no tower this round (secret until all have decided).",
    "waiting": {"choose": "Still choosing a card: {names}",
                "legat": "Still choosing the Legat's estate: {names}",
                "tower": "Still deciding about a tower: {names}"},
    "tower order": "Tower order (variant): {order}",
    "round of events": "Round {round}:",
    "final": "Final scoring:",
    "final line": "  {name}: {before} {sign}{gain} = {points}; {counts}{bonus}; towers {tower} "
                  "({persons} persons)",
    # the picture (picture.py)
    "picture": {"round": "Round", "of": "of", "points": "pts", "hand": "hand", "pile": "pile",
                "towers": "towers", "you": "you", "over": "Final", "start": "start",
                "legat": "Legat", "legat row": "Your Legat holds a contest for:",
                "chosen": "(chosen in secret this round)"},
}

DE: Words = {
    "estate": "{name}",
    "wappen": "kaiserliches Wappen",
    "coin": " + Münze",
    "legat": "Legat des Kaisers",
    "start card": "Startkarte",
    "card": "Karte {n}",
    "help": data.HELP["de"],
    "and": "und",
    "none": "keine",
    "source": {"display": "Auslage", "hand": "Hand"},
    "description": (
        "Kartenspiel für 2-4 Personen: in jedem Durchgang wählen alle verdeckt eine "
        "Einflusskarte und welche Hälfte aktiv ist; Münzen auf den aktiven Hälften "
        "lösen Wettstreite um die Kaufleute, Ritter oder Mönche aus, und wer einen "
        "Wettstreit gehalten hat, darf einen Turm bauen. Die Schlusswertung "
        "vergleicht jeden Stand und die Türme."),
    "default move": DEFAULT_TIMEOUT_NOTE_DE,
    "option legat": (
        "Der Legat des Kaisers (Erweiterung)",
        "Alle halten zusätzlich den Legaten des Kaisers: je eine Person "
        "jedes Standes, oder ein Wettstreit um einen Stand eigener Wahl mit "
        "zwei Personen mehr. Bis zu 11 Durchgänge."),
    "option tower_order": (
        "Variante Turmreihenfolge",
        "Die Türme werden offen nacheinander entschieden: die meisten "
        "Punkte zuerst, dann die meisten Türme, dann die Sitzordnung, "
        "statt alle zugleich verdeckt."),
    "play": "{card} ausspielen, aktiv: {half}",
    "coin contest": ": Wettstreit der {estate}",
    "legat contest": "Wettstreit der {estate} ({mine} + 2 Personen)",
    "no tower": "Keinen Turm bauen",
    "group tower": "Turm",
    "tower from": {"hand": "Turm aus der Hand", "display": "Turm aus der Auslage"},
    "said play": "{seat} wählt {card}, aktiv: {half}",
    "said play secret": "{seat} wählt verdeckt eine Karte",
    "said revealed": "; alle Karten werden aufgedeckt",
    "said legat": "{seat} hält den Wettstreit des Legaten um die {estate}",
    "said tower secret": "{seat} entscheidet verdeckt über einen Turm",
    "said no tower": "{seat} baut keinen Turm",
    "said tower": "{seat} baut einen Turm: {card} aus der eigenen {source}",
    "said tower public": "{seat} baut einen Turm aus der eigenen {source}",
    "said towers revealed": "; die Turmentscheidungen werden aufgedeckt",
    "tiebreaks": ["Personen auf Turmkarten"],
    "result line": "{seat}: {before} Punkte vor der Schlusswertung {sign}{gain} = {score}",
    "text field": "text_de",
    "heading": "Tallinn, Durchgang {round} von höchstens {rounds}.",
    "variants": {"legat": "Der Legat des Kaisers", "tower_order": "Variante Turmreihenfolge"},
    "with variants": " Mit {variants}.",
    "over": "Das Spiel ist aus.",
    "you": " (du)",
    "seat line": "{name}: {points} Punkte; {hand} auf der Hand, {pile} im Stapel; {status}",
    # a seat's status (``view._status``)
    "status": {
        "done": "fertig",
        "out of cards": "keine Karten mehr",
        "choosing": "wählt",
        "has chosen": "hat gewählt",
        "choosing the Legat's estate": "wählt den Stand des Legaten",
        "waiting": "wartet",
        "deciding about a tower": "entscheidet über einen Turm",
        "has decided about a tower": "hat über einen Turm entschieden",
    },
    "persons": "  Personen: {counts}",
    "display": "  Auslage: {shown}",
    "start": "{text} (Start)",
    "towers": ("{n} Turm", "{n} Türme"),
    "no towers": "keine Türme",
    "tower from where": {"display": "aus der Auslage", "hand": "aus der Hand"},
    "face down": "verdeckt",
    "legat line": "  Wettstreit des Legaten: {estate}",
    "public tower": "  Turmentscheidung: {said}",
    "public said": {"none": "kein Turm", "display": "aus der Auslage", "hand": "aus der Hand"},
    "hand line": "  Hand: {hand}",
    "chosen line": "  gewählt: Karte {card}, {text}",
    "your hand": "Deine Hand:",
    "your hand empty": "Deine Hand ist leer.",
    "you have chosen": "Du hast Karte {card} mit {text} aktiv gewählt (geheim, bis alle "
                       "gewählt haben).",
    "your tower": "Dein Turm: Karte {card} aus deiner {source} (geheim, bis alle entschieden "
                  "haben).",
    "your no tower": "Du baust in diesem Durchgang keinen Turm (geheim, bis alle "
                     "entschieden haben).",
    "waiting": {"choose": "Wählen noch eine Karte: {names}",
                "legat": "Wählen noch den Stand des Legaten: {names}",
                "tower": "Entscheiden noch über einen Turm: {names}"},
    "tower order": "Turmreihenfolge (Variante): {order}",
    "round of events": "Durchgang {round}:",
    "final": "Schlusswertung:",
    "final line": "  {name}: {before} {sign}{gain} = {points}; {counts}{bonus}; Türme {tower} "
                  "({persons} Personen)",
    # the lines the rules write in English ("event …", "final …": sentences.event and
    # sentences.final_line); English reads them as written
    "event no card": "{seat} hat keine Karte mehr und spielt keine",
    "event plays": "{seat} spielt {card}: {half}",
    "event contest": "Wettstreit der {estate}: {seat} hat {mine}{extra}; {parts}; {winner} "
                     "erhält {gained} {points}",
    "event legat extra": " + {n} vom Legaten",
    "points": ("Punkt", "Punkte"),
    "event tower order": "Die Türme werden in dieser Reihenfolge entschieden: {order}",
    "event no tower": "{seat} baut keinen Turm",
    "event tower display": "{seat} baut einen Turm aus einer Karte der Auslage",
    "event tower hand": "{seat} baut einen Turm aus einer Handkarte",
    "event draws": "{who} {draw} eine Karte",
    "draw": ("zieht", "ziehen"),
    "event final scoring": "Niemand hat mehr eine Karte: die Schlusswertung",
    "event final line": "{seat}: Auslage {parts}; Türme {towers}; Schlusswertung {gain}, "
                        "{points} {points_word}",
    "final estate": "{estate} {mine} gegen {other} {theirs}: +{gain}{transfer}",
    "final towers": "Türme: {towers} gegen {other} {theirs}: +{gain}",
    "final no tower": "kein Turm",
    "final pays": ", und {seat} zahlt {n} (mindestens {more} mehr)",
    "final paid": ", zahlt {n} an {seat} (mindestens {fewer} weniger)",
    "picture": {"round": "Runde", "of": "von", "points": "SP", "hand": "Hand",
                "pile": "Stapel", "towers": "Türme", "you": "Du", "over": "Schluss",
                "start": "Start", "legat": "Legat",
                "legat row": "Dein Legat hält einen Wettstreit um:",
                "chosen": "(in dieser Runde verdeckt gewählt)"},
}

TABLES = {"en": EN, "de": DE}


def words(lang: str | None) -> Words:
    """The table of ``lang`` ("de", "de-AT"…), English where Tallinn has none."""
    return table_for(TABLES, lang)


def estate(code: str, lang: str = "en") -> str:
    """``Ritter`` (German) or ``Ritter (knights)`` (English)."""
    return words(lang)["estate"].format(name=data.STAND_NAME[code],
                                        english=data.STAND_ENGLISH[code])


def count(n: int, code: str) -> str:
    """``1 Mönch``, ``2 Mönche``: German names, as on the cards."""
    return f"{n} {data.STAND_SINGULAR[code] if n == 1 else data.STAND_NAME[code]}"


def persons(counts: dict[str, int]) -> str:
    """``2 Mönche, 1 Ritter`` (estates in printed order, none left out but zeros)."""
    parts = [count(counts[s], s) for s in data.STAENDE if counts.get(s)]
    return ", ".join(parts) if parts else "0"


def half_text(half: Haelfte, lang: str = "en") -> str:
    """What a half shows: persons, and a coin or the imperial arms."""
    w = words(lang)
    if half.wappen:
        return w["wappen"]
    return persons(half.persons()) + (w["coin"] if half.muenze else "")


def card_text(nummer: str, lang: str = "en") -> str:
    """``card 7◇: 2 Mönche, 1 Ritter | 2 Mönche, 1 Kaufmann`` (the sign when no source
    prints the card whole)."""
    card = data.karte(nummer)
    return (f"{marked_name(nummer, lang)}: {half_text(card.a, lang)} | "
            f"{half_text(card.b, lang)}")


def marked_name(nummer: str, lang: str = "en") -> str:
    """``card 7◇``: the card's name with the sign when no source prints it whole."""
    return marked(card_name(nummer, lang), data.status(nummer) != data.PRINTED)


def with_mark(text: str, nummer: str, lang: str = "en") -> str:
    """A help ``text`` about card ``nummer``, with the sign's line when no source prints
    the card whole (a help is read alone, so it says what the sign means)."""
    line = data.mark_line(nummer, lang)
    return f"{text} {line}" if line else text


def card_name(nummer: str, lang: str = "en") -> str:
    w = words(lang)
    if nummer == data.LEGAT:
        return w["legat"]
    if nummer in data.STARTKARTEN:
        return w["start card"]
    return w["card"].format(n=nummer)


def half_help(half: Haelfte, lang: str = "en") -> str:
    """One line from the data file on what playing ``half`` does."""
    lines = words(lang)["help"]
    if half.wappen:
        return lines["wappen"]
    if half.muenze:
        return lines["coin"].format(estate=data.STAND_NAME[half.coin_estate() or "K"])
    if half.K == half.R == half.M == 1:
        return lines["legat_persons"]
    return lines["persons"].format(persons=persons(half.persons()))
