"""Visby's table as a picture: an SVG document drawn from a view alone.

A pure function (no I/O, no script, no external fonts or images), laid out in
a 390-unit-wide box so that on a 390-pixel phone one unit is one pixel and no
text is smaller than 9 pixels.  Colours are from the Okabe-Ito palette, which
stays distinct for the common colour-vision deficiencies; nothing is told by
colour alone: every marker is also drawn as a triangle over a bold number,
and every bar carries its number.  Names are escaped here, since the caller
passes them as plain text.

The picture is the board one plays on: the places the moves act on are **regions**
named as the menu names them (``menu.region_of``): each card of the viewer's hand
(drawn below the viewer's row, a chosen card marked in words) by its printed name,
the Markt track for a trade, the viewer's own row for stopping trading.  On the seat
page the canvas makes those a link framed as a place to tap (``links``); every card
drawn carries its help, and a row's revealed cards theirs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache, lru_cache

from pbem.games.datafile import MARK, marked
from pbem.games.language import Words
from pbem.games.protocol import View
from pbem.games.svg import Canvas, keeps_beside, seat_name, wrap
from pbem.games.svg import xml_text as _text
from pbem.games.visby import data
from pbem.games.visby.menu import MARKT, YOU
from pbem.games.visby.text import rates_text
from pbem.games.visby.words import count, spoken, words

WIDTH = 390
MARGIN = 12
CELL = (WIDTH - 2 * MARGIN) // (data.TRACK_END + 1)  # 22: sixteen fields 0..15
FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif"
INK, MUTED, LINE = "#1f2328", "#59636e", "#d0d7de"
#: Okabe-Ito: orange, sky blue, yellow for the three markers; blue and vermillion for bars
TRACK_COLOUR = {"Feldzug": "#E69F00", "Handelsfahrt": "#56B4E9", "Markt": "#F0E442"}
SEALS_COLOUR, GOODS_COLOUR = "#0072B2", "#D55E00"
NAME_MAX = 22  # characters of a name that fit beside the numbers
LINE_MAX = 52  # characters of a 12-unit line across the picture
HAND_COLUMNS = 4  # cards of the viewer's hand in one line: "Bettelmönch" fits a quarter
CARD_GAP = 6
CARD_W = (WIDTH - 2 * MARGIN - (HAND_COLUMNS - 1) * CARD_GAP) // HAND_COLUMNS  # 87
CARD_H = 28  # high enough for a finger
#: writes the styles of labels and boxes (``_label_style``, ``_box_style``)
_STYLE = Canvas(numbers="str")


def _name(names: Sequence[str], seat: int) -> str:
    return seat_name(names, seat, NAME_MAX)


def _wrap(line: str) -> list[str]:
    return wrap(line, LINE_MAX)


def _label(svg: Canvas, x: float, y: float, content: str, size: int = 12,
           weight: str = "normal", fill: str = INK, anchor: str = "start") -> None:
    """A text in the picture's style: every attribute written, in this order."""
    svg.styled_text(x, y, content, _label_style(size, weight, fill, anchor))


@cache
def _label_style(size: int, weight: str, fill: str, anchor: str) -> str:
    # a picture has a dozen kinds of label, each written once, not at every label
    return _STYLE.attributes({"font_size": size, "font_weight": weight, "fill": fill,
                              "text_anchor": anchor})


def _box(svg: Canvas, x: float, y: float, w: float, h: float, fill: str, stroke: str = "none",
         width: float = 1) -> None:
    svg.styled_rect(x, y, w, h, _box_style(fill, stroke, width))


@cache
def _box_style(fill: str, stroke: str, width: float) -> str:
    return _STYLE.attributes({"fill": fill, "stroke": stroke, "stroke_width": width})


def _marker(svg: Canvas, x: float, y: float, fill: str) -> None:
    """A triangle pointing down at the field below (x is the field's middle)."""
    svg.path(f"M{x - 6} {y} L{x + 6} {y} L{x} {y + 7} Z", fill=fill, stroke=INK,
             stroke_width=1)


