"""One scheduler per deployment, across processes and nodes.

Real ``pbem scheduler`` processes (``scheduler_probe.py``: the command itself,
its ticks and its tries of the lock noting pid and times in files) with a
quarter-second interval and lock retry, each in an instance folder of its own, as
on two nodes, so that only the database lock keeps them apart.  Where a test
gives them time to try the lock, it waits for their tries, however slow the
machine.  The PostgreSQL tests skip
with the reason when ``PBEM_TEST_DATABASE_URL`` is not set or does not answer.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import peewee as pw
import pytest

from pbem.context import make_context
from pbem.models import create_tables, db, drop_tables, open_database
from pbem.time import scheduler

PROBE = Path(__file__).with_name("scheduler_probe.py")
#: the tick's interval and the lock's retry: short, since the tests wait for their events
RETRY_SECONDS = 0.25
#: tries of the lock while a test gives a scheduler time to take it (wrongly): those of
#: its tick job and its lock job in two of their intervals
TRIES = 4
#: takeover after the holder's death: the retry, plus a process's slowness on a busy machine
TAKEOVER_BOUND = RETRY_SECONDS + 4
STARTUP_SECONDS = 60  # importing pbem on a loaded machine
LOGGED = "pbem.time.scheduler scheduler: "  # the first line the lock logs, whatever it says


class Ticker:
    """One ``pbem scheduler`` process and its log."""

    def __init__(self, tmp_path: Path, name: str, url: str, ticks: Path,
                 instance: Path | None = None):
        self.log = tmp_path / f"{name}.log"
        env = {key: value for key, value in os.environ.items()
               if not key.startswith("PBEM_") and key != "DATABASE_URL"}
        env.update({
            "PBEM_CONFIG": str(tmp_path / "none.ini"),
            "PBEM_SERVER_INSTANCE": str(instance or tmp_path / name),
            "PBEM_ARCHIVE_SITE_DIR": str(tmp_path / f"{name}-site"),
            "PBEM_DATABASE_URL": url,
            "PBEM_SCHEDULER_INTERVAL_SECONDS": str(RETRY_SECONDS),
            "PBEM_SCHEDULER_LOCK_RETRY_SECONDS": str(RETRY_SECONDS),
            "PBEM_PROBE_TICKS": str(ticks),
            "PBEM_PROBE_TRIES": str(tries_file(ticks)),
        })
        with open(self.log, "w") as out:
            self.proc = subprocess.Popen([sys.executable, str(PROBE)], env=env, stdout=out,
                                         stderr=subprocess.STDOUT, cwd=tmp_path)
        self.pid = self.proc.pid
        #: when ``stop`` killed the process (or, had it ended by itself, saw it gone): a
        #: tick of it that never ended ran until then
        self.gone_at: float | None = None

    def said(self, words: str) -> bool:
        return words in self.log.read_text()

    def stop(self) -> None:
        # the time the kill is sent, not when ``wait`` returns: the database frees the
        # lock as the process dies, and the other node may begin a tick before ``wait``
        # returns here (seen in CI: 2 ms before), which is no overlap
        killed_at = None
        if self.proc.poll() is None:
            killed_at = time.time()
            self.proc.kill()
        self.proc.wait(timeout=30)
        if self.gone_at is None:
            self.gone_at = killed_at if killed_at is not None else time.time()


def until(condition: Callable[[], object], seconds: float, what: str,
          *tickers: Ticker) -> float:
    """Wait for ``condition``; the seconds it took, or a failure with the tickers' logs."""
    began = time.monotonic()
    while not condition():
        if time.monotonic() - began > seconds:
            logs = "\n".join(f"--- {t.log.name}\n{t.log.read_text()}" for t in tickers)
            pytest.fail(f"not within {seconds} s: {what}\n{logs}")
        time.sleep(0.05)
    return time.monotonic() - began


def read_ticks(path: Path) -> list[tuple[int, float, float | None]]:
    """(pid, start, end or None while running or killed), in the order they started."""
    ticks: list[tuple[int, float, float | None]] = []
    running: dict[int, float] = {}
    for line in path.read_text().splitlines() if path.exists() else []:
        what, pid, when = line.split()
        if what == "start":
            running[int(pid)] = float(when)
        else:
            ticks.append((int(pid), running.pop(int(pid)), float(when)))
    ticks += [(pid, start, None) for pid, start in running.items()]
    return sorted(ticks, key=lambda tick: tick[1])


