"""Ziehen's table as a picture: an SVG document drawn from a view alone, on the shared
canvas (``pbem.games.svg.Canvas``).

Each seat is a row with its name and its cards; a card the viewer may see is a
**region** named by the card and carrying its help (its value), the way a real game
names the regions its moves act on, so that a page can make the picture playable.
"""

from __future__ import annotations

from pbem.games.protocol import View
from pbem.games.svg import Canvas, seat_name
from pbem.games.ziehen.data import CARDS
from pbem.games.ziehen.words import words

WIDTH = 390
ROW = 34
INK, MUTED, LINE = "#1f2328", "#59636e", "#d0d7de"
FONT = "system-ui, sans-serif"


def draw(view: View, names: list[str], lang: str = "en") -> str:
    w = words(lang)
    svg = Canvas()
    title = w["title"].format(round=view["round"], rounds=view["rounds"])
    svg.text(12, 20, title, font_size=14, font_weight="700", fill=INK)
    y = 32
    for entry in view["seats"]:
        seat = entry["seat"]
        svg.line(0, y, WIDTH, y, stroke=LINE)
        svg.text(12, y + 21, seat_name(names, seat, 18), font_size=12,
                 font_weight="700" if seat == view["you"] else "normal", fill=INK)
        svg.text(WIDTH - 12, y + 21, w["cards"].format(n=entry["cards"]), font_size=11,
                 fill=MUTED, text_anchor="end")
        for i, card in enumerate(entry.get("hand", [])):
            with svg.region(card, help=f"{card}: {CARDS[card]}"):
                svg.rect(150 + i * 52, y + 6, 48, 22, rx=3, fill="#ffffff", stroke=INK)
                svg.text(174 + i * 52, y + 21, card, font_size=10, fill=INK,
                         text_anchor="middle")
        y += ROW
    return svg.document(WIDTH, y + 6, title, role="img", font_family=FONT)
