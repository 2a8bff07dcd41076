"""The registry of games by name.

Each game lives in its own package ``pbem.games.<name>`` and exposes a
module-level ``GAME`` object implementing :class:`pbem.games.protocol.Rules`.
Adding a game means adding its package and its name to ``_GAME_PACKAGES``.
Tests may add a game of their own for a while with :func:`registered`.

``EXAMPLES`` are games in the same shape that are not offered to players: the example
game a newcomer copies (``pbem.games.ziehen``).  :func:`get_example` gives one; the
tests register it for a while (``registered(get_example("ziehen"))``) to play it on
the server, and the contract test checks it like every game.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from importlib import import_module

from pbem.games.protocol import Rules

_GAME_PACKAGES = ("riga", "visby", "tallinn", "macao")
#: games in the shape of every game that no player is offered (see the docstring)
EXAMPLES = ("ziehen",)
#: games added by tests (:func:`registered`), by name
_EXTRA: dict[str, Rules] = {}


class UnknownGameError(KeyError):
    def __str__(self) -> str:
        return f"no game called {self.args[0]!r}; known games: {', '.join(game_names())}"


@cache
def _packaged(name: str) -> Rules:
    return import_module(f"pbem.games.{name}").GAME


def get_game(name: str) -> Rules:
    if name in _EXTRA:
        return _EXTRA[name]
    if name not in _GAME_PACKAGES:
        raise UnknownGameError(name)
    return _packaged(name)


def get_example(name: str) -> Rules:
    """The example game ``name`` (one of ``EXAMPLES``), registered or not."""
    if name not in EXAMPLES:
        raise UnknownGameError(name)
    return _packaged(name)


def all_games() -> list[Rules]:
    return [get_game(name) for name in game_names()]


def game_names() -> tuple[str, ...]:
    return _GAME_PACKAGES + tuple(_EXTRA)


@contextmanager
def registered(rules: Rules) -> Iterator[Rules]:
    """``rules`` is a game of the registry inside the block (for a test's own game)."""
    if rules.name in _GAME_PACKAGES or rules.name in _EXTRA:
        raise ValueError(f"a game called {rules.name!r} is registered already")
    _EXTRA[rules.name] = rules
    try:
        yield rules
    finally:
        del _EXTRA[rules.name]
