"""``pbem build-site``: the static archive of finished games (see ``pbem.archive``);
``pbem ratings``: every rating again from the finished games, which the archive shows."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import click

from pbem.archive import build, default_jobs, site_dir
from pbem.context import make_context
from pbem.lifecycle import ratings
from pbem.models import db, open_database


class TerminalProgress:
    """Progress of a long build on stderr: a live line on a terminal, else a line per tenth."""

    def __init__(self, stream=None, min_total: int = 100) -> None:
        self.stream = stream or sys.stderr
        self.tty = self.stream.isatty()
        self.min_total = min_total
        self.last = 0.0
        self.shown: dict[str, int] = {}

    def __call__(self, stage: str, done: int, total: int) -> None:
        if total < self.min_total:
            return
        label = f"rendering {stage}: {done}/{total} ({100 * done // total}%)"
        if self.tty:
            now = time.monotonic()
            if done == total or now - self.last >= 0.1:
                self.last = now
                end = "\n" if done == total else ""
                self.stream.write(f"\r{label}{end}")
                self.stream.flush()
            return
        tenth = 10 * done // total
        if tenth > self.shown.get(stage, -1):
            self.shown[stage] = tenth
            print(label, file=self.stream, flush=True)


@click.command("build-site",
               help="Render every finished game into the static archive (incremental).")
@click.option("--site", "site", type=click.Path(file_okay=False), default=None,
              help="output folder (default: [archive] site_dir)")
@click.option("--full", is_flag=True,
              help="render every page again, whatever the last build recorded")
@click.option("--redraw", is_flag=True,
              help="render every page again (as --full), drawing the table of every round "
                   "again rather than reading the drawings kept in the database, and keep "
                   "the new ones")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=None,
              help="processes that render pages (default: one per CPU, at most 8)")
@click.option("--quiet", "-q", is_flag=True, help="no progress, only errors")
def build_site(site: str | None, full: bool, redraw: bool, jobs: int | None,
               quiet: bool) -> None:
    ctx = make_context()
    url = ctx.config.database_url
    open_database(url)
    if not db.table_exists("game"):
        click.echo(f"error: no pbem database at {url}", err=True)
        sys.exit(1)
    folder = Path(site) if site else site_dir(ctx)
    report = build(folder, full=full, redraw=redraw, site_key=ctx.base_url,
                   jobs=jobs or default_jobs(), progress=None if quiet else TerminalProgress())
    for game_id, problem in report.problems:
        click.echo(f"game {game_id}: {problem}", err=True)
    if not quiet:
        click.echo(
            f"{report.games} finished games; rendered {report.rendered_games} game pages "
            f"({report.drawn_games} of them drawn, the others from their kept tables) and "
            f"{report.rendered_indexes} index pages; wrote {len(report.written)} files, "
            f"removed {len(report.removed)} in {report.seconds:.2f} s: {folder}/index.html"
        )


@click.command("ratings", help="Rate every finished game again, in the order they ended, "
               "and rebuild the archive if a rating changed (idempotent: after an import, "
               "or to rebuild the ratings from the games).")
def rate_again() -> None:
    ctx = make_context()
    open_database(ctx.config.database_url)
    if not db.table_exists("game"):
        click.echo(f"error: no pbem database at {ctx.config.database_url}", err=True)
        sys.exit(1)
    rated, changed = ratings.rebuild()
    click.echo(f"rated {rated} finished games")
    if changed:  # every player's page may show another rating; no game page shows one
        report = build(site_dir(ctx), indexes=True, site_key=ctx.base_url,
                       jobs=default_jobs())
        click.echo(f"ratings changed: rebuilt the archive's index pages "
                   f"({len(report.written)} files written): {report.site}/index.html")


def register(group: click.Group) -> None:
    group.add_command(build_site)
    group.add_command(rate_again)
