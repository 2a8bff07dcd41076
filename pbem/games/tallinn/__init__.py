"""Tallinn (Stefan Risthaus, OSTIA-Spiele 2016), by its full rules, with Der Legat
des Kaisers and the tower-order variant as options.

See ``rules`` for the state and the readings we chose, ``data`` for the card
contents with their sources, ``view`` for what a seat sees, ``picture`` for
the table as SVG, ``bot`` for the bot.
"""

from __future__ import annotations

import random
from typing import Any

from pbem.games.protocol import (
    EVERYTHING,
    Choice,
    Option,
    Result,
    Rules,
    State,
    View,
    rank_by,
)
from pbem.games.tallinn import bot, data, rules, words
from pbem.games.tallinn.picture import draw
from pbem.games.tallinn.view import build_view, render_text
from pbem.games.tallinn.words import (
    SOURCE_DE,
    card_name,
    card_text,
    estate,
    half_help,
    half_text,
    is_german,
)

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


class Tallinn(Rules):
    name = "tallinn"
    title = "Tallinn"
    min_players = 2
    max_players = 4
    rules_version = rules.RULES_VERSION
    data_version = data.DATA_VERSION
    template = "games/tallinn/view.html"
    stylesheet = "games/tallinn/style.css"
    default_move_note = DEFAULT_TIMEOUT_NOTE
    options = (
        Option("legat", "Der Legat des Kaisers (expansion)", (False, True), False,
               "Each player also holds the emperor's legate: one of each estate, or a "
               "contest for an estate of your choice with two extra persons. Up to 11 rounds."),
        Option("tower_order", "Tower-order variant", (False, True), False,
               "Towers are decided one after another in the open: most points first, then "
               "most towers, then seat order, instead of all at once in secret."),
    )
    description = (
        "Card game for 2-4 players: every round all choose an influence card in secret "
        "and which half is active; coins on the active halves start contests for the "
        "Kaufleute, Ritter or Mönche, and whoever held a contest may build a tower. The "
        "final scoring compares every estate and the towers. " + DEFAULT_TIMEOUT_NOTE
    )
    about_data = (
        "Printed in the rulebook (Tallinn, OSTIA-Spiele 2016) and used as printed: the rules "
        "and every number of the scoring (contests, final scoring, towers), the hand of 3 "
        "cards, the start of the track on 4, and Der Legat des Kaisers (one half 1 Kaufmann, "
        "1 Ritter, 1 Mönch; the other the imperial Wappen).\n\n"
        "From public sources (reviews and shop pages, listed in pbem's sources file): ten "
        "influence cards per set with 1 to 3 persons per half, six halves with a coin, card "
        "1 (2 Mönche / 1 Ritter with a coin), card 10 (2 Kaufleute / 1 Ritter and 1 Mönch, "
        "from the rulebook's illustration), and the start cards S1 (2 Mönche, 1 Ritter) and "
        "S2 (2 Ritter, 1 Kaufmann).\n\n"
        "Partly reconstructed: cards 7 and 8 hold the persons of the rulebook's "
        "final-scoring example; how they are split into halves is pbem's choice.\n\n"
        "Reconstructed by pbem, because no source prints them: the halves of cards "
        "2 to 6 and 9, and the start cards S3 to S6. They follow the patterns the sources "
        "describe (two persons of one estate / one person of another with a coin; a start "
        "card shows one estate twice, one once, one not at all), give every estate 13 "
        "persons per set, and let the rulebook's scoring example be reached in play. The "
        "numbers 1 to 10 on the cards are pbem's too. Games here are played with these "
        "cards; the printed cards may differ.\n\n"
        f"Data version {data.DATA_VERSION}. Every value, with its source, is in pbem's "
        "file pbem/games/tallinn/data.py; a corrected value there gets a new data version."
    )

    translations = {
        "de": {
            "description": (
                "Kartenspiel für 2-4 Personen: in jedem Durchgang wählen alle verdeckt eine "
                "Einflusskarte und welche Hälfte aktiv ist; Münzen auf den aktiven Hälften "
                "lösen Wettstreite um die Kaufleute, Ritter oder Mönche aus, und wer einen "
                "Wettstreit gehalten hat, darf einen Turm bauen. Die Schlusswertung "
                "vergleicht jeden Stand und die Türme. " + DEFAULT_TIMEOUT_NOTE_DE
            ),
            "default_move_note": DEFAULT_TIMEOUT_NOTE_DE,
            "options": {
                "legat": ("Der Legat des Kaisers (Erweiterung)",
                          "Alle halten zusätzlich den Legaten des Kaisers: je eine Person "
                          "jedes Standes, oder ein Wettstreit um einen Stand eigener Wahl mit "
                          "zwei Personen mehr. Bis zu 11 Durchgänge."),
                "tower_order": ("Variante Turmreihenfolge",
                                "Die Türme werden offen nacheinander entschieden: die meisten "
                                "Punkte zuerst, dann die meisten Türme, dann die Sitzordnung, "
                                "statt alle zugleich verdeckt."),
            },
        },
    }

    # -- setup and turn order ---------------------------------------------------

    def setup(self, players: int, options: dict[str, Any] | None, seed: str | int) -> State:
        return rules.new_state(players, self.resolve_options(options, players), str(seed))

    def to_move(self, state: State) -> list[int]:
        return rules.to_move(state)

    def legal_moves(self, state: State, seat: int) -> list[str]:
        return rules.legal_moves(state, seat)

    def is_secret(self, state: State) -> bool:
        return rules.is_secret(state)

    def apply(self, state: State, seat: int, move: str) -> State:
        return rules.apply(state, seat, move)

    def parse(self, move: str) -> str:
        return rules.notation(*rules.parse(move))

    def is_over(self, state: State) -> bool:
        return state["phase"] == "over"

    def round(self, state: State) -> int:
        return max(1, int(state["round"]))

    # -- menus -------------------------------------------------------------------

    def menu(self, state: State, seat: int, lang: str = "en") -> list[Choice]:
        return [self._choice(state, seat, move, lang) for move in rules.legal_moves(state, seat)]

    def _choice(self, state: State, seat: int, move: str, lang: str) -> Choice:
        de = lang == "de"
        kind, arg = rules.parse(move)
        lines = data.HELP["de" if de else "en"]
        if kind == "play":
            card, half = arg
            h = rules.half_of(card, half)
            what = half_text(h, lang)
            if h.muenze:
                code = h.coin_estate() or "K"
                what += (f": Wettstreit der {data.STAND_NAME[code]}" if de
                         else f": contest for the {estate(code)}")
            name = card_name(card, lang)
            label = (f"{name} ausspielen, aktiv: {what}" if de
                     else f"Play {name}, active half: {what}")
            return Choice(move, label, name, half_help(h, lang))
        if kind == "legat":
            mine = rules.display_counts(state, seat)[arg]
            label = (f"Wettstreit der {data.STAND_NAME[arg]} ({mine} + 2 Personen)" if de
                     else f"Contest for the {estate(arg)} ({mine} + 2 persons)")
            return Choice(move, label, "Legat",
                          lines["legat_estate"].format(estate=data.STAND_NAME[arg]))
        if kind == "none":
            return Choice(move, "Keinen Turm bauen" if de else "Build no tower",
                          "Turm" if de else "tower", lines["no_tower"])
        card = data.karte(arg)
        total = sum(h.total() for h in (card.a, card.b))
        source = rules.HAND if arg in state["hand"][seat] else rules.DISPLAY
        group = {(rules.HAND, True): "Turm aus der Hand",
                 (rules.HAND, False): "Tower from your hand",
                 (rules.DISPLAY, True): "Turm aus der Auslage",
                 (rules.DISPLAY, False): "Tower from your display"}[source, de]
        return Choice(move, f"{group}: {card_text(arg, lang)}", group,
                      lines[f"tower_{source}"].format(total=total))

    # -- scores ----------------------------------------------------------------

    def scores(self, state: State) -> list[int]:
        return list(state["points"])

    def result(self, state: State) -> Result:
        if not self.is_over(state):
            raise ValueError("the game is not over yet")
        n = state["players"]
        final = state["final"]
        scores = list(state["points"])
        persons = list(final["tower_persons"])
        ranks = rank_by([(scores[s], persons[s]) for s in range(n)])
        details, german = [], []
        for s in range(n):
            sign = "+" if final["gain"][s] >= 0 else ""
            details.append(f"{{{s}}}: {final['before'][s]} points before the final scoring "
                           f"{sign}{final['gain'][s]} = {scores[s]}")
            german.append(f"{{{s}}}: {final['before'][s]} Punkte vor der Schlusswertung "
                          f"{sign}{final['gain'][s]} = {scores[s]}")
            details.extend(f"  {line}" for line in final["lines"][s])
            german.extend(f"  {words.final_line(line)}" for line in final["lines"][s])
        return Result(
            scores=scores,
            ranks=ranks,
            winners=[s for s in range(n) if ranks[s] == 1],
            tiebreaks=[[persons[s]] for s in range(n)],
            tiebreak_names=["persons on tower cards"],
            details=details,
            tiebreak_names_in={"de": ["Personen auf Turmkarten"]},
            details_in={"de": german},
        )

    # -- information ------------------------------------------------------------

    def view(self, state: State, seat: int | None) -> View:
        return build_view(state, seat)

    def render_text(self, view: View, names: list[str], lang: str = "en") -> str:
        return render_text(view, names, lang)

    def picture(self, view: View, names: list[str], lang: str = "en") -> str | None:
        return draw(view, names, lang)

    def describe(self, before: State, seat: int, move: str, after: State,
                 viewer: int | None, lang: str = "en") -> str:
        kind, arg = rules.parse(move)
        sees = viewer == seat or viewer == EVERYTHING
        revealed = after["decision"] != before["decision"]
        if is_german(lang):
            return self._describe_de(before, seat, kind, arg, sees, revealed)
        if kind == "play":
            card, half = arg
            if sees:
                text = (f"{{{seat}}} chooses {card_name(card)} with "
                        f"{half_text(rules.half_of(card, half))} active")
            else:
                text = f"{{{seat}}} chooses a card in secret"
            return text + ("; all cards are revealed" if revealed else "")
        if kind == "legat":
            return f"{{{seat}}} holds the Legat's contest for the {estate(arg)}"
        public = before["options"]["tower_order"]  # the variant decides in the open
        source = rules.HAND if arg in before["hand"][seat] else rules.DISPLAY
        if not sees and not public:
            text = f"{{{seat}}} decides about a tower in secret"
        elif kind == "none":
            text = f"{{{seat}}} builds no tower"
        elif sees:
            text = f"{{{seat}}} builds a tower from {card_name(arg)} of their {source}"
        else:
            # the card stays face down: others learn only where it came from
            text = f"{{{seat}}} builds a tower from their {source}"
        if revealed and not public:
            text += "; the tower decisions are revealed"
        return text

    @staticmethod
    def _describe_de(before: State, seat: int, kind: str, arg: Any, sees: bool,
                     revealed: bool) -> str:
        """``describe`` in German: what the English says, and no more."""
        if kind == "play":
            card, half = arg
            if sees:
                text = (f"{{{seat}}} wählt {card_name(card, 'de')}, aktiv: "
                        f"{half_text(rules.half_of(card, half), 'de')}")
            else:
                text = f"{{{seat}}} wählt verdeckt eine Karte"
            return text + ("; alle Karten werden aufgedeckt" if revealed else "")
        if kind == "legat":
            return f"{{{seat}}} hält den Wettstreit des Legaten um die {estate(arg, 'de')}"
        public = before["options"]["tower_order"]
        source = rules.HAND if arg in before["hand"][seat] else rules.DISPLAY
        where = SOURCE_DE[source]
        if not sees and not public:
            text = f"{{{seat}}} entscheidet verdeckt über einen Turm"
        elif kind == "none":
            text = f"{{{seat}}} baut keinen Turm"
        elif sees:
            text = f"{{{seat}}} baut einen Turm: {card_name(arg, 'de')} aus der eigenen {where}"
        else:
            text = f"{{{seat}}} baut einen Turm aus der eigenen {where}"
        if revealed and not public:
            text += "; die Turmentscheidungen werden aufgedeckt"
        return text

    # -- server support -----------------------------------------------------------

    def default_move(self, state: State, seat: int) -> str:
        moves = rules.legal_moves(state, seat)
        if not moves:
            raise ValueError(f"seat {seat} is not to move")
        phase = state["phase"]
        if phase == "choose":
            card = state["hand"][seat][0]  # sorted: lowest number first, the Legat last
            a, b = (rules.half_of(card, h).total() for h in rules.HALVES)
            return rules.notation("play", (card, "b" if b > a else "a"))
        if phase == "legat":
            best = max(data.STAENDE, key=lambda code: (
                rules.contest(state, seat, code, data.LEGAT_PERSONEN)[0],
                -data.STAENDE.index(code)))
            return rules.notation("legat", best)
        return rules.NO_TOWER

    def bot_move(self, state: State, seat: int, rng: random.Random) -> str:
        return bot.choose(state, seat, rng)

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


GAME = Tallinn()
