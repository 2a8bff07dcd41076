"""Macao (Stefan Feld, alea 2009) on the game protocol.

See ``rules`` for the state and the readings we chose, ``data`` for the card and
board data with their sources (most of it reconstructed), ``view`` for what a
seat sees, ``bot`` for the bot.
"""

from __future__ import annotations

import random
from typing import Any

from pbem.games.macao import bot, data, moves, rules
from pbem.games.macao.picture import draw
from pbem.games.macao.view import build_view, render_text
from pbem.games.macao.words import card_help, card_name, colour
from pbem.games.protocol import Choice, Result, Rules, State, View, rank_by

DEFAULT_TIMEOUT_NOTE = (
    "On timeout a seat takes the first card or die on offer, pays or takes cubes of the "
    "first colour listed, and in the action phase ends its turn."
)

DEFAULT_TIMEOUT_NOTE_DE = (
    "Läuft die Zeit ab, nimmt ein Spieler die erste angebotene Karte oder den ersten "
    "angebotenen Würfel, gibt oder nimmt Steine der ersten aufgeführten Farbe und beendet "
    "in der Aktionsphase seinen Zug."
)

#: the action menu's groups (``show activate 0``) as the German menu names them
SHOW_GROUP_DE = {"activate": "Karten aktivieren", "city": "Stadt", "wall": "Mauer",
                 "ship": "Schiff", "tribute": "Tribut", "use": "Karten nutzen",
                 "joker": "Joker"}


