"""Scheduled work as one idempotent ``tick(now)``.

A tick, in order:

1. ``vacations``  clear vacations that have ended (``pbem.time.vacation``);
   ``bots``       bots play on where a change stopped at its cap
                  (``pbem.lifecycle.moves.continue_bots``), for
                  ``MAX_BOT_SECONDS_PER_PASS`` over all games at most;
2. ``timeouts``   the timeout ladder for seats past their deadline (``pbem.time.timeouts``);
3. ``reminders``  reminders that are due (``pbem.time.reminders``);
4. ``digests``    daily digests whose morning has come (``pbem.time.digest``), and
                  those of followed games (``pbem.time.follow``);
   ``replies``    replies in an IMAP mailbox, then ``inbound``: forget the mails that
                  came in more than ``[inbound] keep_days`` ago;
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
Exactly one process ticks per deployment: whoever ticks holds ``SchedulerLock``,
a file lock in the instance folder and, on PostgreSQL (any URL scheme, pooled
or not), a session advisory lock.  A second scheduler (another process, the
reloader's twin, another node) does not tick: it waits, tries the lock every
``[scheduler] lock_retry_seconds`` and takes over when the holder dies (see
``Standby``); a ``pbem tick`` that finds the lock taken skips.
"""

from __future__ import annotations

import contextlib
import imaplib
import logging
import os
import socket
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import peewee as pw

from pbem.archive import build_if_needed
from pbem.context import Context
from pbem.lifecycle import create, moves, replies, talk
from pbem.mail import imap, later
from pbem.mail.outbox import Transport, deliver_due, transport_from_config
from pbem.models import utcnow, write_transaction
from pbem.time import digest, follow, reminders, steps, timeouts, vacation

JOB_ID = "pbem-tick"
LOCK_JOB_ID = "pbem-scheduler-lock"
#: PostgreSQL advisory lock key of the deployment's one scheduler ("pbem" in ASCII)
ADVISORY_KEY = 0x7062656D

log = logging.getLogger("pbem.time.scheduler")


def _step(name: str, work: Callable[[], Any]) -> Any:
    try:
        return work()
    except (OSError, imaplib.IMAP4.error) as exc:
        # a server of the operator's that cannot be reached (the IMAP mailbox, the relay)
        # is news for the operator, not a bug: one line a tick, not a traceback
        log.warning("tick: step %s failed: %s: %s; the next tick tries again",
                    name, type(exc).__name__, exc)
        return "failed"
    except Exception:
        log.exception("tick: step %s failed; the next tick tries again", name)
        return "failed"


def tick(ctx: Context, now: datetime | None = None,
         transport: Transport | None = None) -> dict[str, Any]:
    """One pass of everything that is due at ``now`` (naive UTC); returns what it did."""
    now = now or utcnow()
    done: dict[str, Any] = {}
    done["vacations"] = _step("vacations", lambda: vacation.finish_due(ctx, now))
    until = moves.bot_pass_end()
    done["bots"] = _step("bots", lambda: steps.each(
        "bots", moves.due_bots(until),
        lambda game_id: moves.continue_bots(ctx, game_id, now, until),
        game_of=lambda game_id: game_id))
    done["timeouts"] = _step("timeouts", lambda: timeouts.apply_due(ctx, now))
    done["reminders"] = _step("reminders", lambda: reminders.send_due(ctx, now))
    done["talk"] = _step("talk", lambda: talk.send_due(ctx, now))
    done["digests"] = _step("digests", lambda: digest.send_due(ctx, now))
    done["follow"] = _step("follow", lambda: follow.send_due(ctx, now))
    # replies in the mailbox ([inbound] imap_host) play, and are answered in this tick
    done["replies"] = _step("replies", lambda: imap.poll(
        ctx.config, lambda raw: replies.receive(ctx, raw, now=now)))
    done["inbound"] = _step("inbound", lambda: replies.forget_old(ctx, now))
    # the bodies of "your move" mails that clicks only addressed, then the mail goes
    done["compose"] = _step("compose", lambda: later.finish_due(ctx, now))
    done["mail"] = _step("mail", lambda: deliver_due(
        ctx.config, transport or transport_from_config(ctx.config), now))
    # held games nobody confirmed go even when nobody uses the open form again
    done["held"] = _step("held", lambda: _discard_stale_held(now))
    # games that ended join the archive; a failing build must never stop the mail
    done["archive"] = _step("archive", lambda: build_if_needed(ctx))
    return done