def _track(svg: Canvas, y: int, track: str, field: int, caption: str,
           rates: bool = False) -> int:
    """A track's caption and its sixteen fields; returns the y below it."""
    svg.raw(_track_drawing(y, track, field, caption, rates, data.SETS.active.version))
    return y + 26 + CELL + (16 if rates else 6)


@lru_cache(maxsize=1024)
def _track_drawing(y: int, track: str, field: int, caption: str, rates: bool,
                   version: str) -> str:
    # the same few hundred track drawings recur in every picture of a game (per data
    # version: an operator's corrected rates draw their own)
    svg = Canvas(numbers="str")
    _label(svg, MARGIN, y + 12, caption, size=12, weight="600")
    top = y + 26
    colour = TRACK_COLOUR[track]
    _marker(svg, MARGIN + field * CELL + CELL / 2, top - 8, colour)
    for i in range(data.TRACK_END + 1):
        x = MARGIN + i * CELL
        here = i == field
        _box(svg, x, top, CELL, CELL, colour if here else "#ffffff", INK if here else LINE,
             2 if here else 1)
        _label(svg, x + CELL / 2, top + 15, str(i), size=11 if here else 9,
               weight="700" if here else "normal", fill=INK if here else MUTED, anchor="middle")
        if rates:
            kurs = data.MARKT[i]
            _label(svg, x + CELL / 2, top + CELL + 11, str(kurs) if kurs else "–", size=9,
                   fill=INK if here else MUTED, anchor="middle",
                   weight="700" if here else "normal")
    return svg.markup()


def _markt_said(lang: str, field: int, kurs: str | None,
                rates: tuple[str, ...]) -> tuple[str, str]:
    """The Markt track's caption and its help: the purse's field and rate (marked when no
    source prints it), the rates a merchant may use, the fields pbem reconstructed."""
    w = words(lang)
    here = data.field_reconstructed(field)
    caption = (w["picture Markt"].format(n=field, kurs=marked(kurs, here)) if kurs else
               marked(w["picture Markt no rate"].format(n=field), here))
    help = caption + (f"; {w['rates'].format(rates=rates_text(field, rates))}"
                      if rates else "")
    # the track's help names the fields no source prints (too narrow to mark each)
    ours = data.reconstructed_fields()
    if ours:
        help += ". " + w["mark fields"].format(mark=MARK, fields=data.fields_text(ours))
    return caption, help


def _bar(svg: Canvas, x: int, y: int, value: int, top: int, width: int, colour: str,
         label: str) -> None:
    """A bar of ``value`` out of ``top`` with ``label`` (its number in words) beside it."""
    _box(svg, x, y, width, 8, "#ffffff", LINE)
    _box(svg, x, y, round(width * min(value, top) / top) if top else 0, 8, colour)
    _label(svg, x + width + 4, y + 8, label, size=11)


def _status(view: View, entry: dict, finals: dict[int, int], w: Words) -> str:
    if entry["choosing"]:
        return w["picture choosing"].format(k=entry["chosen_count"], n=view["cards_per_round"])
    if entry["trading"]:
        return w["picture trading"]
    if view["phase"] == "choose":
        return w["picture chosen"]
    if entry["seat"] in finals:
        return w["picture final"].format(n=count(w, "seal", finals[entry["seat"]]))
    return ""


def _seat(svg: Canvas, view: View, entry: dict, names: list[str], finals: dict[int, int],
          y: int, lang: str) -> int:
    """One seat's row (``_row``); the y below."""
    seat = entry["seat"]
    you = seat == view["you"]
    w = words(lang)
    name = _name(names, seat) + (f" ({w['you']})" if you else "")
    hand = tuple(entry["hand"]) if you and "hand" in entry else None
    # a row looks the same in every reader's picture (but the viewer's own) and mostly
    # in the next ones: kept whole (its regions named where needed)
    return svg.drawn(_row, lang, y, seat, you, name, _status(view, entry, finals, w),
                     bool(entry["choosing"] or entry["trading"]), entry["seals"],
                     view["target"], entry["goods"], bool(entry["trading"]),
                     tuple(entry["played"]), view["events_round"], entry["hand_count"],
                     hand, tuple(entry.get("chosen", ())),
                     regions=lambda: _row_regions(seat, you, entry["played"], hand))


