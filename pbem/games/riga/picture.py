"""Riga's table as a picture: an SVG document drawn from a view alone.

A pure function (no I/O, no script, no external fonts or images), laid out in
a 390-unit-wide box, so that on a 390-pixel phone one unit is one pixel; no
text is smaller than 9 units (the letters on a small commodity mark), most is
10 to 13.  What it shows, top to bottom: the year, the season and whose turn it
is; the row of buildings (city, name, cost, victory points and what each
commodity is worth there), split by the separation card; the commodity sets
with their ducats; the piles; each seat (points, hand counts, knights and
merchants, the buildings of its display, what it revealed at the setup); a key
to the letters and marks; then what the view holds for its viewer alone (hand,
setup offer, Bauhof or Schatzkammer draw), the project in progress, a Kloster
swap under way, and the final scoring.  Every line is kept inside the width by
estimating text at 0.58 em a character (DejaVu Sans, the widest font named, the
one the mail's PNG renderer uses); tests measure it in Chromium too.

Nothing is told by colour alone.  A city is a coloured badge *with its
letter* (V Visby, T Tallinn, S Stockholm, D Danzig, R a Riga building); a
commodity a coloured shape *with its letters* (Tu: Tuch a square, Gl: Glas a
diamond, We: Wein a circle, Ko: Korn, the printed name of Getreide, a
triangle; named as printed in both languages, as the menus name them).  The
colours are from the Okabe-Ito palette, which stays apart for the common
colour-vision deficiencies.  A
used function is struck through and marked "used"; a building erected this
turn (its functions count from the next) has a dashed frame and "new".  The
commodity worth more in a city than its regular value is bold and boxed, one
that cannot pay there reads "–".  Names are escaped here: the caller passes
them as plain text.  The labels follow ``lang`` ("en" or "de"); building and
commodity names stay German, as printed, in both.

The picture is the board one plays on (``links``, from the seat page): every card is a
**region** carrying its help (a building its card's text, a commodity its regular
value), named as the menu names the place a move acts on (``menu.region_of``): ``row
<id>``, ``keep <id>``, ``draw <id>``, ``hand <id>``, ``hand <commodity>``, ``set <k>``
and ``set <k> <commodity>``, ``own <art>`` (the viewer's display), ``seat <k>``,
``riga`` and ``project``; another seat's cards (the archive's) carry their seat's
number, so that no link of the viewer's can land on them.  The steps that act on no
card (``menu.STRIP``: end the turn, cancel, keep none, a smaller menu and its pages) are
a row of small labelled buttons under the heading, drawn only where linked: a mail's
picture has none.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from pbem.games import language
from pbem.games.riga import data
from pbem.games.riga import words as riga_words
from pbem.games.riga.menu import STRIP
from pbem.games.riga.view import building_key, building_keys, building_view, display_pieces
from pbem.games.riga.words import building_help, building_name
from pbem.games.svg import Canvas, seat_name, shorten, text_width, wrap
from pbem.games.svg import xml_text as _text

WIDTH = 390
MARGIN = 6
FONT = "DejaVu Sans, system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif"
EM = 0.58  # the width of an average character, in em, for the widest of those fonts
INK, MUTED, LINE, PAPER = "#1f2328", "#59636e", "#d0d7de", "#fffdf6"
NAME_MAX = 30  # characters of a player's name in a seat's title, less its marks

#: the commodities, most valuable first, and their regular values (from the data file)
WAREN = data.WAREN
REGULAR = data.WERT
#: Okabe-Ito colours: vermillion, sky blue, reddish purple, yellow; and a shape each
WARE_COLOUR = {"Tuch": "#D55E00", "Glas": "#56B4E9", "Wein": "#CC79A7", "Getreide": "#F0E442"}
WARE_INK = {"Tuch": "#ffffff", "Glas": "#000000", "Wein": "#000000", "Getreide": "#000000"}
WARE_SHAPE = {"Tuch": "square", "Glas": "diamond", "Wein": "circle", "Getreide": "triangle"}
#: the commodities by their printed German names (Getreide is printed "Korn"), in
#: both languages, as the menus and the events name them
WARE_NAME = {"en": dict(data.WARE_NAME), "de": dict(data.WARE_NAME)}
WARE_LETTERS = {lang: {w: name[:2] for w, name in names.items()}
                for lang, names in WARE_NAME.items()}
#: the cities' colours on the cards (red, yellow, blue, green; Riga brown), each with
#: its letter on the badge
STADT_COLOUR = {"Visby": "#C62828", "Tallinn": "#E6B800", "Stockholm": "#0072B2",
                "Danzig": "#009E73", data.RIGA: "#8B5A2B"}
STADT_INK = {"Visby": "#ffffff", "Tallinn": "#000000", "Stockholm": "#ffffff",
             "Danzig": "#ffffff", data.RIGA: "#ffffff"}
STADT_LETTER = {"Visby": "V", "Tallinn": "T", "Stockholm": "S", "Danzig": "D", data.RIGA: "R"}
STAEDTE = data.STAEDTE



ROW_H = 22  # one building line
CHIP = 18  # a commodity symbol
BADGE = 18  # a city badge
# columns of a building line
X_NAME = MARGIN + BADGE + 6
X_COST = 168
X_POINTS = 204
X_VALUES = 236
VALUE_STEP = 38


def _name(names: list[str], seat: int, limit: int = NAME_MAX) -> str:
    return seat_name(names, seat, limit, missing="#{n}")


# a picture's labels, boxes and rules are of a few styles (the game's own sizes and
# colours), each written once

@lru_cache(maxsize=256, typed=True)
def _label_style(numbers: str, size: int, weight: str, fill: str, anchor: str) -> str:
    return Canvas(numbers).attributes({"font_size": size, "font_weight": weight,
                                       "fill": fill, "text_anchor": anchor})


@lru_cache(maxsize=256, typed=True)
def _box_style(numbers: str, fill: str, stroke: str, width: float, rx: float,
               dash: str) -> str:
    return Canvas(numbers).attributes({"rx": rx, "fill": fill, "stroke": stroke,
                                       "stroke_width": width,
                                       "stroke_dasharray": dash or None})


@lru_cache(maxsize=64, typed=True)
def _rule_style(numbers: str, stroke: str, width: float, dash: str) -> str:
    return Canvas(numbers).attributes({"stroke": stroke, "stroke_width": width,
                                       "stroke_dasharray": dash or None})


@lru_cache(maxsize=64, typed=True)
def _ware_style(numbers: str, code: str) -> tuple[str, str]:
    """A commodity's shape's attributes before and after its places."""
    canvas = Canvas(numbers)
    return (canvas.attributes({"class_": "ware", "data_ware": code}),
            canvas.attributes({"fill": WARE_COLOUR.get(code, "#999999"), "stroke": INK,
                               "stroke_width": 0.8}))


@lru_cache(maxsize=64, typed=True)
def _badge_style(numbers: str, stadt: str) -> tuple[str, str]:
    """A city's badge's attributes before and after its places."""
    canvas = Canvas(numbers)
    return (canvas.attributes({"class_": "stadt", "data_stadt": stadt}),
            canvas.attributes({"rx": 3, "fill": STADT_COLOUR[stadt], "stroke": INK,
                               "stroke_width": 0.6}))


class _Drawing(Canvas):
    """Riga's house style on the shared canvas: every text and box with all its
    attributes, and the game's own shapes (a commodity, a city, a coin, a seal)."""

    def label(self, x: float, y: float, content: Any, size: int = 12, weight: str = "normal",
              fill: str = INK, anchor: str = "start", **attrs: Any) -> None:
        if attrs:
            self.text(x, y, content, font_size=size, font_weight=weight, fill=fill,
                      text_anchor=anchor, **attrs)
        else:
            self.styled_text(x, y, content,
                             _label_style(self._format, size, weight, fill, anchor))

    def box(self, x: float, y: float, w: float, h: float, fill: str, stroke: str = "none",
            width: float = 1, rx: float = 0, dash: str = "") -> None:
        self.styled_rect(x, y, w, h, _box_style(self._format, fill, stroke, width, rx, dash))

    def rule(self, x1: float, y1: float, x2: float, y2: float, stroke: str = LINE,
             width: float = 1, dash: str = "") -> None:
        self.styled_line(x1, y1, x2, y2, _rule_style(self._format, stroke, width, dash))

    def ware(self, code: str, x: float, y: float, lang: str, size: float = CHIP) -> None:
        """One commodity: its shape, colour and letters; ``(x, y)`` the top left corner."""
        shape = WARE_SHAPE.get(code, "square")
        cx, cy, r = x + size / 2, y + size / 2, size / 2
        kind, ink = _ware_style(self._format, code)
        if shape == "circle":
            self.placed("circle", kind, ink, cx=cx, cy=cy, r=r - 0.5)
        elif shape == "diamond":
            self.placed("path", kind, ink, d=f"M{cx:g} {y - 2:g} L{x + size + 2:g} {cy:g} "
                                             f"L{cx:g} {y + size + 2:g} L{x - 2:g} {cy:g} Z")
        elif shape == "triangle":
            self.placed("path", kind, ink, d=f"M{cx:g} {y - 3:g} L{x + size + 3:g} {y + size:g} "
                                             f"L{x - 3:g} {y + size:g} Z")
        else:
            self.placed("rect", kind, ink, x=x + 0.5, y=y + 0.5, width=size - 1,
                        height=size - 1)
        letters = WARE_LETTERS[lang].get(code, code[:2])
        # the triangle is widest at its foot: its letters sit lower
        base = y + size - 2.5 if shape == "triangle" else cy + 3.6
        self.label(cx, base, letters, size=9 if size < CHIP else 10, weight="bold",
                   fill=WARE_INK.get(code, INK), anchor="middle")

    def badge(self, stadt: str | None, x: float, y: float, size: float = BADGE) -> None:
        """A city: its colour and its letter (R for a Riga building)."""
        key = stadt if stadt in STADT_LETTER else data.RIGA
        kind, ink = _badge_style(self._format, key)
        self.placed("rect", kind, ink, x=x, y=y, width=size, height=size)
        self.label(x + size / 2, y + size / 2 + 4, STADT_LETTER[key], size=11, weight="bold",
                   fill=STADT_INK[key], anchor="middle")

    def coin(self, x: float, y: float, value: Any) -> None:
        """A cost in ducats: a ring with its number (the cost's place on the card)."""
        self.circle(x, y, 9.5, fill="#fff3c4", stroke="#7a5c00", stroke_width=1.2)
        self.label(x, y + 4, value, size=11, weight="bold", anchor="middle")

    def seal(self, x: float, y: float, value: Any) -> None:
        """Victory points: a shield with its number."""
        self.path(f"M{x - 9:g} {y - 9:g} h18 v8 q0 8 -9 11 q-9 -3 -9 -11 z",
                  fill="#e8eefc", stroke="#1e3a8a", stroke_width=1.2)
        self.label(x, y + 3, value, size=11, weight="bold", anchor="middle")