def _discard_stale_held(now: datetime) -> int:
    with write_transaction():
        return create.discard_stale_held(now)


# -- one scheduler per deployment ---------------------------------------------------

#: what the lock's own session asks of the server: probe an idle client after 10 s,
#: every 5 s, 3 times, so a holder whose machine vanished (power, network) loses the
#: lock within about 25 s instead of the kernel's default of two hours
_SERVER_KEEPALIVE = {"tcp_keepalives_idle": "10", "tcp_keepalives_interval": "5",
                     "tcp_keepalives_count": "3"}
#: the same from the client's side (libpq), so a holder cut off from the server notices
_CLIENT_KEEPALIVE = {"keepalives": 1, "keepalives_idle": 10, "keepalives_interval": 5,
                     "keepalives_count": 3, "connect_timeout": 10}


def lock_database(url: str) -> pw.Database | None:
    """A database of its own for the scheduler lock's session, or ``None`` off PostgreSQL.

    Every URL the models accept counts (``postgresql://``, ``postgresql+pool://``,
    ``postgresext://``, query parameters...): Peewee's own URL parser decides, and
    the lock's database is the unpooled twin of the class it picks, because a pool
    would hand the session (and the lock with it) to some request.  It neither
    reconnects by itself (a new session would not hold the lock) nor is bound to
    one thread (the scheduler checks the lock from its job threads).
    """
    from playhouse.db_url import connect
    from playhouse.pool import PooledDatabase

    if url.startswith("sqlite:"):
        return None
    configured = connect(url)
    if not isinstance(configured, pw.PostgresqlDatabase):
        return None
    unpooled = next(kind for kind in type(configured).__mro__
                    if not issubclass(kind, PooledDatabase))
    params = {**_CLIENT_KEEPALIVE, **configured.connect_params}
    return unpooled(configured.database, thread_safe=False, autoconnect=False, **params)


