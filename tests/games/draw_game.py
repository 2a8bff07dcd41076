"""Ziehen, the test suite's own game: a turn of steps with a private draw in the middle.

Two players take turns for ``ROUNDS`` rounds.  A turn is four moves, each the
only legal move at its step::

    step  ->  draw  ->  step  ->  end

``draw`` takes the top card of a deck shuffled at setup from the seed; the
card is secret: the others see only how many cards a seat holds, and read
"{0} draws a card" where the author reads the card.  The draw is a commit
point (hidden information was revealed to the author) that ends no turn;
``end`` ends the turn.  The score is the sum of the card values in hand.

Register it for a test with ``pbem.games.registered(GAME)``.  The notation
("step", "draw", "end") is what the server's tests click; keep it.
"""

from __future__ import annotations

from typing import Any

from pbem.games import rng
from pbem.games.protocol import (
    EVERYTHING,
    Choice,
    IllegalMoveError,
    MalformedMoveError,
    Result,
    Rules,
    State,
    View,
    rank_by,
)

ROUNDS = 3
#: the deck: card name -> value (more cards than are ever drawn, so the deck's
#: order stays partly unknown to the end)
CARDS: dict[str, int] = {
    "Anker": 1, "Fass": 2, "Kogge": 3, "Krone": 4, "Laterne": 5,
    "Netz": 6, "Ruder": 7, "Segel": 8, "Tau": 9, "Truhe": 10,
}
#: the moves of a turn, in order
TURN = ("step", "draw", "step", "end")
_LABELS = {
    "en": {"step": "Take a step", "draw": "Draw a card", "end": "End your turn"},
    "de": {"step": "Einen Schritt gehen", "draw": "Eine Karte ziehen", "end": "Zug beenden"},
}


class Ziehen(Rules):
    name = "ziehen"
    title = "Ziehen (test game)"
    min_players = 2
    max_players = 2
    rules_version = "1"
    description = "The test suite's own game: step, draw a secret card, step, end the turn."
    default_move_note = "On timeout the seat plays its only move."

    def setup(self, players: int, options: dict[str, Any] | None, seed: str | int) -> State:
        resolved = self.resolve_options(options, players)
        state: State = {
            "game": self.name,
            "rules_version": self.rules_version,
            "players": players,
            "options": resolved,
            "seed": str(seed),
            "draws": 0,
            "round": 1,
            "turn": 0,  # the seat whose turn it is
            "step": 0,  # index into TURN
            "hand": [[] for _ in range(players)],
            "over": False,
        }
        state["deck"] = rng.shuffled(state, sorted(CARDS))
        return state

    def to_move(self, state: State) -> list[int]:
        return [] if state["over"] else [state["turn"]]

    def legal_moves(self, state: State, seat: int) -> list[str]:
        if seat not in self.to_move(state):
            return []
        return [TURN[state["step"]]]

    def menu(self, state: State, seat: int, lang: str = "en") -> list[Choice]:
        labels = _LABELS.get(lang, _LABELS["en"])
        return [Choice(m, labels[m], "turn") for m in self.legal_moves(state, seat)]

    def apply(self, state: State, seat: int, move: str) -> State:
        move = self.parse(move)
        if move not in TURN:
            raise MalformedMoveError(f"{move!r} is not a move of Ziehen; moves are step, draw, end")
        if seat not in self.to_move(state):
            raise IllegalMoveError(f"seat {seat} is not to move")
        expected = TURN[state["step"]]
        if move != expected:
            raise IllegalMoveError(f"now the move is {expected!r}, not {move!r}")
        new = dict(state, hand=[list(h) for h in state["hand"]], deck=list(state["deck"]))
        if move == "draw":
            new["hand"][seat].append(new["deck"].pop(0))
        if move == "end":
            new["step"] = 0
            new["turn"] = (seat + 1) % new["players"]
            if new["turn"] == 0:
                new["round"] += 1
                new["over"] = new["round"] > ROUNDS
        else:
            new["step"] += 1
        return new

    def is_over(self, state: State) -> bool:
        return state["over"]

    def scores(self, state: State) -> list[int]:
        return [sum(CARDS[c] for c in hand) for hand in state["hand"]]

    def result(self, state: State) -> Result:
        if not self.is_over(state):
            raise ValueError("the game is not over yet")
        scores = self.scores(state)
        ranks = rank_by([(s,) for s in scores])
        return Result(scores=scores, ranks=ranks,
                      winners=[s for s, r in enumerate(ranks) if r == 1])

    def round(self, state: State) -> int:
        return min(state["round"], ROUNDS)

    def view(self, state: State, seat: int | None) -> View:
        seats = []
        for s, hand in enumerate(state["hand"]):
            entry: dict[str, Any] = {"seat": s, "cards": len(hand)}
            if seat == s or seat == EVERYTHING:
                entry["hand"] = list(hand)
            seats.append(entry)
        return {
            "game": self.name,
            "you": seat if seat is not None and seat >= 0 else None,
            "round": self.round(state),
            "rounds": ROUNDS,
            "to_move": self.to_move(state),
            "next": None if state["over"] else TURN[state["step"]],
            "deck_count": len(state["deck"]),  # never the deck's order
            "seats": seats,
        }

    def render_text(self, view: View, names: list[str], lang: str = "en") -> str:
        # Ziehen has no German: every language reads English (the protocol allows it)
        lines = [f"Ziehen, round {view['round']} of {view['rounds']}. "
                 f"Deck: {view['deck_count']} cards."]
        for entry in view["seats"]:
            hand = f": {', '.join(entry['hand'])}" if "hand" in entry else ""
            lines.append(f"{names[entry['seat']]}: {entry['cards']} cards{hand}")
        return "\n".join(lines)

    def describe(self, before: State, seat: int, move: str, after: State,
                 viewer: int | None, lang: str = "en") -> str:
        move = self.parse(move)
        if move == "draw":
            if viewer == seat or viewer == EVERYTHING:
                return f"{{{seat}}} draws {after['hand'][seat][-1]}"
            return f"{{{seat}}} draws a card"
        if move == "end":
            return f"{{{seat}}} ends the turn"
        return f"{{{seat}}} takes a step"

    def default_move(self, state: State, seat: int) -> str:
        moves = self.legal_moves(state, seat)
        if not moves:
            raise IllegalMoveError(f"seat {seat} is not to move")
        return moves[0]

    def turn_over(self, before: State, seat: int, move: str, after: State) -> bool:
        return self.parse(move) == "end"

    def is_commit_point(self, before: State, seat: int, move: str, after: State) -> bool:
        # the draw shows the author a card: what came before it cannot be taken back
        return self.parse(move) in ("draw", "end")


GAME = Ziehen()
