"""Visby's table as a picture: an SVG document drawn from a view alone.

A pure function (no I/O, no script, no external fonts or images), laid out in
a 390-unit-wide box so that on a 390-pixel phone one unit is one pixel and no
text is smaller than 9 pixels.  Colours are from the Okabe-Ito palette, which
stays distinct for the common colour-vision deficiencies; nothing is told by
colour alone: every marker is also drawn as a triangle over a bold number,
and every bar carries its number.  Names are escaped here, since the caller
passes them as plain text.
"""

from __future__ import annotations

from functools import cache

from pbem.games.protocol import View
from pbem.games.svg import seat_name, wrap
from pbem.games.svg import xml_text as _text
from pbem.games.visby import data

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

_WORDS: dict[str, dict[str, str]] = {
    "en": {
        "round": "Visby · round {round} · to {target} seals",
        "over": "Visby · round {round} · game over",
        "Feldzug": "Feldzug: {n} for Truppen, Ritter",
        "Handelsfahrt": "Handelsfahrt: {n} for Flotte, Schiff",
        "Markt": "Markt: purse on field {n}, rate {kurs} goods:seals",
        "no rate": "none",
        "seal": "seal", "seals": "seals", "good": "good", "goods": "goods", "hand": "in hand",
        "you": "you",
        "choosing": "choosing ({k} of {n})", "chosen": "has chosen", "trading": "trading",
        "revealed": "revealed in round {r}: {cards}", "nothing": "nothing yet",
        "waiting choose": "Still choosing: {names}", "waiting trade": "Still trading: {names}",
        "final": "final {n}",
    },
    "de": {
        "round": "Visby · Durchgang {round} · bis {target} Siegel",
        "over": "Visby · Durchgang {round} · Spielende",
        "Feldzug": "Feldzug: {n} für Truppen, Ritter",
        "Handelsfahrt": "Handelsfahrt: {n} für Flotte, Schiff",
        "Markt": "Markt: Geldbeutel auf {n}, Kurs {kurs} Waren:Siegel",
        "no rate": "keiner",
        "seal": "Siegel", "seals": "Siegel", "good": "Ware", "goods": "Waren",
        "hand": "auf der Hand",
        "you": "du",
        "choosing": "wählt ({k} von {n})", "chosen": "hat gewählt", "trading": "handelt",
        "revealed": "aufgedeckt in Durchgang {r}: {cards}", "nothing": "noch nichts",
        "waiting choose": "Wählen noch: {names}", "waiting trade": "Handeln noch: {names}",
        "final": "Endstand {n}",
    },
}



def _count(n: int, noun: str, words: dict[str, str]) -> str:
    """``1 seal``, ``2 seals`` in the reader's language (``noun`` is "seal" or "good")."""
    return f"{n} {words[noun] if n == 1 else words[noun + 's']}"


def _name(names: list[str], seat: int) -> str:
    return seat_name(names, seat, NAME_MAX)


def _wrap(line: str) -> list[str]:
    return wrap(line, LINE_MAX)


class _Svg:
    def __init__(self) -> None:
        self.parts: list[str] = []

    def text(self, x: float, y: float, content: str, size: int = 12, weight: str = "normal",
             fill: str = INK, anchor: str = "start") -> None:
        self.parts.append(
            f'<text x="{x}" y="{y}" font-size="{size}" font-weight="{weight}" fill="{fill}" '
            f'text-anchor="{anchor}">{_text(content)}</text>')

    def rect(self, x: float, y: float, w: float, h: float, fill: str, stroke: str = "none",
             width: float = 1) -> None:
        self.parts.append(f'<rect x="{x}" y="{y}" width="{w}" height="{h}" fill="{fill}" '
                          f'stroke="{stroke}" stroke-width="{width}"/>')

    def marker(self, x: float, y: float, fill: str) -> None:
        """A triangle pointing down at the field below (x is the field's middle)."""
        self.parts.append(f'<path d="M{x - 6} {y} L{x + 6} {y} L{x} {y + 7} Z" fill="{fill}" '
                          f'stroke="{INK}" stroke-width="1"/>')


def _track(svg: _Svg, y: int, track: str, field: int, caption: str,
           rates: bool = False) -> int:
    """A track's caption and its sixteen fields; returns the y below it."""
    svg.text(MARGIN, y + 12, caption, size=12, weight="600")
    svg.parts.append(_fields(y + 26, track, field, rates))
    return y + 26 + CELL + (16 if rates else 6)


