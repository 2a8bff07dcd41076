"""Finished games of random legal play, written straight into the database.

For the archive's tests and benchmark, and for trying the archive out: each
game is played to its end by :func:`pbem.gamelog.selfplay.play_random_game` and
stored as the service would have left it (move log with each move's sentences,
round and turn, final snapshot, result).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from pbem.gamelog.records import replay_steps
from pbem.gamelog.rows import kind_of, move_rows
from pbem.gamelog.selfplay import play_random_game
from pbem.games import get_game
from pbem.models import Game, Move, Player, Seat, db

#: rows per INSERT: 13 columns each stay under SQLite's oldest limit of 999 variables
_ROWS = 70


def add_finished_game(game_name: str, players: Sequence[Player | None], seed: int | str,
                      finished_at: datetime, options: dict[str, Any] | None = None) -> Game:
    """A finished game of ``game_name``; ``None`` in ``players`` is a seat of its own bot."""
    rules = get_game(game_name)
    record, state = play_random_game(game_name, len(players), seed, options)
    started_at = finished_at - timedelta(days=3)
    steps = list(replay_steps(record))
    kinds = list(map(kind_of(rules, [i for i, p in enumerate(players) if p is None]), steps))
    setup = rules.setup(len(players), record.options, record.seed)
    rows, _seats = move_rows(rules, setup, steps, kinds, len(players))
    with db.atomic():
        game = Game.create(
            game=game_name, options=record.options, seed=str(seed),
            rules_version=rules.rules_version, data_version=rules.data_version,
            status=Game.FINISHED, seq=len(record.moves), state=state,
            result=rules.result(state).to_json(), created_at=started_at,
            started_at=started_at, finished_at=finished_at, creator=players[0],
        )
        Seat.insert_many([
            {"game": game.id, "index": i, "player": p.id if p is not None else None,
             "bot": p is None}
            for i, p in enumerate(players)
        ]).execute()
        for row in rows:
            row.update(game=game.id, created_at=started_at)
        for start in range(0, len(rows), _ROWS):
            Move.insert_many(rows[start:start + _ROWS]).execute()
    return game


def add_player(name: str, email: str | None = None) -> Player:
    slug = "".join(c for c in name.lower() if c.isalnum())[:20] or "player"
    address = email or f"{slug}-{Player.select().count() + 1}@example.org"
    return Player.create(name=name, email=address)
