"""What one seat of Tallinn may see (``text`` reads it as plain text, ``picture`` draws it).

Public: every display (Auslage) and start card, points, how many cards each
seat holds and has on its pile, how many towers each built and where from,
who has still to decide.  Private to a seat: its hand, its pending card
choice and orientation, its pending tower decision, the faces of its own
towers.  Never in a view before the end: the seed, the draw counter, the
order of any pile, another seat's hand, choice or tower faces.  Once the
game is over the towers are turned up for everyone (the final scoring);
``EVERYTHING`` sees all at any time (for the archive).
"""

from __future__ import annotations

import functools
from typing import Any

from pbem.games.protocol import EVERYTHING, View
from pbem.games.tallinn import data, rules
from pbem.games.tallinn.words import DE, card_name, card_text, half_text


def half_view(card: str, half: str) -> dict[str, Any]:
    """A half's entry in a view: the one entry of the data version, shared by every view
    that shows the half (``_half``)."""
    return _half(data.SETS.active.version, card, half)


# A half reads the same in every view of a data version (a view names some forty halves,
# and every page and mail of a table makes views): its entry is made once and every view
# shares it.  A view is read, never changed (its text and its picture are drawn from it,
# it is written as JSON): nobody changes a shared entry.  A copy for each view was half
# of making one, and the picture and the text then read forty copies where they read
# one entry each.
@functools.lru_cache(maxsize=1024)
def _half(_version: str, card: str, half: str) -> dict[str, Any]:
    """``half_view``'s entry, made once per data version."""
    h = rules.half_of(card, half)
    return {"card": card, "half": half, "persons": h.persons(), "coin": h.coin_estate(),
            "wappen": h.wappen, "text": half_text(h), "text_de": half_text(h, "de")}


def card_view(card: str) -> dict[str, Any]:
    """Both halves of a card, for a hand or a turned-up tower (its halves shared, as
    ``half_view``'s)."""
    version = data.SETS.active.version
    name, text, text_de = _card(version, card)
    return {
        "card": card,
        "name": name,
        "text": text,
        "text_de": text_de,
        "halves": [_half(version, card, h) for h in rules.HALVES],
    }


@functools.lru_cache(maxsize=512)
def _card(_version: str, card: str) -> tuple[str, str, str]:
    return card_name(card), card_text(card), card_text(card, "de")


def start_view(name: str) -> dict[str, Any]:
    """A start card in a seat's entry: its name, persons and words (an entry of its own:
    one a seat, where a half is shared by forty)."""
    persons, text, text_de = _start(data.SETS.active.version, name)
    return {"card": name, "persons": dict(persons), "text": text, "text_de": text_de}


# a start card reads the same in every view of a data version (each view names one per
# seat, and its words took a dozen calls)
@functools.lru_cache(maxsize=256)
def _start(_version: str, name: str) -> tuple[dict[str, int], str, str]:
    start = data.STARTKARTEN[name]
    return start.persons.persons(), half_text(start.persons), half_text(start.persons, "de")


def _status(state: dict[str, Any], seat: int, moving: list[int]) -> str:
    phase = state["phase"]
    if phase == "over":
        return "done"
    if phase == "choose":
        if not state["hand"][seat]:
            return "out of cards"
        return "choosing" if seat in moving else "has chosen"
    if phase == "legat":
        return "choosing the Legat's estate" if seat in moving else "waiting"
    if seat in moving:
        return "deciding about a tower"
    if seat in state["builders"]:
        return "has decided about a tower"
    return "waiting"


def build(state: dict[str, Any], seat: int | None) -> View:
    n = state["players"]
    sees_all = seat == EVERYTHING
    over = state["phase"] == "over"
    moving = rules.to_move(state)
    seats = []
    for s in range(n):
        mine = sees_all or s == seat
        status = _status(state, s, moving)
        entry: dict[str, Any] = {
            "seat": s,
            "points": state["points"][s],
            "start": start_view(state["start"][s]),
            "display": [half_view(c, h) for c, h in state["display"][s]],
            "counts": rules.display_counts(state, s),
            "hand_count": len(state["hand"][s]),
            "pile_count": len(state["pile"][s]),
            "tower_count": len(state["towers"][s]),
            "towers": [
                dict({"from": t["from"], "round": t["round"]},
                     **(card_view(t["card"]) if mine or over else {}))
                for t in state["towers"][s]
            ],
            "status": status,
            # the status in German, for a German page (the template reads no Python)
            "status_de": DE["status"].get(status, ""),
            "to_move": s in moving,
            "played": half_view(*state["played"][s]) if state["played"][s] else None,
        }
        if state["phase"] == "legat" and state["legat"][s]:
            entry["legat"] = state["legat"][s]  # public: the cards are revealed
        if mine:
            entry["hand"] = [card_view(c) for c in state["hand"][s]]
            chosen = state["chosen"][s]
            entry["chosen"] = half_view(*chosen) if chosen else None
            choice = state["tower_choice"][s]
            entry["tower_choice"] = choice if choice is None or choice == "none" else dict(choice)
        if state["options"]["tower_order"] and state["phase"] == "tower":
            # decided in the open: the source (never the card) is public
            choice = state["tower_choice"][s]
            if choice is not None:
                entry["tower_public"] = "none" if choice == "none" else choice["from"]
        seats.append(entry)
    view: View = {
        "game": "tallinn",
        "you": seat if seat is not None and seat >= 0 else None,
        "round": state["round"],
        "max_rounds": rules.max_rounds(state),
        "phase": state["phase"],
        "players": n,
        "options": dict(state["options"]),
        "to_move": moving,
        "secret": rules.is_secret(state),
        "builders": list(state["builders"]),
        "tower_queue": list(state["tower_queue"]) if state["options"]["tower_order"] else [],
        "seats": seats,
        "events": list(state["events"]),
        "events_round": state["events_round"],
        # the contests of the last reveal as data (the events tell them in words)
        "contests": [dict(c, against=[dict(a) for a in c["against"]])
                     for c in state.get("contests", [])],
        "data_version": state.get("data_version", data.DATA_VERSION),
    }
    if over and state["final"]:
        f = state["final"]
        view["final"] = [
            {"seat": s, "before": f["before"][s], "gain": f["gain"][s],
             "points": state["points"][s], "counts": f["counts"][s],
             "legat_bonus": f["legat_bonus"][s], "towers": f["towers"][s],
             "tower_value": f["tower_value"][s], "tower_estate": f["tower_estate"][s],
             "tower_persons": f["tower_persons"][s], "lines": list(f["lines"][s])}
            for s in range(n)
        ]
    return view
