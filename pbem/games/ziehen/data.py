"""Ziehen's card data: the one place for the values on its cards, each with its source.

Ziehen is pbem's own example game, so every value here is pbem's; a real game says per
value where it comes from (the rulebook, a public source, or pbem's reconstruction and
why), and bumps ``DATA_VERSION`` when a value changes (see ``visby/data.py``).
"""

from __future__ import annotations

DATA_VERSION = "1"
#: where the values come from: all of them are pbem's own, for the example
SOURCE = "pbem's example game (no printed edition)"

#: the deck: card name -> value (more cards than are ever drawn, so the deck's order
#: stays partly unknown to the end)
CARDS: dict[str, int] = {
    "Anker": 1, "Fass": 2, "Kogge": 3, "Krone": 4, "Laterne": 5,
    "Netz": 6, "Ruder": 7, "Segel": 8, "Tau": 9, "Truhe": 10,
}
