"""Finished games of random legal play, written straight into the database.

For the archive's tests and benchmark, and for trying the archive out: each
game is played to its end by :func:`pbem.lifecycle.selfplay.play_random_game` and
stored as the service would have left it (move log, final snapshot, result).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from pbem.games import get_game
from pbem.lifecycle.selfplay import play_random_game
from pbem.models import Game, Move, Player, Seat, db

_ROWS = 100


def add_finished_game(game_name: str, players: Sequence[Player | None], seed: int,
                      finished_at: datetime, options: dict[str, Any] | None = None) -> Game:
    """A finished game of ``game_name``; ``None`` in ``players`` is a seat of its own bot."""
    rules = get_game(game_name)
    record, state = play_random_game(game_name, len(players), seed, options)
    started_at = finished_at - timedelta(days=3)
    with db.atomic():
        game = Game.create(
            game=game_name, options=record.options, seed=seed,
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
        rows = [
            {"game": game.id, "seq": n, "seat": seat, "move": move,
             "kind": Move.BOT if players[seat] is None else Move.PLAYER,
             "created_at": started_at}
            for n, (seat, move) in enumerate(record.moves, start=1)
        ]
        for start in range(0, len(rows), _ROWS):
            Move.insert_many(rows[start:start + _ROWS]).execute()
    return game


def add_player(name: str, email: str | None = None) -> Player:
    slug = "".join(c for c in name.lower() if c.isalnum())[:20] or "player"
    address = email or f"{slug}-{Player.select().count() + 1}@example.org"
    return Player.create(name=name, email=address)
