"""Macao's table as a picture: a pure function from a view to an SVG document.

No I/O, no script, no outside references.  390 units wide (a phone's width) and
scaled with ``width="100%"``; no text is smaller than 9 units.  Drawn as people
know the board: the round and the tribute, the prestige scores, the city wall with
the discs in their stacks, the 30 districts with their cubes, tiles and owners'
markers, the sea with the ships and the eight harbours with their goods and delivery
spaces, and each seat's wind rose and cards (the viewer's first and in full).

Colour is never the only sign: every cube carries its colour's letter (a legend
under the dice names them), every player's disc, marker and ship carries the
player's letter (the legend under the scores names them), dark districts say
"Joker".  Names are cleaned of what XML forbids, shortened and escaped here.

Groups carry ``data-…`` attributes naming what they show (``data-district="7"``,
``data-wall="3"``, ``data-field="Lisboa"``, ``data-harbour="Lisboa"``,
``data-score="0"``, ``data-panel="0"`` for a seat's wind rose and cards), so tests
and style sheets can find them; they are inert.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.games.macao import data
from pbem.games.macao.words import card_name, words
from pbem.games.svg import Canvas, seat_name, wrap
from pbem.games.svg import xml_text as _text

WIDTH = 390
MARGIN = 8
FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif"
INK, MUTED, LINE = "#1f2328", "#59636e", "#8c959f"
#: cube colours, as on the cubes; the letter on each is what makes them readable
FILL = {"r": "#d62728", "b": "#1f77b4", "g": "#2ca02c", "k": "#222222", "y": "#9a9a9a",
        "v": "#8e44ad"}
#: text on a cube: white on dark cubes, black on the grey one
ON_FILL = {"r": "#fff", "b": "#fff", "g": "#fff", "k": "#fff", "y": "#000", "v": "#fff"}
#: the players' colours in seat order (R: Orange, Weiß, Gelb, Braun); always with a letter
SEAT_FILL = ("#E69F00", "#FFFFFF", "#F0E442", "#8B5A2B")
SEAT_INK = ("#000", "#000", "#000", "#fff")
NAME_MAX = 18   # characters of a name beside the numbers of a score line
LINE_MAX = 62   # characters of a 10-unit line across the picture


def _name(names: list[str], seat: int, limit: int = NAME_MAX) -> str:
    return seat_name(names, seat, limit)


def seat_letters(names: list[str], players: int) -> list[str]:
    """One letter per seat for discs, markers and ships: the names' initials when they
    differ, else the seat numbers 1..n (never two seats with one sign)."""
    initials = [(_name(names, s)[:1] or "?").upper() for s in range(players)]
    if len(set(initials)) == players and all(i.isalpha() for i in initials):
        return initials
    return [str(s + 1) for s in range(players)]


def _wrap(line: str, limit: int = LINE_MAX) -> list[str]:
    return wrap(line, limit)


class _Drawing(Canvas):
    """Macao's house style on the shared canvas (a text's weight and anchor only where
    they are not the default), and the game's own pieces: cube, disc, marker."""

    def label(self, x: float, y: float, content: str, size: int = 11, weight: str = "normal",
              fill: str = INK, anchor: str = "start") -> None:
        self.text(x, y, content, font_size=size,
                  font_weight="bold" if weight == "bold" else None,
                  text_anchor=anchor if anchor != "start" else None, fill=fill)

    def box(self, x: float, y: float, w: float, h: float, fill: str, stroke: str = LINE,
            rx: float = 0) -> None:
        self.rect(x, y, w, h, rx=rx or None, fill=fill, stroke=stroke)

    def rule(self, x1: float, y1: float, x2: float, y2: float, stroke: str = LINE) -> None:
        self.line(x1, y1, x2, y2, stroke=stroke, stroke_width=1.5)

    def open(self, **attrs: Any) -> None:
        """Begin a group named by ``attrs`` (``data-…`` attributes); :meth:`close` ends it."""
        self.raw(f"<g{self.attributes({f'data_{k}': v for k, v in attrs.items()})}>")

    def close(self) -> None:
        self.raw("</g>")

    def cube(self, x: float, y: float, colour: str, letters: dict[str, str],
             size: int = 13) -> None:
        """A cube: its colour and its letter, never the colour alone."""
        self.box(x, y, size, size, FILL[colour], stroke="#000", rx=2)
        self.label(x + size / 2, y + size - 3, letters[colour], size=9, weight="bold",
                   fill=ON_FILL[colour], anchor="middle")

    def disc(self, x: float, y: float, seat: int, letter: str, r: float = 7) -> None:
        """A player's disc or ship: the player's colour and letter."""
        colour = seat % len(SEAT_FILL)
        self.circle(x, y, r, fill=SEAT_FILL[colour], stroke="#000")
        self.label(x, y + 3.5, letter, size=9, weight="bold", fill=SEAT_INK[colour],
                   anchor="middle")

    def marker(self, x: float, y: float, seat: int, letter: str) -> None:
        """An ownership marker: a shield (R: "Vorderseite Schilde") with the letter."""
        colour = seat % len(SEAT_FILL)
        self.path(f"M{x - 9:g},{y - 9:g} h18 v9 q0,8 -9,11 q-9,-3 -9,-11 z",
                  fill=SEAT_FILL[colour], stroke="#000")
        self.label(x, y + 3, letter, size=11, weight="bold", fill=SEAT_INK[colour],
                   anchor="middle")


