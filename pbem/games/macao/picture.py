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

The places the moves act on are **regions** (``svg.Canvas.region``), named as
``menu.region`` names a move's: a card on offer (``offer A7``) or in the viewer's
tableau (``card A7``), a die (``die r``), a cube of the legend, the general supply
(``cubes r``), a field of the viewer's wind rose (``rose 1``) and a cube place of its
action supply (``supply r``), a wall field (``wall 5``), a row and a district of the
city (``row 1``, ``district 12``), a sea field (``sea Lisboa``), a harbour
(``harbour Lisboa``), the tribute, the viewer's jokers, the headings of the action
menu's groups (``tableau``, ``activated``, ``city``, ``wall``, ``sea``), the viewer's
name (``you``) and, while the viewer is to move in the action phase, a labelled place
to end the turn (``end``).  On the seat page (``links``) those a legal move acts on
are links, framed as places to tap, each framed box large enough for a finger; every
card and place carries its help as a title in the reader's language.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager, nullcontext
from functools import lru_cache
from typing import Any

from pbem.games.macao import data
from pbem.games.macao.words import card_help, card_name, cubes, words
from pbem.games.svg import Canvas, seat_name, text_width, wrap
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
#: rows of cards on offer and in the viewer's tableau, and of the harbours, apart: a
#: finger's place each (a framed box is 4 units taller than the row it frames)
ROW = 22
#: where the place to end the turn begins, beside the longest name (NAME_MAX + "(you)")
END_X = 205


def _name(names: Sequence[str], seat: int, limit: int = NAME_MAX) -> str:
    return seat_name(names, seat, limit)


def seat_letters(names: Sequence[str], players: int) -> list[str]:
    """One letter per seat for discs, markers and ships: the names' initials when they
    differ, else the seat numbers 1..n (never two seats with one sign)."""
    initials = [(_name(names, s)[:1] or "?").upper() for s in range(players)]
    if len(set(initials)) == players and all(i.isalpha() for i in initials):
        return initials
    return [str(s + 1) for s in range(players)]


def _wrap(line: str, limit: int = LINE_MAX) -> list[str]:
    return wrap(line, limit)


def _width(text: str, size: float) -> float:
    """About how wide ``text`` runs at ``size`` (for a frame around a heading, which is
    bold where it is a heading: the wider estimate serves both)."""
    return text_width(text, size, bold=True)


def _card_help(c: str, lang: str, graf: bool = True) -> str:
    return f"{card_name(c, lang)}: {card_help(c, lang, graf)}"


#: a table's seats as its pictures write them: their names beside a score (``NAME_MAX``)
#: and in a legend (12 characters), and their letters (``seat_letters``)
_SeatNames = tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]


@lru_cache(maxsize=256)
def _seat_names(names: tuple[str, ...], players: int) -> _SeatNames:
    """The seats' names and letters (``_SeatNames``), worked out once for a table's names:
    a picture writes each name several times, and every picture of the table the same."""
    return (tuple(_name(names, s) for s in range(players)),
            tuple(_name(names, s, 12) for s in range(players)),
            tuple(seat_letters(names, players)))


def _picture_words(lang: str) -> dict[str, Any]:
    """The picture's words in ``lang`` and the colours' names (``w`` of the sections),
    merged once per words table, not per picture."""
    t = words(lang)
    found = _PICTURE_WORDS.get(id(t))
    if found is None or found[0] is not t:
        found = _PICTURE_WORDS[id(t)] = (t, {**t["picture"], "colour": t["colour"]})
    return found[1]


#: ``_picture_words`` by the id of the words table, each kept with its table (so that an
#: id is never taken for another table's while kept)
_PICTURE_WORDS: dict[int, tuple[Any, dict[str, Any]]] = {}


# a picture's labels and boxes are of a few styles (the game's own sizes and colours),
# each written once

@lru_cache(maxsize=256, typed=True)
def _label_style(numbers: str, size: int, weight: str, fill: str, anchor: str) -> str:
    """A label's attributes as ``_Drawing.label`` writes them (its weight and anchor only
    where they are not the default)."""
    return Canvas(numbers).attributes({
        "font_size": size, "font_weight": "bold" if weight == "bold" else None,
        "text_anchor": anchor if anchor != "start" else None, "fill": fill})


@lru_cache(maxsize=256, typed=True)
def _box_style(numbers: str, fill: str, stroke: str, rx: float) -> str:
    return Canvas(numbers).attributes({"rx": rx or None, "fill": fill, "stroke": stroke})


