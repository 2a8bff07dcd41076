"""Ziehen, pbem's example game: the shape every game's package has.  Copy it to start one.

The game: two players take turns for ``rules.ROUNDS`` rounds.  A turn is four moves,
each the only legal move at its step::

    step  ->  draw  ->  step  ->  end

``draw`` takes the top card of a deck shuffled at setup from the seed; the card is
secret: the others see only how many cards a seat holds, and read "{0} draws a card"
where the author reads the card.  The draw is a commit point (hidden information was
revealed to the author) that ends no turn; ``end`` ends the turn.  The score is the sum
of the card values in hand.

The package, one job per module (see ``pbem/games/protocol.py``, "The shape of a game"):

``__init__``  this class: the protocol's methods, each short, calling the module whose
              job it is; nothing else (helpers live in the modules)
``rules``     the state, the legal moves, apply, scoring; the readings of the rulebook
``data``      the card and board values: the schema of ``data.toml`` beside it, each
              value there with its source; ``@plays_on`` plays a game on its version
``moves``     the moves as small values: ``Move.from_notation()`` and ``.notation()``
``menu``      the legal moves as choices for people (labels, groups, help, steps)
``sentences`` a move told as a sentence, per viewer (``describe``)
``view``      what one seat may see
``text``      a view as plain text (mails, the seat page)
``picture``   a view as an SVG picture, on the shared canvas
``bot``       what a bot plays
``words``     every word the game says to people, one table per language

Ziehen is not offered to players: it is in ``pbem.games.EXAMPLES``, not in the
registry.  Tests register it for a while with ``pbem.games.registered(GAME)``.  The
notation ("step", "draw", "end") is what the server's tests click; keep it.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from pbem.games.datafile import plays_on
from pbem.games.protocol import (
    Choice,
    IllegalMoveError,
    Log,
    MoveFacts,
    PositionError,
    Result,
    Rules,
    State,
    Use,
    View,
    told_by_viewer,
)
from pbem.games.ziehen import bot, data, menu, moves, picture, rules, sentences, text, view
from pbem.games.ziehen.moves import DRAW, END, Move
from pbem.games.ziehen.rules import ROUNDS, TURN

__all__ = ["CARDS", "GAME", "ROUNDS", "TURN", "Move", "Ziehen"]

#: the shipped deck (a game plays on its own version's: ``data.CARDS`` while it runs)
CARDS: dict[str, int] = data.SETS.shipped.derived["CARDS"]


@plays_on(data.SETS)
class Ziehen(Rules):
    name = "ziehen"
    title = "Ziehen (example game)"
    min_players = 2
    max_players = 2
    rules_version = rules.RULES_VERSION
    data_version = data.DATA_VERSION
    description = "pbem's example game: step, draw a secret card, step, end the turn."
    data_note = "All its values are pbem's own: the example game has no printed edition."
    default_move_note = "On timeout the seat plays its only move."
    translations = {
        "de": {
            "description": "pbems Beispielspiel: ein Schritt, eine geheime Karte ziehen, "
                           "ein Schritt, Zug beenden.",
            "default_move_note": "Läuft die Zeit ab, spielt der Platz seinen einzigen Zug.",
            "data_note": 'Alle Werte sind pbems eigene: Das Beispielspiel gibt es nicht gedruckt.',
        },
    }

    # -- setup and turn order ----------------------------------------------------

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

    def apply(self, state: State, seat: int, move: str) -> State:
        return rules.apply(state, seat, moves.parse(move))

    def uses(self, log: Log) -> list[Use]:
        return moves.uses(log)

    def start_seat(self, log: Log) -> int | None:
        return moves.start_seat(log)

    def parse(self, move: str) -> str:
        return moves.parse(move).notation()

    def turn_over(self, before: State, seat: int, move: str, after: State) -> bool:
        return moves.parse(move).verb == END

    def is_commit_point(self, before: State, seat: int, move: str, after: State) -> bool:
        # the draw shows the author a card: what came before it cannot be taken back
        return moves.parse(move).verb in (DRAW, END)

    def move_facts(self, before: State, seat: int, move: str, after: State) -> MoveFacts:
        # the three questions the server asks of every move it records, in one call (by
        # default ``Rules`` asks the three methods): the move read once
        verb = moves.parse(move).verb
        return MoveFacts(min(before["round"], ROUNDS), verb == END, verb in (DRAW, END))

    # -- the end -----------------------------------------------------------------

    def is_over(self, state: State) -> bool:
        return state["over"]

    def scores(self, state: State) -> list[int]:
        return rules.scores(state)

    def result(self, state: State) -> Result:
        if not self.is_over(state):
            raise ValueError("the game is not over yet")
        ranks = rules.ranks(state)
        return Result(scores=rules.scores(state), ranks=ranks,
                      winners=[s for s, r in enumerate(ranks) if r == 1])

    def round(self, state: State) -> int:
        return min(state["round"], ROUNDS)

    # -- what people see and read --------------------------------------------------

    def view(self, state: State, seat: int | None) -> View:
        return view.build(state, seat)

    def render_text(self, view: View, names: list[str], lang: str = "en") -> str:
        return text.render(view, names, lang)

    def picture(self, view: View, names: list[str], lang: str = "en",
                links: Mapping[str, str] | None = None) -> str | None:
        return picture.draw(view, names, lang, links)

    def describe(self, before: State, seat: int, move: str, after: State,
                 viewer: int | None, lang: str = "en") -> str:
        return sentences.describe(before, seat, moves.parse(move), after, viewer, lang)

    def describe_all(self, before: State, seat: int, move: str, after: State,
                     langs: Sequence[str]) -> dict[str, tuple[str, str]]:
        return told_by_viewer(sentences.describe, before, seat, moves.parse(move), after, langs)

    # -- server support ------------------------------------------------------------

    def default_move(self, state: State, seat: int) -> str:
        legal = rules.legal(state, seat)
        if not legal:
            raise IllegalMoveError(f"seat {seat} is not to move")
        return legal[0].notation()

    def bot_move(self, state: State, seat: int, rng: random.Random) -> str:
        return bot.choose(state, seat, rng).notation()

    def determinize(self, state: State, seat: int, rng: random.Random) -> State:
        return rules.determinize(state, seat, rng)


    def check_invariants(self, state: State) -> None:
        problem = rules.cards_problem(state)
        if problem:
            raise PositionError(problem)

GAME = Ziehen()