class SchedulerLock:
    """Held by the one process of a deployment that runs ticks.

    Two locks, both released by the operating system or the server when their
    holder dies, however it dies:

    - a ``flock`` on ``<instance>/scheduler.lock`` covers one machine (the file
      says the holder's pid, for ``pbem tick`` and the log);
    - on PostgreSQL, a session advisory lock (``pg_try_advisory_lock``) on a
      connection of the lock's own covers every node sharing the database.
      An advisory lock, not a lease row with an expiry: the server frees it the
      moment the holder's session ends (a killed process closes its socket), so
      a standby needs no clock and waits no expiry, and no table or migration is
      needed; a holder whose machine vanishes is cut off by the TCP keepalives
      the session asks for (about 25 s).  The price: a pooler in transaction mode
      (PgBouncer) between pbem and PostgreSQL breaks session locks; connect the
      scheduler directly.

    ``acquire`` tries once and never blocks; ``confirm`` asks the server whether
    the session still holds the lock (after a server restart it does not) and
    lets go of everything when it does not, so its holder stops ticking.
    """

    def __init__(self, ctx: Context, role: str = "pbem scheduler"):
        self.ctx = ctx
        self.role = role
        self.path = ctx.config.instance_path / "scheduler.lock"
        self._file: Any = None
        self._pg: pw.Database | None = None
        self._guard = threading.RLock()
        #: who held the lock when ``acquire`` last failed, or why it failed
        self.refusal = ""
        #: why ``confirm`` last found the lock gone
        self.loss = ""

    def acquire(self) -> bool:
        """Take the lock now if it is free; ``False`` (and ``refusal``) when it is not."""
        with self._guard:
            if self._file is not None:
                return True
            handle = self._flock()
            if handle is None:
                self.refusal = ("another process on this machine runs the ticks"
                                f" ({self._file_holder()})")
                return False
            database = lock_database(self.ctx.config.database_url)
            try:
                got = database is None or self._advisory(database)
            except pw.PeeweeException as exc:
                self.refusal = f"the database does not answer ({exc})".replace("\n", " ")
                got = False
            if not got:
                handle.close()  # closing the file is what releases its flock
                return False
            handle.seek(0)
            handle.truncate()
            handle.write(f"{os.getpid()}\n")
            handle.flush()
            self._file = handle
            self.refusal = ""
            return True

    def _flock(self) -> Any:
        import fcntl

        self.path.parent.mkdir(parents=True, exist_ok=True)
        handle = open(self.path, "a+")  # noqa: SIM115 - held for the life of the lock
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.close()
            return None
        return handle

    def _advisory(self, database: pw.Database) -> bool:
        """Take the advisory lock in a new session of ``database``, which then stays open."""
        database.connect()
        try:
            settings = {**_SERVER_KEEPALIVE, "application_name":
                        f"{self.role}, host {socket.gethostname()}, pid {os.getpid()}"[:63]}
            for name, value in settings.items():
                database.execute_sql("SELECT set_config(%s, %s, false)", (name, value))
            got = database.execute_sql("SELECT pg_try_advisory_lock(%s)",
                                       (ADVISORY_KEY,)).fetchone()[0]
            if not got:
                self.refusal = ("another node runs the ticks"
                                f" ({self._session_holder(database)})")
        except BaseException:
            database.close()
            raise
        if not got:
            database.close()
            return False
        self._pg = database  # the lock lives as long as this session
        return True

    @staticmethod
    def _session_holder(database: pw.Database) -> str:
        row = database.execute_sql(
            "SELECT a.application_name, host(a.client_addr) FROM pg_locks l"
            " LEFT JOIN pg_stat_activity a ON a.pid = l.pid"
            " WHERE l.database = (SELECT oid FROM pg_database WHERE datname = current_database())"
            " AND l.locktype = 'advisory' AND l.granted AND l.classid = 0 AND l.objid = %s"
            " AND l.objsubid = 1", (ADVISORY_KEY,)).fetchone()
        if row is None:
            return "it let go just now"
        name, address = row
        return ", ".join(part for part in (name or "a session without a name", address) if part)

    def confirm(self) -> bool:
        """Whether this process still holds the lock, asked of the server on PostgreSQL."""
        with self._guard:
            if self._file is None:
                return False
            if self._pg is None:
                return True  # a flock cannot be lost while its file is open
            try:
                held = self._pg.execute_sql(
                    "SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory'"
                    " AND granted AND classid = 0 AND objid = %s AND objsubid = 1"
                    " AND pid = pg_backend_pid())", (ADVISORY_KEY,)).fetchone()[0]
                self.loss = "" if held else "the server no longer lists it for this session"
            except pw.PeeweeException as exc:
                held = False
                self.loss = f"the database session that held it is gone: {exc}".strip()
            if not held:
                self.release()
            return bool(held)

    def _file_holder(self) -> str:
        try:
            pid = Path(self.path).read_text().strip()
        except OSError:
            return "unknown"
        return f"pid {pid}" if pid else "unknown"

    def holder(self) -> str:
        """Who runs the ticks instead, as far as the last failed ``acquire`` could tell."""
        return self.refusal or f"another process runs the ticks ({self._file_holder()})"

    def release(self) -> None:
        with self._guard:
            if self._pg is not None:
                with contextlib.suppress(Exception):  # a broken session is gone already
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


class Standby:
    """One scheduler's view of the lock: tick while holding it, otherwise wait for it.

    ``ensure`` runs before every tick and every ``[scheduler] lock_retry_seconds``
    (its own job): while holding, it confirms the lock with the server (one
    round trip); while waiting, it tries to take the lock.  Every change is
    logged once, in words an operator can grep for: "runs the ticks",
    "waiting", "took over", "lost the lock".
    """

    def __init__(self, lock: SchedulerLock, retry_seconds: float):
        self.lock = lock
        self.retry_seconds = retry_seconds
        self.holding = False
        #: the tick job is between its start and its end (it may be waiting for ``ensure``)
        self.ticking = False
        self._waiting_since: float | None = None
        self._waiting_told = False
        self._guard = threading.Lock()

    def ensure(self) -> bool:
        """Whether this scheduler may tick now: it holds the lock, checked or just taken."""
        with self._guard:
            if self.holding:
                if self.lock.confirm():
                    return True
                self.holding = False
                self._waiting_since = time.monotonic()
                self._waiting_told = False
                log.warning("scheduler: lost the lock (%s); this process stops ticking "
                            "until it has the lock again", self.lock.loss)
            if self.lock.acquire():
                self._took()
                return True
            if not self._waiting_told:
                self._waiting_since = self._waiting_since or time.monotonic()
                self._waiting_told = True
                log.info("scheduler: waiting: %s; trying again every %g s",
                         self.lock.holder(), self.retry_seconds)
            return False

    def _took(self) -> None:
        if self._waiting_since is None:
            log.info("scheduler: this process runs the ticks (it holds the scheduler lock)")
        else:
            log.info("scheduler: took over: this process runs the ticks now, after "
                     "waiting %.0f s for the lock", time.monotonic() - self._waiting_since)
        self.holding = True
        self._waiting_since = None
        self._waiting_told = False


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


