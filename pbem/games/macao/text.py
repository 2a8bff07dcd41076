"""A view of Macao as plain text, for mails and the seat page: one renderer for every
language (the words are in ``words``).  The harbours go in their printed order, never
the view's (a view or state read back has its keys sorted)."""

from __future__ import annotations

import marshal
from collections.abc import Callable
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


def _table(phase: str, round_: int, order: list[int], tribute: list[int], to_move: list[int],
           owed: dict[str, int] | None, display: list[str], dice: list[list[Any]],
           names: list[str], w: Words) -> list[str]:
    """The heading, the wall order, the tribute, who is to move, the offer and dice."""
    if phase == "over":
        lines = [w["over"]]
    else:
        lines = [w["title"].format(r=round_, n=data.ROUNDS, p=w["phase"].get(phase, phase))]
    lines.append(f"{w['order']}: " + ", ".join(names[s] for s in order))
    gold, pp = tribute
    lines.append(w["tribute view"].format(g=gold, p=pp))
    if to_move and phase != "over":
        lines.append(f"{w['to move']}: " + ", ".join(names[s] for s in to_move))
    if owed:
        key, n = ("owed view", owed["pay"]) if "pay" in owed else ("to take view", owed["gain"])
        lines.append(w[key].format(name=names[owed["seat"]], owed=count(n, w)))
    if display:
        lines.append(f"{w['offer']}: " + "; ".join(_card_cost(c, w) for c in display))
    if dice:
        lines.append(f"{w['dice']}: " + ", ".join(f"{w['colour'][c]} {v}" for c, v in dice))
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


def _seat(me: dict[str, Any], name: str, actions: bool, graf: bool,
          final: dict[str, Any] | None, w: Words) -> list[str]:
    """A seat's numbers, wind rose, tableau, activated cards, ship and final scoring
    (``final``: the seat's, once the game is scored); what it has spent of its action
    turn while the phase is the actions' (``actions``)."""
    lines = ["", w["seat"].format(name=name, pp=me["pp"], gold=me["gold"],
                                  pen=me["penalties"], wall=me["wall"] + 1, area=me["area"])]
    rose = " | ".join(f"{i}: {cubes(f, w)}" for i, f in enumerate(me["rose"]) if f)
    lines.append(f"  {w['rose']}: {rose or '-'}")
    if me["tableau"]:
        lines.append(f"  {w['tableau']}: " + "; ".join(_card_cost(c, w) for c in me["tableau"]))
    if me["active"]:
        lines.append(f"  {w['active']}: " + "; ".join(
            f"{_card_name(c, w)}: {card_text_in(w, c, graf)}"
            for c in me["active"]))
    cargo = ", ".join(w["good"][g] for g in me["goods"]) or "-"
    lines.append("  " + w["ship"].format(at=me["ship"], cargo=cargo, jokers=me["jokers"]))
    spent = _spent(me.get("spent"), w)
    if spent and actions:
        lines.append(f"  {w['spent']}: {spent}")
    if final is not None:
        lines.append("  " + w["final"].format(**final_terms(final)))
    return lines


def _board(city: dict[str, int], harbours: dict[str, list[int | None]], names: list[str],
           w: Words) -> list[str]:
    """The city's owned districts and the harbours' spaces."""
    owned = ", ".join(f"{d}: {names[s]}" for d, s in sorted(city.items(),
                                                          key=lambda x: int(x[0])))
    lines = ["", f"{w['city']}: {owned or '-'}", f"{w['harbours']}:"]
    for harbour, (wanted, values) in data.HARBOURS.items():
        spaces = harbours[harbour]
        taken = ", ".join(f"{v} {w['free'] if s is None else names[s]}"
                          for v, s in zip(values, spaces, strict=False))
        lines.append(f"  {harbour} – {w['good'][wanted]}: {taken}")
    return lines


def render(view: View, names: list[str], lang: str = "en") -> str:
    """``view`` as plain text in ``lang`` (card names as printed); a card's name carries
    the sign of its reconstructed values, and the sign's note ends the text."""
    w = words(lang)
    phase = view["phase"]
    lines = _kept(_table, w, phase, view["round"], view["order"], view["tribute"],
                  view["to_move"], view.get("owed"), view["display"], view["dice"], names)
    actions, graf, final = phase == "actions", view.get("graf_senkt", True), view.get("final")
    for me in view["seats"]:
        lines += _kept(_seat, w, me, names[me["seat"]], actions, graf,
                       final[me["seat"]] if final else None)
    lines += _kept(_board, w, view["city"], view["harbours"], names)
    return with_note("\n".join(lines), lang)


def _kept(make: Callable[..., list[str]], w: Words, *args: Any) -> list[str]:
    """``make(*args, w)``: the lines of a part of the text (the table, a seat, the board),
    kept by its arguments: a seat's lines read the same through many moves and to every
    reader, and the seat page, the mails and the archive write the same views again."""
    try:
        # marshal keys the view's lists and dicts by their values, in C (version 2: by
        # value alone; ``True`` and ``1`` are other keys)
        key = (make, id(w), data.SETS.active.version, marshal.dumps(args, 2))
    except ValueError:  # a value marshal does not write: made anew
        return make(*args, w)
    kept = _KEPT.get(key)
    if kept is None or kept[0] is not w:
        if len(_KEPT) >= _KEPT_MOST:
            _KEPT.clear()
        kept = _KEPT[key] = (w, tuple(make(*args, w)))
    return list(kept[1])


#: ``_kept``'s lines by the part, the id of the words table (kept beside them, so that
#: a table made anew at the address of one gone is never taken for it), the data
#: version and the arguments; forgotten all at once at ``_KEPT_MOST``
_KEPT: dict[tuple[Any, ...], tuple[Words, tuple[str, ...]]] = {}
_KEPT_MOST = 4096