class _Drawing(Canvas):
    """Macao's house style on the shared canvas (a text's weight and anchor only where
    they are not the default), and the game's own pieces: cube, disc, marker."""

    def label(self, x: float, y: float, content: str, size: int = 11, weight: str = "normal",
              fill: str = INK, anchor: str = "start") -> None:
        self.styled_text(x, y, content, _label_style(self._format, size, weight, fill, anchor))

    def box(self, x: float, y: float, w: float, h: float, fill: str, stroke: str = LINE,
            rx: float = 0) -> None:
        self.styled_rect(x, y, w, h, _box_style(self._format, fill, stroke, rx))

    def rule(self, x1: float, y1: float, x2: float, y2: float, stroke: str = LINE) -> None:
        self.line(x1, y1, x2, y2, stroke=stroke, stroke_width=1.5)

    def open(self, **attrs: Any) -> None:
        """Begin a group named by ``attrs`` (``data-…`` attributes); :meth:`close` ends it."""
        self.raw(f"<g{self.attributes({f'data_{k}': v for k, v in attrs.items()})}>")

    def close(self) -> None:
        self.raw("</g>")

    @contextmanager
    def unlinked(self) -> Iterator[None]:
        """Inside a linked region, the regions drawn are never links (no link in a
        link)."""
        links, self.links = self.links, {}
        try:
            yield
        finally:
            self.links = links

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
    seats = _seat_names(tuple(names), len(view["seats"]))
    svg = _Drawing(links=links)
    y = _header(svg, view, seats[0], lang)
    y = _scores(svg, view, seats, lang, y)
    y = _wall(svg, view, seats, lang, y)
    y = _city(svg, view, seats[2], lang, y)
    y = _sea(svg, view, seats[2], lang, y)
    y = _seats(svg, view, seats, lang, y)
    height = int(y + MARGIN)
    # the title is the picture's alt text in mails (pbem.mail.picture.alt_text)
    title = (f"Macao · {t['picture']['round']} {view['round']}/{data.ROUNDS} · "
             f"{t['picture phase'].get(view['phase'], view['phase'])}")
    # a picture with links is no longer one image (role="img" would hide its links)
    role = "" if svg.linked else ' role="img"'
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" width="100%" '
            f'viewBox="0 0 {WIDTH} {height}"{role} aria-label="{_text(title)}" '
            f'font-family="{FONT}"><title>{_text(title)}</title>')
    return svg.enclosed(head)


# Each section of the picture (the header, the scores, the wall, the city, the sea, each
# seat's panel) is one kept piece (``Canvas.drawn``), keyed by the parts of the view it
# shows as the view holds them (its lists and dicts, which key a piece as they are): a
# picture drawn again looks each section up once, and works out what the section shows
# only where that changed.  The pieces kept in a section (a card, a district, a field)
# are drawn as before.

def _header(svg: _Drawing, view: dict[str, Any], names: tuple[str, ...], lang: str) -> float:
    dice, display = view["dice"], view["display"]
    return svg.drawn(
        _heading, data.SETS.active.version, lang, view["phase"], view["round"],
        view["tribute"], view["deck_count"], names, view["to_move"], dice, display,
        view.get("graf_senkt", True),
        regions=lambda: ("tribute", *(f"die {colour}" for colour, _ in dice),
                         *(f"offer {c}" for c in display), *_LEGEND_REGIONS))


def _heading(svg: _Drawing, version: str, lang: str, phase: str, round_: int,
             tribute: list[int], deck_count: int, names: tuple[str, ...],
             to_move: list[int], dice: list[list[Any]], display: list[str],
             graf: bool) -> float:
    """The header: the round and phase, the tribute and the deck, who is to move, the
    dice, the cards on offer and the cube legend; returns the y under it."""
    w = _picture_words(lang)
    y = 20.0
    phase_name = words(lang)["picture phase"].get(phase, phase)
    svg.label(MARGIN, y, f"Macao · {w['round']} {round_}/{data.ROUNDS} · {phase_name}",
              size=15, weight="bold")
    y += 17
    gold, pp = tribute
    said = w["tribute"].format(g=gold, p=pp)
    with svg.region("tribute", help=w["tribute help"].format(g=gold, p=pp),
                    box=(MARGIN - 2, y - 12, _width(said, 11) + 4, 15)):
        svg.label(MARGIN, y, said + " · " + w["deck"].format(n=deck_count), size=11)
    if to_move and phase != "over":
        y += 15
        movers = ", ".join(names[s] for s in to_move)
        svg.label(MARGIN, y, w["to_move"].format(names=movers), size=11, fill=MUTED)
    if dice:
        y += 8
        svg.label(MARGIN, y + 11, w["dice"] + ":", size=10)
        x = MARGIN + 44
        for colour, value in dice:
            svg.drawn(_die, lang, colour, value, x, y, regions=(f"die {colour}",))
            x += 36
        y += 16
    if display:
        y += 16
        svg.label(MARGIN, y, w["offer"] + ":", size=11, weight="bold")
        for c in display:
            y += ROW
            svg.drawn(_offer, version, lang, graf, c, y, regions=(f"offer {c}",))
    # the cube legend: what each letter stands for, each colour a place (the general
    # supply a cube of any colour is taken from)
    y += 22
    svg.drawn(_cube_legend, lang, y, regions=_LEGEND_REGIONS)
    return y


def _die(svg: _Drawing, lang: str, colour: str, value: int, x: float, y: float) -> None:
    w = words(lang)
    with svg.region(f"die {colour}", box=(x - 2, y - 2, 32, 18),
                    help=w["picture"]["die help"].format(colour=w["colour"][colour],
                                                         value=value)):
        svg.cube(x, y, colour, w["letter"])
        svg.label(x + 16, y + 11, str(value), size=11, weight="bold")


