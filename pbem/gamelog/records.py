"""Game records: the text form of a game that replays to the same state anywhere.

A record is JSON::

    {"game": "visby", "rules_version": "1", "data_version": "1-reconstructed",
     "players": ["Heike", "Malte"], "options": {"target": 30}, "seed": 7,
     "moves": [{"seat": 0, "move": "play Ritter"}, ...]}

Replaying applies every move through the game's own ``apply``, so a record
that an older engine wrote and a newer one replays differently is caught (the
rules version is checked first, with a clear message).  The card data version
a game started with travels with its record, so the replay deals the same cards
(an empty one, from records older than the field, means the current version).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from pbem.games import get_game
from pbem.games.protocol import MoveError, OptionError, State


class RecordError(ValueError):
    """A record that cannot be read or replayed; the message says where and why."""


@dataclass
class GameRecord:
    game: str
    players: list[str]
    #: text (``pbem.games.protocol.new_seed``); records of older pbem have integers,
    #: which replay the same as their text
    seed: str
    options: dict[str, Any] = field(default_factory=dict)
    rules_version: str = ""
    moves: list[tuple[int, str]] = field(default_factory=list)
    data_version: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "rules_version": self.rules_version,
            "data_version": self.data_version,
            "players": list(self.players),
            "options": dict(self.options),
            "seed": self.seed,
            "moves": [{"seat": seat, "move": move} for seat, move in self.moves],
        }

    def dumps(self) -> str:
        return json.dumps(self.to_json(), indent=1, ensure_ascii=False, sort_keys=True) + "\n"

    @classmethod
    def from_json(cls, data: Any) -> GameRecord:
        if not isinstance(data, dict):
            raise RecordError("a game record is a JSON object")
        try:
            moves = [(int(m["seat"]), str(m["move"])) for m in data.get("moves", [])]
            return cls(
                game=str(data["game"]),
                players=[str(p) for p in data["players"]],
                seed=_seed(data["seed"]),
                options=dict(data.get("options") or {}),
                rules_version=str(data.get("rules_version", "")),
                moves=moves,
                data_version=str(data.get("data_version", "")),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise RecordError(f"not a game record: {exc!r}") from exc

    @classmethod
    def loads(cls, text: str) -> GameRecord:
        try:
            return cls.from_json(json.loads(text))
        except json.JSONDecodeError as exc:
            raise RecordError(f"not JSON: {exc}") from exc


def _seed(value: Any) -> str:
    if isinstance(value, bool) or not isinstance(value, int | str) or str(value) == "":
        raise ValueError(f"a seed is text or a whole number, not {value!r}")
    return str(value)


def _setup(record: GameRecord) -> State:
    """The record's starting state; a record the engine cannot set up is a RecordError."""
    game = get_game(record.game)
    try:  # an older rules version replays with the readings it was played with
        return game.setup_version(len(record.players), record.options, record.seed,
                                  record.data_version, record.rules_version)
    except OptionError as exc:
        raise RecordError(f"the record's setup is refused: {exc}") from exc


def replay_steps(record: GameRecord, played: bool = False,
                 ) -> Iterator[tuple[int, int, str, State, State]]:
    """Yield ``(index, seat, move, before, after)`` for every move of the record.

    ``played``: every move is one that ``apply`` accepted when it was played (a
    finished game's stored log), replayed by the game's ``apply_played``, which may
    skip the check of each move; an illegal move may then fail in any way, or not.
    """
    game = get_game(record.game)
    state = _setup(record)
    apply = game.apply_played if played else game.apply
    for index, (seat, move) in enumerate(record.moves):
        try:
            after = apply(state, seat, move)
        except MoveError as exc:
            raise RecordError(f"move {index + 1} ({seat}: {move}) is refused: {exc}") from exc
        yield index, seat, move, state, after
        state = after


def replay(record: GameRecord) -> State:
    """The state after every move of ``record``."""
    state = _setup(record)
    for _index, _seat, _move, _before, after in replay_steps(record):
        state = after
    return state