def _row_regions(seat: int, you: bool, played: list[str],
                 hand: tuple[str, ...] | None) -> tuple[str, ...]:
    """The regions a row draws (``_row``)."""
    return ((YOU,) if you else ()) + ((f"revealed {seat}",) if played else ()) + (hand or ())


def _row(svg: Canvas, lang: str, y: int, seat: int, you: bool, name: str, status: str,
         busy: bool, seals: int, target: int, goods: int, trading: bool,
         played: tuple[str, ...], events_round: int, hand_count: int,
         hand: tuple[str, ...] | None, chosen: tuple[str, ...]) -> int:
    """One seat's row: name, status, seals and goods as bars, its cards; the y below.

    The viewer's own name and bars are the region ``YOU`` (where trading stops), and
    the viewer's hand follows the row as cards (``_hand``)."""
    w = words(lang)
    _box(svg, 0, y, WIDTH, 1, LINE)
    heading = (y, name, you, status, busy, seals, target, count(w, "seal", seals), goods,
               count(w, "good", goods))
    if you:
        help = f"{w['done']}: {w['done help']}" if trading else w["picture your row"]
        with svg.region(YOU, help=help, box=(4, y + 3, WIDTH - 8, 33)):
            _heading_line(svg, *heading)
    else:
        _heading_line(svg, *heading)
    revealed = w["picture revealed"].format(r=events_round or "–",
                                            cards=", ".join(played) or w["nothing"])
    if played:
        with svg.region(f"revealed {seat}", help=_card_help(played, w)):
            _label(svg, MARGIN, y + 50, revealed, size=10, fill=MUTED)
    else:
        _label(svg, MARGIN, y + 50, revealed, size=10, fill=MUTED)
    _label(svg, WIDTH - MARGIN, y + 50, f"{hand_count} {w['picture hand']}", size=10,
           fill=MUTED, anchor="end")
    if hand is not None:
        return _hand(svg, hand, chosen, y + 58, w)
    return y + 58


def _heading_line(svg: Canvas, y: int, name: str, you: bool, status: str, busy: bool,
                  seals: int, target: int, seals_said: str, goods: int,
                  goods_said: str) -> None:
    _label(svg, MARGIN, y + 17, name, size=12, weight="700" if you else "600")
    _label(svg, WIDTH - MARGIN, y + 17, status, size=11, weight="700" if busy else "normal",
           anchor="end")
    _bar(svg, MARGIN, y + 25, seals, target, 110, SEALS_COLOUR, seals_said)
    _bar(svg, 200, y + 25, goods, data.GOODS_MAX, 90, GOODS_COLOUR, goods_said)


def _card_help(cards: tuple[str, ...], w: Words) -> str:
    return " ".join(f"{card}: {w['card help'][card]}" for card in cards)


