"""What one seat of Visby may see (``text`` reads it as plain text, ``picture`` draws it).

Everyone holds the same eight cards and the discard piles lie open, so hands
are public knowledge in principle; the only secret is the card a player has
chosen this round before all cards are revealed.  A seat's view therefore has
its own hand and pending choice, and of the others only how many cards they
have chosen so far.
"""

from __future__ import annotations

from typing import Any

from pbem.games.protocol import EVERYTHING, View
from pbem.games.visby import data, rules


def build(state: dict[str, Any], seat: int | None) -> View:
    n = state["players"]
    sees_all = seat == EVERYTHING
    kurs_feld = state["kurs_feld"] if state["kurs_feld"] is not None else state["tracks"]["Markt"]
    kurs = data.MARKT[kurs_feld]
    moving = rules.to_move(state)
    seats = []
    for s in range(n):
        hand = rules.cards_held(state, s)
        entry: dict[str, Any] = {
            "seat": s,
            "goods": state["goods"][s],
            "seals": state["seals"][s],
            "hand_count": len(hand),
            "discard": list(state["discard"][s]),
            "chosen_count": len(state["chosen"][s]),
            "choosing": state["phase"] == "choose" and s in moving,
            "trading": state["phase"] == "trade" and s in moving,
            "played": list(state["played"][s]),
        }
        if sees_all or s == seat:
            entry["hand"] = hand
            entry["chosen"] = list(state["chosen"][s])
        seats.append(entry)
    view: View = {
        "game": "visby",
        "you": seat if seat is not None and seat >= 0 else None,
        "round": state["round"],
        "phase": state["phase"],
        "players": n,
        "target": state["options"]["target"],
        "cards_per_round": rules.cards_per_round(state),
        "tracks": dict(state["tracks"]),
        "kurs_feld": kurs_feld,
        "kurs": str(kurs) if kurs else None,
        "to_move": moving,
        "seats": seats,
        "events": list(state["events"]),
        "events_round": state["events_round"],
    }
    if state["phase"] == "trade":
        view["rates"] = [f"{w}:{s}" for w, s in rules.rates_up_to(state["kurs_feld"])]
    if state["phase"] == "over":
        view["final"] = [
            {"seat": s, "seals": rules.final_seals(state, s),
             "restwaren": rules.restwaren(state, s)}
            for s in range(n)
        ]
    return view
