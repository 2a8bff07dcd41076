"""Tallinn (Stefan Risthaus, OSTIA-Spiele 2016), by its full rules, with Der Legat
des Kaisers and the tower-order variant as options.

In the shape of every game (``pbem/games/protocol.py``, "The shape of a game"):
``rules`` the state and the readings we chose, ``data`` the card contents with their
sources, ``moves`` the moves as values (``Play``, ``Legat``, ``Tower``, ``NoTower``),
``menu`` the moves as people read them, ``sentences`` a move and a round told,
``view`` what a seat sees, ``text`` and ``picture`` a view as plain text and as SVG,
``bot`` the bot, ``words`` everything said, in English and German.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

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
    Use,
    View,
    rank_by,
    told_by_viewer,
)
from pbem.games.tallinn import (
    bot,
    data,
    menu,
    moves,
    picture,
    rules,
    sentences,
    text,
    view,
)
from pbem.games.tallinn.words import DE, DEFAULT_TIMEOUT_NOTE, EN

__all__ = ["DEFAULT_TIMEOUT_NOTE", "GAME", "Tallinn"]


#: the "about this game's data" page in German (``about_data`` is the English)
_ABOUT_DATA_DE = (
    "In der Spielregel (Tallinn, OSTIA-Spiele 2016) gedruckt und so verwendet: die Regeln "
    "und jede Zahl der Wertung (Wettstreite, Schlusswertung, Türme), die Hand aus 3 "
    "Karten, der Start der Leiste auf 4 und Der Legat des Kaisers (eine Hälfte 1 Kaufmann, "
    "1 Ritter, 1 Mönch; die andere das kaiserliche Wappen).\n\n"
    "Aus öffentlichen Quellen (Rezensionen und Shopseiten, in pbems Quellendatei "
    "verzeichnet): zehn Einflusskarten je Satz mit 1 bis 3 Personen je Hälfte, sechs "
    "Hälften mit Münze, Karte 1 (2 Mönche / 1 Ritter mit Münze) und die Startkarten S1 "
    "(2 Mönche, 1 Ritter) und S2 (2 Ritter, 1 Kaufmann).\n\n"
    "Zum Teil rekonstruiert: Die Karten 7 und 8 tragen die Personen aus dem Beispiel der "
    "Schlusswertung; wie sie auf die Hälften verteilt sind, hat pbem gewählt. Karte 10 "
    "(2 Kaufleute / 1 Ritter und 1 Mönch): die Abbildung der Regel zu Phase 1 zeigt zwei "
    "Beschriftungen, die pbem als die beiden Hälften einer Karte liest.\n\n"
    "Von pbem rekonstruiert, weil keine Quelle sie nennt: die Hälften der Karten 2 bis 6 "
    "und 9 und die Startkarten S3 bis S6. Sie folgen den Mustern der Quellen (zwei "
    "Personen eines Standes / eine eines anderen mit Münze; eine Startkarte zeigt einen "
    "Stand zweimal, einen einmal, einen gar nicht), geben jedem Stand 13 Personen je Satz "
    "und lassen das Wertungsbeispiel der Regel im Spiel erreichen. Auch die Nummern 1 bis "
    "10 auf den Karten sind pbems. Hier wird mit diesen Karten gespielt; die gedruckten "
    "können abweichen.\n\n"
    f"Datenversion {data.DATA_VERSION}. Jeder Wert steht mit seiner Quelle in pbems Datei "
    "pbem/games/tallinn/data.toml. Wer die gedruckten Karten hat und den Server betreibt, "
    "kann eine Karte in einer Kopie dieser Datei berichtigen (geprüft mit dem Befehl „pbem data "
    "check "
    "tallinn“): neue Partien beginnen damit, laufende behalten ihre Daten."
)


@plays_on(data.SETS)
class Tallinn(Rules):
    name = "tallinn"
    title = "Tallinn"
    min_players = 2
    max_players = 4
    rules_version = rules.RULES_VERSION
    older_rules_versions = rules.OLDER_RULES_VERSIONS
    data_version = data.DATA_VERSION
    #: normal takes first place against Tallinn's own bot in 84% of 2-player, 48% of
    #: 3-player and 62% of 4-player games, each above an even share (with 3 players
    #: not its whole interval); strong clears issue 27's bar (92%, 71%, 75%;
    #: bench/bots.py, README)
    default_bot_level = "normal"
    stylesheet = "games/tallinn/style.css"
    default_move_note = DEFAULT_TIMEOUT_NOTE
    options = tuple(Option(name, EN[f"option {name}"][0], (False, True), False,
                           EN[f"option {name}"][1]) for name in ("legat", "tower_order"))
    description = EN["description"]
    about_data = (
        "Printed in the rulebook (Tallinn, OSTIA-Spiele 2016) and used as printed: the rules "
        "and every number of the scoring (contests, final scoring, towers), the hand of 3 "
        "cards, the start of the track on 4, and Der Legat des Kaisers (one half 1 Kaufmann, "
        "1 Ritter, 1 Mönch; the other the imperial Wappen).\n\n"
        "From public sources (reviews and shop pages, listed in pbem's sources file): ten "
        "influence cards per set with 1 to 3 persons per half, six halves with a coin, card "
        "1 (2 Mönche / 1 Ritter with a coin), and the start cards S1 (2 Mönche, 1 Ritter) and "
        "S2 (2 Ritter, 1 Kaufmann).\n\n"
        "Partly reconstructed: cards 7 and 8 hold the persons of the rulebook's "
        "final-scoring example; how they are split into halves is pbem's choice. Card 10 "
        "(2 Kaufleute / 1 Ritter and 1 Mönch): the rulebook's illustration of phase 1 shows "
        "two captions, which pbem reads as the two halves of one card.\n\n"
        "Reconstructed by pbem, because no source prints them: the halves of cards "
        "2 to 6 and 9, and the start cards S3 to S6. They follow the patterns the sources "
        "describe (two persons of one estate / one person of another with a coin; a start "
        "card shows one estate twice, one once, one not at all), give every estate 13 "
        "persons per set, and let the rulebook's scoring example be reached in play. The "
        "numbers 1 to 10 on the cards are pbem's too. Games here are played with these "
        "cards; the printed cards may differ.\n\n"
        f"Data version {data.DATA_VERSION}. Every value, with its source, is in pbem's "
        "file pbem/games/tallinn/data.toml. An operator who has the printed cards can "
        "correct a card in a copy of that file (checked by the command “pbem data check "
        "tallinn”): new games start on it, running games keep the data they started with."
    )

    #: one sentence for the lobby: how much of the data is reconstructed
    data_note = (
        "Of its ten influence cards one is known from a source and three in part (card 10 "
        "by reading the rulebook's illustration); pbem reconstructed the other six and four "
        "of the six start cards.")
    translations = {"de": {"description": DE["description"],
                           "data_note": ("Von den zehn Einflusskarten ist eine aus einer Quelle "
                                         "bekannt und drei zum Teil (Karte 10 aus der "
                                         "Abbildung der Regel gelesen); die übrigen sechs und "
                                         "vier der sechs Startkarten hat pbem rekonstruiert."),
                           "about_data": _ABOUT_DATA_DE,
                           "default_move_note": DE["default move"],
                           "options": {name: DE[f"option {name}"]
                                       for name in ("legat", "tower_order")}}}

    # -- setup and turn order ---------------------------------------------------

    def setup(self, players: int, options: dict[str, Any] | None, seed: str | int) -> State:
        return rules.new_state(players, self.resolve_options(options, players), str(seed))

    def setup_version(self, players: int, options: dict[str, Any] | None, seed: str | int,
                      data_version: str | None, rules_version: str | None = None) -> State:
        # a game started under rules version 1 keeps its reading of the Legat at the end
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
        return rules.apply(state, seat, moves.parse(move))

    def apply_played(self, state: State, seat: int, move: str) -> State:
        # ``apply`` itself (its checks are a few comparisons), asked at once: by default
        # ``Rules.apply_played`` asks it again through ``apply``'s data version wrapper
        return rules.apply(state, seat, moves.parse(move))

    def uses(self, log: Log) -> list[Use]:
        return moves.uses(log)

    def start_seat(self, log: Log) -> int | None:
        return moves.start_seat(log)

    def parse(self, move: str) -> str:
        return moves.parse(move).notation()

    def is_over(self, state: State) -> bool:
        return state["phase"] == "over"

    def round(self, state: State) -> int:
        return max(1, int(state["round"]))

    def menu(self, state: State, seat: int, lang: str = "en") -> list[Choice]:
        return menu.menu(state, seat, lang)

    def menu_entry(self, state: State, seat: int, move: str, lang: str = "en"
                   ) -> Choice | None:
        return menu.entry(state, seat, move, lang)

    # -- scores ----------------------------------------------------------------

    def scores(self, state: State) -> list[int]:
        return list(state["points"])

    #: a playout plays to the end, where the real scoring judges: a game is at most 11
    #: rounds of a card, a Legat's estate and a tower per seat, 92 moves with 4 players.
    #: 30 moves cut a playout of 4 players short (about 6 of 10 rounds), and the
    #: estimate misjudged the first half of the game: with the search below, 45% of
    #: first places with 4 players, 75% to the end (bench/bots.py, README)
    search_horizon = 100
    #: every drawn state tries every card (``pbem.games.search``): a card's worth lies
    #: in the contests and the final scoring it leads to, a few points that the luck of
    #: the draws hides from a tree search of 100 playouts spread over 6 moves
    search_paired = True

    def estimate(self, state: State) -> list[float]:
        if self.is_over(state):
            return [float(p) for p in state["points"]]
        # the final scoring (estates, towers) as if the game ended now
        gain = rules.final_scoring(state)["gain"]
        return [float(p + g) for p, g in zip(state["points"], gain, strict=True)]

    def result(self, state: State) -> Result:
        if not self.is_over(state):
            raise ValueError("the game is not over yet")
        n = state["players"]
        scores = list(state["points"])
        persons = list(state["final"]["tower_persons"])
        ranks = rank_by([(scores[s], persons[s]) for s in range(n)])
        return Result(
            scores=scores,
            ranks=ranks,
            winners=[s for s in range(n) if ranks[s] == 1],
            tiebreaks=[[persons[s]] for s in range(n)],
            tiebreak_names=list(EN["tiebreaks"]),
            details=sentences.result_lines(state, scores, "en"),
            tiebreak_names_in={"de": list(DE["tiebreaks"])},
            details_in={"de": sentences.result_lines(state, scores, "de")},
        )

    # -- information ------------------------------------------------------------

    def view(self, state: State, seat: int | None) -> View:
        return view.build(state, seat)

    def render_text(self, view: View, names: list[str], lang: str = "en") -> str:
        return text.render(view, names, lang)

    def picture(self, view: View, names: list[str], lang: str = "en",
                links: Mapping[str, str] | None = None) -> str | None:
        return picture.draw(view, names, lang, links)

    def together(self, sentence: str, lang: str = "en") -> str | None:
        return sentences.together(sentence, lang)

    def describe(self, before: State, seat: int, move: str, after: State,
                 viewer: int | None, lang: str = "en") -> str:
        return sentences.describe(before, seat, moves.parse(move), after, viewer, lang)

    def describe_all(self, before: State, seat: int, move: str, after: State,
                     langs: Sequence[str]) -> dict[str, tuple[str, str]]:
        return told_by_viewer(sentences.describe, before, seat, moves.parse(move), after, langs)

    # -- server support -----------------------------------------------------------

    def default_move(self, state: State, seat: int) -> str:
        return rules.timeout_move(state, seat).notation()

    def bot_move(self, state: State, seat: int, rng: random.Random) -> str:
        return bot.choose(state, seat, rng).notation()

    def determinize(self, state: State, seat: int, rng: random.Random) -> State:
        drawn = rules.determinize(state, seat, rng)
        # a rival's pending secret choice is made anew as its bot would make it with the
        # cards drawn for it: the search takes every rival for the game's bot
        # (``pbem.games.search``), and a choice at random misreads the round to come
        for rival in range(state["players"]):
            key = "chosen" if state["phase"] == "choose" else "tower_choice"
            if rival == seat or not rules.is_secret(state) or drawn[key][rival] is None:
                continue
            drawn[key][rival] = None
            move = bot.choose(drawn, rival, rng)
            drawn[key][rival] = rules.secret_choice(drawn, rival, move)
        return drawn

    def turn_over(self, before: State, seat: int, move: str, after: State) -> bool:
        # the last secret choice reveals the round, and the same seat may at once
        # face a new decision (its Legat's estate, its tower): that is a new turn
        return seat not in rules.to_move(after) or after["decision"] != before["decision"]

    def is_commit_point(self, before: State, seat: int, move: str, after: State) -> bool:
        # A secret choice may be taken back until the choices are revealed (a new
        # decision starts); a public decision is final when the seat's turn ends.
        if after["decision"] != before["decision"]:
            return True
        return not rules.is_secret(before) and seat not in rules.to_move(after)

    def move_facts(self, before: State, seat: int, move: str, after: State) -> MoveFacts:
        # the three answers of every move the server records, in one call of the game
        # (``round``, ``turn_over`` and ``is_commit_point`` above, who is to move asked once)
        moved_on = after["decision"] != before["decision"]
        gone = seat not in rules.to_move(after)
        return MoveFacts(max(1, int(before["round"])), gone or moved_on,
                         moved_on or (gone and not rules.is_secret(before)))


    def check_invariants(self, state: State) -> None:
        problem = rules.cards_problem(state)
        if problem:
            raise PositionError(problem)

GAME = Tallinn()
