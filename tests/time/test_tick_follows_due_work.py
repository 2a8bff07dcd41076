"""A tick's cost follows its due work, not the number of games (DESIGN.md "Time").

Every statement a tick runs is captured as it runs (Peewee logs each one), so a
query added to any step later is checked too:

- on SQLite, ``EXPLAIN QUERY PLAN`` of each must not scan a table of seats,
  games, moves, notices, talk, mail or players (a ``SCAN``, with or without an
  index: only a ``SEARCH`` finds rows by a key);
- on PostgreSQL, after ``ANALYZE``, ``EXPLAIN`` of each must not show a
  ``Seq Scan`` of those tables;
- on SQLite, an idle tick runs as many virtual-machine steps with four times the
  games: nothing it reads grows with idle games (an index on a column most rows
  share would pass the first test and fail this one).

The database is ``bench/tick_fixture.py``'s: games played through the lifecycle
and copied, so that it holds what a server's does (seats in turn with deadlines,
sent and failed mail, talk, finished and parked games).
"""

from __future__ import annotations

import logging
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import peewee as pw
import pytest

from pbem.models import db
from pbem.time import scheduler

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import tick_fixture  # noqa: E402

#: tables that grow with games: no tick may read them whole
GROWING = {"seat", "game", "move", "notice", "talk", "outbox", "player", "follower"}
#: two templates are enough for every kind of row; the test runs in seconds
TEMPLATES = [tick_fixture.TEMPLATES[0], tick_fixture.TEMPLATES[1]]
SMALL, LARGE = 400, 1_600


class _Statements(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.seen: list[tuple[str, tuple]] = []

    def emit(self, record: logging.LogRecord) -> None:
        if isinstance(record.msg, tuple) and len(record.msg) == 2:
            sql, params = record.msg
            if sql.lstrip().upper().startswith(("SELECT", "UPDATE", "DELETE", "WITH")):
                self.seen.append((sql, tuple(params or ())))


@contextmanager
def _captured() -> Iterator[list[tuple[str, tuple]]]:
    logger = logging.getLogger("peewee")
    handler, level = _Statements(), logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.DEBUG)
    try:
        yield handler.seen
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)


def _tick(fx: tick_fixture.Fixture) -> dict:
    return scheduler.tick(fx.ctx, fx.now, transport=tick_fixture.NullTransport())


def _tables_by_name(sql: str) -> dict[str, str]:
    """Alias (or name) -> table, as the statement names them."""
    names = {t: t for t in re.findall(r'(?:FROM|JOIN|UPDATE)\s+"(\w+)"', sql)}
    names.update({alias: table for table, alias in re.findall(r'"(\w+)" AS "(\w+)"', sql)})
    return names


def _sqlite_scans(sql: str, params: tuple) -> list[str]:
    tables = _tables_by_name(sql)
    scans = []
    for row in db.execute_sql("EXPLAIN QUERY PLAN " + sql, params).fetchall():
        detail = row[-1]
        found = re.match(r"SCAN (\w+)", detail)
        if found and tables.get(found.group(1), found.group(1)) in GROWING:
            scans.append(detail)
    return scans


def _postgres_scans(sql: str, params: tuple) -> list[str]:
    plan = [row[0] for row in db.execute_sql("EXPLAIN " + sql, params).fetchall()]
    return [line.strip() for line in plan
            if (found := re.search(r"Seq Scan on (\w+)", line)) and found.group(1) in GROWING]


@pytest.fixture
def fixture_db(database, ctx) -> tick_fixture.Fixture:
    fx = tick_fixture.build(ctx, SMALL, templates=TEMPLATES)
    assert not scheduler.did_work(_tick(fx)), "the fixture's tick should be idle"
    return fx


def _plans(fx: tick_fixture.Fixture, statements: list[tuple[str, tuple]],
           any_index: bool = False) -> list[str]:
    """The whole-table reads in the plans of ``statements``.

    PostgreSQL plans from its statistics: a table of a few pages it reads whole,
    rightly.  With ``any_index`` it is told to avoid that wherever an index could
    serve (``enable_seqscan = off``), so that what is left is a query no index serves.
    """
    bad = []
    with db.atomic():
        if fx.postgres:
            db.execute_sql("ANALYZE")
            if any_index:
                db.execute_sql("SET LOCAL enable_seqscan = off")
        check = _postgres_scans if fx.postgres else _sqlite_scans
        for sql, params in dict.fromkeys(statements):
            for scan in check(sql, params):
                bad.append(f"{scan}\n    in {sql}")
    return bad