def _words(lang: str) -> tuple[str, dict[str, str]]:
    lang = "de" if language.code(lang) == "de" else "en"
    return lang, riga_words.words(lang)["picture"]


def _count(n: int, noun: str, words: dict[str, str]) -> str:
    return words[f"{noun} 1" if n == 1 else f"{noun} n"].format(n=n)


def _room(x: float, size: int) -> int:
    """How many characters of ``size`` fit from ``x`` to the right margin (0.58 em a
    character: DejaVu Sans, the widest of the fonts named, averages less)."""
    return int((WIDTH - MARGIN - x) / (EM * size))


def _wrap(line: str, limit: int) -> list[str]:
    return wrap(line, limit)


def _wrap_parts(parts: list[str], limit: int, sep: str = " · ") -> list[str]:
    """``parts`` joined by ``sep`` in lines of at most ``limit`` characters, broken
    between parts where a part fits a line, else inside it at spaces."""
    lines: list[str] = []
    for part in parts:
        if lines and len(lines[-1]) + len(sep) + len(part) <= limit:
            lines[-1] += sep + part
        else:
            lines.extend(_wrap(part, limit))
    return lines or [""]


def _season(view: dict[str, Any], words: dict[str, str]) -> str:
    season = view.get("season") or "setup"
    return words.get(season, season)


def _face(card: dict[str, Any], keys: tuple[str, ...],
          flags: tuple[str, ...] = ()) -> tuple[tuple[str, Any], ...]:
    """The entries ``keys`` of a card's view that it has, as a key to keep its drawing by
    (``Canvas.drawn``): a dict among them as its items, a list as a tuple, each of
    ``flags`` as 0 or 1 (a truth value cannot key a kept drawing inside a tuple)."""
    face = []
    for k in keys:  # a loop, not a generator: every card on the table, every picture
        if k in card:
            v = card[k]
            kind = type(v)
            face.append((k, int(bool(v)) if k in flags else tuple(v.items()) if kind is dict
                         else tuple(v) if kind is list else v))
    return tuple(face)


