"""Everything Visby says to people, one table per language.

``menu``, ``sentences``, ``text`` and ``picture`` each render once and read the
reader's table here (:func:`words`); a new language is one more table.  Card and track
names stay as printed (German) in every language; English adds the card's English
word in the menu, since an English reader cannot guess what a Zöllner is.  A count is
a pair (one, more) of templates, read by :func:`count`.  An entry a table leaves out
reads in English.
"""

from __future__ import annotations

from pbem.games.language import ENGLISH, Words, code, plural, table_for
from pbem.games.visby.data import KARTENTEXT

DEFAULT_TIMEOUT_NOTE = (
    "On timeout a seat that must choose plays a card that changes nothing for the others: "
    "its Bettelmönch, else its Schmied, else its Zöllner (their goods and seals come from "
    "the supply, and no rival's card counts them; a Zöllner's seals could at most end the "
    "game sooner). Only a seat that has none of the three left plays, in this order, "
    "Schiff, Ritter, Flotte, Truppen or Kaufmann. A merchant who must trade stops "
    "trading ('done')."
)

DEFAULT_TIMEOUT_NOTE_DE = (
    "Läuft die Zeit ab, spielt ein Platz, der wählen muss, eine Karte, die für die anderen "
    "nichts ändert: seinen Bettelmönch, sonst seinen Schmied, sonst seinen Zöllner (ihre "
    "Waren und Siegel kommen aus dem Vorrat, und keine fremde Karte zählt sie; die Siegel "
    "eines Zöllners könnten das Spiel höchstens früher beenden). Nur ein Platz, der keine "
    "der drei mehr hat, spielt in dieser Reihenfolge Schiff, Ritter, Flotte, Truppen oder "
    "Kaufmann. Ein Kaufmann, der handeln muss, beendet den Handel."
)

EN: Words = {
    # counts
    "seal": ("{n} seal", "{n} seals"),
    "good": ("{n} good", "{n} goods"),
    "and": "and",
    "none": "none",
    "no rate": "none",
    # the lobby (Rules.texts)
    "description": (
        "Card game for 2-6 players: all choose action cards in secret, then the cards "
        "resolve in the printed order Truppen, Ritter, Schmied, Flotte, Schiff, Zöllner, "
        "Kaufmann, Bettelmönch. First to the target of seals ends the round and the game."),
    "default move": DEFAULT_TIMEOUT_NOTE,
    "option target": (
        "Seals that end the game",
        "30 is the standard game; the rulebook recommends 45 for 2 or 3 experienced "
        "players."),
    # the menu (menu.py)
    "group play": "Your card",
    "group trade": "Trade at the Markt",
    "play": "Play {card} ({gloss})",
    "gloss": {card: text.gloss for card, text in KARTENTEXT.items()},
    "card help": {card: text.en for card, text in KARTENTEXT.items()},
    "trade": "Trade {goods} for {seals}",
    "trade help": "At the Markt rate {rate}; you have {have}.",
    # beside a rate no source prints (the sign of pbem.games.datafile): a help names
    # what is reconstructed in its own line; the text view ends with the sign's note
    "mark rate": "{mark} Rate reconstructed: printed in no public source, chosen by pbem "
                 "to fit the rulebook.",
    "mark fields": "{mark} Markt fields {fields} reconstructed: printed in no public source, "
                   "chosen by pbem to fit the rulebook.",
    "done": "Stop trading",
    "done help": "You trade no more this round.",
    # the sentences (sentences.py)
    "said play": "{seat} chooses {card}",
    "said play secret": "{seat} chooses a card in secret",
    "said trade": "{seat} trades {goods} for {seals}",
    "said done": "{seat} is done trading",
    # the result (Rules.result)
    "tiebreaks": ["goods left over after the 3:1 conversion", "cards in hand"],
    "result line": "{seat}: {seals} + {converted} for {goods} at 3:1 = {score}",
    # the text view (text.py)
    "heading": "Visby, round {round}. Game ends at {target} seals.",
    "board": "Board: Feldzug {feldzug}, Handelsfahrt {handelsfahrt}, Markt field {field} "
             "(rate {kurs}).",
    "no exchange": "no exchange",
    "seat line": "{name}  {seals:>2} seals  {goods:>2} goods  {hand} cards in hand{status}",
    "status choosing": "  - choosing ({chosen}/{per_round} chosen)",
    "status trading": "  - trading",
    "discard": "discard",
    "hand": "hand",
    "chosen": "chosen",
    "your hand": "Your hand: {cards}",
    "you have chosen": "You have chosen: {cards} (secret until all have chosen)",
    "round of events": "Round {round}:",
    "rates": "Rates at or below the purse: {rates}",
    "final": "Final seals (goods converted 3:1):",
    "final line": "  {name}: {seals} ({rest_goods} left over)",
    # the lines a round's resolution writes ("event …", sentences.event): English reads
    # them as the rules wrote them, so only other languages have them
    # the picture (picture.py)
    "picture round": "Visby · round {round} · to {target} seals",
    "picture over": "Visby · round {round} · game over",
    "picture Feldzug": "Feldzug: {n} for Truppen, Ritter",
    "picture Handelsfahrt": "Handelsfahrt: {n} for Flotte, Schiff",
    "picture Markt": "Markt: purse on field {n}, rate {kurs} goods:seals",
    "picture Markt no rate": "Markt: purse on field {n}, no exchange",
    "picture hand": "in hand",
    "you": "you",
    "picture choosing": "choosing ({k} of {n})",
    "picture chosen": "has chosen",
    "picture trading": "trading",
    "picture revealed": "revealed in round {r}: {cards}",
    "nothing": "nothing yet",
    "waiting choose": "Still choosing: {names}",
    "waiting trade": "Still trading: {names}",
    "picture final": "final {n}",
    "picture your row": "Your row: your seals and goods",
    "picture chosen card": "chosen",
}

