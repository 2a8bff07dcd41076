"""A view of Visby as plain text, for mails and the seat page: one renderer for every
language (the words are in ``words``).  It fits a 72-column mail and reads without
markup."""

from __future__ import annotations

from collections.abc import Sequence

from pbem.games.datafile import marked, with_note
from pbem.games.language import Words
from pbem.games.protocol import View
from pbem.games.visby import data
from pbem.games.visby.sentences import event_lines
from pbem.games.visby.words import count, words


def _cards(cards: list[str], w: Words) -> str:
    return ", ".join(cards) if cards else w["none"]


def _seats(view: View, names: list[str], w: Words) -> list[str]:
    """A line per seat: seals, goods, cards, status, discard pile (and for the archive,
    every hand)."""
    lines = []
    width = max(len(n) for n in names)
    pad = " " * width
    for entry in view["seats"]:
        status = ""
        if entry["choosing"]:
            status = w["status choosing"].format(chosen=entry["chosen_count"],
                                                 per_round=view["cards_per_round"])
        elif entry["trading"]:
            status = w["status trading"]
        lines.append(w["seat line"].format(
            name=names[entry["seat"]].ljust(width), seals=entry["seals"],
            goods=entry["goods"], hand=entry["hand_count"], status=status))
        lines.append(f"{pad}  {w['discard']}: {_cards(entry['discard'], w)}")
        if view["you"] is None and "hand" in entry:
            # Only the all-seeing view (the archive) has other seats' hands.
            lines.append(f"{pad}  {w['hand']}: {_cards(entry['hand'], w)}")
            if entry["chosen"]:
                lines.append(f"{pad}  {w['chosen']}: {_cards(entry['chosen'], w)}")
    return lines


def kurs_text(view: View, w: Words) -> str:
    """The rate of the purse's field, marked when no source prints it."""
    return marked(view["kurs"] or w["no exchange"], data.field_reconstructed(view["kurs_feld"]))


def rates_text(field: int | None, rates: Sequence[str]) -> str:
    """The rates a merchant may use with the purse on ``field`` (``"3:2, 2:1◇"``), each
    marked when only fields no source prints give it."""
    return ", ".join(marked(r, data.rate_reconstructed(*map(int, r.split(":")), field))
                     for r in rates)


def render(view: View, names: list[str], lang: str = "en") -> str:
    """``view`` as plain text in ``lang`` (card and track names as printed); a rate no
    source prints is marked, and the mark's note ends the text."""
    w = words(lang)
    t = view["tracks"]
    lines = [w["heading"].format(round=view["round"], target=view["target"]),
             w["board"].format(feldzug=count(w, "seal", t["Feldzug"]),
                               handelsfahrt=count(w, "good", t["Handelsfahrt"]),
                               field=view["kurs_feld"], kurs=kurs_text(view, w)),
             ""]
    lines += _seats(view, names, w)
    you = view["you"]
    if you is not None:
        me = view["seats"][you]
        lines += ["", w["your hand"].format(cards=_cards(me["hand"], w))]
        if me["chosen"]:
            lines.append(w["you have chosen"].format(cards=_cards(me["chosen"], w)))
    if view["events"]:
        lines += ["", w["round of events"].format(round=view["events_round"])]
        lines.append("\n".join(event_lines(view["events"], lang, names)))
    if view.get("rates"):
        lines += ["", w["rates"].format(rates=rates_text(view["kurs_feld"], view["rates"]))]
    if view.get("final"):
        lines += ["", w["final"]]
        for f in view["final"]:
            lines.append(w["final line"].format(
                name=names[f["seat"]], seals=f["seals"], rest=f["restwaren"],
                rest_goods=count(w, "good", f["restwaren"])))
    return with_note("\n".join(lines), lang)