@cache
def _fields(top: int, track: str, field: int, rates: bool) -> str:
    # the same few hundred track drawings recur in every picture of a game
    svg = _Svg()
    colour = TRACK_COLOUR[track]
    svg.marker(MARGIN + field * CELL + CELL / 2, top - 8, colour)
    for i in range(data.TRACK_END + 1):
        x = MARGIN + i * CELL
        here = i == field
        svg.rect(x, top, CELL, CELL, colour if here else "#ffffff", INK if here else LINE,
                 2 if here else 1)
        svg.text(x + CELL / 2, top + 15, str(i), size=11 if here else 9,
                 weight="700" if here else "normal", fill=INK if here else MUTED, anchor="middle")
        if rates:
            kurs = data.MARKT[i]
            svg.text(x + CELL / 2, top + CELL + 11, str(kurs) if kurs else "–", size=9,
                     fill=INK if here else MUTED, anchor="middle",
                     weight="700" if here else "normal")
    return "".join(svg.parts)


def _bar(svg: _Svg, x: int, y: int, value: int, top: int, width: int, colour: str,
         label: str) -> None:
    """A bar of ``value`` out of ``top`` with ``label`` (its number in words) beside it."""
    svg.rect(x, y, width, 8, "#ffffff", LINE)
    svg.rect(x, y, round(width * min(value, top) / top) if top else 0, 8, colour)
    svg.text(x + width + 4, y + 8, label, size=11)


def picture(view: View, names: list[str], lang: str = "en") -> str:
    """The table of ``view`` as an SVG document; ``names`` are plain text."""
    words = _WORDS.get(lang.split("-")[0].lower(), _WORDS["en"])
    svg = _Svg()
    over = view["phase"] == "over"
    heading = words["over" if over else "round"].format(round=view["round"],
                                                        target=view["target"])
    svg.text(MARGIN, 20, heading, size=14, weight="700")
    y = 30
    tracks = view["tracks"]
    y = _track(svg, y, "Feldzug", tracks["Feldzug"],
               words["Feldzug"].format(n=_count(tracks["Feldzug"], "seal", words)))
    y = _track(svg, y, "Handelsfahrt", tracks["Handelsfahrt"],
               words["Handelsfahrt"].format(n=_count(tracks["Handelsfahrt"], "good", words)))
    y = _track(svg, y, "Markt", view["kurs_feld"],
               words["Markt"].format(n=view["kurs_feld"], kurs=view["kurs"] or words["no rate"]),
               rates=True)

    y += 4
    finals = {f["seat"]: f["seals"] for f in view.get("final", [])}
    target = view["target"]
    for entry in view["seats"]:
        seat = entry["seat"]
        you = seat == view["you"]
        svg.rect(0, y, WIDTH, 1, LINE)
        name = _name(names, seat) + (f" ({words['you']})" if you else "")
        svg.text(MARGIN, y + 17, name, size=12, weight="700" if you else "600")
        if entry["choosing"]:
            status = words["choosing"].format(k=entry["chosen_count"],
                                              n=view["cards_per_round"])
        elif entry["trading"]:
            status = words["trading"]
        elif view["phase"] == "choose":
            status = words["chosen"]
        elif seat in finals:
            status = words["final"].format(n=_count(finals[seat], "seal", words))
        else:
            status = ""
        svg.text(WIDTH - MARGIN, y + 17, status, size=11,
                 weight="700" if entry["choosing"] or entry["trading"] else "normal",
                 anchor="end")
        _bar(svg, MARGIN, y + 25, entry["seals"], target, 110, SEALS_COLOUR,
             _count(entry["seals"], "seal", words))
        _bar(svg, 200, y + 25, entry["goods"], data.GOODS_MAX, 90, GOODS_COLOUR,
             _count(entry["goods"], "good", words))
        played = ", ".join(entry["played"]) or words["nothing"]
        svg.text(MARGIN, y + 50, words["revealed"].format(r=view["events_round"] or "–",
                                                          cards=played), size=10, fill=MUTED)
        svg.text(WIDTH - MARGIN, y + 50, f"{entry['hand_count']} {words['hand']}", size=10,
                 fill=MUTED, anchor="end")
        y += 58

    if not over and view["to_move"]:
        key = "waiting choose" if view["phase"] == "choose" else "waiting trade"
        waiting = ", ".join(_name(names, s) for s in view["to_move"])
        svg.rect(0, y, WIDTH, 1, LINE)
        for line in _wrap(words[key].format(names=waiting)):
            svg.text(MARGIN, y + 18, line, size=12, weight="600")
            y += 16
        y += 10

    height = y + 6
    title = _text(heading)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" '
        f'width="{WIDTH}" height="{height}" role="img" font-family="{FONT}">'
        f"<title>{title}</title>"
        f'<rect x="0" y="0" width="{WIDTH}" height="{height}" fill="#ffffff"/>'
        + "".join(svg.parts)
        + "</svg>"
    )
