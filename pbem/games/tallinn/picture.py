"""Tallinn's table as a picture: a pure function from a view to an SVG document.

No I/O, no script.  The drawing is 390 units wide (a phone's width) and
scales with ``width="100%"``.  Each estate has a colour *and* a shape and a
letter, so the picture reads without colour: Kaufleute a yellow circle "K",
Ritter a red square "R", Mönche a blue triangle "M".  A coin is a ring
around the person it stands on; the Legat's Wappen a shield "W".  Names are
escaped here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.games.svg import Canvas, xml_text
from pbem.games.tallinn import data
from pbem.games.tallinn.words import words as words_for

WIDTH = 390
ROW = 22  # one line of symbols
SYMBOL = 16


def _symbol(svg: Canvas, code: str, x: float, y: float, coin: bool = False) -> None:
    """One person: shape, colour and letter; ``(x, y)`` is the top left corner."""
    colour = data.STAND_FARBE[code]
    cx, cy, r = x + SYMBOL / 2, y + SYMBOL / 2, SYMBOL / 2
    if code == "K":
        svg.circle(cx, cy, r - 0.5, fill=colour)
    elif code == "R":
        svg.rect(x + 0.5, y + 0.5, SYMBOL - 1, SYMBOL - 1, fill=colour)
    else:
        svg.element("polygon", points=f"{cx},{y} {x + SYMBOL},{y + SYMBOL} {x},{y + SYMBOL}",
                    fill=colour)
    ink = "#000" if code == "K" else "#fff"
    # the triangle is widest at its foot: its letter sits lower
    base, size = (y + SYMBOL - 2, 8) if code == "M" else (cy + 4, 10)
    svg.text(cx, base, code, font_size=size, text_anchor="middle", font_weight="bold",
             fill=ink)
    if coin:
        svg.circle(cx, cy, r + 2, fill="none", stroke="#7a5c00", stroke_width=1.5,
                   stroke_dasharray="2 1")


def _wappen(svg: Canvas, x: float, y: float) -> None:
    svg.path(f"M{x + 1},{y + 1} h{SYMBOL - 2} v7 q0,7 -{(SYMBOL - 2) / 2},8 "
             f"q-{(SYMBOL - 2) / 2},-1 -{(SYMBOL - 2) / 2},-8 z", fill="#6a1b9a")
    svg.text(x + SYMBOL / 2, y + 12, "W", font_size=9, text_anchor="middle", fill="#fff",
             font_weight="bold")


def _half(svg: Canvas, persons: dict[str, int], coin: str | None, wappen: bool, x: float,
          y: float) -> float:
    """A card half as symbols from ``x``; returns the next free x."""
    if wappen:
        _wappen(svg, x, y)
        return x + SYMBOL + 2
    for code in data.STAENDE:
        for _ in range(persons.get(code, 0)):
            _symbol(svg, code, x, y, coin == code)
            x += SYMBOL + 2
    return x


def _text(svg: Canvas, x: float, y: float, text: str, size: int = 12, weight: str = "normal",
          anchor: str = "start") -> None:
    svg.text(x, y, text, font_size=size, font_weight=weight, text_anchor=anchor)


def _display(svg: Canvas, entry: dict[str, Any], y: float) -> float:
    """The display: the start card first, then each active half, wrapping lines; the y
    of its last line."""
    x = 6.0
    pieces = [(entry["start"]["persons"], None, False, True)] + [
        (d["persons"], d["coin"], d["wappen"], False) for d in entry["display"]]
    for persons, coin, wappen, start in pieces:
        need = (SYMBOL + 2) * max(1, sum(persons.values())) + 6
        if x + need > WIDTH - 4:
            x = 6.0
            y += ROW
        half = Canvas(numbers="str")
        end = _half(half, persons, coin, wappen, x, y + 2)
        # the frame goes first, but its width is known once the half is drawn
        svg.rect(x - 2, y, end - x + 2, SYMBOL + 4, rx=3, fill="none",
                 stroke="#555" if start else "#bbb", stroke_width=1.5 if start else 1)
        svg.raw(half.markup())
        x = end + 6
    return y


def _towers(svg: Canvas, towers: list[dict[str, Any]], y: float) -> float:
    """A grey tower per tower, its face only when the view holds it; the y of its last
    line."""
    x = 6.0
    for tower in towers:
        halves = tower.get("halves", [])
        need = 20 + sum((SYMBOL + 2) * max(1, sum(h["persons"].values())) + 4
                        for h in halves)
        if x > 6 and x + need > WIDTH - 4:
            x = 6.0
            y += ROW
        svg.path(f"M{x},{y + 18} v-12 h3 v-4 h3 v4 h3 v-4 h3 v4 h3 v12 z", fill="#8d8d8d")
        x += 20
        for half in halves:
            x = _half(svg, half["persons"], None, half["wappen"], x, y + 2) + 4
        x += 6
    return y


def _seat_block(svg: Canvas, entry: dict[str, Any], name: str, y: float,
                words: dict[str, str], you: bool) -> float:
    """One seat: name, points and persons, cards, display, towers; the y below it."""
    title = name + (f" ({words['you']})" if you else "")
    if len(title) > 26:
        title = title[:25] + "…"
    _text(svg, 6, y + 13, title, 13, "bold")
    counts = entry["counts"]
    summary = "  ".join(f"{c} {counts[c]}" for c in data.STAENDE)
    _text(svg, WIDTH - 6, y + 13, f"{entry['points']} {words['points']} · {summary}", 12,
          "bold", "end")
    y += ROW
    status = (f"{words['hand']} {entry['hand_count']} · {words['pile']} {entry['pile_count']}"
              f" · {words['towers']} {entry['tower_count']}")
    _text(svg, 6, y + 12, status, 11)
    y += ROW - 4
    y = _display(svg, entry, y) + ROW + 2
    if entry["towers"]:
        y = _towers(svg, entry["towers"], y) + ROW + 2
    return y


def draw(view: dict[str, Any], names: list[str], lang: str = "en",
         links: Mapping[str, str] | None = None) -> str:
    """The SVG document for ``view``; ``names`` are plain text (escaped here)."""
    words = words_for(lang)["picture"]
    svg = Canvas(numbers="str", links=links)
    y = 4.0
    heading = (f"Tallinn · {words['over']}" if view["phase"] == "over" else
               f"Tallinn · {words['round']} {view['round']} {words['of']} "
               f"{view['max_rounds']}")
    _text(svg, 6, y + 14, heading, 14, "bold")
    y += ROW + 4
    for entry in view["seats"]:
        seat = entry["seat"]
        name = names[seat] if seat < len(names) else f"#{seat + 1}"
        if entry["to_move"]:
            svg.rect(1, y, 3, ROW * 2, fill="#2e7d32")
        y = _seat_block(svg, entry, name, y, words, seat == view["you"])
        svg.line(4, y, WIDTH - 4, y, stroke="#ddd")
        y += 4
    height = int(y + 4)
    title = xml_text(f"Tallinn, {words['round'].lower()} {view['round']}")
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" '
            f'width="100%" role="img" aria-label="{title}" '
            f'font-family="sans-serif"><title>{title}</title>'
            f'<rect width="{WIDTH}" height="{height}" fill="#fffdf6"/>'
            + svg.markup() + "</svg>")