def _pool(field: dict[str, int]) -> list[tuple[str, int]]:
    return [(c, field[c]) for c in data.COLOURS if field.get(c)]


def draw(view: dict[str, Any], names: list[str], lang: str = "en",
         links: Mapping[str, str] | None = None) -> str:
    t = words(lang)
    w, letters = {**t["picture"], "colour": t["colour"]}, t["letter"]
    players = len(view["seats"])
    marks = seat_letters(names, players)
    svg = _Drawing(links=links)
    y = _header(svg, view, names, lang, w, letters)
    y = _scores(svg, view, names, marks, lang, w, y)
    y = _wall(svg, view, names, marks, w, y)
    y = _city(svg, view, marks, lang, w, letters, y)
    y = _sea(svg, view, marks, lang, w, y)
    y = _seats(svg, view, names, marks, lang, w, letters, y)
    height = int(y + MARGIN)
    # the title is the picture's alt text in mails (pbem.mail.picture.alt_text)
    title = (f"Macao · {w['round']} {view['round']}/{data.ROUNDS} · "
             f"{t['picture phase'].get(view['phase'], view['phase'])}")
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="100%" '
            f'viewBox="0 0 {WIDTH} {height}" role="img" aria-label="{_text(title)}" '
            f'font-family="{FONT}"><title>{_text(title)}</title>'
            + svg.markup() + "</svg>")


def _header(svg: _Drawing, view: dict[str, Any], names: list[str], lang: str,
            w: dict[str, Any], letters: dict[str, str]) -> float:
    y = 20.0
    phase = words(lang)["picture phase"].get(view["phase"], view["phase"])
    svg.label(MARGIN, y, f"Macao · {w['round']} {view['round']}/{data.ROUNDS} · {phase}",
              size=15, weight="bold")
    y += 17
    gold, pp = view["tribute"]
    svg.label(MARGIN, y, w["tribute"].format(g=gold, p=pp) + " · "
              + w["deck"].format(n=view["deck_count"]), size=11)
    if view["to_move"] and view["phase"] != "over":
        y += 15
        movers = ", ".join(_name(names, s) for s in view["to_move"])
        svg.label(MARGIN, y, w["to_move"].format(names=movers), size=11, fill=MUTED)
    if view["dice"]:
        y += 8
        svg.label(MARGIN, y + 11, w["dice"] + ":", size=10)
        x = MARGIN + 44
        for colour, value in view["dice"]:
            svg.cube(x, y, colour, letters)
            svg.label(x + 16, y + 11, str(value), size=11, weight="bold")
            x += 36
        y += 16
    if view["display"]:
        y += 16
        svg.label(MARGIN, y, w["offer"] + ":", size=11, weight="bold")
        for c in view["display"]:
            y += 16
            x = MARGIN
            for colour in data.CARDS[c].cost:
                svg.cube(x, y - 11, colour, letters, size=12)
                x += 14
            svg.label(x + 4, y, card_name(c, lang), size=10)
    # the cube legend: what each letter stands for
    y += 16
    legend = " · ".join(f"{letters[c]} {w['colour'][c]}" for c in data.COLOURS)
    svg.label(MARGIN, y, f"{w['cubes']}: {legend}", size=9, fill=MUTED)
    return y


