"""Benchmark: a scheduler tick costs what is due, not what the server holds.

    python bench/tick.py                      # 1,000, 10,000 and 100,000 games, SQLite
    python bench/tick.py --million            # and 1,000,000 (a long build)
    python bench/tick.py --sizes 1000,10000 --repeat 3    # a quicker look
    python bench/tick.py --database-url postgresql://postgres@127.0.0.1:5432/postgres

For each size it builds a database of its own (``bench/tick_fixture.py``): games
played through the lifecycle and copied in bulk, so that the tables hold what a
server's hold (seats in turn with deadlines and reminders ahead, move logs,
table talk, sent and failed mail, finished and archived games, parked games,
players on vacation, mail held for digests).  On PostgreSQL each size gets a
database ``pbem_bench_tick_<size>`` on the server of the URL, dropped at the end.

Then, in rounds, the sizes interleaved (each round in another order), for each
size:

* the idle tick: nothing is due anywhere (the fastest of ``--idle-ticks`` ticks),
  and what one idle tick read, counted: SQLite's virtual-machine steps, or the rows
  PostgreSQL's statistics say its tables gave (a figure load cannot move);
* the busy tick: ``--due`` items made due on games of their own, fresh each
  round: default moves after a grace period (each played through the move
  service, which starts the next turn and queues its mails), reminders, table
  talk waiting an hour, mail to deliver, a digest and a vacation's end.  Mail
  goes last in a tick, so the same tick delivers what the others queued (each
  message rendered, pictures drawn); what is left is sent before the next round.

Each size's time (wall clock, and this process's CPU) is divided by the
1,000-game time of the same round; printed are the medians in milliseconds and
the min/median/max of those ratios over the rounds.  Near 1 means the tick
does not grow with games.  Mail goes to an in-memory transport: what is
measured is the database, the rules and the rendering, not an SMTP server.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import tick_fixture

from pbem.context import Context, make_context
from pbem.models import create_tables, db, drop_tables, open_database
from pbem.time import scheduler

BASE = 1_000


@dataclass
class Size:
    games: int
    url: str
    ctx: Context
    fixture: tick_fixture.Fixture | None = None
    built: float = 0.0
    # seconds, one figure per round: wall clock and this process's CPU
    idle: list[float] = field(default_factory=list)
    idle_cpu: list[float] = field(default_factory=list)
    busy: list[float] = field(default_factory=list)
    busy_cpu: list[float] = field(default_factory=list)
    sent: list[int] = field(default_factory=list)
    work: list[int] = field(default_factory=list)  # what an idle tick read (``_work``)
    busy_work: list[int] = field(default_factory=list)  # and the busy tick


def _pg_urls(url: str, sizes: list[int]) -> dict[int, str]:
    """A database of its own for each size on the server of ``url``, created empty."""
    import psycopg2
    from psycopg2.extensions import ISOLATION_LEVEL_AUTOCOMMIT

    base = url.rsplit("/", 1)[0]
    admin = psycopg2.connect(url)
    admin.set_isolation_level(ISOLATION_LEVEL_AUTOCOMMIT)
    with admin.cursor() as cur:
        for games in sizes:
            cur.execute(f"DROP DATABASE IF EXISTS pbem_bench_tick_{games} WITH (FORCE)")
            cur.execute(f"CREATE DATABASE pbem_bench_tick_{games}")
    admin.close()
    return {games: f"{base}/pbem_bench_tick_{games}" for games in sizes}


def _drop_pg(url: str, sizes: list[int]) -> None:
    import psycopg2
    from psycopg2.extensions import ISOLATION_LEVEL_AUTOCOMMIT

    admin = psycopg2.connect(url)
    admin.set_isolation_level(ISOLATION_LEVEL_AUTOCOMMIT)
    with admin.cursor() as cur:
        for games in sizes:
            cur.execute(f"DROP DATABASE IF EXISTS pbem_bench_tick_{games} WITH (FORCE)")
    admin.close()


def build(size: Size) -> None:
    open_database(size.url)
    if size.url.startswith("postgres"):
        drop_tables()
    create_tables()
    started = time.perf_counter()
    size.fixture = tick_fixture.build(size.ctx, size.games)
    size.built = time.perf_counter() - started
    if size.url.startswith("postgres"):
        db.execute_sql("ANALYZE")  # as autovacuum would have by the time a server is this big
    db.close()


def _tick(size: Size, transport: tick_fixture.NullTransport) -> tuple[float, float, dict]:
    started, cpu = time.perf_counter(), time.process_time()
    done = scheduler.tick(size.ctx, size.fixture.now, transport=transport)
    return time.perf_counter() - started, time.process_time() - cpu, done


def _pg_rows_read() -> int:
    """Rows this database's tables gave to scans and index lookups so far (PostgreSQL's
    counters, flushed by this session first)."""
    db.execute_sql("SELECT pg_stat_force_next_flush()")
    db.execute_sql("SELECT 1")  # the flush comes at the end of a transaction
    return int(db.execute_sql("SELECT COALESCE(SUM(COALESCE(seq_tup_read, 0) + "
                              "COALESCE(idx_tup_fetch, 0)), 0) FROM pg_stat_user_tables"
                              ).fetchone()[0])


def _counted(size: Size, transport: tick_fixture.NullTransport,
             every: int) -> tuple[float, float, dict, int]:
    """A tick and what it read, counted: a number no load on the machine moves.
    SQLite: steps of its virtual machine (to ``every`` steps); PostgreSQL: rows read."""
    if size.url.startswith("sqlite"):
        steps = [0]

        def count() -> int:
            steps[0] += 1
            return 0

        connection = db.connection()
        connection.set_progress_handler(count, every)
        try:
            return (*_tick(size, transport), steps[0] * every)
        finally:
            connection.set_progress_handler(None, every)
    before = _pg_rows_read()
    took = _tick(size, transport)
    return (*took, _pg_rows_read() - before)


def one_round(size: Size, due: int, idle_ticks: int) -> None:
    fx = size.fixture
    open_database(size.url)
    transport = tick_fixture.NullTransport()
    _tick(size, transport)  # a fresh connection reads the schema first
    idle, idle_cpu = [], []
    for _ in range(idle_ticks):
        took, cpu, done = _tick(size, transport)
        if scheduler.did_work(done):
            raise SystemExit(f"an idle tick at {size.games:,} games did work: {done}")
        idle.append(took)
        idle_cpu.append(cpu)
    # the least disturbed of the round's idle ticks: one tick takes milliseconds, and on
    # a shared machine any of them may wait for the CPU far longer than it works
    size.idle.append(min(idle))
    size.idle_cpu.append(min(idle_cpu))
    size.work.append(_counted(size, transport, 10)[3])
    armed = tick_fixture.arm(fx, due)
    # counted in thousands of steps, which costs the tick nothing measurable
    took, cpu, done, work = _counted(size, transport, 1000)
    size.busy_work.append(work)
    if done["timeouts"] != armed["timeouts"] or done["reminders"] != armed["reminders"] \
            or done["talk"] < armed["talk"] or done["digests"] != armed["digests"]:
        raise SystemExit(f"the busy tick at {size.games:,} games did not do the due work: "
                         f"armed {armed}, done {done}")
    size.busy.append(took)
    size.busy_cpu.append(cpu)
    size.sent.append(transport.sent)
    for _ in range(10):  # what the busy tick left (mail beyond one tick's batch) goes now
        if not scheduler.did_work(_tick(size, transport)[2]):
            break
    else:
        raise SystemExit(f"the ticks at {size.games:,} games do not come to rest")
    db.close()


def _spread(values: list[float]) -> str:
    return f"{min(values):.2f} / {statistics.median(values):.2f} / {max(values):.2f}"


def _ratios(size: Size, base: Size, what: str) -> list[float]:
    return [a / b for a, b in zip(getattr(size, what), getattr(base, what), strict=True)]


def report(sizes: list[Size], args: argparse.Namespace, armed: dict, loads: list) -> None:
    base = next(s for s in sizes if s.games == BASE)
    pg = args.database_url is not None
    print(f"\nIdle tick: nothing due; per round the fastest of {args.idle_ticks} ticks. "
          f"Busy tick: {args.due} items due = "
          + ", ".join(f"{v} {k}" for k, v in armed.items()) + ".")
    print(f"{args.repeat} rounds, sizes interleaved; a ratio is the size's time over the "
          f"{BASE:,}-game time of the same round, min / median / max over the rounds. "
          f"Times: wall clock (ms: the median over the rounds) and this process's CPU"
          + (" (PostgreSQL's own CPU is not in it)" if pg else "") + ".")
    counted = "rows read" if pg else "VM steps"
    print(f"What an idle tick read, counted, not timed ({counted} of "
          + ("PostgreSQL's table statistics" if pg else "SQLite's progress handler")
          + "): load cannot move it.\n")
    print(f"{'games':>9} {'build':>6} | {'idle ms':>7} {'wall ratio':>17} {'CPU ratio':>17} "
          f"{counted:>9} | {'busy ms':>7} {'wall ratio':>17} {'CPU ratio':>17} {counted:>10} "
          f"{'mails':>5}")
    for s in sizes:
        print(f"{s.games:>9,} {s.built:>5.0f}s | {statistics.median(s.idle) * 1e3:>7.2f} "
              f"{_spread(_ratios(s, base, 'idle')):>17} "
              f"{_spread(_ratios(s, base, 'idle_cpu')):>17} {statistics.median(s.work):>9,.0f} | "
              f"{statistics.median(s.busy) * 1e3:>7.0f} {_spread(_ratios(s, base, 'busy')):>17} "
              f"{_spread(_ratios(s, base, 'busy_cpu')):>17} "
              f"{statistics.median(s.busy_work):>10,.0f} {statistics.median(s.sent):>5.0f}")
    print(f"\nload average (1, 5, 15 min) at the start of the rounds {loads[0]}, at the end "
          f"{loads[1]}; {os.cpu_count()} CPUs")
    for s in sizes:
        if s.games == 100 * BASE:
            idle = statistics.median(_ratios(s, base, "idle"))
            busy = statistics.median(_ratios(s, base, "busy"))
            verdict = "met" if max(idle, busy) <= 1.2 else "NOT met"
            print(f"goal 100,000 <= 1.2x 1,000 (median wall ratio): idle {idle:.2f}x, "
                  f"busy {busy:.2f}x: {verdict}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1000,10000,100000",
                        help="game counts, comma-separated; must include 1000")
    parser.add_argument("--million", action="store_true", help="and 1,000,000 games")
    parser.add_argument("--due", type=int, default=50, help="items due in a busy tick")
    parser.add_argument("--repeat", type=int, default=5, help="rounds")
    parser.add_argument("--idle-ticks", type=int, default=20, help="idle ticks per round")
    parser.add_argument("--database-url", default=None,
                        help="a PostgreSQL server to use instead of SQLite files: a database "
                             "pbem_bench_tick_<size> is made on it for each size")
    args = parser.parse_args()
    games = [int(s.replace("_", "")) for s in args.sizes.split(",")]
    games += [1_000_000] if args.million and 1_000_000 not in games else []
    if BASE not in games:
        parser.error(f"--sizes must include {BASE}: the ratios are against it")
    pg = args.database_url
    with tempfile.TemporaryDirectory(prefix="pbem-bench-tick-") as tmp:
        work = Path(tmp)
        urls = _pg_urls(pg, games) if pg else {
            n: f"sqlite:///{work / f'tick-{n}.db'}" for n in games}
        sizes = [Size(n, urls[n], make_context(
            server={"instance": str(work / f"instance-{n}")},
            archive={"site_dir": str(work / f"site-{n}")})) for n in games]
        kind = "PostgreSQL" if pg else "SQLite (WAL, a file each)"
        print(f"One scheduler tick against the number of games, on {kind}.")
        try:
            for size in sizes:
                print(f"building {size.games:,} games...", file=sys.stderr, flush=True)
                build(size)
                print(f"  {size.games:,} games built in {size.built:.0f} s", file=sys.stderr,
                      flush=True)
            loads = [tuple(round(x, 1) for x in os.getloadavg())]
            armed: dict = {}
            for r in range(args.repeat):
                for size in sizes[r % len(sizes):] + sizes[:r % len(sizes)]:
                    one_round(size, args.due, args.idle_ticks)
                print(f"  round {r + 1} of {args.repeat} done", file=sys.stderr, flush=True)
            armed = tick_fixture.due_split(args.due)
            loads.append(tuple(round(x, 1) for x in os.getloadavg()))
            report(sizes, args, armed, loads)
        finally:
            db.close()
            if pg:
                _drop_pg(pg, games)


if __name__ == "__main__":
    main()