def _thawed(face: tuple[tuple[str, Any], ...]) -> dict[str, Any]:
    """A card's view again from its ``_face`` (its values a dict)."""
    return {k: dict(v) if k == "values" and type(v) is tuple else v for k, v in face}


#: what a building's line and its help read of its view
_LINE_KEYS = ("id", "name", "art", "stadt", "ware", "cost", "points", "values")


def _value_header(svg: _Drawing, y: float, lang: str, words: dict[str, str]) -> float:
    # the same few lines in every picture: kept (``Canvas.drawn``)
    return svg.drawn(_value_header_line, lang, y)


def _value_header_line(svg: _Drawing, lang: str, y: float) -> float:
    words = _words(lang)[1]
    svg.label(X_COST, y + 13, words["cost"], size=10, fill=MUTED, anchor="middle")
    svg.label(X_POINTS, y + 13, words["points"], size=10, fill=MUTED, anchor="middle")
    for i, code in enumerate(WAREN):
        svg.ware(code, X_VALUES + i * VALUE_STEP, y, lang)
    return y + CHIP + 4


def _building_help(b: dict[str, Any] | str, lang: str) -> str:
    """``Kran (Visby): halves …``: a building's name and its card's help, in ``lang``."""
    ident = b.get("id", "") if isinstance(b, dict) else b
    if not data.is_building(ident):
        return building_name(b)
    return f"{building_name(b)}: {building_help(ident, lang)}"


def _ware_help(code: str, lang: str, words: dict[str, str]) -> str:
    return words["ware help"].format(name=WARE_NAME[lang].get(code, code),
                                     value=REGULAR.get(code, "?"))


def _building(svg: _Drawing, b: dict[str, Any], y: float, lang: str, faded: bool = False,
              region: str = "") -> float:
    """One building as a line: badge, name (and its commodity), cost, points, values;
    the region ``region`` (``row <id>``, ``hand <id>``…) with the card's help."""
    region = region or f"building {b.get('id', '?')}"
    # a building looks the same in the row, a hand, a draw, and in every reader's picture:
    # kept by its id where it is the data version's entry (``building_key``), else by
    # what its line reads of it
    key = building_key(b)
    return svg.drawn(_building_card, data.SETS.active.version, lang,
                     key if type(key) is str else _face(b, _LINE_KEYS),
                     y, faded, region, regions=(region,))


def _building_card(svg: _Drawing, _version: str, lang: str,
                   face: str | tuple[tuple[str, Any], ...], y: float, faded: bool,
                   region: str) -> float:
    b = building_view(face) if type(face) is str else _thawed(face)
    with svg.region(region, help=_building_help(b, lang),
                    box=(MARGIN - 2, y + 1, WIDTH - 2 * MARGIN + 4, ROW_H - 2)):
        _building_line(svg, b, y, lang, faded)
    return y + ROW_H


def _building_line(svg: _Drawing, b: dict[str, Any], y: float, lang: str,
                   faded: bool) -> None:
    stadt = b.get("stadt")
    svg.badge(stadt, MARGIN, y + 2)
    name = shorten(b.get("name") or b.get("art") or b.get("id", "?"), 15)
    svg.label(X_NAME, y + 15, name, size=12, weight="bold", fill=MUTED if faded else INK,
              data_id=b.get("id", ""))
    ware = b.get("ware")
    if ware:
        svg.ware(ware, X_NAME + 7.4 * len(name) + 4, y + 3, lang, 14)
    svg.coin(X_COST, y + 11, b.get("cost", "?"))
    svg.seal(X_POINTS, y + 11, b.get("points", "?"))
    values = b.get("values") or {}
    for i, code in enumerate(WAREN):
        x = X_VALUES + i * VALUE_STEP + CHIP / 2
        value = values.get(code)
        if value is None:
            svg.label(x, y + 15, "–", size=12, fill=MUTED, anchor="middle")
            continue
        more = value > REGULAR.get(code, value)
        if more:  # worth more here than its regular value: boxed and bold
            svg.box(x - 11, y + 2, 22, 18, "#ffffff", INK, 1.4, rx=3)
        svg.label(x, y + 15, value, size=12, weight="bold" if more else "normal",
                  anchor="middle")


def _kept_sets(svg: _Drawing, y: float, faces: tuple[tuple[tuple[str, Any], ...], ...],
               lang: str) -> float:
    return _sets(svg, y, [_thawed(face) for face in faces], lang, _words(lang)[1])


def _sets(svg: _Drawing, y: float, sets: list[dict[str, Any]], lang: str,
          words: dict[str, str]) -> float:
    """The commodity sets: number, cards as symbols, ducats; two sets share a line
    where both fit in half of it.  Set ``k`` is the region ``set k`` (take it, swap
    with it), each of its cards the region ``set k <commodity>`` (the Kloster's swap
    gives or gets one)."""
    step = CHIP + 7  # a triangle's foot is wider than its box
    half = WIDTH // 2

    def need(s: dict[str, Any]) -> float:
        return 18 + step * len(s.get("waren", [])) + 4 + EM * 12 * len(f"= {s.get('value')}")

    col = 0
    for i, s in enumerate(sets):
        fits = need(s) <= half - MARGIN
        if col == 1 and not fits:
            y += CHIP + 8
            col = 0
        x = left = MARGIN + col * half
        top = y
        # where each card lies (a very long set wraps), then the set as one region
        places = []
        x += 18
        for code in s.get("waren", []):
            if x + step > WIDTH - MARGIN - 70:
                x = MARGIN + 18
                y += CHIP + 6
            places.append((code, x, y))
            x += step
        value = f"= {s.get('value', '?')}"
        right = x + 2 + EM * 12 * len(value) if y == top else WIDTH - MARGIN
        cards = ", ".join(WARE_NAME[lang].get(c, c) for c in s.get("waren", []))
        with svg.region(f"set {i + 1}", help=words["set help"].format(
                n=i + 1, cards=cards, value=s.get("value", "?")),
                box=(left - 2, top - 2, right - left + 4, y - top + CHIP + 5)):
            # numbered by position, as the notation ``take set k`` counts them
            svg.label(left, top + 13, f"{i + 1}.", size=12, weight="bold")
            for code, cx, cy in places:
                with svg.region(f"set {i + 1} {code}", help=_ware_help(code, lang, words),
                                box=(cx - 2, cy - 1, CHIP + 4, CHIP + 4)):
                    svg.ware(code, cx, cy + 1, lang)
            svg.label(x + 2, y + 14, value, size=12, weight="bold")
        nxt = sets[i + 1] if i + 1 < len(sets) else None
        if col == 0 and fits and nxt is not None and need(nxt) <= half - MARGIN:
            col = 1
        else:
            y += CHIP + 8
            col = 0
    return y


