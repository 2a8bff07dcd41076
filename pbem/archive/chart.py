"""The score chart of a game: each seat's running score after each round, as SVG.

:class:`ScoreTrack` is a visitor that asks the game for ``scores(state)`` at
the start and at the end of every round; :func:`svg` draws the lines.  Plain
SVG (no script, no web font): it shows from disk, in any browser, and on
paper, where the dash patterns tell the lines apart without colour.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from pbem.archive.text import one_line, xml_text
from pbem.archive.visit import Visitor
from pbem.gamelog.records import GameRecord
from pbem.games.protocol import Rules, State

#: Okabe-Ito colours (distinguishable with colour blindness), then dash patterns
COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000",
           "#999999")
DASHES = ("", "7 4", "2 3", "9 3 2 3", "4 4", "12 4", "1 2", "6 2 2 2")

WIDTH = 640
PLOT_HEIGHT = 240
LEFT, RIGHT, TOP = 48, 16, 16
AXIS = 40  # below the plot: tick labels and the axis title
LEGEND_ROW = 20


class ScoreTrack(Visitor):
    """Collects ``(label, scores)``: ``start``, then the number of each round."""

    def __init__(self) -> None:
        self.points: list[tuple[str, list[int]]] = []
        self._game: Rules | None = None

    def begin(self, game: Rules, record: GameRecord, setup: State) -> None:
        self._game = game
        self.points = [("start", list(game.scores(setup)))]

    def end_round(self, number: int, state: State) -> None:
        assert self._game is not None
        self.points.append((str(number), list(self._game.scores(state))))


def _fmt(value: float) -> str:
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


def _step(span: float) -> int:
    """A round tick step that gives at most eight steps over ``span``."""
    for magnitude in (1, 10, 100, 1000, 10_000, 100_000, 1_000_000):
        for factor in (1, 2, 5):
            if span / (factor * magnitude) <= 8:
                return factor * magnitude
    return 10_000_000


def _opening(title: str, height: float) -> list[str]:
    """A chart's first elements: the document, its title (its accessible name) and a
    white ground."""
    return [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
        f'viewBox="0 0 {WIDTH} {height}" role="img" aria-labelledby="chart-title" '
        'font-family="sans-serif" font-size="12">',
        f'<title id="chart-title">{xml_text(title)}</title>',
        f'<rect x="0" y="0" width="{WIDTH}" height="{height}" fill="#ffffff"/>',
    ]


def svg(points: Sequence[tuple[str, Sequence[int]]], names: Sequence[str],
        title: str = "Score of each player after each round") -> str:
    """An SVG document: one line per seat over the points, a legend below."""
    seats = len(names)
    values = [v for _label, scores in points for v in scores] or [0]
    low, high = min(0, min(values)), max(1, max(values))
    step = _step(high - low)
    low = math.floor(low / step) * step
    high = math.ceil(high / step) * step
    plot_w = WIDTH - LEFT - RIGHT
    height = TOP + PLOT_HEIGHT + AXIS + LEGEND_ROW * seats + 8
    count = max(1, len(points) - 1)

    def x(i: int) -> float:
        return LEFT + plot_w * i / count

    def y(v: float) -> float:
        return TOP + PLOT_HEIGHT * (high - v) / (high - low)

    out = [
        *_opening(title, height),
        '<g class="grid" stroke="#dddddd" stroke-width="1">',
    ]
    ticks = range(int(low), int(high) + 1, step)
    for v in ticks:
        out.append(f'<line x1="{LEFT}" y1="{_fmt(y(v))}" x2="{WIDTH - RIGHT}" '
                   f'y2="{_fmt(y(v))}"/>')
    out.append("</g>")
    out.append('<g class="y-labels" fill="#333333" text-anchor="end">')
    for v in ticks:
        out.append(f'<text x="{LEFT - 6}" y="{_fmt(y(v) + 4)}">{v}</text>')
    out.append("</g>")
    label_every = max(1, math.ceil(len(points) / 16))
    out.append('<g class="x-labels" fill="#333333" text-anchor="middle">')
    for i, (label, _scores) in enumerate(points):
        last = len(points) - 1
        if i == last or (i % label_every == 0 and last - i >= label_every):
            out.append(f'<text x="{_fmt(x(i))}" y="{TOP + PLOT_HEIGHT + 16}">'
                       f'{xml_text(label)}</text>')
    out.append("</g>")
    out.append(f'<text x="{_fmt(LEFT + plot_w / 2)}" y="{TOP + PLOT_HEIGHT + 32}" '
               'text-anchor="middle" fill="#333333">round</text>')
    out.append(f'<line x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{TOP + PLOT_HEIGHT}" '
               'stroke="#333333"/>')
    out.append(f'<line x1="{LEFT}" y1="{_fmt(y(low))}" x2="{WIDTH - RIGHT}" '
               f'y2="{_fmt(y(low))}" stroke="#333333"/>')
    for seat in range(seats):
        colour, dash = COLOURS[seat % len(COLOURS)], DASHES[seat % len(DASHES)]
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        coords = " ".join(f"{_fmt(x(i))},{_fmt(y(scores[seat]))}"
                          for i, (_label, scores) in enumerate(points) if seat < len(scores))
        name = xml_text(one_line(names[seat])[:60])
        out.append(f'<g class="seat-{seat}">')
        out.append(f"<title>{name}</title>")
        out.append(f'<polyline points="{coords}" fill="none" stroke="{colour}" '
                   f'stroke-width="2.5"{dash_attr}/>')
        for i, (label, scores) in enumerate(points):
            if seat < len(scores):
                out.append(f'<circle cx="{_fmt(x(i))}" cy="{_fmt(y(scores[seat]))}" r="3" '
                           f'fill="{colour}"><title>{name}, {xml_text(label)}: '
                           f"{scores[seat]}</title></circle>")
        out.append("</g>")
        ly = TOP + PLOT_HEIGHT + AXIS + LEGEND_ROW * seat + 12
        out.append(f'<line x1="{LEFT}" y1="{ly - 4}" x2="{LEFT + 32}" y2="{ly - 4}" '
                   f'stroke="{colour}" stroke-width="2.5"{dash_attr}/>')
        final = points[-1][1][seat] if points and seat < len(points[-1][1]) else ""
        out.append(f'<text x="{LEFT + 40}" y="{ly}" fill="#111111">{name} ({final})</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


BAR_ROW = 22
BAR_LABEL = 200  # room for the labels left of the bars


def bars(rows: Sequence[tuple[str, float]], title: str, unit: str = "") -> str:
    """An SVG document: one horizontal bar per ``(label, value)`` (values of 0 and up),
    each labelled with its value, for the archive's statistics."""
    high = max([value for _label, value in rows] + [1e-9])
    plot_w = WIDTH - BAR_LABEL - RIGHT - 56  # room for the value right of a bar
    height = TOP + BAR_ROW * max(1, len(rows)) + 8
    out = [
        *_opening(title, height),
        f'<line x1="{BAR_LABEL}" y1="{TOP - 4}" x2="{BAR_LABEL}" '
        f'y2="{TOP + BAR_ROW * len(rows)}" stroke="#333333"/>',
    ]
    for i, (label, value) in enumerate(rows):
        y = TOP + BAR_ROW * i
        width = plot_w * max(0.0, value) / high
        shown = f"{_fmt(value)}{unit}"
        name = xml_text(one_line(label)[:40])
        out.append(f'<text x="{BAR_LABEL - 6}" y="{y + 14}" text-anchor="end" '
                   f'fill="#111111">{name}</text>')
        out.append(f'<rect x="{BAR_LABEL}" y="{y + 3}" width="{_fmt(width)}" height="14" '
                   f'fill="{COLOURS[0]}"><title>{name}: {xml_text(shown)}</title></rect>')
        out.append(f'<text x="{_fmt(BAR_LABEL + width + 6)}" y="{y + 14}" '
                   f'fill="#111111">{xml_text(shown)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"
