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
        # what each harbour takes and its spaces' prestige (board data, for the template)
        "harbour_spec": {h: {"good": g, "values": list(v)} for h, (g, v) in data.HARBOURS.items()},
        "deck_count": len(state["deck"]), "discard": list(state["discard"]),
        "seats": seats, "final": state["final"],
        "help": {c: card_help(c) for c in _cards_shown(state)},
        # each card in both languages: the template reads English, or for ``lang`` "de"
        # the printed German names and texts
        "cards": {c: {"name": card_name(c), "cost": pool_text(_cost(c)), "help": card_help(c),
                      "name_de": card_name(c, "de"), "cost_de": pool_text(_cost(c), "de"),
                      "help_de": card_help(c, "de"), "kind": data.CARDS[c].kind}
                  for c in _cards_shown(state)},
        "you": seat if isinstance(seat, int) and seat >= 0 else None,
    }


def _cards_shown(state: dict[str, Any]) -> list[str]:
    out = list(state["display"]) + [c for pair in state["offices"] for c in pair]
    for me in state["seats"]:
        out += me["tableau"] + me["active"]
    return out


#: the words of the plain-text view; German as the rulebook says it (R: AS, GM, PP)
TEXT = {
    "en": {"title": "Macao, round {r} of {n}, phase {p}", "over": "Macao, game over",
           "order": "Wall order", "tribute": "Tribute: {g} gold for {p} PP",
           "offer": "On offer", "dice": "Dice", "to_move": "To move",
           "seat": "{name}: {pp} PP, {gold} gold, {pen} penalty markers, wall field {wall}, "
                   "largest area {area}",
           "rose": "wind rose (0 = arrow, the action supply)", "tableau": "tableau",
           "active": "activated", "ship": "ship at {at}, cargo: {cargo}, jokers: {jokers}",
           "city": "City, owned districts", "harbours": "Harbours (spaces, highest first)",
           "free": "free", "final": "Final: {before} PP − 3 × {pen} + {cards} end cards + "
                                    "{area} city = {total}"},
    "de": {"title": "Macao, Runde {r} von {n}, Phase {p}", "over": "Macao, Spielende",
           "order": "Mauerreihenfolge", "tribute": "Tribut: {g} GM für {p} PP",
           "offer": "Auslage", "dice": "Würfel", "to_move": "Am Zug",
           "seat": "{name}: {pp} PP, {gold} GM, {pen} Strafmarker, Mauerfeld {wall}, "
                   "größtes Gebiet {area}",
           "rose": "Windrose (0 = Pfeil, der Aktionsvorrat)", "tableau": "Tableau",
           "active": "aktiviert", "ship": "Schiff auf {at}, Ladung: {cargo}, Joker: {jokers}",
           "city": "Stadt, Stadtteile in Besitz", "harbours": "Häfen (Ablagefelder, höchstes "
                                                              "zuerst)",
           "free": "frei", "final": "Endstand: {before} PP − 3 × {pen} + {cards} Spielende-"
                                    "Karten + {area} Stadt = {total}"},
}
PHASES = {"en": {}, "de": {"draft": "Startkarten", "start": "Startsteine", "cards": "Karten",
                           "dice": "Würfel", "actions": "Aktionen", "over": "Spielende"}}


def render_text(view: dict[str, Any], names: list[str], lang: str = "en") -> str:
    """The view as plain text for a mail: German for ``lang`` "de", else English."""
    lang = "de" if lang == "de" else "en"
    t = TEXT[lang]
    phase = PHASES[lang].get(view["phase"], view["phase"])
    if view["phase"] == "over":
        lines = [t["over"]]
    else:
        lines = [t["title"].format(r=view["round"], n=data.ROUNDS, p=phase)]
    lines.append(f"{t['order']}: " + ", ".join(names[s] for s in view["order"]))
    gold, pp = view["tribute"]
    lines.append(t["tribute"].format(g=gold, p=pp))
    if view["to_move"] and view["phase"] != "over":
        lines.append(f"{t['to_move']}: " + ", ".join(names[s] for s in view["to_move"]))
    if view["display"]:
        lines.append(f"{t['offer']}: " + "; ".join(
            f"{card_name(c, lang)} [{pool_text(_cost(c), lang)}]" for c in view["display"]))
    if view["dice"]:
        lines.append(f"{t['dice']}: " + ", ".join(
            f"{colour(c, lang)} {v}" for c, v in view["dice"]))
    for me in view["seats"]:
        lines.append("")
        lines.append(t["seat"].format(name=names[me["seat"]], pp=me["pp"], gold=me["gold"],
                                      pen=me["penalties"], wall=me["wall"] + 1,
                                      area=me["area"]))
        rose = " | ".join(f"{i}: {pool_text(f, lang)}" for i, f in enumerate(me["rose"]) if f)
        lines.append(f"  {t['rose']}: {rose or '-'}")
        if me["tableau"]:
            lines.append(f"  {t['tableau']}: " + "; ".join(
                f"{card_name(c, lang)} [{pool_text(_cost(c), lang)}]" for c in me["tableau"]))
        if me["active"]:
            lines.append(f"  {t['active']}: " + "; ".join(
                f"{card_name(c, lang)}: {card_help(c, lang)}" for c in me["active"]))
        cargo = ", ".join(good(g, lang) for g in me["goods"]) or "-"
        lines.append("  " + t["ship"].format(at=me["ship"], cargo=cargo, jokers=me["jokers"]))
        if view.get("final"):
            f = view["final"][me["seat"]]
            lines.append("  " + t["final"].format(before=f["before"], pen=f["penalties"],
                                                  cards=f["end_cards"], area=f["area"],
                                                  total=f["total"]))
    lines.append("")
    owned = ", ".join(f"{d}: {names[s]}" for d, s in sorted(view["city"].items(),
                                                          key=lambda x: int(x[0])))
    lines.append(f"{t['city']}: {owned or '-'}")
    lines.append(f"{t['harbours']}:")
    # the printed order of the harbours, not the dict's (sorted once stored)
    for harbour, (wanted, values) in data.HARBOURS.items():
        spaces = view["harbours"][harbour]
        taken = ", ".join(f"{v} {t['free'] if s is None else names[s]}"
                          for v, s in zip(values, spaces, strict=False))
        lines.append(f"  {harbour} – {good(wanted, lang)}: {taken}")
    return "\n".join(lines)


def _cost(cid: str) -> dict[str, int]:
    cost = data.CARDS[cid].cost
    return {c: cost.count(c) for c in set(cost)}