class Macao(Rules):
    name = "macao"
    title = "Macao"
    min_players = 2
    max_players = 4
    rules_version = rules.RULES_VERSION
    data_version = data.DATA_VERSION
    default_move_note = DEFAULT_TIMEOUT_NOTE
    template = "games/macao/view.html"
    stylesheet = "games/macao/style.css"
    description = (
        "Strategy game for 2-4 players over 12 rounds: each round everyone takes a card to "
        "their tableau and picks two of six dice, whose cubes arrive on the wind rose a few "
        "rounds later. Cubes activate cards, buy districts of the city, move you on the wall "
        "(the turn order) and sail your ship to deliver goods in Europe. Most prestige wins. "
        + DEFAULT_TIMEOUT_NOTE
    )
    translations = {"de": {
        "description": (
            "Strategiespiel für 2-4 Spieler über 12 Runden: Jede Runde nimmt jeder eine Karte "
            "in sein Tableau und wählt zwei von sechs Würfeln, deren Steine einige Runden "
            "später auf der Windrose ankommen. Mit den Steinen aktivierst du Karten, kaufst "
            "Stadtteile, rückst auf der Mauer vor (der Zugreihenfolge) und segelst dein "
            "Schiff, um Waren in Europa abzuliefern. Das meiste Prestige gewinnt. "
            + DEFAULT_TIMEOUT_NOTE_DE),
        "default_move_note": DEFAULT_TIMEOUT_NOTE_DE,
    }}
    about_data = (
        "Printed in the rulebook (the Yucata rules page, German) and used as printed: all "
        "rules, the texts of the cards in its 'Erläuterungen', the numbers of components, "
        "the wall costs, the late-round dice rule and the tribute numbers' distribution.\n\n"
        "Reconstructed by pbem, because no source prints them: every card's cost and tribute "
        "numbers, the office cards' effects and which colour has which office category, "
        "the texts of Abt, Statue, Schmiede and the eight Lager (from what the rulebook says "
        "they do), the district costs and adjacency, the sea graph, the harbours' goods and "
        "delivery prestige.\n\n"
        "Reconstructed cards: the rulebook names twelve cards only as changing one rule, and "
        "no public source prints their effects. pbem gives each an effect that changes that "
        "rule and no other, in the manner of the cards the rulebook does describe: Brunnen "
        "(district and wall), Kanonier, Tor and Wachposten (wall), Herold, Nachtwächter, "
        "Spekulant and Zimmermann (districts), Leuchtturm and Schiffsjunge (ship), Botschaft "
        "and Diplomat (prestige). Whether each is a Bauwerk or a Person is our reading of its "
        "name. The deck holds every card the rulebook names once (the Baronesse three "
        "times): 33 Bauwerke and 27 Personen. The real deck's other 11 Bauwerke and 25 "
        "Personen are unknown, so repeats of the named cards stand in for them to make "
        "44 and 52.\n\n"
        f"Data version {data.DATA_VERSION}; every value, with its source, is in "
        "pbem/games/macao/data.py. Games started with data version 1-reconstructed (whose "
        "deck repeated known cards and left the twelve out) keep that version."
    )

    def setup(self, players: int, options: dict[str, Any] | None, seed: str | int) -> State:
        self.resolve_options(options, players)
        return rules.new_state(players, str(seed), data.DATA_VERSION)

    def setup_version(self, players: int, options: dict[str, Any] | None, seed: str | int,
                      data_version: str | None) -> State:
        # both decks live in data.py side by side (their card ids never overlap), so a
        # game started on version 1 rebuilds on version 1
        self.resolve_options(options, players)
        return rules.new_state(players, str(seed), data_version or data.DATA_VERSION)

    def to_move(self, state: State) -> list[int]:
        return rules.to_move(state)

    def legal_moves(self, state: State, seat: int) -> list[str]:
        return [move.notation() for move in rules.legal(state, seat)]

    def apply(self, state: State, seat: int, move: str) -> State:
        return rules.apply(state, seat, moves.parse(move))

    def parse(self, move: str) -> str:
        return moves.parse(move).notation()

    def is_over(self, state: State) -> bool:
        return state["phase"] == "over"

    def round(self, state: State) -> int:
        return max(1, int(state["round"]))

    def menu(self, state: State, seat: int, lang: str = "en") -> list[Choice]:
        return [self._choice(m, lang) for m in self.legal_moves(state, seat)]

    def _choice(self, move: str, lang: str) -> Choice:
        de = lang == "de"
        words = move.split()
        verb = words[0]
        if verb in ("take", "discard", "activate", "use") and len(words) > 1:
            card = words[1]
            label = {"take": ("Karte nehmen", "Take card"), "discard": ("Abwerfen", "Discard"),
                     "activate": ("Aktivieren", "Activate"), "use": ("Nutzen", "Use")}[verb]
            times = f" x{words[2]}" if len(words) > 2 else ""
            return Choice(move, f"{label[0 if de else 1]}: {card_name(card, lang)}{times}",
                          card_name(card, lang), card_help(card, lang))
        if verb in ("one", "two", "die", "pay", "gain", "give"):
            what = {"one": ("1 Stein aufs 1er-Feld", "1 cube to the 1-field"),
                    "two": ("2 Steine aufs 2er-Feld", "2 cubes to the 2-field"),
                    "die": ("Würfel", "die"), "pay": ("Abgeben", "Pay"),
                    "gain": ("Nehmen", "Take"), "give": ("Abgeben", "Give")}[verb]
            return Choice(move, f"{what[0 if de else 1]}: {colour(words[1], lang)}")
        simple = {
            "end": ("Zug beenden", "End turn"), "deliver": ("Waren abliefern", "Deliver goods"),
            "tribute": ("Prestige erwerben", "Buy prestige"), "done": ("Fertig", "Done"),
            "back": ("Zurück", "Back"),
            "skip": ("Keine Karte (Müßiggänger)", "No card (Müßiggänger, idler)"),
        }
        if verb in simple:
            return Choice(move, simple[verb][0 if de else 1])
        if de and verb == "joker" and len(words) == 2:
            what = {"gold": "GM", "cube": "Stein", "mixed": "GM und Stein"}.get(words[1], words[1])
            return Choice(move, f"Joker nutzen: {what}")
        if de and verb == "show" and len(words) == 3 and words[2].isdigit():
            group = SHOW_GROUP_DE.get(words[1], words[1])
            return Choice(move, f"Zeige: {group} (Seite {int(words[2]) + 1})")
        arg = " ".join(words[1:])
        named = {
            "district": ("Stadtteil", "District"), "row": ("Stadtteile, Reihe", "Districts, row"),
            "wall": ("Mauer, Felder vor", "Wall, fields on"), "sail": ("Segeln nach", "Sail to"),
            "joker": ("Joker nutzen", "Use joker"), "show": ("Zeige", "Show"),
        }
        return Choice(move, f"{named[verb][0 if de else 1]}: {arg}")

    def scores(self, state: State) -> list[int]:
        return [me["pp"] for me in state["seats"]]

    def result(self, state: State) -> Result:
        if not self.is_over(state):
            raise ValueError("the game is not over yet")
        n = state["players"]
        scores = self.scores(state)
        walls = [rules.wall_order(state).index(s) for s in range(n)]
        ranks = rank_by([(scores[s], -walls[s]) for s in range(n)])
        details = [f"{{{s}}}: {f['before']} PP, -3 x {f['penalties']} penalty markers, "
                   f"+{f['end_cards']} end cards, +{f['area']} largest area = {f['total']}"
                   for s, f in enumerate(state["final"])]
        german = [f"{{{s}}}: {f['before']} PP, -3 x {f['penalties']} Strafmarker, "
                  f"+{f['end_cards']} Spielende-Karten, +{f['area']} größtes Gebiet = "
                  f"{f['total']}"
                  for s, f in enumerate(state["final"])]
        return Result(scores=scores, ranks=ranks, winners=[s for s in range(n) if ranks[s] == 1],
                      tiebreaks=[[n - walls[s]] for s in range(n)],
                      tiebreak_names=["place on the wall (higher is further ahead)"],
                      details=details,
                      # the rulebook: "wer auf der Mauer weiter vorne ist"
                      tiebreak_names_in={"de": ["Platz auf der Mauer (höher ist weiter "
                                                "vorne)"]},
                      details_in={"de": german})

    def view(self, state: State, seat: int | None) -> View:
        return build_view(state, seat)

    def render_text(self, view: View, names: list[str], lang: str = "en") -> str:
        return render_text(view, names, lang)

    def picture(self, view: View, names: list[str], lang: str = "en") -> str | None:
        return draw(view, names, lang)

    def describe(self, before: State, seat: int, move: str, after: State,
                 viewer: int | None, lang: str = "en") -> str:
        # everything a move shows lies open on the table (the cards revealed, the dice
        # rolled), so every viewer reads the same sentence
        de = lang == "de"
        text = f"{{{seat}}}: {self._choice(move, 'de' if de else 'en').label}"
        if after["round"] != before["round"] and after["phase"] == "cards":
            text += (f"; Runde {after['round']} beginnt" if de
                     else f"; round {after['round']} begins")
        if after["dice"] != before["dice"] and after["phase"] == "dice":
            text += ("; Würfel: " if de else "; dice: ") + ", ".join(
                f"{colour(c, 'de' if de else 'en')} {v}" for c, v in after["dice"])
        return text

    def default_move(self, state: State, seat: int) -> str:
        legal = self.legal_moves(state, seat)
        if not legal:
            raise ValueError(f"seat {seat} is not to move")
        if "end" in legal:
            return "end"
        if "done" in legal:
            return "done"
        return legal[0]

    def bot_move(self, state: State, seat: int, rng: random.Random) -> str:
        return bot.choose(state, seat, rng).notation()

    def turn_over(self, before: State, seat: int, move: str, after: State) -> bool:
        # revealing cards or rolling dice starts a new decision, even for the same seat
        return seat not in rules.to_move(after) or after["decision"] != before["decision"]


GAME = Macao()