def _offer(svg: _Drawing, _version: str, lang: str, graf: bool, c: str, y: float) -> None:
    """A card on offer: its cost in cubes and its name, with its help."""
    x = MARGIN
    letters = words(lang)["letter"]
    with svg.region(f"offer {c}", help=_card_help(c, lang, graf),
                    box=(MARGIN - 1, y - 14, WIDTH - 2 * MARGIN + 2, ROW - 4)):
        for colour in data.CARDS[c].cost:
            svg.cube(x, y - 11, colour, letters, size=12)
            x += 14
        svg.label(x + 4, y, card_name(c, lang), size=10)


#: the cube legend's places: a colour's general supply each
_LEGEND_REGIONS = tuple(f"cubes {colour}" for colour in data.COLOURS)


def _cube_legend(svg: _Drawing, lang: str, y: float) -> None:
    t = words(lang)
    w, letters = t["picture"], t["letter"]
    svg.label(MARGIN, y, f"{w['cubes']}:", size=9, fill=MUTED)
    step = (WIDTH - 2 * MARGIN - 34) / len(data.COLOURS)
    for i, colour in enumerate(data.COLOURS):
        x = MARGIN + 34 + step * i
        with svg.region(f"cubes {colour}", box=(x, y - 12, step - 4, 17),
                        help=w["cube help"].format(colour=t["colour"][colour])):
            svg.cube(x + 1, y - 10, colour, letters, size=12)
            svg.label(x + 15, y, t["colour"][colour], size=9, fill=MUTED)


def _scores(svg: _Drawing, view: dict[str, Any], seats: _SeatNames, lang: str,
            y: float) -> float:
    final = view.get("final")
    scores = [(me["seat"], me["pp"], me["gold"], me["penalties"], me["area"],
               final[me["seat"]]["total"] if final else None) for me in view["seats"]]
    return svg.drawn(_score_lines, lang, seats, view.get("you"), bool(final), scores, y)


def _score_lines(svg: _Drawing, lang: str, seats: _SeatNames, you: int | None, final: bool,
                 scores: list[tuple[int, int, int, int, int, Any]], y: float) -> float:
    """The prestige scores (``scores``: each seat's, its gold, penalties, area and, where
    the game is scored (``final``), its total) and the legend of the players' letters;
    returns the y under them."""
    names, short, marks = seats
    w = _picture_words(lang)
    y += 22
    svg.label(MARGIN, y, w["prestige"], size=12, weight="bold")
    top = max([100] + [pp for _, pp, *_ in scores])
    for s, pp, gold, penalties, area, total in scores:
        y += 22
        yours = f" ({w['you']})" if s == you else ""
        line = (f"{gold} {w['gold']} · {penalties} {w['penalties']} (−3) · "
                f"{w['area']} {area}")
        if final:
            line += f" · {w['final']} {total}"
        svg.drawn(_score, s, marks[s], names[s] + yours, bool(yours), pp, top, line, y)
        y += 17
    y += 16
    colours = words(lang)["seat colour"]
    legend = " · ".join(f"{marks[s]} = {short[s]} ({colours[s % 4]})"
                        for s in range(len(scores)))
    for part in _wrap(f"{w['legend']}: {legend}", 70):
        svg.label(MARGIN, y, part, size=9, fill=MUTED)
        y += 12
    return y - 12


def _score(svg: _Drawing, s: int, mark: str, title: str, you: bool, pp: int, top: int,
           line: str, y: float) -> None:
    """A seat's prestige: its disc, name and points, the points as a bar, and ``line``
    (gold, penalties, area) under it."""
    svg.open(score=s)
    svg.disc(MARGIN + 7, y - 4, s, mark)
    svg.label(MARGIN + 18, y, title, size=11, weight="bold" if you else "normal")
    svg.label(WIDTH - MARGIN, y, f"{pp} PP", size=12, weight="bold", anchor="end")
    # the prestige track as a bar (0-99 around the board; longer if passed)
    bar = (WIDTH - 2 * MARGIN - 18) * max(0, pp) / top
    svg.box(MARGIN + 18, y + 3, WIDTH - 2 * MARGIN - 18, 4, "#eef1f4", stroke="none")
    svg.box(MARGIN + 18, y + 3, bar, 4, SEAT_FILL[s % 4], stroke="#000")
    svg.label(MARGIN + 18, y + 17, line, size=9, fill=MUTED)
    svg.close()


def _wall(svg: _Drawing, view: dict[str, Any], seats: _SeatNames, lang: str,
          y: float) -> float:
    wall = view["wall"]
    return svg.drawn(_wall_drawn, lang, wall, view["order"], seats[1], seats[2], y,
                     regions=_wall_regions(len(wall)))


@lru_cache(maxsize=4)
def _wall_regions(fields: int) -> tuple[str, ...]:
    return ("wall", *(f"wall {i + 1}" for i in range(fields)))


