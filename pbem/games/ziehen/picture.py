"""Ziehen's table as a picture: an SVG document drawn from a view alone, on the shared
canvas (``pbem.games.svg.Canvas``).

Each seat is a row with its name and its cards; a card the viewer may see is a
**region** named by the card and carrying its help (its value).  The moves act on two
regions, named as the menu names them (``menu.REGION``): the deck ("draw") and the
viewer's own row ("step", "end").  On the seat page these are links (``links``), framed
as places to tap, so that the picture is the board one plays on.
"""

from __future__ import annotations

from collections.abc import Mapping

from pbem.games.language import Words
from pbem.games.protocol import View
from pbem.games.svg import Canvas, seat_name
from pbem.games.ziehen import data
from pbem.games.ziehen.menu import REGION
from pbem.games.ziehen.words import words

WIDTH = 390
ROW = 34
INK, MUTED, LINE = "#1f2328", "#59636e", "#d0d7de"
FONT = "system-ui, sans-serif"


def draw(view: View, names: list[str], lang: str = "en",
         links: Mapping[str, str] | None = None) -> str:
    w = words(lang)
    svg = Canvas(links=links)
    title = w["title"].format(round=view["round"], rounds=view["rounds"])
    svg.text(12, 20, title, font_size=14, font_weight="700", fill=INK)
    deck = w["deck"].format(n=view["deck_count"])
    with svg.region(REGION["draw"], help=deck, box=(WIDTH - 96, 6, 84, 20)):
        svg.rect(WIDTH - 96, 6, 84, 20, rx=3, fill="#f6f8fa", stroke=INK)
        svg.text(WIDTH - 54, 20, deck, font_size=11, fill=INK, text_anchor="middle")
    y = 32
    for entry in view["seats"]:
        seat = entry["seat"]
        svg.line(0, y, WIDTH, y, stroke=LINE)
        if seat == view["you"]:
            with svg.region(REGION["step"], help=w["your row"], box=(2, y + 2, WIDTH - 4,
                                                                     ROW - 4)):
                _row(svg, w, entry, names, bold=True, y=y)
        else:
            _row(svg, w, entry, names, bold=False, y=y)
        y += ROW
    return svg.document(WIDTH, y + 6, title, role="img", font_family=FONT)


def _row(svg: Canvas, w: Words, entry: dict, names: list[str], bold: bool, y: float) -> None:
    """One seat's row: its name, how many cards it holds and those the viewer sees."""
    svg.text(12, y + 21, seat_name(names, entry["seat"], 18), font_size=12,
             font_weight="700" if bold else "normal", fill=INK)
    svg.text(WIDTH - 12, y + 21, w["cards"].format(n=entry["cards"]), font_size=11,
             fill=MUTED, text_anchor="end")
    for i, card in enumerate(entry.get("hand", [])):
        with svg.region(card, help=f"{card}: {data.CARDS[card]} {w['mark']}"):
            svg.rect(150 + i * 52, y + 6, 48, 22, rx=3, fill="#ffffff", stroke=INK)
            svg.text(174 + i * 52, y + 21, card, font_size=10, fill=INK,
                     text_anchor="middle")