def _tile_face(d: dict[str, Any], words: dict[str, str]) -> tuple[str, list[str], float]:
    """A display tile's name, its marks (used, new) and its width."""
    name = shorten(d.get("name") or d.get("art") or d.get("id", "?"), 14)
    face = d.get("face")
    if face is not None and face != "":
        name += f" {face}" if not isinstance(face, str) else f" ({face})"
    marks = []
    if d.get("used"):
        marks.append(words["used"])
    if d.get("new"):  # erected this turn: counts from the owner's next turn
        marks.append(words["new"])
    width = 14 + 4 + text_width(name, 10) + 6
    if marks:
        width += 4 + text_width(f"· {', '.join(marks)}", 10, bold=True)
    return name, marks, width


#: what a display's building and its help read of its view, and which of it are flags
#: (0 or 1 in a seat's key: ``_face``)
_DISPLAY_KEYS = ("id", "name", "art", "stadt", "face", "used", "new")
_DISPLAY_FLAGS = ("used", "new")


def _tile_card(svg: _Drawing, d: dict[str, Any], x: float, y: float, lang: str,
               region: str, tile: tuple[str, list[str], float]) -> float:
    """A building in a display: badge and name; used struck through, new dashed; the
    region ``region`` with the card's help; ``tile`` its ``_tile_face``.  The x after it."""
    name, marks, width = tile
    with svg.region(region, help=_building_help(d, lang), box=(x, y - 1, width, 20)):
        _tile(svg, d, x, y, width, name, marks)
    return x + width + 4


def _tile(svg: _Drawing, d: dict[str, Any], x: float, y: float, width: float, name: str,
          marks: list[str]) -> None:
    new = bool(d.get("new"))
    svg.box(x, y, width, 18, "#f2f2f2" if d.get("used") else "#ffffff",
            MUTED if new else INK, 1, rx=3, dash="3 2" if new else "")
    svg.badge(d.get("stadt"), x + 2, y + 2, 14)
    svg.label(x + 20, y + 13, name, size=10, fill=MUTED if d.get("used") else INK,
              text_decoration="line-through" if d.get("used") else None)
    if marks:
        svg.label(x + 20 + text_width(name, 10) + 4, y + 13, f"· {', '.join(marks)}", size=10,
                  fill=MUTED, weight="bold")


def _seat_title(svg: _Drawing, lang: str, seat: int, points: Any, y: float, title: str,
                start: bool, moving: bool) -> None:
    """A seat's name, its marks (start player, to move) and its points, on one line: the
    region ``seat <seat + 1>``."""
    words = _words(lang)[1]
    with svg.region(f"seat {seat + 1}", box=(MARGIN, y, WIDTH - 2 * MARGIN, 22)):
        _seat_marks(svg, points, y, title, start, moving, words)


def _seat_marks(svg: _Drawing, points: Any, y: float, title: str, start: bool, moving: bool,
                words: dict[str, str]) -> None:
    svg.label(MARGIN + 6, y + 15, title, size=13, weight="bold",
              class_="seat-name")
    x = MARGIN + 6 + text_width(title, 13, bold=True) + 8
    if start:
        svg.box(x, y + 3, 38, 16, "#2e2e2e", rx=8)
        svg.label(x + 19, y + 15, words["start mark"], size=10, weight="bold", fill="#ffffff",
                  anchor="middle")
        x += 42
    if moving:
        svg.label(x, y + 15, f"◀ {words['to move']}", size=10, weight="bold", fill="#1b5e20")
    svg.label(WIDTH - MARGIN, y + 15, words["score"].format(n=points),
              size=13, weight="bold", anchor="end")


def _seat(svg: _Drawing, entry: dict[str, Any], view: dict[str, Any], names: list[str],
          y: float, lang: str, words: dict[str, str]) -> float:
    """A seat's line (``_seat_line``), drawn: the block it is in is kept whole
    (``_seat_block``), and a block drawn anew has mostly changed in its seat's line."""
    seat = entry["seat"]
    you = seat == view.get("you")
    moving = seat in (view.get("to_move") or []) and view.get("phase") != "over"
    start = seat == view.get("start") and view.get("phase") != "over"
    # room for the marks and the points: a long name is cut short
    room = NAME_MAX - (5 if start else 0) - (9 if moving else 0) - (5 if you else 0)
    title = _name(names, seat, room) + (f" ({words['you']})" if you else "")
    counts = tuple([entry.get(k, 0) for k in ("hand_count", "waren_count", "gebaeude_count",
                                              "ritter", "kaufleute")])
    limit = entry.get("hand_limit", 8 if entry.get("speicher") else 6)
    revealed = (tuple(entry.get("revealed") or ())
                if view.get("phase") in ("reveal", "choose_start", "keep") else ())
    display = tuple(entry.get("display") or ())  # its buildings' faces (``_seat_block``)
    left = tuple(entry.get("riga_left") or ())
    return _seat_line(svg, lang, seat, you, moving, start, title, entry.get("points", 0),
                      counts, limit, revealed, display, left, y)


def _display_faces(display: Any) -> tuple[tuple[tuple[str, Any], ...], ...]:
    """What a seat's line reads of its display's buildings (``display``, not empty): each
    one's ``_face`` (``view.display_pieces``)."""
    return display_pieces(display, data.SETS.active.kept("picture display faces", dict),
                          _display_face)


def _display_face(d: dict[str, Any]) -> tuple[tuple[str, Any], ...]:
    return _face(d, _DISPLAY_KEYS, _DISPLAY_FLAGS)


def _seat_regions(entry: dict[str, Any], seat: int, you: bool) -> tuple[str, ...]:
    """The regions a seat's line draws (``_seat_line``)."""
    return (f"seat {seat + 1}", "riga" if you else f"riga {seat + 1}",
            *(_display_region(d, seat, you) for d in entry.get("display") or ()))


def _display_region(d: dict[str, Any], seat: int, you: bool) -> str:
    # the viewer's own buildings by their art (the moves that use them name it), the
    # others' by seat and card
    return f"own {d.get('art')}" if you else f"display {seat + 1} {d.get('id', '?')}"