def _wall_drawn(svg: _Drawing, lang: str, wall: list[list[int]], order: list[int],
                names: tuple[str, ...], marks: tuple[str, ...], y: float) -> float:
    """The city wall from ``y``: its heading, its fields with the discs in their stacks
    and the turn order they make; returns the y of the order's last line."""
    w = _picture_words(lang)
    y += 24
    with svg.region("wall", box=(MARGIN - 2, y - 15, _width(w["wall"], 12) + 4, 20)):
        svg.label(MARGIN, y, w["wall"], size=12, weight="bold")
    y += 6
    cell = (WIDTH - 2 * MARGIN) / data.WALL_FIELDS
    rank = {s: i for i, s in enumerate(order)}
    deepest = max([1] + [len(stack) for stack in wall])
    height = 14 + 16 * deepest
    # top of each stack first, as the turn order reads it (a Turm's owner on top)
    stacks = tuple(tuple(sorted(stack, key=lambda s: rank.get(s, 0))) for stack in wall)
    # the fields are a piece of their own: a wall that did not change, under a turn order
    # that did, is drawn as it was
    svg.drawn(_wall_fields, w["wall help"], y, cell, height, stacks,
              tuple(tuple(marks[s] for s in on) for on in stacks),
              regions=_wall_regions(len(stacks))[1:])
    y += height + 14
    listed = ", ".join(f"{k + 1}. {names[s]}" for k, s in enumerate(order))
    for part in _wrap(w["order"].format(names=listed), 66):
        svg.label(MARGIN, y, part, size=10)
        y += 13
    return y - 13


def _wall_fields(svg: _Drawing, help: str, y: float, cell: float, height: int,
                 stacks: tuple[tuple[int, ...], ...],
                 marks: tuple[tuple[str, ...], ...]) -> None:
    """The wall's fields, each with the discs on it (``stacks``, with their ``marks``)."""
    for i, (on, mark) in enumerate(zip(stacks, marks, strict=True)):
        # drawn, not kept: a wall drawn anew has mostly moved or grown (six in ten
        # of its fields were not kept)
        _wall_field(svg, help, i, MARGIN + i * cell, y, cell, height, on, mark)


def _wall_field(svg: _Drawing, help: str, i: int, x: float, y: float, cell: float,
                height: int, stack: tuple[int, ...], marks: tuple[str, ...]) -> None:
    """Wall field ``i + 1`` with the discs on it, the top one first."""
    with svg.region(f"wall {i + 1}", help=help.format(n=i + 1),
                    box=(x + 1.5, y + 1.5, cell - 4, height - 3), data_wall=i + 1):
        svg.box(x, y, cell - 1, height, "#e8e0d0")
        svg.label(x + cell / 2, y + 10, str(i + 1), size=9, fill=MUTED, anchor="middle")
        for k, (s, mark) in enumerate(zip(stack, marks, strict=True)):
            svg.disc(x + cell / 2, y + 20 + 16 * k, s, mark)


def _city(svg: _Drawing, view: dict[str, Any], marks: tuple[str, ...], lang: str,
          y: float) -> float:
    cols = data.CITY_COLUMNS
    rows = len(data.DISTRICT_COST) // cols
    return svg.drawn(_city_drawn, data.SETS.active.version, lang, view["city"], view["tiles"],
                     marks, y, regions=_city_regions(rows, cols))


@lru_cache(maxsize=4)
def _city_regions(rows: int, cols: int) -> tuple[str, ...]:
    return ("city", *(name for row in range(rows)
                      for name in (f"row {row}", *(f"district {d}" for d in
                                                   range(row * cols + 1, (row + 1) * cols + 1)))))


def _city_drawn(svg: _Drawing, version: str, lang: str, city: dict[str, int],
                tiles: dict[str, str], marks: tuple[str, ...], y: float) -> float:
    """The city from ``y``: its heading and its rows of districts (``city``: the owner of
    each district taken, ``tiles``: the tile of each district); returns the y under it."""
    w = _picture_words(lang)
    y += 24
    with svg.region("city", box=(MARGIN - 2, y - 15, _width(w["city"], 12) + 4, 20)):
        svg.label(MARGIN, y, w["city"], size=12, weight="bold")
    y += 6
    cols = data.CITY_COLUMNS
    rows = len(data.DISTRICT_COST) // cols
    # each row is a piece: a row looks the same in every reader's picture and through
    # many moves
    for row in range(rows):
        first, last = row * cols + 1, (row + 1) * cols
        shown = tuple(_district(city, tiles, marks, d) for d in range(first, last + 1))
        svg.drawn(_city_row, version, lang, row, y + row * CITY_ROW, shown,
                  regions=(f"row {row}", *(f"district {d}" for d in range(first, last + 1))))
    return y + rows * CITY_ROW


#: the height of a row of the city
CITY_ROW = 48


def _district(city: dict[str, int], tiles: dict[str, str], marks: tuple[str, ...],
              d: int) -> tuple[int | None, str | None, str]:
    """What district ``d`` shows: its owner and the owner's mark, or its tile."""
    owner = city.get(str(d))
    mark = None if owner is None else marks[owner]
    tile = "" if owner is not None else tiles.get(str(d), "")
    return owner, mark, tile


