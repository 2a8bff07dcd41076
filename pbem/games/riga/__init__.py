"""Riga (Stefan Risthaus, OSTIA-Spiele 2017), by its full rules, with the Riga
buildings (Riga-Gebäude) as the option ``riga``.

In the shape of every game (``pbem/games/protocol.py``, "The shape of a game"):
``rules`` the state and the readings we chose, ``data`` the card values with their
sources, ``moves`` the moves as values (``TakeSet``, ``Build``, ``Pay``…), ``menu`` the
moves as people read them (a long menu folded into steps), ``sentences`` a move and
the year's events told, ``view`` what a seat sees, ``text`` and ``picture`` a view as
plain text and as SVG, ``bot`` the bot and the timeout move, ``words`` everything said,
in English and German.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from pbem.games import protocol
from pbem.games.datafile import plays_on
from pbem.games.protocol import (
    Choice,
    Log,
    MoveFacts,
    Option,
    PositionError,
    Result,
    Rules,
    State,
    View,
    rank_by,
    told_by_viewer,
)
from pbem.games.riga import bot, data, menu, moves, picture, rules, sentences, text
from pbem.games.riga.moves import Use, parse
from pbem.games.riga.view import build_view
from pbem.games.riga.words import DE, DEFAULT_TIMEOUT_NOTE, EN

__all__ = ["DEFAULT_TIMEOUT_NOTE", "GAME", "Riga"]


#: the "about this game's data" page in German (``about_data`` is the English)
_ABOUT_DATA_DE = (
    "In der Spielregel (Riga, OSTIA-Spiele 2017) gedruckt und so verwendet: die Regeln, die "
    "Kartenanzahlen (8 Tuch, 10 Glas, 12 Wein, 14 Korn; 12 Gebäude in jeder der vier "
    "Städte; 4 Riga-Gebäude je Spieler), die Funktion jedes Gebäudes, die Markthalle in "
    "Danzig zu 8, Archiv und Schatzkammer in Visby zusammen zu 16, der Wert der Logen-"
    "Tabelle für drei Logen (19) und die Werte Danzig Tuch 5 sowie Visby Wein 5, Korn 2, "
    "Glas 4.\n\n"
    "Aus öffentlichen Quellen (Rezensionen und Seiten des Verlags, in pbems Quellendatei "
    "verzeichnet): die Grundwerte Tuch 5, Glas 4, Wein 3, Korn 2; Korn in Tallinn 4 und in "
    "Danzig nicht einsetzbar; Tuch nicht einsetzbar, wo Wein 5 wert ist (Visby); dass jede "
    "Ware in einer Stadt 2 mehr wert und in einer nicht einsetzbar ist; wertende Gebäude "
    "bringen 3 bis 6 Siegpunkte, manche keine.\n\n"
    "Von pbem rekonstruiert, weil keine uns zugängliche Quelle sie nennt: Stockholm Tuch 7 "
    "und Danzig Glas 6 (die Kostenbox '5 6 3 –' der Regel passt dazu), welche von Wein und "
    "Glas in Tallinn und in Stockholm nicht einsetzbar ist (gewählt: Glas in Tallinn, Wein "
    "in Stockholm), Kosten und Siegpunkte aller 48 Gebäude außer den zwei gedruckten Kosten "
    "oben, welche Ware jede Manufactur und Markthalle zeigt, die Logen-Tabelle für 1, 2 und "
    "4 Logen (4, 10, 30) und Kosten und Siegpunkte der Riga-Gebäude. Der Verlag hat "
    "fehlgedruckte Werte der drei Markthallen berichtigt; diese Berichtigung war nicht "
    "lesbar. Hier wird mit diesen Werten gespielt; die gedruckten Karten weichen ab.\n\n"
    f"Datenversion {data.DATA_VERSION}. Jeder Wert steht mit seiner Quelle in pbems Datei "
    "pbem/games/riga/data.toml. Wo Spieler einen rekonstruierten Wert lesen (in der Hilfe "
    "eines Gebäudes), ist er mit ◇ markiert. Wer die gedruckten Karten hat und den Server "
    "betreibt, kann einen Wert in einer Kopie dieser Datei berichtigen (geprüft mit "
    "dem Befehl „pbem data check riga“): neue Partien beginnen damit, laufende behalten ihre Daten."
)


@plays_on(data.SETS)
class Riga(Rules):
    name = "riga"
    title = "Riga"
    min_players = 2
    max_players = 4
    rules_version = rules.RULES_VERSION
    older_rules_versions = rules.OLDER_RULES_VERSIONS
    data_version = data.DATA_VERSION
    #: the search took first place in every 2-player game against Riga's own bot, normal
    #: and strong (bench/bots.py, README)
    default_bot_level = "normal"
    stylesheet = "games/riga/style.css"
    default_move_note = DEFAULT_TIMEOUT_NOTE
    options = tuple(Option(name, EN[f"option {name}"][0], (False, True), False,
                           EN[f"option {name}"][1], reading=name != "riga")
                    for name in ("riga", "kran_abrunden", "bauhof_nur_stapel"))
    description = EN["description"]
    #: one sentence for the lobby: how much of the data is reconstructed
    data_note = (
        "Of its card data, the rulebook and public sources give the commodity values and counts, a"
        " few city values and two costs; the other city values and the cost and points of the "
        "buildings are reconstructed by pbem (marked ◇ in a building's help).")
    translations = {"de": {"description": DE["description"],
                           "data_note": ("Von den Kartendaten nennen die Regel und öffentliche "
                                         "Quellen die Warenwerte und -anzahlen, einige Stadtwerte "
                                         "und zwei Baukosten; die übrigen Stadtwerte sowie Kosten "
                                         "und Siegpunkte der Gebäude hat pbem rekonstruiert (in "
                                         "der Hilfe eines Gebäudes mit ◇ markiert)."),
                           "about_data": _ABOUT_DATA_DE,
                           "default_move_note": DE["default move"],
                           "options": {name: DE[f"option {name}"] for name in
                                       ("riga", "kran_abrunden", "bauhof_nur_stapel")}}}
    about_data = (
        "Printed in the rulebook (Riga, OSTIA-Spiele 2017) and used as printed: the rules, the "
        "card counts (8 Tuch, 10 Glas, 12 Wein, 14 Korn; 12 buildings in each of the four "
        "cities; 4 Riga buildings per player), every building's function, the Markthalle in "
        "Danzig costing 8, the Archiv and the Schatzkammer in Visby costing 16 together, the "
        "Loge table's value for three Logen (19), and the values Danzig Tuch 5 and Visby Wein "
        "5, Korn 2, Glas 4.\n\n"
        "From public sources (reviews and the publisher's pages, listed in pbem's sources "
        "file): the regular values Tuch 5, Glas 4, Wein 3, Korn 2; Korn worth 4 in Tallinn "
        "and unusable in Danzig; Tuch unusable where Wein is worth 5 (Visby); that every "
        "commodity is worth 2 more in one city and unusable in one; scoring buildings worth "
        "3 to 6 points, some buildings worth none.\n\n"
        "Reconstructed by pbem, because no source we could read prints them: Stockholm Tuch 7 "
        "and Danzig Glas 6 (the rulebook's cost box '5 6 3 –' agrees), which of Wein and Glas "
        "is unusable in Tallinn and in Stockholm (we chose Glas in Tallinn, Wein in "
        "Stockholm), the cost and points of all 48 buildings except the two printed costs "
        "above, which commodity each Manufactur and Markthalle shows, the Loge table for 1, 2 "
        "and 4 Logen (4, 10, 30), and the cost and points of the Riga buildings. The "
        "publisher corrected misprinted values on the three Markthalle cards; those "
        "corrections could not be read. Games here are played with these values; the "
        "printed cards differ.\n\n"
        f"Data version {data.DATA_VERSION}. Every value, with its source, is in pbem's file "
        "pbem/games/riga/data.toml. Where players read a reconstructed value (a building's "
        "help), it is marked ◇. An operator who has the printed cards can correct a value "
        "in a copy of that file (checked by the command “pbem data check riga”): new games "
        "start on it, running games keep the data they started with."
    )

    # -- setup and turn order ---------------------------------------------------

    def setup(self, players: int, options: dict[str, Any] | None, seed: str | int) -> State:
        return rules.new_state(players, self.resolve_options(options, players), str(seed))

    def setup_version(self, players: int, options: dict[str, Any] | None, seed: str | int,
                      data_version: str | None, rules_version: str | None = None) -> State:
        # a game started under rules version 1 keeps its reading of the Bauhof
        super().setup_version(players, options, seed, data_version, rules_version)
        return rules.new_state(players, self.resolve_options(options, players), str(seed),
                               self.check_rules_version(rules_version))

    def to_move(self, state: State) -> list[int]:
        return rules.to_move(state)

    def legal_moves(self, state: State, seat: int) -> list[str]:
        return [move.notation() for move in rules.legal(state, seat)]

    def is_secret(self, state: State) -> bool:
        return rules.is_secret(state)

    def apply(self, state: State, seat: int, move: str) -> State:
        return rules.apply(state, seat, parse(move))

    def apply_played(self, state: State, seat: int, move: str) -> State:
        return rules.apply_played(state, seat, parse(move))

    def formality(self, state: State, seat: int) -> str | None:
        # a forced step (nothing left to build: "end"; one kind of card to discard) is
        # played at once; a menu step or the take never is
        move = rules.formality(state, seat)
        return None if move is None else move.notation()

    def uses(self, log: Log) -> list[protocol.Use]:
        return moves.uses(log)

    def start_seat(self, log: Log) -> int | None:
        return moves.start_seat(log)

    def parse(self, move: str) -> str:
        return parse(move).notation()

    def is_over(self, state: State) -> bool:
        return state["phase"] == "over"

    def round(self, state: State) -> int:
        return self._year(state)

    @staticmethod
    def _year(state: State) -> int:
        # ``round`` without the data version's wrapper (``move_facts`` asks it too)
        return max(1, int(state["year"]))

    # -- menus -------------------------------------------------------------------

    def menu(self, state: State, seat: int, lang: str = "en") -> list[Choice]:
        return menu.menu(state, seat, lang)

    def menu_entry(self, state: State, seat: int, move: str, lang: str = "en"
                   ) -> Choice | None:
        return menu.entry(state, seat, move, lang)

    # -- scores ----------------------------------------------------------------

    def scores(self, state: State) -> list[int]:
        return [rules.score(state, s) for s in range(state["players"])]

    def result(self, state: State) -> Result:
        if not self.is_over(state):
            raise ValueError("the game is not over yet")
        n = state["players"]
        scores = self.scores(state)
        money = [rules.money(state, s) for s in range(n)]
        ranks = rank_by([(scores[s], money[s]) for s in range(n)])
        return Result(scores=scores, ranks=ranks, winners=[s for s in range(n) if ranks[s] == 1],
                      tiebreaks=[[money[s]] for s in range(n)],
                      tiebreak_names=list(EN["tiebreaks"]),
                      details=sentences.result_lines(state, scores, money, "en"),
                      tiebreak_names_in={"de": list(DE["tiebreaks"])},
                      details_in={"de": sentences.result_lines(state, scores, money, "de")})

    # -- information ------------------------------------------------------------

    def view(self, state: State, seat: int | None) -> View:
        return build_view(state, seat)

    def render_text(self, view: View, names: list[str], lang: str = "en") -> str:
        return text.render(view, names, lang)

    def picture(self, view: View, names: list[str], lang: str = "en",
                links: Mapping[str, str] | None = None) -> str | None:
        return picture.draw(view, names, lang, links)

    def describe(self, before: State, seat: int, move: str, after: State,
                 viewer: int | None, lang: str = "en") -> str:
        return sentences.describe(before, seat, parse(move), after, viewer, lang)

    def describe_all(self, before: State, seat: int, move: str, after: State,
                     langs: Sequence[str]) -> dict[str, tuple[str, str]]:
        played = parse(move)
        if sentences.alike(played):  # told once a language: every viewer reads the same
            told = {lang: sentences.describe(before, seat, played, after, seat, lang)
                    for lang in langs}
            return {lang: (said, said) for lang, said in told.items()}
        return told_by_viewer(sentences.describe, before, seat, played, after, langs)

    # -- server support -----------------------------------------------------------

    def default_move(self, state: State, seat: int) -> str:
        return bot.timeout_move(state, seat).notation()

    def bot_move(self, state: State, seat: int, rng: random.Random) -> str:
        return bot.choose(state, seat, rng).notation()

    def searched(self, state: State, seat: int) -> bool:
        # a building project's steps (pay, finish, cancel) and a sub-step are the bot's:
        # a search that weighs "cancel" against paying goes round in circles
        return state["project"] is None and state["sub"] is None

    def determinize(self, state: State, seat: int, rng: random.Random) -> State:
        return rules.determinize(state, seat, rng)

    def turn_over(self, before: State, seat: int, move: str, after: State) -> bool:
        return self._turn_over(before, seat, after)

    @staticmethod
    def _turn_over(before: State, seat: int, after: State) -> bool:
        # the player right of the start player has two turns back to back
        return not rules.is_to_move(after, seat) or after["decision"] != before["decision"]

    def is_commit_point(self, before: State, seat: int, move: str, after: State) -> bool:
        return self._commit(before, seat, parse(move), after)

    @staticmethod
    def _commit(before: State, seat: int, played: moves.Move, after: State) -> bool:
        if isinstance(played, Use) and played.art in rules.DRAW_ARTS:
            return True  # a private draw: hidden cards were seen
        if after["decision"] != before["decision"]:
            return True
        return not rules.is_secret(before) and not rules.is_to_move(after, seat)

    def move_facts(self, before: State, seat: int, move: str, after: State) -> MoveFacts:
        # the three answers of every move the server records, in one call of the game
        # (each without the data version's wrapper of its own)
        return MoveFacts(self._year(before), self._turn_over(before, seat, after),
                         self._commit(before, seat, parse(move), after))


    def check_invariants(self, state: State) -> None:
        problem = rules.census_problem(state)
        if problem:
            raise PositionError(problem)

GAME = Riga()
