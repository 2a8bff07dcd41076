"""The ``archive`` fixture's copy of the played games (``archive_data.restore``): the rows
every archive test starts from are the rows ``fill`` left, on each kind of database."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import peewee as pw
from archive_data import Archive, Snapshot, restore

from pbem.models import MODELS, Game, Player, db


def _empty() -> None:
    with db.atomic():
        for model in reversed(MODELS):  # children first
            model.delete().execute()


def _holds_the_snapshot(archive: Archive, shot: Snapshot) -> None:
    for model, played in shot.tables:
        assert _rows(model) == [_as_read(row) for row in played], model.__name__
    assert [p.id for p in archive.players] == shot.player_ids and archive.counter == shot.counter
    assert [g.id for g in archive.games] == shot.game_ids
    assert all(isinstance(g, Game) and g.state is not None for g in archive.games)
    # a row added now takes the next id, as after the inserts the rows were copied from
    assert Player.create(name="Next", email="next@example.org").id == max(
        row[0] for row in dict(shot.tables)[Player]) + 1


def _rows(model: type[pw.Model]) -> list[tuple[Any, ...]]:
    """The table's rows as the driver reads them (the models' conversions cost 0.3 CPU s)."""
    fields = model._meta.sorted_fields
    columns = ", ".join(f'"{f.column_name}"' for f in fields)
    return [tuple(row) for row in db.execute_sql(
        f'SELECT {columns} FROM "{model._meta.table_name}" '
        f'ORDER BY "{model._meta.primary_key.column_name}"').fetchall()]


def _as_read(row: tuple[Any, ...]) -> tuple[Any, ...]:
    """A stored row as the driver reads it back: SQLite keeps a time as its text."""
    if isinstance(db.obj, pw.PostgresqlDatabase):
        return row
    return tuple(str(v) if isinstance(v, datetime) else v for v in row)


def test_the_archive_holds_the_rows_fill_left(archive: Archive, archive_games: Snapshot,
                                              tmp_path):
    assert archive_games.game_ids and all(rows for _model, rows in archive_games.tables[:3])
    _holds_the_snapshot(archive, archive_games)
    # and again in the same process: SQLite's copy is the one made for the first
    _empty()
    _holds_the_snapshot(restore(archive_games, tmp_path / "site"), archive_games)
