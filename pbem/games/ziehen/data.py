"""Ziehen's card data, read from ``data.toml`` beside this module: the shape every game has.

The values live in the data file, each with its source (see ``pbem.games.datafile``);
this module gives them a schema, checks what the rules need of them, and answers
``data.CARDS`` with the values of the data version the game being played started with.
"""

from __future__ import annotations

from typing import Any

import msgspec

from pbem.games.datafile import DataSets


class Karten(msgspec.Struct, forbid_unknown_fields=True):
    quelle: str
    werte: dict[str, int]


class Daten(msgspec.Struct, forbid_unknown_fields=True):
    """The schema of ``data.toml``."""

    version: str
    karten: Karten


def _derive(daten: Daten) -> dict[str, Any]:
    return {"CARDS": dict(daten.karten.werte), "DATA_VERSION": daten.version}


def _constraints(daten: Daten) -> tuple[list[str], list[str]]:
    # the rules deal a card to each seat each round, and the deck must outlast the game
    errors = []
    if len(daten.karten.werte) < 10:
        errors.append(f"karten: 10 cards at least, not {len(daten.karten.werte)}")
    errors += [f"karten.werte.{name}: a value of 1 or more, not {value}"
               for name, value in daten.karten.werte.items() if value < 1]
    return errors, []


SETS: DataSets[Daten] = DataSets(__name__.rpartition(".")[0], Daten, _derive, _constraints)
#: the version of the shipped file (a game records the version it starts on)
DATA_VERSION = SETS.shipped.version
#: where the values come from
SOURCE = SETS.shipped.data.karten.quelle


def __getattr__(name: str) -> Any:
    # ``CARDS``: the deck of the data version the game being played started with
    return SETS.attribute(name)


# last: the names this module defines above stay its own (``DataSets.install``)
SETS.install(globals())
