"""A database of the pbem before turns and stored sentences opens with this pbem.

Its games had 31-bit integer seeds in a BIGINT column, no thread key, and its
move rows no sentences: ``create_tables`` (what ``pbem init-db`` and every
start run) adds what is missing and keeps every row.
"""

from __future__ import annotations

import peewee as pw

from pbem.models import Game, Move, create_tables, db, open_database

_OLD_GAME = """CREATE TABLE "game" ("id" INTEGER NOT NULL PRIMARY KEY, "game" VARCHAR(32) NOT NULL,
 "options" TEXT NOT NULL, "seed" BIGINT NOT NULL, "rules_version" VARCHAR(16) NOT NULL,
 "data_version" VARCHAR(32) NOT NULL, "status" VARCHAR(12) NOT NULL, "clock" TEXT NOT NULL,
 "creator_id" INTEGER, "seq" INTEGER NOT NULL, "state" TEXT, "result" TEXT,
 "created_at" DATETIME NOT NULL, "started_at" DATETIME, "finished_at" DATETIME,
 "archived_at" DATETIME)"""
_OLD_MOVE = """CREATE TABLE "move" ("id" INTEGER NOT NULL PRIMARY KEY,
 "game_id" INTEGER NOT NULL, "seq" INTEGER NOT NULL, "seat" INTEGER NOT NULL,
 "move" VARCHAR(120) NOT NULL, "kind" VARCHAR(10) NOT NULL, "menu_seq" INTEGER NOT NULL,
 "commit" INTEGER NOT NULL, "created_at" DATETIME NOT NULL)"""


def test_an_older_database_is_brought_up_to_date(tmp_path):
    path = tmp_path / "old.db"
    database = open_database(f"sqlite:///{path}")
    try:
        database.execute_sql(_OLD_GAME)
        database.execute_sql(_OLD_MOVE)
        for game_id, seed in ((1, 7), (2, 2_000_000_000)):
            database.execute_sql(
                "INSERT INTO game (id, game, options, seed, rules_version, data_version, "
                "status, clock, seq, created_at) VALUES (?, 'visby', '{}', ?, '1', '1', "
                "'finished', '{}', 1, '2026-01-01 00:00:00')", (game_id, seed))
        database.execute_sql("INSERT INTO move (game_id, seq, seat, move, kind, menu_seq, "
                             "\"commit\", created_at) VALUES (1, 1, 0, 'play Ritter', "
                             "'player', 0, 1, '2026-01-01 00:00:00')")
        create_tables()
        create_tables()  # and again: nothing more to do
        games = list(Game.select().order_by(Game.id))
        assert [g.seed for g in games] == ["7", "2000000000"]
        assert all(len(g.thread_key) == 32 for g in games)
        assert games[0].thread_key != games[1].thread_key
        row = Move.get(Move.game == 1)
        assert (row.move, row.said_author, row.turn_end) == ("play Ritter", "", True)
        # a new game's 128-bit seed is text, kept to the letter
        seed = "0" * 31 + "9"
        Game.create(game="visby", seed=seed, rules_version="1", data_version="1")
        assert Game.select().order_by(Game.id.desc()).first().seed == seed
        kinds = {c.name: c.data_type.lower() for c in database.get_columns("game")}
        assert "int" not in kinds["seed"]
    finally:
        db.close()
        assert isinstance(database, pw.SqliteDatabase)
