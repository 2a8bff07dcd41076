"""Scheduled work as one idempotent ``tick(now)``.

A tick, in order:

1. ``vacations``  clear vacations that have ended (``pbem.time.vacation``);
   ``bots``       bots play on where a change stopped at its cap
                  (``pbem.lifecycle.moves.continue_bots``);
2. ``timeouts``   the timeout ladder for seats past their deadline (``pbem.time.timeouts``);
3. ``reminders``  reminders that are due (``pbem.time.reminders``);
4. ``digests``    daily digests whose morning has come (``pbem.time.digest``);
5. ``mail``       deliver the outbox, with backoff on SMTP failures (``pbem.mail.outbox``);
6. ``archive``    render games that ended since the last build (``pbem.archive``).

Mail goes last, so what the other steps queued leaves in the same tick.
``tick`` keeps no state in memory: each step finds its due rows by an indexed
column compared with ``now`` and claims each row with a conditional UPDATE
(``pbem.time.steps``), so running it twice, on two nodes or again after a crash
does the same as running it once, and its cost follows the due work, not the
number of games.  A failing step is logged and the next one still runs.

It is called every minute by APScheduler inside ``pbem serve`` (or
``pbem scheduler``), or by system cron through ``pbem tick`` (``cron/``).
Exactly one scheduler runs per deployment: ``SchedulerLock`` is a file lock
in the instance folder and, on PostgreSQL, an advisory lock, so a second
process (another web worker, the reloader's twin, another node) runs none.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pbem.archive import build_if_needed
from pbem.context import Context
from pbem.lifecycle import moves, talk
from pbem.mail.outbox import Transport, deliver_due, transport_from_config
from pbem.models import utcnow
from pbem.time import digest, reminders, steps, timeouts, vacation

JOB_ID = "pbem-tick"
#: PostgreSQL advisory lock key of the deployment's one scheduler ("pbem" in ASCII)
ADVISORY_KEY = 0x7062656D

log = logging.getLogger("pbem.time.scheduler")


def _step(name: str, work: Callable[[], Any]) -> Any:
    try:
        return work()
    except Exception:
        log.exception("tick: step %s failed; the next tick tries again", name)
        return "failed"


def tick(ctx: Context, now: datetime | None = None,
         transport: Transport | None = None) -> dict[str, Any]:
    """One pass of everything that is due at ``now`` (naive UTC); returns what it did."""
    now = now or utcnow()
    done: dict[str, Any] = {}
    done["vacations"] = _step("vacations", lambda: vacation.finish_due(ctx, now))
    done["bots"] = _step("bots", lambda: steps.each(
        "bots", moves.pending_bots(), lambda game_id: moves.continue_bots(ctx, game_id, now),
        game_of=lambda game_id: game_id))
    done["timeouts"] = _step("timeouts", lambda: timeouts.apply_due(ctx, now))
    done["reminders"] = _step("reminders", lambda: reminders.send_due(ctx, now))
    done["talk"] = _step("talk", lambda: talk.send_due(ctx, now))
    done["digests"] = _step("digests", lambda: digest.send_due(ctx, now))
    done["mail"] = _step("mail", lambda: deliver_due(
        ctx.config, transport or transport_from_config(ctx.config), now))
    # games that ended join the archive; a failing build must never stop the mail
    done["archive"] = _step("archive", lambda: build_if_needed(ctx))
    return done


# -- one scheduler per deployment ---------------------------------------------------


class SchedulerLock:
    """Held by the one process of a deployment that runs ticks.

    A ``flock`` on ``<instance>/scheduler.lock`` covers one machine (the lock
    goes with the process, even when it is killed); on PostgreSQL a session
    advisory lock covers every node sharing the database.
    """

    def __init__(self, ctx: Context):
        self.ctx = ctx
        self.path = ctx.config.instance_path / "scheduler.lock"
        self._file: Any = None
        self._pg: Any = None

    def acquire(self) -> bool:
        import fcntl

        self.path.parent.mkdir(parents=True, exist_ok=True)
        handle = open(self.path, "a+")  # noqa: SIM115 - held for the life of the lock
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.close()
            return False
        handle.seek(0)
        handle.truncate()
        handle.write(f"{os.getpid()}\n")
        handle.flush()
        self._file = handle
        url = self.ctx.config.database_url
        if url.startswith(("postgres://", "postgresql://")) and not self._advisory(url):
            self.release()
            return False
        return True

    def _advisory(self, url: str) -> bool:
        import psycopg2

        conn = psycopg2.connect(url)
        conn.autocommit = True
        with conn.cursor() as cur:
            cur.execute("SELECT pg_try_advisory_lock(%s)", (ADVISORY_KEY,))
            got = cur.fetchone()[0]
        if not got:
            conn.close()
            return False
        self._pg = conn  # the lock lives as long as this session
        return True

    def holder(self) -> str:
        """Who holds the lock, as far as the lock file tells."""
        try:
            pid = Path(self.path).read_text().strip()
        except OSError:
            return "unknown"
        return f"pid {pid}" if pid else "another node (PostgreSQL advisory lock)"

    def release(self) -> None:
        if self._pg is not None:
            self._pg.close()
            self._pg = None
        if self._file is not None:
            import fcntl

            fcntl.flock(self._file, fcntl.LOCK_UN)
            self._file.close()
            self._file = None

    def __enter__(self) -> SchedulerLock:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def run_tick(ctx: Context) -> dict[str, Any]:
    """The scheduled job: a tick at the current time, logged."""
    done = tick(ctx)
    if did_work(done):
        log.info("tick: %s", done)
    return done


def did_work(done: dict[str, Any]) -> bool:
    """Whether a tick's report says it did (or tried) anything."""
    for value in done.values():
        if isinstance(value, dict):
            if any(value.values()):
                return True
        elif value:
            return True
    return False


def add_tick_job(scheduler: Any, ctx: Context) -> Any:
    """Every ``[scheduler] interval_seconds``, first at once.

    A stable id with ``replace_existing``; missed runs are coalesced into one
    and run however late (a tick catches up on all due work anyway); never two
    at once in this process.
    """
    return scheduler.add_job(
        run_tick, "interval", args=[ctx], id=JOB_ID, replace_existing=True,
        seconds=ctx.config.getint("scheduler", "interval_seconds"),
        coalesce=True, max_instances=1, misfire_grace_time=None,
        next_run_time=datetime.now(UTC),
    )


def start_background(ctx: Context, lock: SchedulerLock | None = None) -> Any:
    """Run ticks in a background thread of this process (``pbem serve``).

    Returns the scheduler, or ``None`` when another process of the deployment
    holds the scheduler lock and so runs the ticks already.
    """
    from apscheduler.schedulers.background import BackgroundScheduler

    lock = lock or SchedulerLock(ctx)
    if not lock.acquire():
        log.info("scheduler: %s runs the ticks; none started here", lock.holder())
        return None
    scheduler = BackgroundScheduler(timezone="UTC")
    scheduler.pbem_lock = lock  # released with the process
    add_tick_job(scheduler, ctx)
    scheduler.start()
    return scheduler


def run_forever(ctx: Context, lock: SchedulerLock) -> None:
    """``pbem scheduler``: ticks in the foreground until SIGTERM or Ctrl-C."""
    import signal

    from apscheduler.schedulers.blocking import BlockingScheduler

    scheduler = BlockingScheduler(timezone="UTC")
    add_tick_job(scheduler, ctx)

    def stop(signum: int, frame: object) -> None:
        scheduler.shutdown(wait=False)

    signal.signal(signal.SIGTERM, stop)
    try:
        scheduler.start()
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        lock.release()