def _scores(svg: _Drawing, view: dict[str, Any], names: list[str], marks: list[str], lang: str,
            w: dict[str, Any], y: float) -> float:
    y += 22
    svg.label(MARGIN, y, w["prestige"], size=12, weight="bold")
    top = max([100] + [me["pp"] for me in view["seats"]])
    for me in view["seats"]:
        s = me["seat"]
        y += 22
        svg.open(score=s)
        svg.disc(MARGIN + 7, y - 4, s, marks[s])
        you = f" ({w['you']})" if s == view.get("you") else ""
        svg.label(MARGIN + 18, y, _name(names, s) + you, size=11,
                  weight="bold" if you else "normal")
        svg.label(WIDTH - MARGIN, y, f"{me['pp']} PP", size=12, weight="bold", anchor="end")
        # the prestige track as a bar (0-99 around the board; longer if passed)
        bar = (WIDTH - 2 * MARGIN - 18) * max(0, me["pp"]) / top
        svg.box(MARGIN + 18, y + 3, WIDTH - 2 * MARGIN - 18, 4, "#eef1f4", stroke="none")
        svg.box(MARGIN + 18, y + 3, bar, 4, SEAT_FILL[s % 4], stroke="#000")
        y += 17
        line = (f"{me['gold']} {w['gold']} · {me['penalties']} {w['penalties']} (−3) · "
                f"{w['area']} {me['area']}")
        if view.get("final"):
            line += f" · {w['final']} {view['final'][s]['total']}"
        svg.label(MARGIN + 18, y, line, size=9, fill=MUTED)
        svg.close()
    y += 16
    colours = words(lang)["seat colour"]
    legend = " · ".join(f"{marks[s]} = {_name(names, s, 12)} ({colours[s % 4]})"
                        for s in range(len(view["seats"])))
    for part in _wrap(f"{w['legend']}: {legend}", 70):
        svg.label(MARGIN, y, part, size=9, fill=MUTED)
        y += 12
    return y - 12


def _wall(svg: _Drawing, view: dict[str, Any], names: list[str], marks: list[str],
          w: dict[str, Any], y: float) -> float:
    y += 24
    svg.label(MARGIN, y, w["wall"], size=12, weight="bold")
    y += 6
    cell = (WIDTH - 2 * MARGIN) / data.WALL_FIELDS
    rank = {s: i for i, s in enumerate(view["order"])}
    deepest = max([1] + [len(stack) for stack in view["wall"]])
    height = 14 + 16 * deepest
    for i, stack in enumerate(view["wall"]):
        x = MARGIN + i * cell
        svg.open(wall=i + 1)
        svg.box(x, y, cell - 1, height, "#e8e0d0")
        svg.label(x + cell / 2, y + 10, str(i + 1), size=9, fill=MUTED, anchor="middle")
        # top of the stack first, as the turn order reads it (a Turm's owner on top)
        for k, s in enumerate(sorted(stack, key=lambda s: rank.get(s, 0))):
            svg.disc(x + cell / 2, y + 20 + 16 * k, s, marks[s])
        svg.close()
    y += height + 14
    order = ", ".join(f"{k + 1}. {_name(names, s, 12)}" for k, s in enumerate(view["order"]))
    for part in _wrap(w["order"].format(names=order), 66):
        svg.label(MARGIN, y, part, size=10)
        y += 13
    return y - 13