def _hand(svg: Canvas, hand: tuple[str, ...], chosen: tuple[str, ...], y: int,
          w: Words) -> int:
    """The viewer's cards, ``HAND_COLUMNS`` to a line, each the region of its name; a
    card chosen this round (the viewer's own secret) says so in words.  The y below."""
    for i, card in enumerate(hand):
        x = MARGIN + (i % HAND_COLUMNS) * (CARD_W + CARD_GAP)
        top = y + (i // HAND_COLUMNS) * (CARD_H + CARD_GAP)
        svg.drawn(_hand_card, w["picture chosen card"], w["card help"][card], card,
                  card in chosen, x, top, regions=(card,))
    lines = -(-len(hand) // HAND_COLUMNS)
    return y + lines * (CARD_H + CARD_GAP) + (2 if lines else 0)


def _hand_card(svg: Canvas, chosen_said: str, card_help: str, card: str, mine: bool,
               x: int, top: int) -> None:
    """A card of the viewer's hand, the region of its name; ``mine``: chosen this round."""
    help = f"{card}: {card_help}"
    with svg.region(card, help=f"{chosen_said}: {help}" if mine else help,
                    box=(x, top, CARD_W, CARD_H)):
        svg.rect(x, top, CARD_W, CARD_H, rx=3, fill="#eaeef2" if mine else "#ffffff",
                 stroke=INK, stroke_width=2 if mine else 1)
        if mine:
            _label(svg, x + CARD_W / 2, top + 13, card, size=11, weight="700",
                   anchor="middle")
            _label(svg, x + CARD_W / 2, top + 24, chosen_said, size=9, anchor="middle")
        else:
            _label(svg, x + CARD_W / 2, top + 18, card, size=11, anchor="middle")


# the same lines in every reader's picture while the same seats are waiting
@lru_cache(maxsize=1024)
def _waiting(lang: str, phase: str, names: tuple[str, ...], to_move: tuple[int, ...],
             y: int) -> tuple[str, int]:
    """Who is still to choose or to trade, from ``y``: the markup and the y below."""
    svg = Canvas(numbers="str")
    key = "waiting choose" if phase == "choose" else "waiting trade"
    waiting = ", ".join(_name(names, s) for s in to_move)
    _box(svg, 0, y, WIDTH, 1, LINE)
    for line in _wrap(words(lang)[key].format(names=waiting)):
        _label(svg, MARGIN, y + 18, line, size=12, weight="600")
        y += 16
    return svg.markup(), y + 10


def draw(view: View, names: list[str], lang: str = "en",
         links: Mapping[str, str] | None = None) -> str:
    """The table of ``view`` as an SVG document; ``names`` are plain text."""
    lang = spoken(lang)
    w = words(lang)
    svg = Canvas(numbers="str", links=links)
    over = view["phase"] == "over"
    heading = w["picture over" if over else "picture round"].format(round=view["round"],
                                                                    target=view["target"])
    _label(svg, MARGIN, 20, heading, size=14, weight="700")
    tracks = view["tracks"]
    y = _track(svg, 30, "Feldzug", tracks["Feldzug"],
               w["picture Feldzug"].format(n=count(w, "seal", tracks["Feldzug"])))
    y = _track(svg, y, "Handelsfahrt", tracks["Handelsfahrt"],
               w["picture Handelsfahrt"].format(n=count(w, "good", tracks["Handelsfahrt"])))
    # the same few fields and rates at every move of a game: told once per data version
    said = (view["kurs_feld"], view["kurs"], tuple(view.get("rates") or ()))
    markt, help = data.SETS.active.kept(("picture Markt", lang, *said), _markt_said, lang,
                                        *said)
    with svg.region(MARKT, help=help, box=(4, y + 1, WIDTH - 8, 26 + CELL + 16 - 2)):
        y = _track(svg, y, "Markt", view["kurs_feld"], markt, rates=True)
    y += 4
    finals = {f["seat"]: f["seals"] for f in view.get("final", [])}
    for entry in view["seats"]:
        y = _seat(svg, view, entry, names, finals, y, lang)
    if not over and view["to_move"]:
        waiting, y = _waiting(lang, view["phase"], tuple(names), tuple(view["to_move"]), y)
        svg.raw(waiting)
    height = y + 6
    # the root by hand: its font list keeps its quotes as written (the canvas would
    # escape them, and the picture would change by a byte)
    # a picture with links is no longer one image (see ``Canvas.document``)
    role = "" if svg.linked else ' role="img"'
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" '
            f'width="{WIDTH}" height="{height}"{role} font-family="{FONT}">'
            f"<title>{_text(heading)}</title>"
            f'<rect x="0" y="0" width="{WIDTH}" height="{height}" fill="#ffffff"/>')
    return svg.enclosed(head)


# what the picture keeps beside ``Canvas.drawn`` (whole tracks, the waiting lines),
# forgotten with the canvas's (``pbem.games.svg.forget``: the benches' fresh rounds)
keeps_beside(_track_drawing.cache_clear)
keeps_beside(_waiting.cache_clear)