def test_an_idle_tick_finds_its_rows_by_index(fixture_db):
    fx = fixture_db
    tick_fixture.grow(fx, LARGE)
    with _captured() as statements:
        done = _tick(fx)
    assert not scheduler.did_work(done)
    assert len(statements) >= 7  # every step asked the database
    bad = _plans(fx, statements)
    assert not bad, "an idle tick reads whole tables:\n" + "\n".join(bad)


def test_a_busy_tick_asks_the_same_questions_by_index(fixture_db):
    """The questions that find due work, with work due; what each item then does (its
    game, its seats, its mail) is found by the item's own keys."""
    fx = fixture_db
    armed = tick_fixture.arm(fx, 12)
    with _captured() as statements:
        done = _tick(fx)
    assert done["timeouts"] == armed["timeouts"] and done["reminders"] == armed["reminders"]
    assert done["talk"] >= armed["talk"] and done["mail"]["sent"] > armed["mails"]
    bad = _plans(fx, statements, any_index=True)
    assert not bad, "a busy tick reads whole tables:\n" + "\n".join(bad)


def _vm_steps(fx: tick_fixture.Fixture, idle: bool = True) -> int:
    """Virtual-machine steps SQLite ran for one tick (counted in tens)."""
    steps = [0]

    def count() -> int:
        steps[0] += 1
        return 0

    connection = db.connection()
    connection.set_progress_handler(count, 10)
    try:
        done = _tick(fx)
    finally:
        connection.set_progress_handler(None, 10)
    assert scheduler.did_work(done) != idle
    return steps[0] * 10


def _pg_rows_read(fx: tick_fixture.Fixture) -> int:
    """Rows PostgreSQL's tables gave to one idle tick (its statistics, flushed first)."""
    def total() -> int:
        db.execute_sql("SELECT pg_stat_force_next_flush()")
        db.execute_sql("SELECT 1")
        return int(db.execute_sql("SELECT COALESCE(SUM(COALESCE(seq_tup_read, 0) + "
                                  "COALESCE(idx_tup_fetch, 0)), 0) FROM pg_stat_user_tables"
                                  ).fetchone()[0])
    before = total()
    assert not scheduler.did_work(_tick(fx))
    return total() - before


def test_an_idle_tick_does_the_same_work_with_four_times_the_games(fixture_db):
    fx = fixture_db
    if fx.postgres:  # with the statistics of each size: its plans may change with them
        db.execute_sql("ANALYZE")
        small = _pg_rows_read(fx)
        tick_fixture.grow(fx, 4 * SMALL)
        db.execute_sql("ANALYZE")
        large = _pg_rows_read(fx)
        assert large <= small * 1.05 + 20, (small, large)
        return
    assert isinstance(db.obj, pw.SqliteDatabase)
    _vm_steps(fx)  # the first tick of a connection reads the schema
    small = _vm_steps(fx)
    tick_fixture.grow(fx, 4 * SMALL)
    large = _vm_steps(fx)
    assert large <= small * 1.05 + 50, (small, large)


def test_a_busy_tick_does_the_same_work_with_four_times_the_games(fixture_db):
    """The same due work costs the same: what each item does is found by its own keys,
    never by walking rows that grow with games (all mail still to go, say)."""
    fx = fixture_db
    if fx.postgres:
        pytest.skip("SQLite counts the steps of its virtual machine; PostgreSQL has no such count")
    tick_fixture.arm(fx, 12)
    small = _vm_steps(fx, idle=False)
    tick_fixture.grow(fx, 4 * SMALL)
    tick_fixture.arm(fx, 12)
    large = _vm_steps(fx, idle=False)
    # other games, other moves: the same amount of work, not the same steps
    assert large <= small * 1.5, (small, large)