def _city(svg: _Drawing, view: dict[str, Any], marks: list[str], lang: str, w: dict[str, Any],
          letters: dict[str, str], y: float) -> float:
    y += 24
    svg.label(MARGIN, y, w["city"], size=12, weight="bold")
    y += 6
    cols = data.CITY_COLUMNS
    rows = len(data.DISTRICT_COST) // cols
    cw, ch = (WIDTH - 2 * MARGIN) / cols, 48
    for d, cost in data.DISTRICT_COST.items():
        row, col = divmod(d - 1, cols)
        x, top = MARGIN + col * cw, y + row * ch
        dark = d in data.DARK_DISTRICTS
        svg.open(district=d)
        svg.box(x, top, cw - 2, ch - 2, "#c9b79c" if dark else "#f6f1e4", stroke="#6e5b3f")
        svg.label(x + 3, top + 11, str(d), size=9, fill=MUTED)
        owner = view["city"].get(str(d))
        if owner is not None:
            svg.marker(x + cw / 2, top + 24, owner, marks[owner])
        else:
            tile = view["tiles"].get(str(d), "")
            label = "Joker" if tile == "Joker" else words(lang)["good short"].get(tile, tile)
            svg.label(x + 3, top + 24, label, size=9,
                      weight="bold" if tile == "Joker" else "normal")
            cx = x + 3
            for colour in cost:
                svg.cube(cx, top + 28, colour, letters, size=13)
                cx += 14
        svg.close()
    return y + rows * ch


#: the sea's two routes from the start field, drawn as two rows
def _routes() -> list[list[str]]:
    routes = []
    for first in data.sea_neighbours(data.START_FIELD):
        route, here, prev = [first], first, data.START_FIELD
        while True:
            nxt = [f for f in data.sea_neighbours(here) if f != prev]
            if not nxt:
                break
            prev, here = here, nxt[0]
            route.append(here)
        routes.append(route)
    return routes


