"""The registry of games by name.

Each game lives in its own package ``pbem.games.<name>`` and exposes a
module-level ``GAME`` object implementing :class:`pbem.games.protocol.Game`.
Adding a game means adding its package and its name to ``_GAME_PACKAGES``.
"""

from __future__ import annotations

from functools import cache
from importlib import import_module

from pbem.games.protocol import Rules

_GAME_PACKAGES = ("visby",)


class UnknownGameError(KeyError):
    def __str__(self) -> str:
        return f"no game called {self.args[0]!r}; known games: {', '.join(_GAME_PACKAGES)}"


@cache
def get_game(name: str) -> Rules:
    if name not in _GAME_PACKAGES:
        raise UnknownGameError(name)
    return import_module(f"pbem.games.{name}").GAME


def all_games() -> list[Rules]:
    return [get_game(name) for name in _GAME_PACKAGES]


def game_names() -> tuple[str, ...]:
    return _GAME_PACKAGES
