"""Visby (Stefan Risthaus, OSTIA-Spiele 2015), by its full rules.

In the shape of every game (``pbem/games/protocol.py``, "The shape of a game"):
``rules`` the state and the readings we chose (the timeout default among them),
``data`` the board and card values with their sources and a line of help per card,
``moves`` the moves as values (``Play``, ``Trade``, ``Done``), ``menu`` the moves as
people read them, ``sentences`` a move and a round told, ``view`` what a seat sees,
``text`` and ``picture`` a view as plain text and as SVG, ``bot`` the bot, ``words``
everything said, in English and German.
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
    OptionError,
    Result,
    Rules,
    State,
    Use,
    View,
    rank_by,
    told_by_viewer,
)
from pbem.games.visby import bot, data, menu, moves, picture, rules, sentences, text, view
from pbem.games.visby.words import DE, DEFAULT_TIMEOUT_NOTE, EN

__all__ = ["DEFAULT_TIMEOUT_NOTE", "GAME", "Visby"]


#: the "about this game's data" page in German (``about_data`` is the English)
_ABOUT_DATA_DE = (
    "In der Spielregel (Visby, OSTIA-Spiele 2015) gedruckt und so verwendet: die acht "
    "Aktionskarten und ihre Reihenfolge, was jede Karte tut und ihre Zahlen (Truppen 2 "
    "Siegel, Ritter höchstens 5, Schmied, Flotte 3 Waren, Zöllner, Kaufmann, Bettelmönch), "
    "der Nachschub je Runde nach Spielerzahl, die gespielten Karten je Runde, die Enden der "
    "Leisten (Feld 15) und der Schlusstausch der Waren 3:1.\n\n"
    "Aus der Regel gelesen, mit einer Wahl von uns: die Tabelle des Bettelmönchs zeigt "
    "Waren nur unter jeder zweiten Spalte; pbem liest jeden Wert als für zwei Spalten "
    "geltend (1, 1, 2, 2, 3, 3, 4, 4 Waren für 1 bis 8 gespielte Karten).\n\n"
    "Von pbem rekonstruiert: Die Regel nennt nur zwei Tauschkurse der Markt-Leiste, beide "
    "im Beispiel zum Kaufmann (Feld 7 = 3:2 und Feld 9 = 2:2), und zeigt einen Kurs 2:1 "
    "irgendwo unter Feld 7. Keine zugängliche Quelle nennt die übrigen; die Kurse der "
    "Felder 0, 1, 2, 3, 4, 5, 6, 8, 10, 11, 12, 13, 14, 15 sind pbems eigene, passend zu "
    "jedem bekannten Kurs und gleichmäßig steigend (Feld 0 bietet keinen Tausch). Hier wird "
    "mit diesen Kursen gespielt; der gedruckte Spielplan kann abweichen.\n\n"
    f"Datenversion {data.DATA_VERSION}. Jeder Wert steht mit seiner Quelle in pbems Datei "
    "pbem/games/visby/data.toml. Wer den gedruckten Spielplan hat und den Server "
    "betreibt, kann einen Kurs in einer Kopie dieser Datei berichtigen (geprüft mit "
    "dem Befehl „pbem data check visby“): neue Partien beginnen damit, laufende "
    "behalten ihre Daten."
)


@plays_on(data.SETS)
class Visby(Rules):
    name = "visby"
    title = "Visby"
    min_players = 2
    max_players = 6
    rules_version = rules.RULES_VERSION
    data_version = data.DATA_VERSION
    stylesheet = "games/visby/style.css"
    default_move_note = DEFAULT_TIMEOUT_NOTE
    options = (Option("target", EN["option target"][0], (30, 45), 30, EN["option target"][1]),)
    description = EN["description"]
    about_data = (
        "Printed in the rulebook (Visby, OSTIA-Spiele 2015) and used as printed: the eight "
        "action cards and their order, what each card does and its numbers (Truppen 2 seals, "
        "Ritter at most 5, Schmied, Flotte 3 goods, Zöllner, Kaufmann, Bettelmönch), the "
        "supply steps per round by number of players, the cards played per round, the ends "
        "of the tracks (field 15) and the final conversion of goods 3:1.\n\n"
        "Read from the rulebook with a choice of ours: the Bettelmönch's table prints goods "
        "under every second column only; pbem reads each value as standing for two columns "
        "(1, 1, 2, 2, 3, 3, 4, 4 goods for 1 to 8 cards played).\n\n"
        "Reconstructed by pbem: the rulebook prints only two exchange rates of the Markt "
        "track, both in its Kaufmann example (field 7 = 3:2 and field 9 = 2:2), and shows a "
        "2:1 rate somewhere below field 7. No reachable source prints the others, so the "
        "rates of fields "
        + ", ".join(str(i) for i in data.reconstructed_fields())
        + " are pbem's own, chosen to agree with every known rate and to rise steadily "
        "along the track (field 0 offers no exchange). Games here are played with these "
        "rates; the printed board may differ.\n\n"
        f"Data version {data.DATA_VERSION}. Every value, with its source, is in pbem's "
        "file pbem/games/visby/data.toml. An operator who has the printed board can correct "
        "a rate in a copy of that file (checked by the command “pbem data check visby”): new "
        "games start on it, running games keep the data they started with."
    )

    #: one sentence for the lobby: how much of the data is reconstructed
    data_note = (
        "All its card data is printed, except most exchange rates of the Markt track, which pbem "
        "reconstructed.")
    translations = {"de": {"description": DE["description"],
                           "data_note": ("Alle Kartendaten sind gedruckt, außer den meisten "
                                         "Tauschkursen der Markt-Leiste, die pbem rekonstruiert "
                                         "hat."),
                           "about_data": _ABOUT_DATA_DE,
                           "default_move_note": DE["default move"],
                           "options": {"target": DE["option target"]}}}

    def validate_options(self, options: dict[str, Any], players: int) -> None:
        # "Wir empfehlen, dass ihr (nach einigen Partien) bei 2 oder 3 Spielern so
        # lange spielt, bis einer von euch 45 oder mehr Siegel hat." (Ende des Spiels)
        if options.get("target") == 45 and players > 3:
            raise OptionError(
                f"Visby to 45 seals is for 2 or 3 players, as the rulebook says, not {players}"
            )

    def setup(self, players: int, options: dict[str, Any] | None, seed: str | int) -> State:
        return rules.new_state(players, self.resolve_options(options, players), str(seed))

    def to_move(self, state: State) -> list[int]:
        return rules.to_move(state)

    def legal_moves(self, state: State, seat: int) -> list[str]:
        return [move.notation() for move in rules.legal(state, seat)]

    def menu(self, state: State, seat: int, lang: str = "en") -> list[Choice]:
        return menu.menu(state, seat, lang)

    def menu_entry(self, state: State, seat: int, move: str, lang: str = "en"
                   ) -> Choice | None:
        return menu.entry(state, seat, move, lang)

    def is_secret(self, state: State) -> bool:
        # the cards are chosen face down; the merchants trade in the open
        return state["phase"] == "choose"

    def formality(self, state: State, seat: int) -> str | None:
        # a merchant without goods enough for any rate can only say "done"; a seat with
        # one card left to choose from can only choose it (in secret, as any choice)
        legal = rules.legal(state, seat)
        if state["phase"] == "trade" and legal == [moves.DONE]:
            return moves.DONE.notation()
        if state["phase"] == "choose" and len(legal) == 1:
            return legal[0].notation()
        return None

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

    def scores(self, state: State) -> list[int]:
        if self.is_over(state):
            return [rules.final_seals(state, s) for s in range(state["players"])]
        return list(state["seals"])

    def estimate(self, state: State) -> list[float]:
        # goods turn into seals at the end (3:1)
        return [float(rules.final_seals(state, s)) for s in range(state["players"])]

    def result(self, state: State) -> Result:
        if not self.is_over(state):
            raise ValueError("the game is not over yet")
        n = state["players"]
        scores = self.scores(state)
        rest = [rules.restwaren(state, s) for s in range(n)]
        hand = [len(state["hand"][s]) for s in range(n)]
        ranks = rank_by([(scores[s], rest[s], hand[s]) for s in range(n)])
        return Result(
            scores=scores,
            ranks=ranks,
            winners=[s for s in range(n) if ranks[s] == 1],
            tiebreaks=[[rest[s], hand[s]] for s in range(n)],
            tiebreak_names=list(EN["tiebreaks"]),
            details=sentences.result_lines(state, scores, "en"),
            tiebreak_names_in={"de": list(DE["tiebreaks"])},
            details_in={"de": sentences.result_lines(state, scores, "de")},
        )

    def view(self, state: State, seat: int | None) -> View:
        return view.build(state, seat)

    def render_text(self, view: View, names: list[str], lang: str = "en") -> str:
        return text.render(view, names, lang)

    def picture(self, view: View, names: list[str], lang: str = "en",
                links: Mapping[str, str] | None = None) -> str | None:
        return picture.draw(view, names, lang, links)

    def together(self, sentence: str, lang: str = "en") -> str | None:
        return sentences.together(sentence, lang)

    def tell_turn(self, seat: int, said: list[str], lang: str = "en") -> str | None:
        return sentences.tell_turn(seat, said, lang)

    def describe(self, before: State, seat: int, move: str, after: State,
                 viewer: int | None, lang: str = "en") -> str:
        return sentences.describe(before, seat, moves.parse(move), after, viewer, lang)

    def describe_all(self, before: State, seat: int, move: str, after: State,
                     langs: Sequence[str]) -> dict[str, tuple[str, str]]:
        return told_by_viewer(sentences.describe, before, seat, moves.parse(move), after, langs)

    def default_move(self, state: State, seat: int) -> str:
        """The timeout move (``DEFAULT_TIMEOUT_NOTE``): a card that changes nothing
        for the other seats, so an absent player neither helps nor hurts them.

        Bettelmönch and Schmied take their goods from the supply ("erhaltet sie
        aus dem allgemeinen Vorrat", 3. Schmied; 8. Bettelmönch), and no card
        counts a rival's Bettelmönch or Schmied; the Zöllner likewise takes its
        seals from the supply (6. Zöllner) but could end the game by them, so it
        comes third.  Never the Kaufmann while one of these is in hand: it would
        move the purse back for the other merchants (or reset it for everyone),
        feed their Bettelmönch 2 goods and make the absent seat trade.  The
        choice reads only the seat's own hand.  A merchant stops trading.
        """
        return rules.timeout_move(state, seat).notation()

    def bot_move(self, state: State, seat: int, rng: random.Random) -> str:
        return bot.choose(state, seat, rng).notation()

    def determinize(self, state: State, seat: int, rng: random.Random) -> State:
        return rules.determinize(state, seat, rng)

    @staticmethod
    def _moved_on(before: State, after: State) -> bool:
        """The move revealed the round (the last card chosen) or ended the trading."""
        return after["phase"] != before["phase"] or after["round"] != before["round"]

    def turn_over(self, before: State, seat: int, move: str, after: State) -> bool:
        # The last card chosen reveals the round: the decision the seat was asked
        # for is over even when it trades next, as a merchant, in a new decision.
        return self._turn_over(before, seat, after)

    def _turn_over(self, before: State, seat: int, after: State) -> bool:
        # ``turn_over`` without the round trip through the data version's wrapper (the
        # server asks both questions after every move); else as ``Rules.turn_over``
        return self._moved_on(before, after) or seat not in rules.to_move(after)

    def is_commit_point(self, before: State, seat: int, move: str, after: State) -> bool:
        # A secret card choice may be taken back until the cards are revealed,
        # even once the seat has chosen all its cards and its turn is over;
        # otherwise the turn's end is the commit point (a trade step can be taken
        # back until "done").  (``is_secret`` and ``turn_over`` asked without the data
        # version's wrapper around each.)
        if before["phase"] == "choose" and not self._moved_on(before, after):
            return False
        return self._turn_over(before, seat, after)

    def move_facts(self, before: State, seat: int, move: str, after: State) -> MoveFacts:
        # the three answers of every move the server records, in one call of the game:
        # ``round`` (``Rules.round``'s), and the turn's end asked once for the other two
        turn_end = self._turn_over(before, seat, after)
        secret_kept = before["phase"] == "choose" and not self._moved_on(before, after)
        return MoveFacts(int(before.get("round", 1)), turn_end, turn_end and not secret_kept)


GAME = Visby()
