"""Tallinn's table as a picture: a pure function from a view to an SVG document.

No I/O, no script.  The drawing is 390 units wide (a phone's width) and
scales with ``width="100%"``.  Each estate has a colour *and* a shape and a
letter, so the picture reads without colour: Kaufleute a yellow circle "K",
Ritter a red square "R", Mönche a blue triangle "M".  A coin is a ring
around the person it stands on; the Legat's Wappen a shield "W".  Names are
escaped here.
"""

from __future__ import annotations

from typing import Any

from pbem.games.svg import xml_text
from pbem.games.tallinn import data

WIDTH = 390
ROW = 22  # one line of symbols
SYMBOL = 16

_LABELS = {
    "en": {"round": "Round", "of": "of", "points": "pts", "hand": "hand", "pile": "pile",
           "towers": "towers", "you": "you", "over": "Final", "start": "start"},
    "de": {"round": "Runde", "of": "von", "points": "SP", "hand": "Hand", "pile": "Stapel",
           "towers": "Türme", "you": "Du", "over": "Schluss", "start": "Start"},
}


def _symbol(code: str, x: float, y: float, coin: bool = False) -> str:
    """One person: shape, colour and letter; ``(x, y)`` is the top left corner."""
    colour = data.STAND_FARBE[code]
    cx, cy, r = x + SYMBOL / 2, y + SYMBOL / 2, SYMBOL / 2
    if code == "K":
        shape = f'<circle cx="{cx}" cy="{cy}" r="{r - 0.5}" fill="{colour}"/>'
    elif code == "R":
        shape = (f'<rect x="{x + 0.5}" y="{y + 0.5}" width="{SYMBOL - 1}" '
                 f'height="{SYMBOL - 1}" fill="{colour}"/>')
    else:
        shape = (f'<polygon points="{cx},{y} {x + SYMBOL},{y + SYMBOL} {x},{y + SYMBOL}" '
                 f'fill="{colour}"/>')
    ink = "#000" if code == "K" else "#fff"
    # the triangle is widest at its foot: its letter sits lower
    base, size = (y + SYMBOL - 2, 8) if code == "M" else (cy + 4, 10)
    letter = (f'<text x="{cx}" y="{base}" font-size="{size}" text-anchor="middle" '
              f'font-weight="bold" fill="{ink}">{code}</text>')
    ring = (f'<circle cx="{cx}" cy="{cy}" r="{r + 2}" fill="none" stroke="#7a5c00" '
            f'stroke-width="1.5" stroke-dasharray="2 1"/>') if coin else ""
    return shape + letter + ring


def _wappen(x: float, y: float) -> str:
    return (f'<path d="M{x + 1},{y + 1} h{SYMBOL - 2} v7 q0,7 -{(SYMBOL - 2) / 2},8 '
            f'q-{(SYMBOL - 2) / 2},-1 -{(SYMBOL - 2) / 2},-8 z" fill="#6a1b9a"/>'
            f'<text x="{x + SYMBOL / 2}" y="{y + 12}" font-size="9" text-anchor="middle" '
            f'fill="#fff" font-weight="bold">W</text>')


def _half(persons: dict[str, int], coin: str | None, wappen: bool, x: float,
          y: float) -> tuple[str, float]:
    """A card half as symbols from ``x``; returns the SVG and the next free x."""
    if wappen:
        return _wappen(x, y), x + SYMBOL + 2
    parts = []
    for code in data.STAENDE:
        for _ in range(persons.get(code, 0)):
            parts.append(_symbol(code, x, y, coin == code))
            x += SYMBOL + 2
    return "".join(parts), x


def _text(x: float, y: float, text: str, size: int = 12, weight: str = "normal",
          anchor: str = "start") -> str:
    return (f'<text x="{x}" y="{y}" font-size="{size}" font-weight="{weight}" '
            f'text-anchor="{anchor}">{xml_text(text)}</text>')


