"""A view of Macao as plain text, for mails and the seat page: one renderer for every
language (the words are in ``words``).  The harbours go in their printed order, never
the view's (a view or state read back has its keys sorted)."""

from __future__ import annotations

from typing import Any

from pbem.games.datafile import marked, with_note
from pbem.games.language import Words
from pbem.games.macao import data
from pbem.games.macao.words import card_text_in, count, cubes, final_terms, words
from pbem.games.protocol import View


def _card_name(cid: str, w: Words) -> str:
    """A card's name with the sign: every card's cost and tribute are pbem's
    reconstruction, and the effect of most (``data.mark_line`` says which, in help)."""
    return marked(w["card name"][cid], True)


def _card_cost(cid: str, w: Words) -> str:
    # a card's cost reads the same in every text of a data version and words table:
    # written once (a text names a dozen cards); the table is kept with it, so that a
    # table made anew at the address of one gone is never taken for it
    key = (data.SETS.active.version, cid, id(w))
    kept = _COSTS.get(key)
    if kept is None or kept[0] is not w:
        if len(_COSTS) >= 4096:
            _COSTS.clear()
        kept = _COSTS[key] = (w, f"{_card_name(cid, w)} [{cubes(data.cost_cubes(cid), w)}]")
    return kept[1]


#: ``_card_cost`` by data version, card and words table (the table beside it)
_COSTS: dict[tuple[str, str, int], tuple[Words, str]] = {}


def _table(view: View, names: list[str], w: Words) -> list[str]:
    """The heading, the wall order, the tribute, who is to move, the offer and dice."""
    if view["phase"] == "over":
        lines = [w["over"]]
    else:
        phase = w["phase"].get(view["phase"], view["phase"])
        lines = [w["title"].format(r=view["round"], n=data.ROUNDS, p=phase)]
    lines.append(f"{w['order']}: " + ", ".join(names[s] for s in view["order"]))
    gold, pp = view["tribute"]
    lines.append(w["tribute view"].format(g=gold, p=pp))
    if view["to_move"] and view["phase"] != "over":
        lines.append(f"{w['to move']}: " + ", ".join(names[s] for s in view["to_move"]))
    owed = view.get("owed")
    if owed:
        key, n = ("owed view", owed["pay"]) if "pay" in owed else ("to take view", owed["gain"])
        lines.append(w[key].format(name=names[owed["seat"]], owed=count(n, w)))
    if view["display"]:
        lines.append(f"{w['offer']}: " + "; ".join(_card_cost(c, w) for c in view["display"]))
    if view["dice"]:
        lines.append(f"{w['dice']}: " + ", ".join(
            f"{w['colour'][c]} {v}" for c, v in view["dice"]))
    return lines


def _spent(spent: dict[str, Any] | None, w: Words) -> str:
    """What a seat has spent of this round's actions, in words; empty for nothing."""
    if not spent:
        return ""
    parts = []
    if spent["used"]:
        parts.append(w["spent used"].format(
            cards=", ".join(w["card name"][c] for c in spent["used"])))
    if spent["district"] or spent["districts"]:
        parts.append(w["spent district"].format(n=max(1, spent["districts"])))
    for key in ("wall", "tribute"):
        if spent[key]:
            parts.append(w[f"spent {key}"])
    if spent["moved"]:
        parts.append(w["spent moved"].format(n=spent["moved"]))
    return "; ".join(parts)


def _seat(view: View, me: dict[str, Any], names: list[str], w: Words) -> list[str]:
    """A seat's numbers, wind rose, tableau, activated cards, ship and final scoring."""
    lines = ["", w["seat"].format(name=names[me["seat"]], pp=me["pp"], gold=me["gold"],
                                  pen=me["penalties"], wall=me["wall"] + 1, area=me["area"])]
    rose = " | ".join(f"{i}: {cubes(f, w)}" for i, f in enumerate(me["rose"]) if f)
    lines.append(f"  {w['rose']}: {rose or '-'}")
    if me["tableau"]:
        lines.append(f"  {w['tableau']}: " + "; ".join(_card_cost(c, w) for c in me["tableau"]))
    if me["active"]:
        lines.append(f"  {w['active']}: " + "; ".join(
            f"{_card_name(c, w)}: {card_text_in(w, c, view.get('graf_senkt', True))}"
            for c in me["active"]))
    cargo = ", ".join(w["good"][g] for g in me["goods"]) or "-"
    lines.append("  " + w["ship"].format(at=me["ship"], cargo=cargo, jokers=me["jokers"]))
    spent = _spent(me.get("spent"), w)
    if spent and view["phase"] == "actions":
        lines.append(f"  {w['spent']}: {spent}")
    if view.get("final"):
        lines.append("  " + w["final"].format(**final_terms(view["final"][me["seat"]])))
    return lines


def _board(view: View, names: list[str], w: Words) -> list[str]:
    """The city's owned districts and the harbours' spaces."""
    owned = ", ".join(f"{d}: {names[s]}" for d, s in sorted(view["city"].items(),
                                                          key=lambda x: int(x[0])))
    lines = ["", f"{w['city']}: {owned or '-'}", f"{w['harbours']}:"]
    for harbour, (wanted, values) in data.HARBOURS.items():
        spaces = view["harbours"][harbour]
        taken = ", ".join(f"{v} {w['free'] if s is None else names[s]}"
                          for v, s in zip(values, spaces, strict=False))
        lines.append(f"  {harbour} – {w['good'][wanted]}: {taken}")
    return lines


def render(view: View, names: list[str], lang: str = "en") -> str:
    """``view`` as plain text in ``lang`` (card names as printed); a card's name carries
    the sign of its reconstructed values, and the sign's note ends the text."""
    w = words(lang)
    lines = _table(view, names, w)
    for me in view["seats"]:
        lines += _seat(view, me, names, w)
    return with_note("\n".join(lines + _board(view, names, w)), lang)
