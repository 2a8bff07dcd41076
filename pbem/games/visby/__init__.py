"""Visby (Stefan Risthaus, OSTIA-Spiele 2015), by its full rules.

See ``rules`` for the state and the readings we chose, ``data`` for the board
and card values with their sources, ``view`` for what a seat sees.
"""

from __future__ import annotations

from typing import Any

from pbem.games.protocol import (
    EVERYTHING,
    Option,
    Result,
    Rules,
    State,
    View,
    rank_by,
)
from pbem.games.visby import data, rules
from pbem.games.visby.view import build_view, render_text

DEFAULT_TIMEOUT_NOTE = (
    "On timeout a seat that must choose plays its Bettelmönch if it holds it (a modest "
    "card that takes the discard back), otherwise the card latest in the printed order "
    "that it holds; a merchant who must trade stops trading ('done')."
)


class Visby(Rules):
    name = "visby"
    title = "Visby"
    min_players = 2
    max_players = 6
    rules_version = rules.RULES_VERSION
    data_version = data.DATA_VERSION
    template = "games/visby/view.html"
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
        "Note on data: the rulebook prints only two exchange rates of the Markt track "
        "(field 7 = 3:2, field 9 = 2:2); the other fields are reconstructed by pbem and "
        f"marked so in its data file (data version {data.DATA_VERSION}). "
        + DEFAULT_TIMEOUT_NOTE
    )

    def setup(self, players: int, options: dict[str, Any] | None, seed: int) -> State:
        return rules.new_state(players, self.resolve_options(options, players), seed)

    def to_move(self, state: State) -> list[int]:
        return rules.to_move(state)

    def legal_moves(self, state: State, seat: int) -> list[str]:
        return rules.legal_moves(state, seat)

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
        )

    def view(self, state: State, seat: int | None) -> View:
        return build_view(state, seat)

    def render_text(self, view: View, names: list[str]) -> str:
        return render_text(view, names)

    def describe(self, state: State, seat: int, move: str, viewer: int | None) -> str:
        kind, arg = rules.parse(move)
        if kind == "play":
            if viewer == seat or viewer == EVERYTHING:
                return f"{{{seat}}} chooses {arg}"
            return f"{{{seat}}} chooses a card in secret"
        if kind == "trade":
            return (f"{{{seat}}} trades {rules.amount(arg[0], 'goods')} for "
                    f"{rules.amount(arg[1], 'seal')}")
        return f"{{{seat}}} is done trading"

    def default_move(self, state: State, seat: int) -> str:
        moves = rules.legal_moves(state, seat)
        if not moves:
            raise ValueError(f"seat {seat} is not to move")
        if state["phase"] == "trade":
            return rules.DONE
        if "play Bettelmönch" in moves:
            return "play Bettelmönch"
        return moves[-1]

    def is_commit_point(self, before: State, seat: int, move: str, after: State) -> bool:
        # A secret choice can be changed until the cards are revealed (the
        # round number or phase moves on); a trade step until "done".
        if after["phase"] != before["phase"] or after["round"] != before["round"]:
            return True
        return rules.parse(move)[0] == rules.DONE


GAME = Visby()