def _seat_block(entry: dict[str, Any], name: str, y: float, lang: str,
                you: bool) -> tuple[list[str], float]:
    words = _LABELS[lang]
    out = []
    title = name + (f" ({words['you']})" if you else "")
    if len(title) > 26:
        title = title[:25] + "…"
    out.append(_text(6, y + 13, title, 13, "bold"))
    counts = entry["counts"]
    summary = "  ".join(f"{c} {counts[c]}" for c in data.STAENDE)
    out.append(_text(WIDTH - 6, y + 13,
                     f"{entry['points']} {words['points']} · {summary}", 12, "bold", "end"))
    y += ROW
    status = (f"{words['hand']} {entry['hand_count']} · {words['pile']} {entry['pile_count']}"
              f" · {words['towers']} {entry['tower_count']}")
    out.append(_text(6, y + 12, status, 11))
    y += ROW - 4
    # the display: start card first, then each active half, wrapping lines
    x = 6.0
    pieces = [(entry["start"]["persons"], None, False, True)] + [
        (d["persons"], d["coin"], d["wappen"], False) for d in entry["display"]]
    for persons, coin, wappen, start in pieces:
        need = (SYMBOL + 2) * max(1, sum(persons.values())) + 6
        if x + need > WIDTH - 4:
            x = 6.0
            y += ROW
        svg, end = _half(persons, coin, wappen, x, y + 2)
        frame = "#555" if start else "#bbb"
        out.append(f'<rect x="{x - 2}" y="{y}" width="{end - x + 2}" height="{SYMBOL + 4}" '
                   f'rx="3" fill="none" stroke="{frame}" stroke-width="{1.5 if start else 1}"/>')
        out.append(svg)
        x = end + 6
    y += ROW + 2
    # towers: a grey tower per tower, its face only when the view holds it
    if entry["towers"]:
        x = 6.0
        for tower in entry["towers"]:
            halves = tower.get("halves", [])
            need = 20 + sum((SYMBOL + 2) * max(1, sum(h["persons"].values())) + 4
                            for h in halves)
            if x > 6 and x + need > WIDTH - 4:
                x = 6.0
                y += ROW
            out.append(f'<path d="M{x},{y + 18} v-12 h3 v-4 h3 v4 h3 v-4 h3 v4 h3 v12 z" '
                       f'fill="#8d8d8d"/>')
            x += 20
            for half in halves:
                svg, x = _half(half["persons"], None, half["wappen"], x, y + 2)
                out.append(svg)
                x += 4
            x += 6
        y += ROW + 2
    return out, y


def draw(view: dict[str, Any], names: list[str], lang: str = "en") -> str:
    """The SVG document for ``view``; ``names`` are plain text (escaped here)."""
    lang = "de" if lang == "de" else "en"
    words = _LABELS[lang]
    body: list[str] = []
    y = 4.0
    heading = (f"Tallinn · {words['over']}" if view["phase"] == "over" else
               f"Tallinn · {words['round']} {view['round']} {words['of']} "
               f"{view['max_rounds']}")
    body.append(_text(6, y + 14, heading, 14, "bold"))
    y += ROW + 4
    for entry in view["seats"]:
        seat = entry["seat"]
        name = names[seat] if seat < len(names) else f"#{seat + 1}"
        if entry["to_move"]:
            body.append(f'<rect x="1" y="{y}" width="3" height="{ROW * 2}" fill="#2e7d32"/>')
        block, y = _seat_block(entry, name, y, lang, seat == view["you"])
        body.extend(block)
        body.append(f'<line x1="4" y1="{y}" x2="{WIDTH - 4}" y2="{y}" stroke="#ddd"/>')
        y += 4
    height = int(y + 4)
    title = xml_text(f"Tallinn, {words['round'].lower()} {view['round']}")
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" '
            f'width="100%" role="img" aria-label="{title}" '
            f'font-family="sans-serif"><title>{title}</title>'
            f'<rect width="{WIDTH}" height="{height}" fill="#fffdf6"/>'
            + "".join(body) + "</svg>")
