"""Finished games played by bots, for the archive's tests (see ``conftest.archive``).

Every registered game, every player count it allows, three seeds each;
named players (some with hostile names) on most seats and bots of their own
on the rest, the games ending over three months.
"""

from __future__ import annotations

import io
import sqlite3
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import peewee as pw

from pbem.archive.sample import add_finished_game
from pbem.games import all_games
from pbem.models import MODELS, Game, Player, db

HOSTILE = "<script>alert('x')</script>"
MARKDOWN_NAME = "*Bold* [link](javascript:alert(1)) {: onclick=x} | # 1. & &amp;"
LINE_START_NAME = "1. Listed"
NAMES = ["Heike", "Malte", HOSTILE, "Anne-Marie", MARKDOWN_NAME, "Søren Ø", LINE_START_NAME]
SEEDS_PER_COUNT = 3
START = datetime(2024, 1, 3, 12, 0)


@dataclass
class Archive:
    site: Path
    players: list[Player]
    games: list[Game] = field(default_factory=list)
    counter: int = 0

    def add(self, game_name: str, seats: list[Player | None], seed: int,
            finished_at: datetime | None = None) -> Game:
        self.counter += 1
        when = finished_at or START + timedelta(days=3 * self.counter, hours=self.counter)
        game = add_finished_game(game_name, seats, seed, when)
        self.games.append(game)
        return game


def fill(archive: Archive) -> None:
    players = archive.players
    k = 0
    for game in all_games():
        for count in range(game.min_players, game.max_players + 1):
            for seed in range(SEEDS_PER_COUNT):
                # the last seat of games with 4 or more is a bot of its own
                seats: list[Player | None] = [players[(k + i) % len(players)]
                                              for i in range(count)]
                if count >= 4:
                    seats[-1] = None
                archive.add(game.name, seats, seed=100 * count + seed)
                k += 1


def leave_only(*games: Game) -> None:
    """Every other finished game aborted, so that a build makes these games' pages and not
    the forty others' (2 CPU s): for a test about what a page of these games says, built
    from rows it changed first (the other pages are what the other tests check)."""
    Game.update(status=Game.ABORTED).where(
        Game.status == Game.FINISHED, Game.id.not_in([game.id for game in games])).execute()


@dataclass
class Snapshot:
    """What ``fill`` left in the database, row by row, to copy into another database.

    The games take a minute of CPU to play and store; a copy of their rows takes
    a fraction of a second, so each test gets a fresh database of its own with the
    same rows (the same ids too) as if it had played them.  Values are as the models
    hand them to the driver, so a snapshot taken on SQLite copies into PostgreSQL.
    """

    #: per model, in ``MODELS`` order (so that foreign keys point at rows copied before)
    tables: list[tuple[type[pw.Model], list[tuple[Any, ...]]]]
    player_ids: list[int]
    game_ids: list[int]
    counter: int


def snapshot(archive: Archive) -> Snapshot:
    tables = [(model, [_stored(model, row) for row in model.select(
        *model._meta.sorted_fields).order_by(model._meta.primary_key).tuples()])
              for model in MODELS]
    return Snapshot(tables=tables, player_ids=[p.id for p in archive.players],
                    game_ids=[g.id for g in archive.games], counter=archive.counter)


def restore(shot: Snapshot, site: Path) -> Archive:
    """The snapshot's rows in the (empty) open database, and an ``Archive`` over them."""
    if isinstance(db.obj, pw.PostgresqlDatabase):
        with db.atomic():
            cursor = db.cursor()
            for model, text in _csv_tables(shot):
                _copy(cursor, model, text)
    else:
        _sqlite_template(shot).backup(db.connection())
    # one query a table, not one a row (42 games: 30 ms)
    players = {p.id: p for p in Player.select().where(Player.id.in_(shot.player_ids))}
    games = {g.id: g for g in Game.select().where(Game.id.in_(shot.game_ids))}
    return Archive(site=site, players=[players[i] for i in shot.player_ids],
                   games=[games[i] for i in shot.game_ids], counter=shot.counter)


