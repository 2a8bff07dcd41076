"""A database of the pbem before turns and stored sentences opens with this pbem.

Its games had 31-bit integer seeds in a BIGINT column, no thread key, and its
move rows no sentences: ``create_tables`` (what ``pbem init-db`` and every
start run) adds what is missing and keeps every row.  A database of the pbem
that stored sentences in English only (no ``said_in`` on moves and notices)
gets the column, and its rows read English in every language.
"""

from __future__ import annotations

import peewee as pw
import pytest

from pbem.gamelog import history
from pbem.models import (
    Game,
    Move,
    Notice,
    Player,
    RoundsDrawn,
    Seat,
    create_tables,
    db,
    drop_tables,
    open_database,
)

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
        assert row.said_in == {} and history.said(row, 0, "de") == "{0}: play Ritter"
        # a new game's 128-bit seed is text, kept to the letter
        seed = "0" * 31 + "9"
        Game.create(game="visby", seed=seed, rules_version="1", data_version="1")
        assert Game.select().order_by(Game.id.desc()).first().seed == seed
        kinds = {c.name: c.data_type.lower() for c in database.get_columns("game")}
        assert "int" not in kinds["seed"]
        # the archive's kept tables (``pbem.archive.drawn``): a table of its own, empty,
        # so its first build draws every game's and keeps them
        assert RoundsDrawn._meta.table_name in database.get_tables()
        assert RoundsDrawn.select().count() == 0
    finally:
        db.close()
        assert isinstance(database, pw.SqliteDatabase)


#: the move and notice tables of the pbem that stored its sentences in English only
_ENGLISH_ONLY_MOVE = """CREATE TABLE "move" ("id" {pk}, "game_id" INTEGER NOT NULL,
 "seq" INTEGER NOT NULL, "seat" INTEGER NOT NULL, "move" VARCHAR(120) NOT NULL,
 "kind" VARCHAR(10) NOT NULL, "menu_seq" INTEGER NOT NULL, "turn_seq" INTEGER NOT NULL,
 "round" INTEGER NOT NULL, "commit" {flag} NOT NULL, "turn_end" {flag} NOT NULL,
 "said_author" TEXT NOT NULL, "said_others" TEXT NOT NULL, "clock_before" TEXT NOT NULL,
 "created_at" {time} NOT NULL)"""
_ENGLISH_ONLY_NOTICE = """CREATE TABLE "notice" ("id" {pk}, "game_id" INTEGER NOT NULL,
 "seq" INTEGER NOT NULL, "seat" INTEGER, "text" TEXT NOT NULL, "created_at" {time} NOT NULL)"""


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_sentences_stored_in_english_only_read_english(tmp_path, request, kind):
    if kind == "postgresql":
        database = open_database(request.getfixturevalue("pg_url"))
        drop_tables()
        types = {"pk": "SERIAL PRIMARY KEY", "flag": "BOOLEAN", "time": "TIMESTAMP"}
        true = "TRUE"
    else:
        database = open_database(f"sqlite:///{tmp_path / 'english.db'}")
        types = {"pk": "INTEGER NOT NULL PRIMARY KEY", "flag": "INTEGER",
                 "time": "DATETIME"}
        true = "1"
    try:
        Player.create_table()
        Game.create_table()
        # today's game table (its notice below written as today's pbem would: after move 1)
        Game.create(game="visby", seed="7", rules_version="1", data_version="1", aside_seq=1)
        database.execute_sql(_ENGLISH_ONLY_MOVE.format(**types))
        database.execute_sql(_ENGLISH_ONLY_NOTICE.format(**types))
        database.execute_sql(
            "INSERT INTO move (game_id, seq, seat, move, kind, menu_seq, turn_seq, round, "
            f"\"commit\", turn_end, said_author, said_others, clock_before, created_at) "
            f"VALUES (1, 1, 0, 'play Ritter', 'player', 0, 1, 1, {true}, {true}, "
            "'{0} chooses Ritter', '{0} chooses a card in secret', '', "
            "'2026-01-01 00:00:00')")
        database.execute_sql("INSERT INTO notice (game_id, seq, seat, text, created_at) "
                             "VALUES (1, 1, 0, '{0} took back a step', "
                             "'2026-01-01 00:00:00')")
        create_tables()
        create_tables()  # and again: nothing more to do
        row = Move.get(Move.game == 1)
        assert row.said_in == {}
        assert history.said(row, 0, "de") == "{0} chooses Ritter"
        assert history.said(row, 1, "de") == "{0} chooses a card in secret"
        notice = Notice.get(Notice.game == 1)
        assert notice.said_in == {} and history.notice_text(notice, "de") == notice.text
        game = Game.get_by_id(1)
        assert history.history(game, 1, lang="de").lines == [
            "{0} chooses a card in secret", "{0} took back a step"]
        # a new row keeps its German beside the English
        Move.create(game=game, seq=2, seat=1, move="play Schiff",
                    said_author="{1} chooses Schiff", said_others="{1} chooses a card in secret",
                    said_in={"de": ["{1} wählt Schiff", "{1} wählt verdeckt eine Karte"]})
        assert history.history(game, 0, lang="de").lines[-2:] == [
            "{0} took back a step", "{1} wählt verdeckt eine Karte"]
    finally:
        if kind == "postgresql":
            drop_tables()
        db.close()


def test_a_database_from_before_aside_seq_counts_its_notices_and_talk(tmp_path):
    """``Game.aside_seq`` lets a history skip asking for notices and talk after it: a
    database from before the column gets it from the rows themselves, or its old talk
    and notices would vanish from every history.  And adding a column to the games
    keeps every row that refers to them: SQLite makes such a table anew, and with
    foreign keys on, dropping the old one deleted all seats, moves, notices, talk and
    mail of every game (ON DELETE CASCADE)."""
    from playhouse.migrate import SqliteMigrator, migrate

    from pbem.models import Talk

    database = open_database(f"sqlite:///{tmp_path / 'before.db'}")
    try:
        create_tables()
        for _ in range(3):
            Game.create(game="visby", seed="7", rules_version="1", data_version="1", seq=9)
        Notice.create(game=1, seq=4, seat=0, text="{0} took back a step")
        Talk.create(game=1, seat=1, text="hm", after_move_seq=6)
        Talk.create(game=2, seat=0, text="hello", after_move_seq=0)
        Notice.create(game=2, seq=3, seat=0, text="{0} took back a step")
        Seat.create(game=1, index=0)
        Move.create(game=1, seq=1, seat=0, move="play Ritter")
        migrate(SqliteMigrator(database).drop_column("game", "aside_seq"))
        create_tables()
        assert (Seat.select().count(), Move.select().count(), Notice.select().count(),
                Talk.select().count()) == (1, 1, 2, 2)
        assert database.execute_sql("PRAGMA foreign_keys").fetchone() == (1,)
        assert [g.aside_seq for g in Game.select().order_by(Game.id)] == [6, 3, -1]
        game = Game.get_by_id(1)
        assert history.history(game, 0, since_seq=5).lines[-1] == "{1}: hm"
    finally:
        db.close()