DE: Words = {
    "seal": ("{n} Siegel", "{n} Siegel"),
    "good": ("{n} Ware", "{n} Waren"),
    "and": "und",
    "none": "keine",
    "description": (
        "Kartenspiel für 2-6 Personen: alle wählen verdeckt Aktionskarten, dann "
        "werden die Karten in der gedruckten Reihenfolge Truppen, Ritter, Schmied, "
        "Flotte, Schiff, Zöllner, Kaufmann, Bettelmönch ausgewertet. Wer zuerst die "
        "Zielzahl an Siegeln erreicht, beendet den Durchgang und das Spiel."),
    "default move": DEFAULT_TIMEOUT_NOTE_DE,
    "option target": (
        "Siegel, mit denen das Spiel endet",
        "30 ist das Standardspiel; die Spielregel empfiehlt 45 für 2 oder 3 erfahrene "
        "Personen."),
    "group play": "Deine Karte",
    "group trade": "Handel am Markt",
    "play": "{card} ausspielen",
    "card help": {card: text.de for card, text in KARTENTEXT.items()},
    "trade": "{goods} gegen {seals} tauschen",
    "trade help": "Kurs {rate} am Markt; du hast {have}.",
    "mark rate": "{mark} Kurs rekonstruiert: in keiner öffentlichen Quelle gedruckt, von "
                 "pbem passend zur Spielregel gewählt.",
    "mark fields": "{mark} Marktfelder {fields} rekonstruiert: in keiner öffentlichen Quelle "
                   "gedruckt, von pbem passend zur Spielregel gewählt.",
    "done": "Handel beenden",
    "done help": "Du tauschst in diesem Durchgang nicht mehr.",
    "said play": "{seat} wählt {card}",
    "said play secret": "{seat} wählt verdeckt eine Karte",
    "said trade": "{seat} tauscht {goods} gegen {seals}",
    "said done": "{seat} beendet den Handel",
    # the rulebook: "die höhere Anzahl an Restwaren", "mehr verbliebenen Handkarten"
    "tiebreaks": ["Restwaren nach dem Umtausch 3:1", "verbliebene Handkarten"],
    "result line": "{seat}: {seals} + {converted} für {goods} zu 3:1 = {score}",
    "heading": "Visby, Durchgang {round}. Das Spiel endet bei {target} Siegeln.",
    "board": "Spielplan: Feldzug {feldzug}, Handelsfahrt {handelsfahrt}, Markt Feld {field} "
             "(Kurs {kurs}).",
    "no exchange": "kein Tausch",
    "seat line": "{name}  {seals:>2} Siegel  {goods:>2} Waren  {hand} Karten auf der "
                 "Hand{status}",
    "status choosing": "  - wählt ({chosen}/{per_round} gewählt)",
    "status trading": "  - handelt",
    "discard": "Ablage",
    "hand": "Hand",
    "chosen": "gewählt",
    "your hand": "Deine Hand: {cards}",
    "you have chosen": "Du hast gewählt: {cards} (geheim, bis alle gewählt haben)",
    "round of events": "Durchgang {round}:",
    "rates": "Kurse bis zum Geldbeutel: {rates}",
    "final": "Siegel am Ende (Waren 3:1 umgetauscht):",
    "final line": "  {name}: {seals} ({rest_goods} übrig)",
    "event reveals": "{seat} deckt {cards} auf",
    "event takes": "{card}: {seat} nimmt {amount} {from_track}{lost}",
    "from track": {"Feldzug": "vom Feldzug", "Handelsfahrt": "von der Handelsfahrt"},
    "event lost": " ({n} über 15 verfallen)",
    "event Schmied": "Schmied: {seat} erhält {goods} aus dem Vorrat{lost}",
    "event Zöllner": "Zöllner: {seat} erhält {seals} aus dem Vorrat",
    "event Kaufmann": "Kaufmann: der Geldbeutel steht auf Feld {field} (Kurs {rate})",
    "no rate": "keiner",
    "event Bettelmönch": "Bettelmönch: {seat} erhält {goods}{lost} und nimmt den "
                         "Ablagestapel zurück",
    "event end": "Jemand hat {target} Siegel oder mehr: das Spiel endet",
    "picture round": "Visby · Durchgang {round} · bis {target} Siegel",
    "picture over": "Visby · Durchgang {round} · Spielende",
    "picture Feldzug": "Feldzug: {n} für Truppen, Ritter",
    "picture Handelsfahrt": "Handelsfahrt: {n} für Flotte, Schiff",
    "picture Markt": "Markt: Geldbeutel auf {n}, Kurs {kurs} Waren:Siegel",
    "picture Markt no rate": "Markt: Geldbeutel auf {n}, kein Tausch",
    "picture hand": "auf der Hand",
    "you": "du",
    "picture choosing": "wählt ({k} von {n})",
    "picture chosen": "hat gewählt",
    "picture trading": "handelt",
    "picture revealed": "aufgedeckt in Durchgang {r}: {cards}",
    "nothing": "noch nichts",
    "waiting choose": "Wählen noch: {names}",
    "waiting trade": "Handeln noch: {names}",
    "picture final": "Endstand {n}",
    "picture your row": "Deine Zeile: deine Siegel und Waren",
    "picture chosen card": "gewählt",
}

TABLES = {"en": EN, "de": DE}


def words(lang: str | None) -> Words:
    """The table of ``lang`` ("de", "de-AT"…), English where Visby has none."""
    return table_for(TABLES, lang)


def spoken(lang: str | None) -> str:
    """The table's language ``lang`` reads ("de" for "de-AT", English where Visby has
    none): ``words`` gives both the same table, and what is kept by language is kept
    once for them."""
    primary = code(lang)
    return primary if primary in TABLES else ENGLISH


def count(w: Words, noun: str, n: int) -> str:
    """``n`` of ``noun`` ("seal", "good") in the words ``w``: "1 seal", "2 Waren"."""
    return plural(w, noun, n)