#: per snapshot (by id, the snapshot kept beside so that its id is not reused): its rows
#: as PostgreSQL's CSV, and an SQLite database in memory that holds them
_csv_made: dict[int, tuple[Snapshot, list[tuple[type[pw.Model], str]]]] = {}
_sqlite_made: dict[int, tuple[Snapshot, str, sqlite3.Connection]] = {}


def _csv_tables(shot: Snapshot) -> list[tuple[type[pw.Model], str]]:
    """Each table's rows as the text COPY reads, written once per process (0.08 CPU s)."""
    if id(shot) not in _csv_made:
        _csv_made[id(shot)] = (shot, [
            (model, "\n".join(",".join(map(_csv, row)) for row in rows))
            for model, rows in shot.tables if rows])
    return _csv_made[id(shot)][1]


def _sqlite_template(shot: Snapshot) -> sqlite3.Connection:
    """The open (empty) SQLite database with the snapshot's rows, in memory, made once per
    process: copied over a test's database with SQLite's backup (3 ms), it leaves the
    pages the rows' inserts would (80 ms of CPU each time).  Made again for a database
    whose tables differ from those it was made from, and only over an empty one."""
    target = db.connection()
    schema = _schema(target)
    assert not any(target.execute(f'SELECT 1 FROM "{model._meta.table_name}" LIMIT 1')
                   .fetchone() for model in MODELS), "restore fills an empty database"
    made = _sqlite_made.get(id(shot))
    if made is None or made[1] != schema:
        memory = sqlite3.connect(":memory:", check_same_thread=False)
        target.backup(memory)  # the tables as they are in the test's database
        with memory:
            cursor = memory.cursor()
            for model, rows in shot.tables:
                if rows:
                    _insert(cursor, model, rows)
        made = _sqlite_made[id(shot)] = (shot, schema, memory)
    return made[2]


def _schema(connection: sqlite3.Connection) -> str:
    return repr(connection.execute(
        "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name").fetchall())


def _stored(model: type[pw.Model], row: tuple[Any, ...]) -> tuple[Any, ...]:
    """A row as the models hand it to the driver (JSON as text): the same for both."""
    return tuple(f.db_value(v) for f, v in zip(model._meta.sorted_fields, row, strict=True))


def _insert(cursor: Any, model: type[pw.Model], rows: list[tuple[Any, ...]]) -> None:
    # the driver's own bulk insert: Peewee would build the SQL of 8,000 rows value by value
    fields = model._meta.sorted_fields
    columns = ", ".join(f'"{f.column_name}"' for f in fields)
    marks = ", ".join("?" * len(fields))
    cursor.executemany(f'INSERT INTO "{model._meta.table_name}" ({columns}) VALUES ({marks})',
                       rows)


def _copy(cursor: Any, model: type[pw.Model], text: str) -> None:
    # COPY: an INSERT of the rows as text (execute_values) cost 0.3 CPU s a test
    table = model._meta.table_name
    columns = ", ".join(f'"{f.column_name}"' for f in model._meta.sorted_fields)
    cursor.copy_expert(f'COPY "{table}" ({columns}) FROM STDIN WITH (FORMAT csv)',
                       io.StringIO(text))
    key = model._meta.primary_key
    if isinstance(key, pw.AutoField):  # as after the inserts it copies: the next id is max + 1
        cursor.execute(f"SELECT setval(pg_get_serial_sequence('\"{table}\"', "
                       f"'{key.column_name}'), (SELECT MAX(\"{key.column_name}\") "
                       f'FROM "{table}"))')


def _csv(value: Any) -> str:
    """A value as PostgreSQL's CSV reads it: NULL unquoted and empty, text always quoted
    (so that the empty text is not NULL), numbers and booleans as Python writes them."""
    if value is None:
        return ""
    if isinstance(value, (bool, int, float)):
        return str(value)
    return '"' + str(value).replace('"', '""') + '"'
