"""The static archive of finished games (``pbem build-site``).

Every finished game becomes a page in ``site/`` (``[archive] site_dir``):
Markdown and the HTML made from it, a score chart (SVG) and the game record
(JSON), with indexes by date, game, player and month, and an Atom feed.  It
is built only through the game protocol and the move log (whose rows carry
each move's sentence), so a new game needs no code here.  The modules, in
the order a build uses them:

``collect``  read finished games from the database into plain values
``text``     escaping for Markdown and XML; ``paths`` where pages live, relative links
``visit``    one replay of a move log, told to visitors
``markdown`` the Markdown page of a game (a visitor)
``chart``    the score chart (a visitor and an SVG drawing)
``pages``    all files of one game's page
``indexes``  the index pages
``feed``     the Atom feed
``render``   Markdown to HTML with the templates in ``templates/archive/``
``quick``    Markdown to HTML for the Markdown the archive writes, as Python-Markdown
             writes it, ten times faster (``render`` falls back on Python-Markdown)
``tally``    the statistics' totals, to which a game is added and from which it is taken
``statistics`` the statistics pages, made from those totals
``writer``   the writer of the output folder, atomic
``manifest`` what the last build made: a main file and a file per block of games
``pipeline`` the build, read top to bottom: what the manifest keeps, what an incremental
             build reads, the worker processes
``sample``   finished random games written into a database, for tests and benchmarks
``rows``     the move rows of a replayed record, as the service writes them (for ``sample``
             and ``pbem import``)
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pbem.archive.pipeline import BuildReport, Progress, build, default_jobs, needs_build
from pbem.archive.writer import BuildLocked
from pbem.context import Context

__all__ = ["BuildLocked", "BuildReport", "Progress", "build", "build_if_needed", "default_jobs",
           "site_dir"]


def site_dir(ctx: Context) -> Path:
    return Path(ctx.config.get("archive", "site_dir"))


def build_if_needed(ctx: Context) -> dict[str, Any] | None:
    """Build the archive if a game has finished since the last build (the scheduler's hook).

    Returns what the build did, or ``None`` when nothing was due or another
    build holds the folder (the next tick tries again).
    """
    if not needs_build():
        return None
    try:
        report = build(site_dir(ctx), site_key=ctx.base_url, wait=False)
    except BuildLocked:
        return None
    return report.summary()
