"""The ``archive`` fixture's copy of the played games (``archive_data.restore``): the rows
every archive test starts from are the rows ``fill`` left, on each kind of database."""

from __future__ import annotations

from archive_data import Archive, Snapshot, restore, snapshot

from pbem.models import MODELS, Game, Player, db


def _empty() -> None:
    with db.atomic():
        for model in reversed(MODELS):  # children first
            model.delete().execute()


def _holds_the_snapshot(archive: Archive, shot: Snapshot) -> None:
    again = snapshot(archive)
    assert [model for model, _rows in again.tables] == [model for model, _ in shot.tables]
    for (model, rows), (_model, played) in zip(again.tables, shot.tables, strict=True):
        assert rows == played, model.__name__
    assert (again.player_ids, again.game_ids, again.counter) == (
        shot.player_ids, shot.game_ids, shot.counter)
    assert [g.id for g in archive.games] == shot.game_ids
    assert all(isinstance(g, Game) and g.state is not None for g in archive.games)
    # a row added now takes the next id, as after the inserts the rows were copied from
    assert Player.create(name="Next", email="next@example.org").id == max(
        row[0] for row in dict(shot.tables)[Player]) + 1


def test_the_archive_holds_the_rows_fill_left(archive: Archive, archive_games: Snapshot,
                                              tmp_path):
    assert archive_games.game_ids and all(rows for _model, rows in archive_games.tables[:3])
    _holds_the_snapshot(archive, archive_games)
    # and again in the same process: SQLite's copy is the one made for the first
    _empty()
    _holds_the_snapshot(restore(archive_games, tmp_path / "site"), archive_games)
