"""What a seat sees of Macao, and the view as plain text for a mail.

Everything on the table is public in Macao (tableaus, gold, cubes, cargo); only
the deck's order is hidden, and the seed.
"""

from __future__ import annotations

from typing import Any

from pbem.games.macao import data, rules
from pbem.games.macao.words import card_help, card_name, colour, good, pool_text


def build_view(state: dict[str, Any], seat: int | None) -> dict[str, Any]:
    seats = []
    for s, me in enumerate(state["seats"]):
        seats.append({
            "seat": s, "gold": me["gold"], "pp": me["pp"], "penalties": me["penalties"],
            "tableau": list(me["tableau"]), "active": list(me["active"]),
            "rose": [dict(field) for field in me["rose"]], "goods": list(me["goods"]),
            "jokers": me["jokers"], "ship": me["ship"], "wall": rules.wall_position(state, s),
            "area": rules.largest_area(state["city"], s),
        })
    return {
        "game": "macao", "seat": seat, "round": state["round"], "phase": state["phase"],
        "to_move": rules.to_move(state), "order": rules.wall_order(state),
        "wall": [list(stack) for stack in state["wall"]], "tribute": list(state["tribute"]),
        "display": list(state["display"]), "dice": [list(d) for d in state["dice"]],
        "offices": [list(p) for p in state["offices"][max(0, state["round"]):]],
        "city": dict(state["city"]), "tiles": dict(state["tiles"]),
        "harbours": {h: list(v) for h, v in state["harbours"].items()},
        "deck_count": len(state["deck"]), "discard": list(state["discard"]),
        "seats": seats, "final": state["final"],
        "help": {c: card_help(c) for c in _cards_shown(state)},
        "cards": {c: {"name": card_name(c), "cost": pool_text(_cost(c)), "help": card_help(c),
                      "kind": data.CARDS[c].kind} for c in _cards_shown(state)},
        "you": seat if isinstance(seat, int) and seat >= 0 else None,
    }


def _cards_shown(state: dict[str, Any]) -> list[str]:
    out = list(state["display"]) + [c for pair in state["offices"] for c in pair]
    for me in state["seats"]:
        out += me["tableau"] + me["active"]
    return out


def render_text(view: dict[str, Any], names: list[str]) -> str:
    lines = [f"Macao, round {view['round']} of {data.ROUNDS}, phase {view['phase']}"]
    lines.append("Wall order: " + ", ".join(names[s] for s in view["order"]))
    gold, pp = view["tribute"]
    lines.append(f"Tribute: {gold} gold for {pp} PP")
    if view["display"]:
        lines.append("On offer: " + "; ".join(
            f"{card_name(c)} [{pool_text(_cost(c))}]" for c in view["display"]))
    if view["dice"]:
        lines.append("Dice: " + ", ".join(f"{colour(c)} {v}" for c, v in view["dice"]))
    for me in view["seats"]:
        lines.append("")
        lines.append(f"{names[me['seat']]}: {me['pp']} PP, {me['gold']} gold, "
                     f"{me['penalties']} penalty markers, wall field {me['wall'] + 1}, "
                     f"largest area {me['area']}")
        rose = " | ".join(f"{i}: {pool_text(f)}" for i, f in enumerate(me["rose"]) if f)
        lines.append(f"  wind rose (0 = arrow, the action supply): {rose or '-'}")
        if me["tableau"]:
            lines.append("  tableau: " + "; ".join(
                f"{card_name(c)} [{pool_text(_cost(c))}]" for c in me["tableau"]))
        if me["active"]:
            lines.append("  activated: " + "; ".join(
                f"{card_name(c)}: {view['help'][c]}" for c in me["active"]))
        cargo = ", ".join(good(g) for g in me["goods"]) or "-"
        lines.append(f"  ship at {me['ship']}, cargo: {cargo}, jokers: {me['jokers']}")
    lines.append("")
    owned = ", ".join(f"{d}: {names[s]}" for d, s in sorted(view["city"].items(),
                                                          key=lambda x: int(x[0])))
    lines.append(f"City, owned districts: {owned or '-'}")
    return "\n".join(lines)


def _cost(cid: str) -> dict[str, int]:
    cost = data.CARDS[cid].cost
    return {c: cost.count(c) for c in set(cost)}
