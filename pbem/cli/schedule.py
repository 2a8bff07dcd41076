"""``pbem tick`` (one tick, for cron) and ``pbem scheduler`` (ticks every minute).

Both take the deployment's scheduler lock (see ``pbem.time.scheduler``): while a
``pbem scheduler`` or a ``pbem serve`` with its in-process scheduler holds it, on
this machine or (on PostgreSQL) any other, ``pbem tick`` from cron skips (unless
``--force``; a tick is idempotent, so forcing one is safe, only wasteful), and a
second ``pbem scheduler`` waits as a standby: it ticks only once it has the lock,
which it takes within ``[scheduler] lock_retry_seconds`` of the first one's end.
"""

from __future__ import annotations

import json
import logging
import sys
from datetime import UTC, datetime

import click

from pbem.context import make_context
from pbem.models import Game, db, open_database
from pbem.time import steps


def _open(ctx) -> None:
    url = ctx.config.database_url
    open_database(url)
    if not db.table_exists("game"):
        click.echo(f"error: no pbem database at {url}", err=True)
        sys.exit(1)


def _parse_at(value: str | None) -> datetime | None:
    if value is None:
        return None
    try:
        when = datetime.fromisoformat(value)
    except ValueError as exc:
        raise click.BadParameter(f"{value!r} is not an ISO date and time",
                                 param_hint="--at") from exc
    if when.tzinfo is not None:
        when = when.astimezone(UTC).replace(tzinfo=None)
    return when


@click.command("tick", help="Run one tick of scheduled work: vacations, timeouts, reminders, "
                            "digests, mail, archive. For cron (see cron/).")
@click.option("--force", is_flag=True,
              help="tick even while a scheduler process runs (safe: a tick is idempotent)")
@click.option("--at", "at", metavar="ISO", default=None,
              help="tick as if it were this time (UTC unless it names an offset); for tests")
@click.option("--quiet", "-q", is_flag=True, help="print nothing when nothing was due")
def tick_cmd(force: bool, at: str | None, quiet: bool) -> None:
    # the scheduler module loads APScheduler: only the commands that tick pay for it
    from pbem.time.scheduler import SchedulerLock, did_work, tick

    ctx = make_context()
    _open(ctx)
    lock = SchedulerLock(ctx, role="pbem tick")
    if not lock.acquire():
        if not force:
            if not quiet:
                click.echo(f"skipped: {lock.holder()}")
            return
    try:
        done = tick(ctx, _parse_at(at))
    finally:
        lock.release()
    if did_work(done) or not quiet:
        click.echo(json.dumps(done, sort_keys=True, default=str))


@click.command("scheduler", help="Run ticks every [scheduler] interval_seconds in the "
                                 "foreground: the deployment's one scheduler. While another "
                                 "one ticks, this one waits and takes over when it stops.")
def scheduler_cmd() -> None:
    from pbem.cli.server import warn_if_no_fonts  # the lifecycle's imports: `tick` needs none
    from pbem.time.scheduler import SchedulerLock, run_forever  # APScheduler: see `tick`

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    # APScheduler says "Running job" at every run of the tick and of the lock's check (every
    # few seconds): noise; what the scheduler does is logged by pbem, job errors still show
    logging.getLogger("apscheduler").setLevel(logging.WARNING)
    ctx = make_context()
    ctx.config.check_production()
    _open(ctx)
    warn_if_no_fonts()
    every = ctx.config.getfloat("scheduler", "interval_seconds")
    click.echo(f"pbem scheduler: a tick every {every:g}"
               " s while it holds the deployment's lock; Ctrl-C or SIGTERM stops it")
    lock = SchedulerLock(ctx)
    run_forever(ctx, lock)


@click.command("parked", help="List the games the ticks leave alone after repeated "
                              "failures, or release one with --release ID.")
@click.option("--release", "release_id", type=int, default=None,
              help="let the ticks take up this game again")
def parked_cmd(release_id: int | None) -> None:
    ctx = make_context()
    _open(ctx)
    if release_id is not None:
        if not steps.release(release_id):
            click.echo(f"game {release_id} is not parked", err=True)
            sys.exit(1)
        click.echo(f"game {release_id} released: the next tick takes it up again")
        return
    games = list(Game.select().where(Game.parked_at.is_null(False)).order_by(Game.parked_at))
    if not games:
        click.echo("no parked games")
        return
    for game in games:
        click.echo(f"game {game.id} ({game.game}), parked {game.parked_at:%Y-%m-%d %H:%M} UTC "
                   f"after {game.failures} failed ticks: {game.parked_reason}")


def register(group: click.Group) -> None:
    group.add_command(tick_cmd)
    group.add_command(scheduler_cmd)
    group.add_command(parked_cmd)