def _seat_line(svg: _Drawing, lang: str, seat: int, you: bool, moving: bool, start: bool,
               title: str, points: Any, counts: tuple[Any, ...], limit: Any,
               revealed: tuple[str, ...], display: tuple[tuple[tuple[str, Any], ...], ...],
               left: tuple[Any, ...], y: float) -> float:
    """A seat's block from ``y``: its title, hand counts and people, what it revealed,
    its display and its Riga buildings left; the y under it."""
    words = _words(lang)[1]
    top = y
    # drawn, not kept: a seat's block drawn anew has mostly moved
    _seat_title(svg, lang, seat, points, y, title, start, moving)
    y += 22
    hand, waren, gebaeude, ritter, kaufleute = counts
    status = [words["hand"].format(n=hand, w=_count(waren, "ware", words),
                                   g=_count(gebaeude, "bau", words)),
              words["people"].format(r=ritter, k=kaufleute)]
    if limit > 6:
        status.append(words["limit"].format(n=limit))
    y = _paragraph(svg, _wrap_parts(status, _room(MARGIN + 6, 11)), MARGIN + 6, y, 11, 11, 15,
                   fill=INK)
    if revealed:
        svg.label(MARGIN + 6, y + 13, words["revealed"], size=11)
        x = MARGIN + 6 + 6.5 * len(words["revealed"]) + 6
        for code in revealed:
            svg.ware(code, x, y, lang)
            x += CHIP + 6
        total = sum(REGULAR.get(c, 0) for c in revealed)
        svg.label(x, y + 13, f"= {total}", size=11, weight="bold")
        y += CHIP + 6
    y = _display(svg, [dict(d) for d in display], seat, you, y + 2, lang, words)
    if left:
        parts = _wrap(words["riga"].format(ids=", ".join(map(str, left))), _room(MARGIN + 6, 10))
        # the viewer's own Riga buildings are the place to build them
        with svg.region("riga" if you else f"riga {seat + 1}",
                        help=" · ".join(_building_help(b, lang) for b in left),
                        box=(MARGIN + 2, y - 4, WIDTH - 2 * MARGIN - 4,
                             max(22, 14 * len(parts) + 4))):
            y = _paragraph(svg, parts, MARGIN + 6, y, 10, 11, 14, fill=MUTED) + 2
    if moving:  # a bar beside the block of whoever is to move (the words say it too)
        svg.box(0, top + 2, 4, y - top - 4, "#2e7d32")
    return y


def _display(svg: _Drawing, display: list[dict[str, Any]], seat: int, you: bool, y: float,
             lang: str, words: dict[str, str]) -> float:
    """A seat's display from ``y``, its buildings in lines; the y under it."""
    x = MARGIN + 6
    if not display:
        svg.label(x, y + 12, words["nothing"], size=10, fill=MUTED)
        return y + 20
    for d in display:
        tile = _tile_face(d, words)
        if x > MARGIN + 6 and x + tile[2] > WIDTH - MARGIN:
            x = MARGIN + 6
            y += 22
        # drawn, not kept: a seat's block drawn anew has mostly moved
        x = _tile_card(svg, d, x, y, lang, _display_region(d, seat, you), tile)
    return y + 24


def _hand(svg: _Drawing, hand: dict[str, Any], y: float, lang: str,
          words: dict[str, str], title: str, prefix: str = "hand") -> float:
    """A hand: its commodities by kind (the region ``<prefix> <commodity>``: pay it,
    discard it) and its buildings (``<prefix> <id>``: build it, discard it); ``prefix``
    is "hand" for the viewer's own, "hand <seat>" for another's (the archive's)."""
    svg.label(MARGIN, y + 14, title, size=13, weight="bold")
    y += 20
    waren = hand.get("waren") or {}
    counts = tuple([waren.get(code, 0) for code in WAREN])
    svg.drawn(_hand_waren, lang, prefix, counts, y,
              regions=lambda: [f"{prefix} {code}" for code in WAREN])
    y += CHIP + 8
    buildings = hand.get("gebaeude") or []
    if buildings:
        y = _value_header(svg, y, lang, words)
        for b in buildings:
            y = _building(svg, b, y, lang, region=f"{prefix} {b.get('id', '?')}")
    else:
        svg.label(MARGIN, y + 12, words["no gebaeude"], size=11, fill=MUTED)
        y += 18
    return y + 4


def _hand_waren(svg: _Drawing, lang: str, prefix: str, counts: tuple[int, ...],
                y: float) -> None:
    """A hand's commodities, ``counts`` by kind (``WAREN``), each kind a region."""
    words = _words(lang)[1]
    x = MARGIN
    shown = False
    for code, k in zip(WAREN, counts, strict=True):
        if not k:
            continue
        shown = True
        label = f"× {k}"
        width = CHIP + 6 + 8 * len(label)
        with svg.region(f"{prefix} {code}", help=_ware_help(code, lang, words),
                        box=(x - 3, y - 3, width + 6, CHIP + 6)):
            svg.ware(code, x, y, lang)
            svg.label(x + CHIP + 6, y + 13, label, size=12, weight="bold")
        x += width + 14
    if not shown:
        svg.label(x, y + 12, words["no waren"], size=11, fill=MUTED)


def _project(svg: _Drawing, project: dict[str, Any], y: float, lang: str,
             words: dict[str, str], view: dict[str, Any], names: list[str]) -> float:
    """The project in progress (public: its paid cards lie on the table), the region
    ``project`` (erect it) with its buildings' help."""
    inner = _Drawing()  # drawn apart first: its height frames the region
    bottom = _project_lines(inner, project, y, lang, words, view, names)
    helps = " · ".join(_building_help(b, lang) for b in project.get("buildings", []))
    with svg.region("project", help=helps or None,
                    box=(MARGIN - 2, y, WIDTH - 2 * MARGIN + 4, bottom - y - 2)):
        svg.raw(inner.markup())
    return bottom


