"""Macao (Stefan Feld, alea 2009) on the game protocol.

In the shape of every game (``pbem/games/protocol.py``, "The shape of a game"):
``rules`` the state and the readings we chose, ``data`` the card and board values with
their sources (most of them reconstructed), ``moves`` the moves as values, ``steps``
the open step of a seat (a payment, a page of the menu) as tagged values, ``menu`` the
moves as people read them, ``sentences`` a move and the result told, ``view`` what a
seat sees, ``text`` and ``picture`` a view as plain text and as SVG, ``bot`` the bot,
``words`` everything said, in English and German.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from pbem.games.datafile import plays_on
from pbem.games.macao import bot, data, menu, moves, picture, rules, sentences, text, view
from pbem.games.macao.words import DE, DEFAULT_TIMEOUT_NOTE, EN
from pbem.games.protocol import (
    Choice,
    Log,
    MoveFacts,
    Option,
    PositionError,
    Result,
    Rules,
    State,
    Use,
    View,
    rank_by,
)

__all__ = ["DEFAULT_TIMEOUT_NOTE", "GAME", "Macao"]


#: the "about this game's data" page in German (``about_data`` is the English)
_ABOUT_DATA_DE = (
    "In der Spielregel (die deutsche Regelseite bei Yucata) gedruckt und so verwendet: "
    "alle Regeln, die Kartentexte ihrer 'Erläuterungen', die Anzahlen des Materials, die "
    "Kosten auf der Mauer, die Würfelregel der späten Runden und die Verteilung der "
    "Tributzahlen.\n\n"
    "Von pbem rekonstruiert, weil keine Quelle sie nennt: Kosten und Tributzahlen jeder "
    "Karte, die Wirkungen der Amtskarten und welche Farbe welchen Amtsbereich hat, die "
    "Texte von Abt, Statue, Schmiede und den acht Lagern (nach dem, was die Regel über sie "
    "sagt), Kosten und Nachbarschaft der Stadtteile, das Seewegenetz, die Waren und das "
    "Prestige der Häfen.\n\n"
    "Rekonstruierte Karten: Die Regel nennt zwölf Karten nur als Änderung einer Regel, und "
    "keine öffentliche Quelle nennt ihre Wirkung. pbem gibt jeder eine Wirkung, die diese "
    "Regel ändert und keine andere, nach Art der Karten, die die Regel beschreibt: Brunnen "
    "(Stadtteil und Mauer), Kanonier, Tor und Wachposten (Mauer), Herold, Nachtwächter, "
    "Spekulant und Zimmermann (Stadtteile), Leuchtturm und Schiffsjunge (Schiff), "
    "Botschaft und Diplomat (Prestige). Ob jede ein Bauwerk oder eine Person ist, lesen wir "
    "aus ihrem Namen. Das Deck enthält jede von der Regel genannte Karte einmal (die "
    "Baronesse dreimal): 33 Bauwerke und 27 Personen. Die übrigen 11 Bauwerke und 25 "
    "Personen des echten Decks sind unbekannt; Wiederholungen der genannten Karten stehen "
    "für sie, damit es 44 und 52 sind.\n\n"
    f"Datenversion {data.DATA_VERSION}; jeder Wert steht mit seiner Quelle in "
    "pbem/games/macao/data.toml; in der Hilfe einer Karte ist mit ◇ markiert, was pbem "
    "rekonstruiert hat. Partien, die mit Datenversion 1-reconstructed begonnen haben "
    "(deren Deck bekannte Karten wiederholte und die zwölf wegließ), behalten sie. Wer die "
    "gedruckten Karten hat und den Server betreibt, kann einen Wert in einer Kopie dieser "
    "Datei berichtigen (geprüft mit dem Befehl „pbem data check macao“): neue Partien beginnen "
    "damit, laufende behalten ihre Daten."
)


@plays_on(data.SETS)
class Macao(Rules):
    name = "macao"
    title = "Macao"
    min_players = 2
    max_players = 4
    rules_version = rules.RULES_VERSION
    older_rules_versions = rules.OLDER_RULES_VERSIONS
    options = (Option("graf_senkt", EN["option graf_senkt"][0], (False, True), False,
                      EN["option graf_senkt"][1], reading=True),)
    data_version = data.DATA_VERSION
    #: the search, choosing cards and dice, took first place in every game against
    #: Macao's own bot, at 25 and 40 iterations, with 2 to 4 players (bench/bots.py, README)
    default_bot_level = "normal"
    #: a playout of about two rounds: a card taken is paid for and used in it
    search_horizon = 30
    #: the decks this package keeps side by side: a game keeps the one it started with
    packaged_data_versions = data.DATA_VERSIONS
    default_move_note = DEFAULT_TIMEOUT_NOTE
    stylesheet = "games/macao/style.css"
    description = EN["description"]
    #: one sentence for the lobby: how much of the data is reconstructed
    data_note = (
        "Most of its card and board data is reconstructed: of the 96 building and person cards, 20"
        " are printed in the rulebook, 28 are named there and worked out from its hints, 12 are "
        "pbem's own and 36 repeat known cards; every cost and tribute, the districts and the sea "
        "are pbem's.")
    translations = {"de": {"description": DE["description"],
                           "data_note": ("Die meisten Karten- und Spielplandaten sind "
                                         "rekonstruiert: Von den 96 Bauwerk- und Personenkarten "
                                         "stehen 20 in der Regel, 28 sind dort genannt und aus "
                                         "ihren Hinweisen erschlossen, 12 sind pbems eigene und 36"
                                         " wiederholen bekannte Karten; alle Kosten und Tribute, "
                                         "die Stadtteile und das Meer stammen von pbem."),
                           "about_data": _ABOUT_DATA_DE,
                           "default_move_note": DE["default move"],
                           "options": {"graf_senkt": DE["option graf_senkt"]}}}
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
        "pbem/games/macao/data.toml; a card's help marks with ◇ what pbem reconstructed. "
        "Games started with data version 1-reconstructed (whose deck repeated known cards "
        "and left the twelve out) keep that version. An operator who has the printed cards "
        "can correct a value in a copy of that file (checked by the command “pbem data check "
        "macao”): new games start on it, running games keep the data they started with."
    )

    def setup(self, players: int, options: dict[str, Any] | None, seed: str | int) -> State:
        return rules.new_state(players, str(seed), data.DATA_VERSION,
                               self.resolve_options(options, players))

    def setup_version(self, players: int, options: dict[str, Any] | None, seed: str | int,
                      data_version: str | None, rules_version: str | None = None) -> State:
        # both decks live in data.py side by side (their card ids never overlap), so a
        # game started on data version 1 rebuilds on version 1; a game of rules version 1
        # keeps its reading of the Graf
        resolved = self.resolve_options(options, players)
        return rules.new_state(players, str(seed), data_version or data.DATA_VERSION,
                               resolved, self.check_rules_version(rules_version))

    def to_move(self, state: State) -> list[int]:
        return rules.to_move(state)

    def legal_moves(self, state: State, seat: int) -> list[str]:
        return [move.notation() for move in rules.legal(state, seat)]

    def apply(self, state: State, seat: int, move: str) -> State:
        return rules.apply(state, seat, moves.parse(move))

    def apply_played(self, state: State, seat: int, move: str) -> State:
        return rules.apply_legal(state, seat, moves.parse(move))

    def uses(self, log: Log) -> list[Use]:
        return moves.uses(log)

    def start_seat(self, log: Log) -> int | None:
        return moves.start_seat(log)

    def parse(self, move: str) -> str:
        return moves.parse(move).notation()

    def offered(self, state: State, seat: int, move: str) -> str:
        return rules.offered(state, seat, moves.parse(move)).notation()

    def is_over(self, state: State) -> bool:
        return state["phase"] == "over"

    def round(self, state: State) -> int:
        return max(1, int(state["round"]))

    def menu(self, state: State, seat: int, lang: str = "en") -> list[Choice]:
        return menu.menu(state, seat, lang)

    def menu_entry(self, state: State, seat: int, move: str, lang: str = "en"
                   ) -> Choice | None:
        return menu.entry(state, seat, move, lang)

    def scores(self, state: State) -> list[int]:
        return [me["pp"] for me in state["seats"]]

    def estimate(self, state: State) -> list[float]:
        # the end scoring as if the game ended now, with what the cards, gold and
        # cubes will still yield (the end scoring alone sees a card's penalty before
        # its use: a search judged by it lost every game to the bot)
        return [bot.worth(state, s) for s in range(state["players"])]

    def result(self, state: State) -> Result:
        if not self.is_over(state):
            raise ValueError("the game is not over yet")
        n = state["players"]
        scores = self.scores(state)
        walls = [rules.wall_order(state).index(s) for s in range(n)]
        ranks = rank_by([(scores[s], -walls[s]) for s in range(n)])
        return Result(scores=scores, ranks=ranks, winners=[s for s in range(n) if ranks[s] == 1],
                      tiebreaks=[[n - walls[s]] for s in range(n)],
                      tiebreak_names=list(EN["tiebreaks"]),
                      details=sentences.result_lines(state, "en"),
                      tiebreak_names_in={"de": list(DE["tiebreaks"])},
                      details_in={"de": sentences.result_lines(state, "de")})

    def view(self, state: State, seat: int | None) -> View:
        return view.build(state, seat)

    def render_text(self, view: View, names: list[str], lang: str = "en") -> str:
        return text.render(view, names, lang)

    def picture(self, view: View, names: list[str], lang: str = "en",
                links: Mapping[str, str] | None = None) -> str | None:
        return picture.draw(view, names, lang, links)

    def describe(self, before: State, seat: int, move: str, after: State,
                 viewer: int | None, lang: str = "en") -> str:
        return sentences.describe(before, seat, moves.parse(move), after, lang)

    def describe_all(self, before: State, seat: int, move: str, after: State,
                     langs: Sequence[str]) -> dict[str, tuple[str, str]]:
        # everything on Macao's table is public: every viewer reads the author's sentence
        played = moves.parse(move)
        told = {lang: sentences.describe(before, seat, played, after, lang) for lang in langs}
        return {lang: (said, said) for lang, said in told.items()}

    def formality(self, state: State, seat: int) -> str | None:
        move = rules.formality(state, seat)
        return None if move is None else move.notation()

    def default_move(self, state: State, seat: int) -> str:
        return rules.timeout_move(state, seat).notation()

    def bot_move(self, state: State, seat: int, rng: random.Random) -> str:
        return bot.choose(state, seat, rng).notation()

    def bot_plays(self, state: State, seat: int, rng: random.Random) -> State:
        # the bot chooses among ``legal``'s moves: no second look at them
        return rules.apply_legal(state, seat, bot.choose(state, seat, rng))

    def searched(self, state: State, seat: int) -> bool:
        # the bot's eager order plays a turn of actions well, and a step of it alone
        # shows the search its cost before its reward; the search chooses the cards
        # and the dice, whose worth the playouts and the estimate do see
        return state["phase"] != "actions"

    def determinize(self, state: State, seat: int, rng: random.Random) -> State:
        return rules.determinize(state, seat, rng)

    def turn_over(self, before: State, seat: int, move: str, after: State) -> bool:
        # revealing cards or rolling dice starts a new decision, even for the same seat
        return seat not in rules.to_move(after) or after["decision"] != before["decision"]

    def move_facts(self, before: State, seat: int, move: str, after: State) -> MoveFacts:
        # the three answers of every move the server records, in one call of the game:
        # ``round`` and ``turn_over`` above; the turn's end is the commit point (``Rules``)
        turn_end = seat not in rules.to_move(after) or after["decision"] != before["decision"]
        return MoveFacts(max(1, int(before["round"])), turn_end, turn_end)


    def check_invariants(self, state: State) -> None:
        problem = rules.cards_problem(state)
        if problem:
            raise PositionError(problem)

GAME = Macao()
