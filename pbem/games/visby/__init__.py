"""Visby (Stefan Risthaus, OSTIA-Spiele 2015), by its full rules.

See ``rules`` for the state and the readings we chose (the timeout default
among them), ``data`` for the board and card values with their sources and a
line of help per card, ``view`` for what a seat sees, ``menu`` for the moves
as people read them, ``picture`` for the table as an SVG.
"""

from __future__ import annotations

from typing import Any

from pbem.games.protocol import (
    EVERYTHING,
    Choice,
    Option,
    OptionError,
    Result,
    Rules,
    State,
    View,
    rank_by,
)
from pbem.games.visby import data, rules, words
from pbem.games.visby.menu import menu as build_menu
from pbem.games.visby.picture import picture as draw_picture
from pbem.games.visby.view import build_view, render_text

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


class Visby(Rules):
    name = "visby"
    title = "Visby"
    min_players = 2
    max_players = 6
    rules_version = rules.RULES_VERSION
    data_version = data.DATA_VERSION
    template = "games/visby/view.html"
    stylesheet = "games/visby/style.css"
    default_move_note = DEFAULT_TIMEOUT_NOTE
    options = (
        Option(
            "target",
            "Seals that end the game",
            (30, 45),
            30,
            "30 is the standard game; the rulebook recommends 45 for 2 or 3 experienced players.",
        ),
    )
    description = (
        "Card game for 2-6 players: all choose action cards in secret, then the cards "
        "resolve in the printed order Truppen, Ritter, Schmied, Flotte, Schiff, Zöllner, "
        "Kaufmann, Bettelmönch. First to the target of seals ends the round and the game. "
        + DEFAULT_TIMEOUT_NOTE
    )
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
        "file pbem/games/visby/data.py; a corrected value there gets a new data version."
    )

    translations = {
        "de": {
            "description": (
                "Kartenspiel für 2-6 Personen: alle wählen verdeckt Aktionskarten, dann "
                "werden die Karten in der gedruckten Reihenfolge Truppen, Ritter, Schmied, "
                "Flotte, Schiff, Zöllner, Kaufmann, Bettelmönch ausgewertet. Wer zuerst die "
                "Zielzahl an Siegeln erreicht, beendet den Durchgang und das Spiel. "
                + DEFAULT_TIMEOUT_NOTE_DE
            ),
            "default_move_note": DEFAULT_TIMEOUT_NOTE_DE,
            "options": {
                "target": ("Siegel, mit denen das Spiel endet",
                           "30 ist das Standardspiel; die Spielregel empfiehlt 45 für 2 oder "
                           "3 erfahrene Personen."),
            },
        },
    }

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
        return rules.legal_moves(state, seat)

    def menu(self, state: State, seat: int, lang: str = "en") -> list[Choice]:
        return build_menu(state, seat, lang)

    def is_secret(self, state: State) -> bool:
        # the cards are chosen face down; the merchants trade in the open
        return state["phase"] == "choose"

    def formality(self, state: State, seat: int) -> str | None:
        # a merchant without goods enough for any rate can only say "done"
        if state["phase"] == "trade" and rules.legal_moves(state, seat) == [rules.DONE]:
            return rules.DONE
        return None

    def apply(self, state: State, seat: int, move: str) -> State:
        return rules.apply(state, seat, move)

    def parse(self, move: str) -> str:
        return rules.notation(*rules.parse(move))

    def is_over(self, state: State) -> bool:
        return state["phase"] == "over"

    def scores(self, state: State) -> list[int]:
        if self.is_over(state):
            return [rules.final_seals(state, s) for s in range(state["players"])]
        return list(state["seals"])

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
            tiebreak_names=["goods left over after the 3:1 conversion", "cards in hand"],
            details=[
                f"{{{s}}}: {rules.amount(state['seals'][s], 'seal')} + "
                f"{state['goods'][s] // data.SCHLUSSKURS} for "
                f"{rules.amount(state['goods'][s], 'goods')} at 3:1 = {scores[s]}"
                for s in range(n)
            ],
            # the rulebook: "die höhere Anzahl an Restwaren", "mehr verbliebenen Handkarten"
            tiebreak_names_in={"de": ["Restwaren nach dem Umtausch 3:1",
                                      "verbliebene Handkarten"]},
            details_in={"de": [
                f"{{{s}}}: {words.seals(state['seals'][s])} + "
                f"{state['goods'][s] // data.SCHLUSSKURS} für "
                f"{words.goods(state['goods'][s])} zu 3:1 = {scores[s]}"
                for s in range(n)
            ]},
        )

    def view(self, state: State, seat: int | None) -> View:
        return build_view(state, seat)

    def render_text(self, view: View, names: list[str], lang: str = "en") -> str:
        return render_text(view, names, lang)

    def picture(self, view: View, names: list[str], lang: str = "en") -> str | None:
        return draw_picture(view, names, lang)

    def describe(self, before: State, seat: int, move: str, after: State,
                 viewer: int | None, lang: str = "en") -> str:
        kind, arg = rules.parse(move)
        if words.lang_of(lang) == "de":
            if kind == "play":
                if viewer == seat or viewer == EVERYTHING:
                    return f"{{{seat}}} wählt {arg}"
                return f"{{{seat}}} wählt verdeckt eine Karte"
            if kind == "trade":
                return (f"{{{seat}}} tauscht {words.goods(arg[0])} gegen "
                        f"{words.seals(arg[1])}")
            return f"{{{seat}}} beendet den Handel"
        if kind == "play":
            if viewer == seat or viewer == EVERYTHING:
                return f"{{{seat}}} chooses {arg}"
            return f"{{{seat}}} chooses a card in secret"
        if kind == "trade":
            return (f"{{{seat}}} trades {rules.amount(arg[0], 'goods')} for "
                    f"{rules.amount(arg[1], 'seal')}")
        return f"{{{seat}}} is done trading"

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
        return rules.timeout_move(state, seat)

    @staticmethod
    def _moved_on(before: State, after: State) -> bool:
        """The move revealed the round (the last card chosen) or ended the trading."""
        return after["phase"] != before["phase"] or after["round"] != before["round"]

    def turn_over(self, before: State, seat: int, move: str, after: State) -> bool:
        # The last card chosen reveals the round: the decision the seat was asked
        # for is over even when it trades next, as a merchant, in a new decision.
        if self._moved_on(before, after):
            return True
        return super().turn_over(before, seat, move, after)

    def is_commit_point(self, before: State, seat: int, move: str, after: State) -> bool:
        # A secret card choice may be taken back until the cards are revealed,
        # even once the seat has chosen all its cards and its turn is over;
        # otherwise the turn's end is the commit point (a trade step can be taken
        # back until "done").
        if self.is_secret(before) and not self._moved_on(before, after):
            return False
        return self.turn_over(before, seat, move, after)


GAME = Visby()