def _project_lines(svg: _Drawing, project: dict[str, Any], y: float, lang: str,
                   words: dict[str, str], view: dict[str, Any], names: list[str]) -> float:
    ids = [building_name(b) for b in project.get("buildings", [])]
    owner = view.get("current")
    who = (words["project you"] if owner is not None and owner == view.get("you")
           else words["project other"].format(name=_name(names, owner, 20))
           if owner is not None else "")
    line = words["project"].format(who=who, ids=" + ".join(ids),
                                   cost=project.get("cost", "?"),
                                   paid=project.get("paid_value", 0))
    y = _paragraph(svg, _wrap(line, _room(MARGIN, 12)), MARGIN, y, 12, 13, 17, weight="bold")
    paid = project.get("paid") or {}
    cards = [c for c in WAREN for _ in range(paid.get(c, 0))]
    if cards:
        x = MARGIN
        for code in cards:
            if x + CHIP + 6 > WIDTH - MARGIN:
                x = MARGIN
                y += CHIP + 4
            svg.ware(code, x, y, lang)
            x += CHIP + 6
        y += CHIP + 6
    uses = project.get("functions") or []
    if uses:
        shown = ", ".join(building_name(u) for u in uses)
        y = _paragraph(svg, _wrap(words["project uses"].format(uses=shown), _room(MARGIN, 11)),
                       MARGIN, y, 11, 11, 15, fill=MUTED)
    return y + 4


def _pending(svg: _Drawing, pending: dict[str, Any], y: float, lang: str,
             words: dict[str, str], prefix: str = "draw") -> float:
    """The viewer's own Bauhof draw (buildings, with their numbers) or Schatzkammer draw
    (commodities): each card the region ``<prefix> <card>`` (keep it); ``prefix`` is
    "draw" for the viewer's own, "draw <seat>" for the archive's."""
    kind = pending.get("kind", "")
    cards = pending.get("cards") or []
    key = f"draw {kind}" if f"draw {kind}" in words else "draw Bauhof"
    buildings = [c if isinstance(c, dict) else building_view(c) for c in cards
                 if isinstance(c, dict) or (isinstance(c, str) and data.is_building(c))]
    if buildings:
        svg.label(MARGIN, y + 15, words[key].format(cards="").rstrip(": "), size=12,
                  weight="bold")
        y = _value_header(svg, y + 22, lang, words)
        for b in buildings:
            y = _building(svg, b, y, lang, region=f"{prefix} {b.get('id', '?')}")
        return y + 4
    svg.label(MARGIN, y + 15, words[key].format(cards="").rstrip(": "), size=12, weight="bold")
    y += 22
    x = MARGIN
    for code in cards:
        name = WARE_NAME[lang].get(code, str(code))
        width = CHIP + 5 + 8 * len(name)
        with svg.region(f"{prefix} {code}", help=_ware_help(code, lang, words),
                        box=(x - 3, y - 3, width + 6, CHIP + 6)):
            svg.ware(code, x, y, lang)
            svg.label(x + CHIP + 5, y + 13, name, size=12)
        x += width + 14
    return y + CHIP + 10


#: the parts of a seat's final scoring, in the order they are added up
FINAL_PARTS = ("seals", "archiv", "loge", "hand", "riga", "money")


def _sub_line(view: dict[str, Any], names: list[str], words: dict[str, str]) -> str | None:
    """A public step in progress (the Kloster's swap, the Schule's side)."""
    sub = view.get("sub")
    owner = view.get("current")
    if not isinstance(sub, dict) or owner is None:
        return None
    who = _name(names, owner, 20)
    you = owner == view.get("you")
    kind = sub.get("kind")
    if kind == "kloster":
        line = words["kloster you" if you else "kloster"].format(name=who)
        if sub.get("from") is not None:
            line += " " + words["kloster from"].format(k=sub["from"] + 1)
        return line
    if kind == "kloster_take":
        i, j = (k + 1 for k in sub.get("sets", [0, 0])[:2])
        return words["kloster take you" if you else "kloster take"].format(name=who, i=i, j=j)
    if kind == "school":
        return words["school you" if you else "school"].format(name=who)
    return None


def _final_rows(final: Any) -> list[dict[str, Any]]:
    """The per-seat entries of a final scoring: a list, or a dict with them as "seats"."""
    if isinstance(final, dict):
        final = final.get("seats")
    if not isinstance(final, list):
        return []
    return [dict(f, seat=f.get("seat", i)) for i, f in enumerate(final) if isinstance(f, dict)]


def _fill(text: str, names: list[str]) -> str:
    """An engine text with its ``{n}`` placeholders as names (escaped later, as text)."""
    return re.sub(r"\{(\d+)\}", lambda m: _name(names, int(m.group(1))), text)


def _paragraph(svg: _Drawing, pieces: list[str], x: float, y: float, size: int,
               baseline: float, step: float, **style: Any) -> float:
    """Lines of text one under the other from ``y``: each ``baseline`` below its top,
    ``step`` apart; returns the ``y`` under the last."""
    for piece in pieces:
        svg.label(x, y + baseline, piece, size=size, **style)
        y += step
    return y


def _heading(view: dict[str, Any], words: dict[str, str]) -> str:
    if view.get("phase") == "over":
        return words["over"].format(years=view.get("years", "?"))
    if (view.get("season") or "setup") == "setup":
        return words["setting up"].format(years=view.get("years", "?"))
    return words["year"].format(year=max(1, int(view.get("year") or 1)),
                                years=view.get("years", "?"), season=_season(view, words))


def _top(svg: _Drawing, lang: str, heading: str, phase: str, moving: tuple[str, ...]) -> float:
    """The heading, and who is to move (``moving``: their names), and to do what."""
    words = _words(lang)[1]
    svg.label(MARGIN, 18, heading, size=15, weight="bold")
    y = 24.0
    key = f"phase {phase}"
    if phase != "over" and key in words and (moving or phase == "reveal"):
        who = ", ".join(moving)
        y = _paragraph(svg, _wrap(words[key].format(names=who), _room(MARGIN, 12)), MARGIN, y,
                       12, 14, 17, weight="bold", fill="#1b5e20")
    return y + 4


def _row(svg: _Drawing, view: dict[str, Any], y: float, lang: str,
         words: dict[str, str]) -> float:
    """The row of buildings, newest on top as on the table: the oldest ``below`` lie
    under the separation card."""
    row = view.get("row") or []
    if not row:
        return y
    # the row looks the same to every reader of a table and mostly in the next moves:
    # kept whole, by its cards (each the data version's entry by its id, ``building_keys``,
    # else its view as it is: a look-up, where a key of each card's face took a fifth of
    # a picture drawn from kept pieces); a row that changed draws its cards from theirs
    return svg.drawn(_row_kept, data.SETS.active.version, lang,
                     building_keys(row), view.get("below"), y,
                     regions=lambda: [f"row {b.get('id', '?')}" for b in row])