def _city_row(svg: _Drawing, version: str, lang: str, row: int, top: float,
              districts: tuple[tuple[int | None, str | None, str], ...]) -> None:
    """Row ``row`` of the city (a place, whose districts are then none)."""
    cols = data.CITY_COLUMNS
    cw, ch = (WIDTH - 2 * MARGIN) / cols, CITY_ROW
    name = f"row {row}"
    first, last = row * cols + 1, (row + 1) * cols
    help = words(lang)["picture"]["row help"].format(first=first, last=last)
    with svg.region(name, help=help, box=(MARGIN + 1, top + 1, WIDTH - 2 * MARGIN - 4, ch - 4)):
        with svg.unlinked() if name in svg.links else nullcontext():
            for d, (owner, mark, tile) in enumerate(districts, start=first):
                # drawn, not kept: a row drawn anew has mostly moved (nine in ten of
                # its districts were not kept)
                _draw_district(svg, version, lang, d, MARGIN + (d - first) * cw, top,
                               cw, ch, owner, mark, tile)


@lru_cache(maxsize=256)
def _district_help(_version: str, lang: str, d: int) -> str:
    """District ``d``'s help: its number and its cost in cubes (of the data ``_version``)."""
    t = words(lang)
    cost = data.DISTRICT_COST[d]
    return t["picture"]["district help"].format(
        n=d, cost=cubes({c: cost.count(c) for c in cost}, t))


def _draw_district(svg: _Drawing, _version: str, lang: str, d: int, x: float, top: float,
                   cw: float, ch: float, owner: int | None, mark: str | None,
                   tile: str) -> None:
    """District ``d``: its owner's marker, or its tile and its cost in cubes."""
    t = words(lang)
    letters = t["letter"]
    cost = data.DISTRICT_COST[d]
    dark = d in data.DARK_DISTRICTS
    with svg.region(f"district {d}", help=_district_help(_version, lang, d),
                    box=(x + 1.5, top + 1.5, cw - 5, ch - 5), data_district=d):
        svg.box(x, top, cw - 2, ch - 2, "#c9b79c" if dark else "#f6f1e4", stroke="#6e5b3f")
        svg.label(x + 3, top + 11, str(d), size=9, fill=MUTED)
        if owner is not None and mark is not None:
            svg.marker(x + cw / 2, top + 24, owner, mark)
        else:
            label = "Joker" if tile == "Joker" else t["good short"].get(tile, tile)
            svg.label(x + 3, top + 24, label, size=9,
                      weight="bold" if tile == "Joker" else "normal")
            cx = x + 3
            for colour in cost:
                svg.cube(cx, top + 28, colour, letters, size=13)
                cx += 14


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


def _sea(svg: _Drawing, view: dict[str, Any], marks: tuple[str, ...], lang: str,
         y: float) -> float:
    version = data.SETS.active.version
    ships = [(me["seat"], me["ship"]) for me in view["seats"]]
    return svg.drawn(_sea_drawn, version, lang, ships, marks, view["harbours"], y,
                     regions=_sea_regions(version))


@lru_cache(maxsize=8)
def _sea_regions(version: str) -> tuple[str, ...]:
    """The sea's regions: its heading, its fields and the harbours (of the data
    ``version``)."""
    fields = _sea_chart(0.0, version)[0]
    return ("sea", *(f"sea {field}" for field in fields),
            *(f"harbour {harbour}" for harbour in data.HARBOURS))


def _sea_drawn(svg: _Drawing, version: str, lang: str, ships: list[tuple[int, str]],
               marks: tuple[str, ...], harbours: dict[str, list[int | None]],
               y: float) -> float:
    """The sea from ``y``: its heading, its fields with the ships (``ships``: each seat's
    field) and the harbours' lines with their delivery spaces (``harbours``: who took
    each); returns the y under them."""
    w = _picture_words(lang)
    y += 24
    with svg.region("sea", box=(MARGIN - 2, y - 15, _width(w["sea"], 12) + 4, 20)):
        svg.label(MARGIN, y, w["sea"], size=12, weight="bold")
    on: dict[str, list[int]] = {}
    for s, field in ships:
        on.setdefault(field, []).append(s)
    where, step, bottom = _sea_chart(y, version)
    # the fields are a piece, and each field in it (a ship that sailed draws two fields)
    afloat = tuple((field, tuple(here), tuple(marks[s] for s in here))
                   for field, here in on.items())
    svg.drawn(_sea_fields, version, lang, y, afloat,
              regions=tuple(f"sea {field}" for field in where))
    y = bottom + 18
    svg.label(MARGIN, y, w["harbours"], size=12, weight="bold")
    spaces = tuple(tuple(harbours.get(harbour, [])) for harbour in data.HARBOURS)
    svg.drawn(_harbours, version, lang, y, spaces,
              tuple(tuple(marks[s] for s in taken if s is not None) for taken in spaces),
              regions=tuple(f"harbour {harbour}" for harbour in data.HARBOURS))
    return y + ROW * len(data.HARBOURS)


