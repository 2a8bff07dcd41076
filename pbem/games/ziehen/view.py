"""What one seat of Ziehen may see.

Public: the round, whose turn and which step, how many cards each seat holds and how
many are left in the deck.  Private to a seat: its own hand.  Never in a view: the
seed, the draw counter, the order of the deck.  ``EVERYTHING`` (the archive) sees
every hand.
"""

from __future__ import annotations

from typing import Any

from pbem.games.protocol import EVERYTHING, State, View
from pbem.games.ziehen import rules


def build(state: State, seat: int | None) -> View:
    seats = []
    for s, hand in enumerate(state["hand"]):
        entry: dict[str, Any] = {"seat": s, "cards": len(hand)}
        if seat == s or seat == EVERYTHING:
            entry["hand"] = list(hand)
        seats.append(entry)
    return {
        "game": "ziehen",
        "you": seat if seat is not None and seat >= 0 else None,
        "round": min(state["round"], rules.ROUNDS),
        "rounds": rules.ROUNDS,
        "to_move": rules.to_move(state),
        "next": None if state["over"] else rules.TURN[state["step"]],
        "deck_count": len(state["deck"]),  # never the deck's order
        "seats": seats,
    }