def _sea(svg: _Drawing, view: dict[str, Any], marks: list[str], lang: str, w: dict[str, Any],
         y: float) -> float:
    y += 24
    svg.label(MARGIN, y, w["sea"], size=12, weight="bold")
    routes = _routes()
    ships: dict[str, list[int]] = {}
    for me in view["seats"]:
        ships.setdefault(me["ship"], []).append(me["seat"])
    step = (WIDTH - 2 * MARGIN - 44) / max(len(r) for r in routes)
    anchor_x = MARGIN + 14
    rows_y = [y + 34 + 62 * i for i in range(len(routes))]
    anchor_y = sum(rows_y) / len(rows_y)
    where: dict[str, tuple[float, float]] = {data.START_FIELD: (anchor_x, anchor_y)}
    for route, ry in zip(routes, rows_y, strict=True):
        for i, field in enumerate(route):
            where[field] = (MARGIN + 44 + step * i + step / 2, ry)
    for a, b in data.SEA_EDGES:
        svg.rule(*where[a], *where[b])
    for field, (fx, fy) in where.items():
        svg.open(field=field)
        if field in data.HARBOURS:
            svg.box(fx - 8, fy - 8, 16, 16, "#dbe9f6", stroke="#1f4e79", rx=3)
            svg.label(fx, fy + 20, field, size=9, anchor="middle")
        elif field == data.START_FIELD:
            svg.box(fx - 12, fy - 12, 24, 24, "#dbe9f6", stroke="#1f4e79", rx=12)
            svg.label(fx, fy + 4, "⚓", size=12, anchor="middle")
            svg.label(fx, fy + 24, field, size=9, anchor="middle")
        else:
            svg.circle(fx, fy, 5, fill="#dbe9f6", stroke="#1f4e79")
        here = ships.get(field, [])
        for k, s in enumerate(here):
            if field == data.START_FIELD:     # room above and below the anchor
                sx, sy = fx + 22 + 16 * (k // 2), fy - 8 + 16 * (k % 2)
            else:
                sx, sy = fx - 8 * (len(here) - 1) + 16 * k, fy - 17
            svg.disc(sx, sy, s, marks[s], r=7)
        svg.close()
    y = rows_y[-1] + 34
    y += 18
    svg.label(MARGIN, y, w["harbours"], size=12, weight="bold")
    for harbour, (good, values) in data.HARBOURS.items():
        y += 19
        svg.open(harbour=harbour)
        svg.label(MARGIN, y, harbour, size=10)
        svg.label(MARGIN + 74, y, words(lang)["good short"][good], size=10, fill=MUTED)
        spaces = view["harbours"].get(harbour, [])
        for i, value in enumerate(values):
            x = MARGIN + 150 + 50 * i
            who = spaces[i] if i < len(spaces) else None
            svg.box(x, y - 12, 46, 16, "#fff" if who is None else "#eef1f4", rx=2)
            svg.label(x + 4, y, f"{value}", size=10, weight="bold")
            if who is None:
                svg.label(x + 43, y, w["free"], size=9, fill=MUTED, anchor="end")
            else:
                svg.disc(x + 35, y - 4, who, marks[who], r=6.5)
        svg.close()
    return y


def _seats(svg: _Drawing, view: dict[str, Any], names: list[str], marks: list[str], lang: str,
           w: dict[str, Any], letters: dict[str, str], y: float) -> float:
    you = view.get("you")
    order = sorted(view["seats"], key=lambda me: (me["seat"] != you, me["seat"]))
    for me in order:
        s = me["seat"]
        full = you is None or s == you     # the viewer's cards in full (all, for others)
        y += 26
        svg.open(panel=s)
        svg.disc(MARGIN + 7, y - 4, s, marks[s])
        title = _name(names, s) + (f" ({w['you']})" if s == you else "")
        svg.label(MARGIN + 18, y, title, size=12, weight="bold")
        y += 15
        cargo = ", ".join(words(lang)["good short"][g] for g in me["goods"]) or w["none"]
        line = (f"{w['ship']}: {me['ship']} · {w['cargo']}: {cargo} · "
                f"{w['jokers']}: {me['jokers']}")
        for part in _wrap(line, 66):
            svg.label(MARGIN, y, part, size=10)
            y += 13
        # the wind rose as seven fields in a row: the arrow (the action supply), then 1..6
        y += 2
        svg.label(MARGIN, y, w["rose"], size=9, fill=MUTED)
        y += 4
        col = (WIDTH - 2 * MARGIN) / 7
        deepest = max([1] + [len(_pool(f)) for f in me["rose"]])
        for i, field in enumerate(me["rose"]):
            x = MARGIN + i * col
            svg.box(x, y, col - 2, 16 + 15 * deepest, "#f3f0ff" if i == 0 else "#fafafa")
            svg.label(x + 3, y + 11, w["arrow"] if i == 0 else str(i), size=9,
                      weight="bold" if i == 0 else "normal")
            for k, (colour, n) in enumerate(_pool(field)):
                svg.cube(x + 3, y + 15 + 15 * k, colour, letters)
                svg.label(x + 19, y + 26 + 15 * k, f"×{n}", size=10)
        y += 16 + 15 * deepest + 4
        for label, cards in ((w["tableau"], me["tableau"]), (w["active"], me["active"])):
            if not cards:
                continue
            if full:
                y += 15
                svg.label(MARGIN, y, f"{label}:", size=10, weight="bold")
                for c in cards:
                    y += 16
                    x = MARGIN + 6
                    for colour in data.CARDS[c].cost:
                        svg.cube(x, y - 11, colour, letters, size=12)
                        x += 14
                    svg.label(max(x + 4, MARGIN + 66), y, card_name(c, lang), size=10)
            else:
                text = f"{label}: " + ", ".join(card_name(c, lang) for c in cards)
                for part in _wrap(text, 66):
                    y += 13
                    svg.label(MARGIN, y, part, size=10)
        svg.close()
    return y
