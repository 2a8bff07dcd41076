"""What a seat sees of Macao (``text`` and ``picture`` render it).

Everything on the table is public in Macao (tableaus, gold, cubes, cargo); only
the deck's order is hidden, and the seed.
"""

from __future__ import annotations

from typing import Any

from pbem.games.macao import data, rules, steps
from pbem.games.macao.words import card_help, card_name, pool_text


def build(state: dict[str, Any], seat: int | None) -> dict[str, Any]:
    graf = rules.graf_senkt(state)
    # each card in both languages: the template reads English, or for ``lang`` "de"
    # the printed German names and texts; its English help is the "help" below
    words, shown = _words(graf), _cards_shown(state)
    for c in shown:
        if c not in words:
            words[c] = _card_words(c, graf)
    # each card's entry shared by every view of the data version (a view is read, never
    # changed: its text and picture are drawn from it, it is written as JSON); a copy of
    # each of its some forty cards was a third of making a view
    cards = {c: words[c] for c in shown}
    # each seat's wall field, in one pass over the wall
    wall = {s: i for i, stack in enumerate(state["wall"]) for s in stack}
    seats = []
    for s, me in enumerate(state["seats"]):
        seats.append({
            "seat": s, "gold": me["gold"], "pp": me["pp"], "penalties": me["penalties"],
            "tableau": list(me["tableau"]), "active": list(me["active"]),
            "rose": [dict(field) for field in me["rose"]], "goods": list(me["goods"]),
            "jokers": me["jokers"], "ship": me["ship"], "wall": wall[s],
            "area": rules.largest_area(state["city"], s),
            "spent": _spent(me),
        })
    return {
        "game": "macao", "seat": seat, "round": state["round"], "phase": state["phase"],
        "to_move": rules.to_move(state), "order": rules.wall_order(state),
        "wall": [list(stack) for stack in state["wall"]], "tribute": list(state["tribute"]),
        "display": list(state["display"]), "dice": [list(d) for d in state["dice"]],
        "offices": [list(p) for p in state["offices"][max(0, state["round"]):]],
        "city": dict(state["city"]), "tiles": dict(state["tiles"]),
        "harbours": {h: list(v) for h, v in state["harbours"].items()},
        # what each harbour takes and its spaces' prestige (board data, for the template)
        "harbour_spec": data.SETS.active.kept("harbour spec", _harbour_spec),
        "deck_count": len(state["deck"]), "discard": list(state["discard"]),
        "seats": seats, "final": state["final"],
        # whether the Graf lowers costs (rules.graf_senkt): its help says so
        "graf_senkt": graf,
        "help": {c: words["help"] for c, words in cards.items()},
        "cards": cards,
        "you": seat if isinstance(seat, int) and seat >= 0 else None,
        "owed": _owed(state),
    }


def _harbour_spec() -> dict[str, dict[str, Any]]:
    """What each harbour takes and its spaces' prestige: board data, the same in every view
    of the data version, which shares it (a view is read, never changed)."""
    return {h: {"good": g, "values": list(v)} for h, (g, v) in data.HARBOURS.items()}


def _spent(me: dict[str, Any]) -> dict[str, Any]:
    """What the seat has spent of this round's action turn (R 3: each action once, a card
    once a round): the cards used, whether it advanced on the wall, bought the tribute,
    took its district (a Zimmermann's: how many), and how far its ship moved."""
    return {"used": list(me["used"]), "wall": bool(me["walled"]),
            "tribute": bool(me["bought"]), "district": bool(me["district"]),
            "districts": int(me.get("districts", 1 if me["district"] else 0)),
            "moved": int(me["moved"])}


def _owed(state: dict[str, Any]) -> dict[str, Any] | None:
    """An open payment (or taking) of cubes of any colour: whose, and how many cubes are
    still owed (``pay``) or still to take (``gain``); None when none is open."""
    step = steps.read(state["pending"])
    if not isinstance(step, (steps.Paying, steps.Gaining)) or not state["queue"]:
        return None
    kind = "pay" if isinstance(step, steps.Paying) else "gain"
    return {"seat": state["queue"][0], kind: step.cubes}


def _cards_shown(state: dict[str, Any]) -> list[str]:
    out = list(state["display"]) + [c for pair in state["offices"] for c in pair]
    for me in state["seats"]:
        out += me["tableau"] + me["active"]
    return out


def _words(graf: bool) -> dict[str, dict[str, Any]]:
    """The cards' words (``_card_words``) made so far for the active data version."""
    # a view shows some fifty cards, each in both languages, and every seat's view of
    # every state shows them again: each card's words are made once per data version
    # (the cards' costs and kinds are the version's)
    version = data.SETS.active
    key = (id(version), graf)
    found = _CARDS.get(key)
    if found is None or found[0] is not version:
        found = _CARDS[key] = (version, {})
    return found[1]


#: ``_words`` by (id of the data version, whether the Graf lowers costs), each kept
#: with its version (so that an id is never reused for another while cached)
_CARDS: dict[tuple[int, bool], tuple[Any, dict[str, dict[str, Any]]]] = {}


def _card_words(c: str, graf: bool) -> dict[str, Any]:
    cost = data.cost_cubes(c)
    return {"name": card_name(c), "cost": pool_text(cost), "help": card_help(c, "en", graf),
            "name_de": card_name(c, "de"), "cost_de": pool_text(cost, "de"),
            "help_de": card_help(c, "de", graf), "kind": data.CARDS[c].kind}