def guarded_tick(ctx: Context, standby: Standby) -> dict[str, Any] | None:
    """The tick job: a tick if this scheduler holds the lock, else nothing."""
    standby.ticking = True
    try:
        if not standby.ensure():
            return None
        return run_tick(ctx)
    finally:
        standby.ticking = False


def watch_lock(scheduler: Any, standby: Standby) -> None:
    """The lock job: notice a lost lock between ticks; a standby ticks the moment it takes over."""
    was_holding = standby.holding
    if standby.ensure() and not was_holding and not standby.ticking:
        scheduler.modify_job(JOB_ID, next_run_time=datetime.now(UTC))


def add_tick_job(scheduler: Any, ctx: Context, standby: Standby) -> Any:
    """Every ``[scheduler] interval_seconds``, first at once; the lock job beside it.

    A stable id with ``replace_existing``; missed runs are coalesced into one
    and run however late (a tick catches up on all due work anyway); never two
    at once in this process.
    """
    scheduler.add_job(
        watch_lock, "interval", args=[scheduler, standby], id=LOCK_JOB_ID,
        replace_existing=True, seconds=standby.retry_seconds, coalesce=True,
        max_instances=1, misfire_grace_time=None,
    )
    return scheduler.add_job(
        guarded_tick, "interval", args=[ctx, standby], id=JOB_ID, replace_existing=True,
        seconds=ctx.config.getfloat("scheduler", "interval_seconds"),
        coalesce=True, max_instances=1, misfire_grace_time=None,
        next_run_time=datetime.now(UTC),
    )


def standby_for(ctx: Context, lock: SchedulerLock) -> Standby:
    """The lock's standby, having tried the lock once (so the log says at once who ticks)."""
    # fractions of a second too (the tests of the lock wait a quarter of a second each)
    standby = Standby(lock, ctx.config.getfloat("scheduler", "lock_retry_seconds"))
    standby.ensure()
    return standby


#: background schedulers of this process, by deployment: one each
_background: dict[tuple[str, str], Any] = {}


def start_background(ctx: Context, lock: SchedulerLock | None = None) -> Any:
    """Run the scheduler in a background thread of this process (``pbem serve``).

    It ticks while it holds the deployment's lock and otherwise waits for it
    (another process or node ticks meanwhile), taking over when that one
    stops.  Returns the scheduler, or ``None`` when this process runs one for
    the deployment already.
    """
    from apscheduler.schedulers.background import BackgroundScheduler

    key = (str(ctx.config.instance_path), ctx.config.database_url)
    if key in _background and _background[key].running:
        log.info("scheduler: this process runs one already; none started")
        return None
    lock = lock or SchedulerLock(ctx)
    scheduler = BackgroundScheduler(timezone="UTC")
    scheduler.pbem_lock = lock  # released with the process
    scheduler.pbem_standby = standby_for(ctx, lock)
    add_tick_job(scheduler, ctx, scheduler.pbem_standby)
    scheduler.start()
    _background[key] = scheduler
    return scheduler


def run_forever(ctx: Context, lock: SchedulerLock) -> None:
    """``pbem scheduler``: ticks, or waits for the lock, until SIGTERM or Ctrl-C."""
    import signal

    from apscheduler.schedulers.blocking import BlockingScheduler

    scheduler = BlockingScheduler(timezone="UTC")
    add_tick_job(scheduler, ctx, standby_for(ctx, lock))

    def stop(signum: int, frame: object) -> None:
        if scheduler.running:  # timeout(1) and service managers may signal twice
            scheduler.shutdown(wait=False)

    signal.signal(signal.SIGTERM, stop)
    try:
        scheduler.start()
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        lock.release()