def _row_kept(svg: _Drawing, _version: str, lang: str,
              cards: tuple[str | dict[str, Any], ...], below: Any, y: float) -> float:
    words = _words(lang)[1]
    row = [building_view(b) if type(b) is str else b for b in cards]
    svg.rule(0, y, WIDTH, y)
    with svg.group(class_="row"):
        svg.label(MARGIN, y + 15, words["row"], size=12, weight="bold")
        y = _value_header(svg, y + 22, lang, words)
        below = int(below or 0)
        for i, b in enumerate(reversed(row)):
            if below and i == len(row) - below:
                svg.rule(MARGIN, y + 3, WIDTH - MARGIN, y + 3, INK, 1.5, "6 3")
                svg.label(MARGIN, y + 15, words["below"], size=10, fill=MUTED,
                          class_="separation")
                y += 20
            y = _building(svg, b, y, lang, faded=i >= len(row) - below,
                          region=f"row {b.get('id', '?')}")
    return y + 2


def _sets_and_piles(svg: _Drawing, view: dict[str, Any], y: float, lang: str,
                    words: dict[str, str]) -> float:
    sets = view.get("sets") or []
    piles = view.get("piles")
    if not sets and not piles:
        return y
    # the same to every reader of a table: kept whole by the views as they are (the
    # sets kept apart too, for a table whose piles alone changed)
    return svg.drawn(_sets_and_piles_kept, lang, sets, piles, y, regions=lambda: [
        name for i, s in enumerate(sets)
        for name in (f"set {i + 1}", *(f"set {i + 1} {c}" for c in s.get("waren", [])))])


def _sets_and_piles_kept(svg: _Drawing, lang: str, sets: list[dict[str, Any]],
                         piles: dict[str, Any] | None, y: float) -> float:
    words = _words(lang)[1]
    if sets:
        svg.rule(0, y, WIDTH, y)
        with svg.group(class_="sets"):
            svg.label(MARGIN, y + 15, words["sets"], size=12, weight="bold")
            faces = tuple([_face(s, ("waren", "value")) for s in sets])
            y = svg.drawn(_kept_sets, y + 21, faces, lang, regions=lambda: [
                name for i, s in enumerate(sets)
                for name in (f"set {i + 1}", *(f"set {i + 1} {c}" for c in s.get("waren", [])))])
    if piles:
        counts = {k: piles.get(k, 0) for k in ("waren", "waren_discard", "bau", "bau_discard",
                                                "separated")}
        parts = _wrap_parts(words["piles"].format(**counts).split(" · "), _room(MARGIN, 10))
        y = _paragraph(svg, parts, MARGIN, y, 10, 11, 14, fill=MUTED) + 4
    return y


def _seat_block(svg: _Drawing, entry: dict[str, Any], view: dict[str, Any],
                names: list[str], y: float, lang: str, words: dict[str, str]) -> float:
    """A seat, and its hand where the view holds it (the archive's holds every hand)."""
    # kept whole by the seat's view as it is and what it reads of the table's: whether it
    # is the viewer's, to move, the start player, and the phase (a look-up, where a key
    # of its parts took a tenth of a picture drawn from kept pieces; the same block in
    # every other reader's picture, and while others move); a block that changed draws
    # its seat's line from the one kept for it (``_seat``); its display as that line reads
    # it (``_display_faces``), not the view's entries whole
    seat = entry["seat"]
    display = entry.get("display")
    drawn = dict(entry, display=_display_faces(display)) if display else entry
    return svg.drawn(_seat_block_kept, data.SETS.active.version, lang, drawn,
                     seat == view.get("you"), seat in (view.get("to_move") or []),
                     seat == view.get("start"), view.get("phase"), names, y,
                     regions=lambda: _seat_block_regions(entry, seat == view.get("you")))


def _seat_block_regions(entry: dict[str, Any], you: bool) -> tuple[str, ...]:
    """The regions a seat's block draws (``_seat_block_kept``); ``you``: the viewer's."""
    seat = entry["seat"]
    regions = _seat_regions(entry, seat, you)
    hand = entry.get("hand")
    if hand and not you:
        prefix = f"hand {seat + 1}"
        regions += (*(f"{prefix} {code}" for code in WAREN),
                    *(f"{prefix} {b.get('id', '?')}" for b in hand.get("gebaeude") or []))
    return regions


def _seat_block_kept(svg: _Drawing, _version: str, lang: str, entry: dict[str, Any],
                     you: bool, moving: bool, start: bool, phase: Any, names: list[str],
                     y: float) -> float:
    words = _words(lang)[1]
    seat = entry["seat"]
    # the table's view as far as the seat's block reads it
    view = {"you": seat if you else None, "to_move": [seat] if moving else [],
            "start": seat if start else None, "phase": phase}
    svg.rule(0, y, WIDTH, y)
    # the seat as a text: ``attributes`` keeps no attributes with a number 0 or 1
    with svg.group(class_="seat", data_seat=str(int(seat))):
        y = _seat(svg, entry, view, names, y + 4, lang, words)
        hand = entry.get("hand")
        if hand and not you:
            with svg.group(class_="hand"):
                y = _hand(svg, hand, y, lang, words,
                          words["their hand"].format(name=_name(names, seat)),
                          prefix=f"hand {seat + 1}")
    return y


def _key(svg: _Drawing, y: float, lang: str) -> float:
    """The letters of the commodities and the cities, and the marks: the same in every
    picture of a language, kept."""
    return svg.drawn(_key_lines, y, lang)


def _key_lines(svg: _Drawing, y: float, lang: str) -> float:
    words = _words(lang)[1]
    svg.rule(0, y, WIDTH, y)
    y += 6
    key = [" · ".join(f"{WARE_LETTERS[lang][w]} {WARE_NAME[lang][w]} {REGULAR[w]}"
                      for w in WAREN) + f" ({words['legend waren']})",
           " · ".join(f"{STADT_LETTER[c]} {c}" for c in STAEDTE)
           + f" · {STADT_LETTER[data.RIGA]} {words['legend riga']}",
           words["legend used"]]
    for part in key:
        y = _paragraph(svg, _wrap_parts(part.split(" · "), _room(MARGIN, 10)), MARGIN, y, 10,
                       11, 14, fill=MUTED)
    return y + 2