def overlaps(ticks: list[tuple[int, float, float | None]],
             gone: dict[int, float] | None = None) -> list[tuple[tuple, tuple]]:
    """Pairs of ticks of two processes that ran at the same time.

    A tick without an end ran until its process was ``gone`` (killed), or until now.
    """
    now = time.time()
    spans = [(pid, start, end or (gone or {}).get(pid, now)) for pid, start, end in ticks]
    return [(a, b) for i, a in enumerate(spans) for b in spans[i + 1:]
            if a[0] != b[0] and b[1] < a[2] and a[1] < b[2]]


def count(ticks_file: Path, pid: int) -> int:
    return sum(1 for tick in read_ticks(ticks_file) if tick[0] == pid)


def tries_file(ticks_file: Path) -> Path:
    return ticks_file.with_name(ticks_file.name + ".tries")


def tries(ticks_file: Path, pid: int, since: float = 0.0) -> list[str]:
    """What each try of the lock by ``pid`` after ``since`` gave: "held" or "refused"."""
    path = tries_file(ticks_file)
    lines = path.read_text().splitlines() if path.exists() else []
    return [what for what, who, when in map(str.split, lines)
            if int(who) == pid and float(when) > since]


@pytest.fixture
def pg_deployment(pg_url: str) -> Iterator[str]:
    """pbem's tables, empty, in this run's PostgreSQL database; yields its plain URL.
    (A test before may have left rows there: the ``database`` fixture empties its
    tables when it begins, not when it ends.)"""
    open_database(pg_url)
    drop_tables()
    create_tables()
    db.close()
    yield pg_url


def _admin(url: str):
    import psycopg2

    conn = psycopg2.connect(url)
    conn.autocommit = True
    return conn


# -- on PostgreSQL: two nodes ----------------------------------------------------------


@pytest.mark.parametrize("scheme", ["postgresql", "postgresql+pool"])
def test_one_of_two_nodes_ticks_and_the_other_takes_over_after_a_kill(
        pg_deployment, tmp_path, scheme):
    url = f"{scheme}://{pg_deployment.split('://', 1)[1]}"
    ticks = tmp_path / "ticks"
    first = Ticker(tmp_path, "a", url, ticks)
    second: Ticker | None = None
    try:
        until(lambda: count(ticks, first.pid) >= 1, STARTUP_SECONDS, "the first ticks", first)
        assert first.said("this process runs the ticks")
        second = Ticker(tmp_path, "b", url, ticks)
        until(lambda: second.said(LOGGED), STARTUP_SECONDS, "the second starts",
              first, second)
        assert second.said("waiting: another node runs the ticks (pbem scheduler"), \
            second.log.read_text()
        assert second.said(f"pid {first.pid}")  # it names the node and process that ticks
        seen = count(ticks, first.pid)
        until(lambda: count(ticks, first.pid) >= seen + 2, 10, "the first ticks on",
              first, second)
        assert count(ticks, second.pid) == 0  # two ticks of the holder, none of the standby

        killed_at = time.time()
        os.kill(first.pid, signal.SIGKILL)
        first.proc.wait(timeout=10)
        took = until(lambda: count(ticks, second.pid) >= 1, TAKEOVER_BOUND,
                     "the second ticks after the kill", first, second)
        assert second.said("scheduler: took over")
        until(lambda: count(ticks, second.pid) >= 2, 10, "the second ticks on", second)
    finally:
        for ticker in (first, second):
            if ticker is not None:
                ticker.stop()
    done = read_ticks(ticks)
    assert all(start < killed_at for pid, start, _ in done if pid == first.pid)
    assert all(start > killed_at for pid, start, _ in done if pid == second.pid)
    # a tick the kill cut short ended with the process, after killed_at: a lower bound
    assert not overlaps(done, {first.pid: killed_at}), done
    assert took <= TAKEOVER_BOUND