def _sea_fields(svg: _Drawing, version: str, lang: str, y: float,
                afloat: tuple[tuple[str, tuple[int, ...], tuple[str, ...]], ...]) -> None:
    """The sea drawn from ``y``: its routes and its fields, each with the ships on it
    (``afloat``: a field's seats and their marks, for the fields with ships)."""
    ships = {field: (here, marks) for field, here, marks in afloat}
    where, step, _ = _sea_chart(y, version)
    svg.drawn(_sea_edges, y, version)
    for field, (fx, fy) in where.items():
        here, marks = ships.get(field, ((), ()))
        svg.drawn(_sea_place, version, lang, field, fx, fy, step, here, marks,
                  regions=(f"sea {field}",))


def _harbours(svg: _Drawing, version: str, lang: str, y: float,
              spaces: tuple[tuple[int | None, ...], ...],
              marks: tuple[tuple[str, ...], ...]) -> None:
    """The harbours' lines under ``y``: each one's delivery spaces, free or taken."""
    for harbour, taken, mark in zip(data.HARBOURS, spaces, marks, strict=True):
        y += ROW
        # drawn, not kept: the harbours drawn anew have mostly moved
        _harbour(svg, version, lang, harbour, y, taken, mark)


@lru_cache(maxsize=64)
def _sea_chart(y: float, _version: str) -> tuple[Mapping[str, tuple[float, float]], float,
                                                 float]:
    """Where each sea field lies for a sea drawn from ``y`` (of the data ``_version``),
    the step between two fields of a route, and the y under the sea (kept: not to be
    changed)."""
    routes = _routes()
    step = (WIDTH - 2 * MARGIN - 44) / max(len(r) for r in routes)
    anchor_x = MARGIN + 14
    rows_y = [y + 34 + 62 * i for i in range(len(routes))]
    anchor_y = sum(rows_y) / len(rows_y)
    where: dict[str, tuple[float, float]] = {data.START_FIELD: (anchor_x, anchor_y)}
    for route, ry in zip(routes, rows_y, strict=True):
        for i, field in enumerate(route):
            where[field] = (MARGIN + 44 + step * i + step / 2, ry)
    return where, step, rows_y[-1] + 34


def _sea_edges(svg: _Drawing, y: float, version: str) -> None:
    where = _sea_chart(y, version)[0]
    for a, b in data.SEA_EDGES:
        svg.rule(*where[a], *where[b])


def _sea_place(svg: _Drawing, _version: str, lang: str, field: str, fx: float, fy: float,
               step: float, here: tuple[int, ...], marks: tuple[str, ...]) -> None:
    """A sea field as the region of its name, with its help and its ships."""
    t = words(lang)
    w, good_short = t["picture"], t["good short"]
    if field in data.HARBOURS:
        good, values = data.HARBOURS[field]
        help_ = w["harbour help"].format(harbour=field, good=good_short[good],
                                         values="/".join(map(str, values)))
    else:
        help_ = w["sea help"].format(field=field)
    box = ((fx - 13, fy - 14, 26, 42) if field == data.START_FIELD
           else (fx - step / 2 + 2, fy - 27, step - 4, 50))
    with svg.region(f"sea {field}", help=help_, box=box, data_field=field):
        _sea_field(svg, field, fx, fy, here, marks)


def _harbour(svg: _Drawing, _version: str, lang: str, harbour: str, y: float,
             spaces: tuple[int | None, ...], marks: tuple[str, ...]) -> None:
    """A harbour's line: its good and its delivery spaces, free or taken."""
    t = words(lang)
    w, good_short = t["picture"], t["good short"]
    good, values = data.HARBOURS[harbour]
    help_ = w["harbour help"].format(harbour=harbour, good=good_short[good],
                                     values="/".join(map(str, values)))
    taken = iter(marks)
    with svg.region(f"harbour {harbour}", help=help_, data_harbour=harbour,
                    box=(MARGIN - 2, y - 14, WIDTH - 2 * MARGIN + 4, ROW - 4)):
        svg.label(MARGIN, y, harbour, size=10)
        svg.label(MARGIN + 74, y, good_short[good], size=10, fill=MUTED)
        for i, value in enumerate(values):
            x = MARGIN + 150 + 50 * i
            who = spaces[i] if i < len(spaces) else None
            svg.box(x, y - 12, 46, 16, "#fff" if who is None else "#eef1f4", rx=2)
            svg.label(x + 4, y, f"{value}", size=10, weight="bold")
            if who is None:
                svg.label(x + 43, y, w["free"], size=9, fill=MUTED, anchor="end")
            else:
                svg.disc(x + 35, y - 4, who, next(taken), r=6.5)


