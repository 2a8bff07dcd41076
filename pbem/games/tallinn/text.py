"""A view of Tallinn as plain text, for mails and the seat page: one renderer for every
language (the words are in ``words``).  It reads without markup and fits 72 columns
mostly; estate names stay as printed."""

from __future__ import annotations

from typing import Any

from pbem.games.datafile import marked, with_note
from pbem.games.language import Words, plural
from pbem.games.protocol import View
from pbem.games.tallinn import data
from pbem.games.tallinn.sentences import event_lines
from pbem.games.tallinn.words import count, words


def counts_text(counts: dict[str, int]) -> str:
    """``Kaufleute 9, Ritter 3, Mönche 6`` (zeros included: they decide contests)."""
    return ", ".join(f"{data.STAND_NAME[c]} {counts[c]}" for c in data.STAENDE)


def _number(card: str) -> str:
    """A card's printed number, with the sign when no source prints the card whole."""
    return _numbers()[card]


def _numbers() -> dict[str, str]:
    """``_number`` of every influence card, the Legat and every start card, kept per data
    version: a text names every card of every display."""
    return data.SETS.active.kept("text numbers", lambda: {
        card: marked(card, _reconstructed(card))
        for card in (*data.EINFLUSSKARTEN, data.LEGAT, *data.STARTKARTEN)})


def _reconstructed(card: str) -> bool:
    """Whether no source prints ``card`` (an influence or start card) whole: kept per
    data version, as every text marks each seat's start card."""
    return data.SETS.active.kept(("text reconstructed", card),
                                 lambda: data.status(card) != data.PRINTED)


def _towers(towers: list[dict[str, Any]], w: Words) -> str:
    if not towers:
        return w["no towers"]
    text = w["text field"]
    parts = []
    for t in towers:
        where = w["tower from where"].get(t["from"], t["from"])
        parts.append(f"{t[text]} ({where})" if text in t else f"{w['face down']} ({where})")
    return f"{plural(w, 'towers', len(towers))}: " + "; ".join(parts)


def _seat(view: View, entry: dict[str, Any], names: list[str], w: Words) -> list[str]:
    """The lines of one seat: points, cards, persons, display, towers (and for the
    archive, its hand and choice)."""
    text = w["text field"]
    s = entry["seat"]
    name = names[s] + (w["you"] if s == view["you"] else "")
    status = w["status"].get(entry["status"]) or entry["status"]
    lines = [w["seat line"].format(name=name, points=entry["points"], hand=entry["hand_count"],
                                   pile=entry["pile_count"], status=status),
             w["persons"].format(counts=counts_text(entry["counts"]))]
    start = marked(entry["start"].get(text, entry["start"]["text"]),
                   _reconstructed(entry["start"]["card"]))
    numbers = _numbers()
    shown = [w["start"].format(text=start)] + [
        f"{numbers[d['card']]}: {d[text]}" for d in entry["display"]]
    lines.append(w["display"].format(shown="; ".join(shown)))
    lines.append(f"  {_towers(entry['towers'], w)}")
    if "legat" in entry:
        lines.append(w["legat line"].format(estate=data.STAND_NAME[entry["legat"]]))
    if entry.get("tower_public"):
        lines.append(w["public tower"].format(said=w["public said"][entry["tower_public"]]))
    if view["you"] is None and "hand" in entry:
        # only the all-seeing view (the archive) has other seats' hands
        hand = ", ".join(c[text] for c in entry["hand"]) or w["none"]
        lines.append(w["hand line"].format(hand=hand))
        if entry["chosen"]:
            lines.append(w["chosen line"].format(card=_number(entry["chosen"]["card"]),
                                                 text=entry["chosen"][text]))
    return lines


def _own(view: View, w: Words) -> list[str]:
    """The viewer's hand, and its secret choices until they are revealed."""
    text = w["text field"]
    me = view["seats"][view["you"]]
    lines = ["", w["your hand"] if me["hand"] else w["your hand empty"]]
    lines += [f"  {card[text]}" for card in me["hand"]]
    if me["chosen"]:
        lines.append(w["you have chosen"].format(card=_number(me["chosen"]["card"]),
                                                 text=me["chosen"][text]))
    choice = me["tower_choice"]
    if choice and choice != "none" and view["phase"] == "tower":
        lines.append(w["your tower"].format(card=_number(choice["card"]),
                                            source=w["source"][choice["from"]]))
    elif choice == "none" and view["phase"] == "tower":
        lines.append(w["your no tower"])
    return lines


def _final(view: View, names: list[str], w: Words) -> list[str]:
    lines = ["", w["final"]]
    for f in view["final"]:
        bonus = (f", Legat +2 {data.STAND_NAME[f['legat_bonus']]}"
                 if f["legat_bonus"] else "")
        tower = (f"{count(f['tower_value'], f['tower_estate'])}"
                 if f["tower_estate"] else w["none"])
        lines.append(w["final line"].format(
            name=names[f["seat"]], before=f["before"], sign="+" if f["gain"] >= 0 else "",
            gain=f["gain"], points=f["points"], counts=counts_text(f["counts"]), bonus=bonus,
            tower=tower, persons=f["tower_persons"]))
    return lines


def render(view: View, names: list[str], lang: str = "en") -> str:
    """``view`` as plain text in ``lang``; a card no source prints whole is marked, and
    the mark's note ends the text."""
    w = words(lang)
    phase = view["phase"]
    head = w["heading"].format(round=view["round"], rounds=view["max_rounds"])
    variants = [w["variants"][v] for v in ("legat", "tower_order") if view["options"][v]]
    if variants:
        head += w["with variants"].format(variants=f" {w['and']} ".join(variants))
    lines = [head] + ([w["over"]] if phase == "over" else []) + [""]
    for entry in view["seats"]:
        lines += _seat(view, entry, names, w)
    if view["you"] is not None:
        lines += _own(view, w)
    if phase != "over" and view["to_move"]:
        waiting = ", ".join(names[s] for s in view["to_move"])
        lines += ["", w["waiting"][phase].format(names=waiting)]
        if view["tower_queue"]:
            order = ", ".join(names[s] for s in view["tower_queue"])
            lines.append(w["tower order"].format(order=order))
    if view["events"]:
        lines += ["", w["round of events"].format(round=view["events_round"])]
        lines.extend(event_lines(view["events"], lang, names))
    if view.get("final"):
        lines += _final(view, names, w)
    return with_note("\n".join(lines), lang)