def test_a_holder_that_loses_its_database_session_stops_ticking_until_it_has_the_lock_again(
        pg_deployment, tmp_path):
    url = "postgresql+pool://" + pg_deployment.split("://", 1)[1]
    ticks = tmp_path / "ticks"
    first = Ticker(tmp_path, "a", url, ticks)
    second: Ticker | None = None
    admin = _admin(pg_deployment)
    try:
        until(lambda: count(ticks, first.pid) >= 1, STARTUP_SECONDS, "the first ticks", first)
        second = Ticker(tmp_path, "b", url, ticks)
        until(lambda: second.said(LOGGED), STARTUP_SECONDS, "the second starts",
              first, second)
        assert second.said("waiting: another node"), second.log.read_text()
        # what a server restart or a dropped connection does to the lock's session
        lost_at = time.time()
        with admin.cursor() as cur:
            cur.execute("SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = "
                        "'advisory' AND objid = %s AND granted AND database = (SELECT oid "
                        "FROM pg_database WHERE datname = current_database())",
                        (scheduler.ADVISORY_KEY,))
            assert cur.fetchall() == [(True,)]
        until(lambda: first.said("scheduler: lost the lock (the database session"), 10,
              "the first notices", first, second)
        until(lambda: any(start > lost_at + 0.5 for _, start, _end in read_ticks(ticks)),
              TAKEOVER_BOUND + 1, "somebody ticks again", first, second)
        tried_from = time.time()
        until(lambda: all(len(tries(ticks, t.pid, tried_from)) >= TRIES for t in (first, second)),
              30, "both try the lock", first, second)  # both had time to take it
        with admin.cursor() as cur:
            cur.execute("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' "
                        "AND objid = %s AND granted", (scheduler.ADVISORY_KEY,))
            assert cur.fetchone() == (1,)
    finally:
        admin.close()
        for ticker in (first, second):
            if ticker is not None:
                ticker.stop()
    assert first.said("took over") or second.said("took over")
    done = read_ticks(ticks)
    # a tick that began before the loss runs to its end (its rows' claims keep it
    # harmless); no tick begun after it ran beside another one
    # the tickers are stopped one after the other: the second may take the lock the
    # first's death frees and begin a tick before it is stopped too; neither tick ends
    gone = {t.pid: t.gone_at for t in (first, second) if t is not None and t.gone_at}
    late = [pair for pair in overlaps(done, gone)
            if pair[0][1] > lost_at and pair[1][1] > lost_at]
    assert not late, done


# -- on one machine: the file lock -------------------------------------------------------


@pytest.fixture
def sqlite_env(tmp_path, monkeypatch):
    values = {"PBEM_SERVER_INSTANCE": str(tmp_path / "instance"),
              "PBEM_ARCHIVE_SITE_DIR": str(tmp_path / "site"),
              "PBEM_CONFIG": str(tmp_path / "none.ini")}
    for key in list(os.environ):
        if key.startswith("PBEM_") or key == "DATABASE_URL":
            monkeypatch.delenv(key)
    for key, value in values.items():
        monkeypatch.setenv(key, value)
    ctx = make_context()
    open_database(ctx.config.database_url)
    create_tables()
    db.close()
    yield ctx


def test_a_second_scheduler_on_the_same_machine_waits_and_takes_over(sqlite_env, tmp_path):
    ticks = tmp_path / "ticks"
    lock = scheduler.SchedulerLock(sqlite_env)
    assert lock.acquire()  # as a running pbem serve or pbem scheduler would hold it
    ticker = Ticker(tmp_path, "standby", sqlite_env.config.database_url, ticks,
                    instance=sqlite_env.config.instance_path)
    try:
        until(lambda: ticker.said(LOGGED), STARTUP_SECONDS, "it starts", ticker)
        assert ticker.said("waiting: another process on this machine runs the ticks "
                           f"(pid {os.getpid()})"), ticker.log.read_text()
        # its tick job and its lock job try the lock (the first try, at its start, logged)
        until(lambda: len(tries(ticks, ticker.pid)) > TRIES, 30, "it tries again", ticker)
        assert set(tries(ticks, ticker.pid)) == {"refused"}
        assert count(ticks, ticker.pid) == 0
        lock.release()
        until(lambda: count(ticks, ticker.pid) >= 1, TAKEOVER_BOUND, "it takes over", ticker)
        assert ticker.said("scheduler: took over")
        assert not scheduler.SchedulerLock(sqlite_env).acquire()  # it holds the lock now
    finally:
        lock.release()
        ticker.stop()


@pytest.mark.parametrize("url", [
    "postgres://pbem@db/pbem", "postgresql://pbem:secret@db:5433/pbem",
    "postgresql+pool://pbem@db/pbem?max_connections=8&stale_timeout=300",
    "postgres+pool://pbem@db/pbem", "postgresext+pool://pbem@db/pbem",
])
def test_every_postgresql_url_gets_an_unpooled_session_of_its_own_for_the_lock(url):
    from playhouse.pool import PooledDatabase

    database = scheduler.lock_database(url)
    assert isinstance(database, pw.PostgresqlDatabase)
    assert not isinstance(database, PooledDatabase)
    assert not database.autoconnect  # a new session would not hold the lock
    assert database.database == "pbem" and "max_connections" not in database.connect_params
    assert database.connect_params["keepalives"] == 1


@pytest.mark.parametrize("url", ["sqlite:///tmp/pbem.db", "sqlite:///:memory:"])
def test_sqlite_has_only_the_file_lock(url):
    assert scheduler.lock_database(url) is None