def _sea_field(svg: _Drawing, field: str, fx: float, fy: float, here: tuple[int, ...],
               marks: tuple[str, ...]) -> None:
    """A sea field (a harbour, the anchor or open sea) with the ships on it (``here``,
    with their seats' ``marks``)."""
    if field in data.HARBOURS:
        svg.box(fx - 8, fy - 8, 16, 16, "#dbe9f6", stroke="#1f4e79", rx=3)
        svg.label(fx, fy + 20, field, size=9, anchor="middle")
    elif field == data.START_FIELD:
        svg.box(fx - 12, fy - 12, 24, 24, "#dbe9f6", stroke="#1f4e79", rx=12)
        svg.label(fx, fy + 4, "⚓", size=12, anchor="middle")
        svg.label(fx, fy + 24, field, size=9, anchor="middle")
    else:
        svg.circle(fx, fy, 5, fill="#dbe9f6", stroke="#1f4e79")
    for k, (s, mark) in enumerate(zip(here, marks, strict=True)):
        if field == data.START_FIELD:     # room above and below the anchor
            sx, sy = fx + 22 + 16 * (k // 2), fy - 8 + 16 * (k % 2)
        else:
            sx, sy = fx - 8 * (len(here) - 1) + 16 * k, fy - 17
        svg.disc(sx, sy, s, mark, r=7)


def _seats(svg: _Drawing, view: dict[str, Any], seats: _SeatNames, lang: str,
           y: float) -> float:
    names, _, marks = seats
    you = view.get("you")
    order = sorted(view["seats"], key=lambda me: (me["seat"] != you, me["seat"]))
    version, graf = data.SETS.active.version, view.get("graf_senkt", True)
    for me in order:
        s = me["seat"]
        mine = s == you
        y += 26
        end = mine and view["phase"] == "actions" and s in view["to_move"]
        seat = (s, me["goods"], me["ship"], me["jokers"], me["rose"], me["tableau"],
                me["active"])
        # a seat's panel is one piece (the panels below a panel that changed lie lower
        # and are drawn anew), and its rose and cards are pieces in it
        # by whether it is the viewer's, not by the viewer: another seat's panel looks
        # the same to every other seat's reader
        y = svg.drawn(_panel, version, lang, graf, mine, you is None, names[s], marks[s],
                      end, seat, y,
                      regions=lambda seat=seat, mine=mine: _panel_regions(seat, mine,
                                                                          you is None))
    return y


#: what a seat's panel shows of its seat, as the view holds it: the seat, its goods, ship
#: and jokers, the cubes on each field of its wind rose (by colour), its tableau and
#: activated cards
_Seat = tuple[int, list[str], str, int, list[dict[str, int]], list[str], list[str]]


def _panel_regions(seat: _Seat, mine: bool, everyone: bool) -> tuple[str, ...]:
    """The regions a seat's panel may draw (``_panel``)."""
    s, _goods, _ship, _jokers, rose, tableau, active = seat
    if mine:
        return ("you", "end", "jokers", "tableau", "activated",
                *(r for i, field in enumerate(rose) for r in _rose_regions(i, _pool(field))),
                *(f"card {c}" for c in tableau + active))
    if everyone:
        return tuple(f"seat {s} card {c}" for c in tableau + active)
    return (f"seat {s} tableau", f"seat {s} activated")


def _panel(svg: _Drawing, _version: str, lang: str, graf: bool, mine: bool, everyone: bool,
           name: str, mark: str, end: bool, seat: _Seat, y: float) -> float:
    """A seat's panel from ``y``: its disc and name, ship, cargo and jokers, wind rose and
    cards; returns the y under it.  ``mine``: the viewer's own; ``everyone``: for a reader
    who sits at none."""
    t = words(lang)
    w = _picture_words(lang)
    s, goods, ship, jokers, rose, tableau, active = seat
    pools = tuple(tuple(_pool(field)) for field in rose)
    svg.open(panel=s)
    y = _panel_title(svg, w, name, mark, s, mine, end, y)
    cargo = ", ".join(t["good short"][g] for g in goods) or w["none"]
    line = f"{w['ship']}: {ship} · {w['cargo']}: {cargo} · {w['jokers']}: {jokers}"
    parts = _wrap(line, 66)
    # the viewer's jokers are the line naming them (a joker is spent there)
    with (svg.region("jokers", help=w["jokers help"].format(n=jokers),
                     box=(MARGIN - 2, y - 12, WIDTH - 2 * MARGIN + 4, 13 * len(parts) + 2))
          if mine else nullcontext()):
        for part in parts:
            svg.label(MARGIN, y, part, size=10)
            y += 13
    y = _rose(svg, pools, w, lang, mine, y)
    y = _cards(svg, {"seat": s, "tableau": tableau, "active": active}, lang, w, mine,
               everyone or mine, y, graf)
    svg.close()
    return y


def _panel_title(svg: _Drawing, w: dict[str, Any], name: str, mark: str, s: int, mine: bool,
                 end: bool, y: float) -> float:
    """A seat's disc and name; the viewer's name is the place of the moves that act on
    nothing else drawn, and beside it, while the viewer is to move in the action phase
    (``end``), is the place to end the turn."""
    title = name + (f" ({w['you']})" if mine else "")
    with (svg.region("you", help=w["you help"].format(name=name),
                     box=(MARGIN - 2, y - 15, _width(title, 12) + 24, 20))
          if mine else nullcontext()):
        svg.disc(MARGIN + 7, y - 4, s, mark)
        svg.label(MARGIN + 18, y, title, size=12, weight="bold")
    if end:
        # left of the middle: on a phone the picture is wider than the screen and
        # scrolls (templates/games/macao/style.css), its left part shows first
        label = w["end turn"]
        box = (END_X, y - 15, 96, 20)
        with svg.region("end", help=label, box=box):
            svg.box(*box, "#f6f8fa", stroke=INK, rx=3)
            svg.label(END_X + 48, y, label, size=11, weight="bold", anchor="middle")
    return y + 15


def _rose(svg: _Drawing, pools: tuple[tuple[tuple[str, int], ...], ...], w: dict[str, Any],
          lang: str, mine: bool, y: float) -> float:
    """The wind rose as seven fields in a row: the arrow (the action supply), then 1..6;
    the viewer's fields and the cube places of its supply are places to tap, a finger
    apart."""
    y += 2
    svg.label(MARGIN, y, w["rose"], size=9, fill=MUTED)
    y += 4
    col = (WIDTH - 2 * MARGIN) / 7
    pitch = 20 if mine else 15
    height = 16 + pitch * max([1] + [len(pool) for pool in pools])
    # drawn in its panel, not kept: a rose drawn anew has mostly moved with its panel
    # (eight in ten were not kept)
    _rose_fields(svg, lang, y, col, pitch, height, pools, mine)
    return y + height + 4


def _rose_regions(i: int, pool: tuple[tuple[str, int], ...]) -> tuple[str, ...]:
    return (f"rose {i}" if i else "", *(f"supply {c}" for c, _ in pool))


def _rose_fields(svg: _Drawing, lang: str, y: float, col: float, pitch: int, height: int,
                 pools: tuple[tuple[tuple[str, int], ...], ...], mine: bool) -> None:
    """A wind rose's fields from ``y``, each with its cubes (``pools``)."""
    for i, pool in enumerate(pools):
        # drawn, not kept: a rose drawn anew has mostly moved, and a field is a few
        # elements, cheaper drawn than kept
        _rose_field(svg, lang, i, MARGIN + i * col, y, col, pitch, height, pool, mine)


def _rose_field(svg: _Drawing, lang: str, i: int, x: float, y: float, col: float,
                pitch: int, height: int, pool: tuple[tuple[str, int], ...],
                mine: bool) -> None:
    """Field ``i`` of a wind rose (0: the arrow, the action supply) with its cubes."""
    t = words(lang)
    w, letters = t["picture"], t["letter"]
    with (svg.region(f"rose {i}", help=w["rose help"].format(n=i),
                     box=(x + 1, y + 1, col - 4, height - 2))
          if mine and i else nullcontext()):
        svg.box(x, y, col - 2, height, "#f3f0ff" if i == 0 else "#fafafa")
        svg.label(x + 3, y + 11, w["arrow"] if i == 0 else str(i), size=9,
                  weight="bold" if i == 0 else "normal")
        for k, (colour, n) in enumerate(pool):
            with (svg.region(f"supply {colour}", box=(x + 1, y + 13 + pitch * k, col - 6,
                                                      pitch - 3),
                             help=w["supply help"].format(n=n, colour=t["colour"][colour]))
                  if mine and not i else nullcontext()):
                svg.cube(x + 3, y + 15 + pitch * k, colour, letters)
                svg.label(x + 19, y + 26 + pitch * k, f"×{n}", size=10)


def _card(svg: _Drawing, _version: str, lang: str, graf: bool, c: str, name: str,
          y: float) -> None:
    """A card of a tableau, a row: its cost in cubes and its name, with its help."""
    letters = words(lang)["letter"]
    with svg.region(name, help=_card_help(c, lang, graf),
                    box=(MARGIN, y - 14, WIDTH - 2 * MARGIN, ROW - 4)):
        x = MARGIN + 6
        for colour in data.CARDS[c].cost:
            svg.cube(x, y - 11, colour, letters, size=12)
            x += 14
        svg.label(max(x + 4, MARGIN + 66), y, card_name(c, lang), size=10)


def _cards(svg: _Drawing, me: dict[str, Any], lang: str, w: dict[str, Any], mine: bool,
           full: bool, y: float, graf: bool = True) -> float:
    """A seat's tableau and activated cards, each with its help: the viewer's (``mine``)
    one a row each, a finger's place (all seats' for a reader who sits at none:
    ``full``), another seat's as a line of names."""
    s = me["seat"]
    for key, label, cards in (("tableau", w["tableau"], me["tableau"]),
                              ("activated", w["active"], me["active"])):
        if not cards:
            continue
        if full:
            y += 15
            heading = f"{label}:"
            with (svg.region(key, box=(MARGIN - 2, y - 13, _width(heading, 10) + 4, 17))
                  if mine else nullcontext()):
                svg.label(MARGIN, y, heading, size=10, weight="bold")
            for c in cards:
                y += ROW if mine else 16
                name = f"card {c}" if mine else f"seat {s} card {c}"
                svg.drawn(_card, data.SETS.active.version, lang, graf, c, name, y,
                          regions=(name,))
        else:
            text = f"{label}: " + ", ".join(card_name(c, lang) for c in cards)
            with svg.region(f"seat {s} {key}",
                            help="\n".join(_card_help(c, lang, graf) for c in cards)):
                for part in _wrap(text, 66):
                    y += 13
                    svg.label(MARGIN, y, part, size=10)
    return y