def _own(svg: _Drawing, view: dict[str, Any], names: list[str], y: float, lang: str,
         words: dict[str, str]) -> float:
    """What the view holds for its viewer (hand, setup offer), a step in progress, the
    project and a draw."""
    hand = view.get("hand")
    if hand is not None and view.get("you") is not None:
        # the viewer's hand stays over most moves: kept whole by its commodities and its
        # buildings (``building_keys``)
        buildings = hand.get("gebaeude")
        y = svg.drawn(_own_hand, data.SETS.active.version, lang, hand.get("waren"),
                      building_keys(buildings) if buildings else buildings,
                      y, regions=lambda: [
            *(f"hand {code}" for code in WAREN),
            *(f"hand {b.get('id', '?')}" for b in hand.get("gebaeude") or [])])
    step = _sub_line(view, names, words)
    if step:
        y = _paragraph(svg, _wrap(step, _room(MARGIN, 12)), MARGIN, y, 12, 15, 17,
                       weight="bold", class_="step") + 4
    offer = view.get("keep_offer") or []
    if offer and view.get("you") is not None:
        with svg.group(class_="keep"):
            svg.label(MARGIN, y + 16, words["keep offer"], size=13, weight="bold")
            y = _value_header(svg, y + 22, lang, words)
            for b in offer:
                y = _building(svg, b, y, lang, region=f"keep {b.get('id', '?')}")
            if view.get("kept"):
                svg.label(MARGIN, y + 13,
                          words["kept"].format(name=building_name(view["kept"])),
                          size=11, weight="bold")
                y += 18
    if view.get("project"):
        with svg.group(class_="project"):
            y = _project(svg, view["project"], y + 2, lang, words, view, names)
    if view.get("pending_draw"):
        with svg.group(class_="draw"):
            # the archive sees a draw too: not as its viewer's own
            mine = view.get("you") is not None or view.get("current") is None
            y = _pending(svg, view["pending_draw"], y + 2, lang, words,
                         "draw" if mine else f"draw {view['current'] + 1}")
    elif view.get("drawing") and view.get("current") is not None:
        svg.label(MARGIN, y + 15, words["drawing"].format(name=_name(names, view["current"]),
                                                         kind=view["drawing"]),
                  size=12, weight="bold")
        y += 20
    return y


def _own_hand(svg: _Drawing, _version: str, lang: str, waren: Any, buildings: Any,
              y: float) -> float:
    """The viewer's hand (its commodities, and its buildings: each the data version's
    entry by its id, else its view) under a rule, from ``y``; the y under it."""
    words = _words(lang)[1]
    hand = {"waren": waren, "gebaeude": [building_view(b) if type(b) is str else b
                                         for b in buildings] if buildings else buildings}
    svg.rule(0, y, WIDTH, y)
    with svg.group(class_="hand own"):
        return _hand(svg, hand, y + 4, lang, words, words["your hand"])


def _final(svg: _Drawing, view: dict[str, Any], names: list[str], y: float,
           words: dict[str, str]) -> float:
    final = _final_rows(view.get("final"))
    if not final:
        return y
    svg.rule(0, y, WIDTH, y)
    with svg.group(class_="final"):
        svg.label(MARGIN, y + 17, words["final scoring"], size=13, weight="bold")
        y += 24
        for f in final:
            svg.label(MARGIN, y + 13, _name(names, f["seat"]), size=12, weight="bold")
            svg.label(WIDTH - MARGIN, y + 13,
                      words["score"].format(n=f.get("total", f.get("points", "?"))),
                      size=12, weight="bold", anchor="end")
            y += 18
            parts = [words[f"final {key}"].format(n=f[key]) for key in FINAL_PARTS
                     if isinstance(f.get(key), int) and (f[key] or key == "seals")]
            lines = ([" · ".join(parts)] if parts else []) + list(f.get("lines") or [])
            for line in lines:
                y = _paragraph(svg, _wrap(_fill(str(line), names), _room(MARGIN + 8, 10)),
                               MARGIN + 8, y, 10, 11, 14, fill=MUTED)
            y += 4
    return y


def _strip_label(region: str, lang: str, words: dict[str, str]) -> str:
    """The words on a place of the strip: ``end``, ``more``… or ``menu <group>``."""
    if region.startswith("menu "):
        group = region.removeprefix("menu ")
        menu_words = riga_words.words(lang)
        name = (menu_words["build in"].format(stadt=group)
                if group in STAEDTE or group == data.RIGA
                else menu_words["groups"].get(group, group))
        return words["place menu"].format(name=name)
    return words[f"place {region}"]


def _strip(svg: _Drawing, y: float, lang: str, words: dict[str, str]) -> float:
    """The places of the steps that act on no card (end the turn, cancel, keep none,
    a smaller menu, its next page, back): drawn where the seat page links them (only
    the viewer's legal moves have links), as small labelled buttons in a row."""
    # the smaller menus in the menu's order (the seat page's links keep it), then the steps
    regions = [r for r in svg.links if r.startswith("menu ")] + [
        r for r in STRIP if r in svg.links]
    if not regions:
        return y
    x = MARGIN
    for region in regions:
        label = _strip_label(region, lang, words)
        width = EM * 12 * len(label) + 16
        if x > MARGIN and x + width > WIDTH - MARGIN:
            x = MARGIN
            y += 32
        with svg.region(region, help=label, box=(x, y + 2, width, 24)):
            svg.box(x, y + 2, width, 24, "#eef4ff", INK, 1, rx=5)
            svg.label(x + width / 2, y + 19, label, size=12, weight="bold", anchor="middle")
        x += width + 8
    return y + 34


def draw(view: dict[str, Any], names: list[str], lang: str = "en",
         links: Mapping[str, str] | None = None) -> str:
    """The table of ``view`` as an SVG document; ``names`` are plain text."""
    lang, words = _words(lang)
    svg = _Drawing(links=links)
    heading = _heading(view, words)
    # the heading and who is to move: kept by their words (they stay for a seat's turn)
    phase = view.get("phase", "")
    moving = tuple(_name(names, s, 20) for s in view.get("to_move") or [])
    y = svg.drawn(_top, lang, heading, phase, moving)
    y = _strip(svg, y, lang, words)
    y = _row(svg, view, y, lang, words)
    y = _sets_and_piles(svg, view, y, lang, words)
    for entry in view.get("seats") or []:
        y = _seat_block(svg, entry, view, names, y, lang, words)
    y = _key(svg, y, lang)
    y = _own(svg, view, names, y, lang, words)
    y = _final(svg, view, names, y, words)
    height = int(y + 6)
    title = _text(heading)
    # a picture with places to tap is no longer one image: role="img" would hide them
    role = "" if svg.linked else ' role="img"'
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" '
            f'width="{WIDTH}" height="{height}"{role} font-family="{FONT}">'
            f"<title>{title}</title>"
            f'<rect x="0" y="0" width="{WIDTH}" height="{height}" fill="{PAPER}"/>')
    return svg.enclosed(head)
