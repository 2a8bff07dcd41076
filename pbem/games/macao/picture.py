"""Macao's table as a picture: a pure function from a view to an SVG document.

No I/O, no script.  390 units wide (a phone's width), scaling with ``width="100%"``.
Cube colours are drawn as coloured squares that also carry the colour's letter
(German: r rot, b blau, g grün, s schwarz, y grau, v violett), so the picture reads
without telling colours apart; district owners are the owner's initial.  Names are
escaped here.
"""

from __future__ import annotations

from typing import Any
from xml.sax.saxutils import escape

from pbem.games.macao import data

WIDTH = 390
FILL = {"r": "#d62728", "b": "#1f77b4", "g": "#2ca02c", "k": "#222222", "y": "#9a9a9a",
        "v": "#8e44ad"}
LETTER = {"de": {"r": "r", "b": "b", "g": "g", "k": "s", "y": "y", "v": "v"},
          "en": {"r": "R", "b": "B", "g": "G", "k": "K", "y": "Y", "v": "V"}}
TEXT = {"en": ("Round", "PP", "gold", "wall", "ship", "arrow", "City"),
        "de": ("Runde", "PP", "GM", "Mauer", "Schiff", "Pfeil", "Stadt")}


def draw(view: dict[str, Any], names: list[str], lang: str = "en") -> str:
    words = TEXT["de" if lang == "de" else "en"]
    letters = LETTER["de" if lang == "de" else "en"]
    out: list[str] = []
    y = 18
    out.append(f'<text x="4" y="{y}" font-size="14" font-weight="bold">Macao · {words[0]} '
               f'{view["round"]}/12 · {escape(view["phase"])}</text>')
    y += 8
    for me in view["seats"]:
        y += 18
        name = escape(names[me["seat"]])
        out.append(f'<text x="4" y="{y}" font-size="12">{name}: {me["pp"]} {words[1]}, '
                   f'{me["gold"]} {words[2]}, {words[3]} {me["wall"] + 1}, '
                   f'{words[4]} {escape(me["ship"])}</text>')
        y += 6
        x = 4
        for i, field in enumerate(me["rose"]):
            if i and not field:
                continue
            label = words[5] if i == 0 else str(i)
            need = 8 + 6 * len(label) + 28 * len(field)
            if x + need > WIDTH - 4:     # wrap, so the picture stays 390 wide
                x, y = 4, y + 18
            out.append(f'<text x="{x}" y="{y + 12}" font-size="10">{label}:</text>')
            x += 8 + 6 * len(label)
            for colour, n in sorted(field.items()):
                out.append(f'<rect x="{x}" y="{y + 2}" width="14" height="14" '
                           f'fill="{FILL[colour]}"/><text x="{x + 3}" y="{y + 13}" '
                           f'font-size="10" fill="#fff">{letters[colour]}</text>'
                           f'<text x="{x + 16}" y="{y + 13}" font-size="10">{n}</text>')
                x += 28
            x += 6
        y += 18
    y += 18
    out.append(f'<text x="4" y="{y}" font-size="12" font-weight="bold">{words[6]}</text>')
    cell = 30
    for d in data.DISTRICT_COST:
        row, col = divmod(d - 1, data.CITY_COLUMNS)
        cx, cy = 4 + col * (cell + 2), y + 6 + row * (cell + 2)
        dark = d in data.DARK_DISTRICTS
        owner = view["city"].get(str(d))
        mark = escape(names[owner][:1].upper()) if owner is not None else str(d)
        out.append(f'<rect x="{cx}" y="{cy}" width="{cell}" height="{cell}" '
                   f'fill="{"#c9b79c" if dark else "#f1ead8"}" stroke="#555"/>'
                   f'<text x="{cx + 4}" y="{cy + 19}" font-size="12">{mark}</text>')
    y += 6 + 5 * (cell + 2) + 4
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="100%" viewBox="0 0 {WIDTH} {y}" '
            f'role="img" aria-label="Macao table">' + "".join(out) + "</svg>")
