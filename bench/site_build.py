"""Benchmark of the archive build, with Pelican on the same Markdown as the baseline.

    python bench/site_build.py --games 1000               # full and incremental builds
    python bench/site_build.py --no-full --no-pelican     # one new game at 10,000 games

From one run it prints, each measure as median (min–max) of ``--repeats`` runs
(3 by default), pbem's and Pelican's runs interleaved, with the load average:

* **full build**: game pages per second, and CPU milliseconds a page, for a
  build of N finished games into an empty folder, in one process and in
  ``--jobs`` processes (one per CPU, at most 8, as ``pbem build-site`` does),
  against Pelican rendering the very Markdown of those N game pages (with its
  default theme and its own indexes) in one process, and in ``--jobs``
  processes, and the ratio of each run of pbem to the Pelican run of the same
  repeat: one against one, two against two.  Pelican has no parallel build of
  its own, so ``--jobs`` Pelicans run at once, each making the site of every
  ``jobs``-th page (with its own indexes and feed), timed from the slowest
  one's start of work to its end.  Each side twice, interleaved (pbem, Pelican,
  pbem, Pelican): pbem as a full build finds the database in production, its
  games' tables kept when they ended (:mod:`pbem.archive.drawn`), and pbem
  drawing every table again (``--redraw``, which keeps them anew); Pelican
  without a cache, and Pelican with its content cache (each page's parsed
  Markdown) filled by a first run of its own.  Before the timed builds one
  untimed build draws and keeps every game's tables, as the builds at each
  game's end leave them in production; the bytes kept a game are printed;
* **incremental build**: the seconds to bring the N-game archive up to date
  after one more game has finished (a game more each repeat), against Pelican
  bringing its N-page site up to date after the same one page is added, with
  its content cache (each page's parsed Markdown, from a first cached run over
  the N pages): both are the other's best way of doing the same small change.
  ``--no-full`` skips the comparison of full builds (one full build in
  ``--jobs`` processes starts the archive, drawing and keeping every game's
  tables), for the incremental build at 10,000 games.

Pages per second count game pages only, for both; the archive's index
pages, feed, charts and records, and Pelican's index, archive, category and
author pages and feed, are part of each one's work.  Both incremental
figures are of the build itself in a running interpreter (Pelican's
imports, and this process's, are not counted), with pbem's in-process caches
(code fingerprints, the renderer) emptied first.

Pelican is for the benchmark only, never a dependency of pbem: the script
installs it (pinned, with the same Markdown version as pbem's) once into a
virtual environment of its own under the user's cache folder, and runs it
there in a subprocess; ``--pelican-python`` names an interpreter that has
Pelican instead, ``--no-pelican`` skips the baseline.  If the install fails
(no network), the baseline is skipped, saying why.  pip compiled Pelican's
modules to bytecode when it installed them; pbem's are compiled before the
builds too (:func:`compile_pbem`), as an install of pbem would have them, so
that neither side's worker processes compile their sources while timed (with
``PYTHONDONTWRITEBYTECODE`` set, each new interpreter did: half a second of
CPU per worker of pbem's).

The games are random legal games of every registered game (2 to 6 players,
named players and bots), written straight into a fresh SQLite database: the
first ``--played`` (1,000) played to their end, the others copies of those,
move for move, by other players at later dates (copied inside the database, so
that 10,000 games take a minute, not forty).
"""

from __future__ import annotations

import argparse
import compileall
import importlib.util
import json
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import venv
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path

import markdown
import peewee as pw

from pbem.archive import BuildReport, build, default_jobs, drawn, pipeline
from pbem.archive.sample import add_finished_game, add_player
from pbem.games import all_games
from pbem.heap import keep_freed_memory
from pbem.models import Game, Move, Player, RoundsDrawn, Seat, create_tables, db, open_database

START = datetime(2020, 1, 1)
#: the baseline's version, pinned so that runs stay comparable; change it here
PELICAN = "pelican==4.12.0"

#: run in the Pelican interpreter: settings (JSON) in argv, its seconds and CPU seconds
#: (JSON) out
PELICAN_RUNNER = """
import contextlib, io, json, logging, sys, time
from pelican import Pelican
from pelican.settings import read_settings
settings = read_settings(override=json.loads(sys.argv[1]))
logging.getLogger("pelican").setLevel(logging.ERROR)
started, cpu = time.perf_counter(), time.process_time()
with contextlib.redirect_stdout(io.StringIO()):  # its summary line, not ours
    Pelican(settings).run()
print(json.dumps([time.perf_counter() - started, time.process_time() - cpu]))
"""


@dataclass
class Timed:
    """Seconds on the clock and of CPU (this process and the workers it waited for), and
    the machine's load average when it began (other work slows both)."""

    seconds: float
    cpu: float
    load: float

    def note(self) -> str:
        return f"CPU {self.cpu:.1f} s, load {self.load:.1f}"


def timed_build(folder: Path, **kwargs) -> tuple[BuildReport, Timed]:
    load = os.getloadavg()[0]
    cpu = time.process_time()
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    report = build(folder, **kwargs)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = time.process_time() - cpu + (after.ru_utime + after.ru_stime
                                       - children.ru_utime - children.ru_stime)
    return report, Timed(report.seconds, cpu, load)


def seed_database(games: int, players: int, rng: random.Random,
                  played: int | None = None) -> list[Player]:
    """``games`` finished games: the first ``played`` (all by default) played to their end,
    the others copies of those (:func:`copy_game`), much faster to make."""
    pool = [add_player(f"Player {i + 1}", email=f"player{i + 1}@example.org")
            for i in range(players)]
    kinds = all_games()
    played = games if played is None else max(1, min(games, played))
    started = time.perf_counter()
    for batch in range(0, games, 100):
        with db.atomic():  # one transaction per hundred games
            for n in range(batch, min(games, batch + 100)):
                if n < played:
                    add_game(n, pool, kinds, rng)
                else:
                    copy_game(n, 1 + n % played, pool, rng)
        done = min(games, batch + 100)
        if done % 1000 == 0 or done == games:
            print(f"  {done} games in the database ({time.perf_counter() - started:.0f} s)",
                  file=sys.stderr, flush=True)
    return pool


def add_game(n: int, pool: list[Player], kinds, rng: random.Random) -> None:
    game = kinds[n % len(kinds)]
    count = rng.randint(game.min_players, game.max_players)
    seats: list[Player | None] = rng.sample(pool, count)
    if count >= 4 and rng.random() < 0.5:
        seats[-1] = None  # a bot of its own
    add_finished_game(game.name, seats, seed=n, finished_at=finished_time(n, rng))


def finished_time(n: int, rng: random.Random) -> datetime:
    return START + timedelta(hours=5 * n + rng.randint(0, 4))


def copy_game(n: int, source: int, pool: list[Player], rng: random.Random) -> None:
    """Game ``n``: game ``source`` (an id) played again move for move by other players,
    ending later; its move rows copied inside the database."""
    old = Game.get_by_id(source)
    finished = finished_time(n, rng)
    started = finished - (old.finished_at - old.started_at)
    seats = list(Seat.select().where(Seat.game == old.id).order_by(Seat.index))
    people = iter(rng.sample(pool, len(seats)))
    new = Game.create(game=old.game, options=old.options, seed=old.seed,
                      rules_version=old.rules_version, data_version=old.data_version,
                      status=Game.FINISHED, seq=old.seq, state=old.state, result=old.result,
                      created_at=started, started_at=started, finished_at=finished,
                      creator=pool[0])
    Seat.insert_many([{"game": new.id, "index": seat.index, "bot": seat.bot,
                       "player": None if seat.bot else next(people).id}
                      for seat in seats]).execute()
    columns = [f'"{f.column_name}"' for f in Move._meta.sorted_fields
               if f.name not in ("id", "game", "created_at")]  # "commit" is a keyword
    names, table, game = ", ".join(columns), Move._meta.table_name, Move.game.column_name
    db.execute_sql(f'INSERT INTO "{table}" ("{game}", "{Move.created_at.column_name}", '
                   f'{names}) SELECT ?, ?, {names} FROM "{table}" WHERE "{game}" = ?',
                   (new.id, Move.created_at.db_value(started), old.id))


def pelican_python(explicit: Path | None) -> tuple[Path | None, str]:
    """An interpreter with Pelican, installing it for the benchmark if need be, and a note."""
    if explicit is not None:
        return explicit, f"Pelican from {explicit}"
    if importlib.util.find_spec("pelican") is not None:
        return Path(sys.executable), "Pelican from this environment"
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    folder = cache / "pbem" / f"bench-{PELICAN.replace('==', '-')}-markdown-{markdown.__version__}"
    python = folder / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    done = folder / "installed"  # written last: a half-made environment is made again
    if not done.exists():
        print(f"Installing {PELICAN} for the benchmark only into {folder} ...",
              file=sys.stderr, flush=True)
        try:
            venv.create(folder, with_pip=True, clear=True)
            subprocess.run([str(python), "-m", "pip", "install", "--quiet",
                            "--disable-pip-version-check", PELICAN,
                            f"markdown=={markdown.__version__}"],
                           check=True, stdout=subprocess.DEVNULL)
            done.write_text(PELICAN + "\n", encoding="utf-8")
        except (OSError, subprocess.CalledProcessError) as exc:
            shutil.rmtree(folder, ignore_errors=True)
            return None, f"could not install {PELICAN} ({exc})"
    return python, f"{PELICAN} in its own environment, {folder}"


def compile_pbem() -> None:
    """pbem's modules as bytecode beside their sources, as pip leaves an installed package
    (and Pelican's), whatever ``PYTHONDONTWRITEBYTECODE`` says."""
    import pbem

    compileall.compile_dir(Path(pbem.__file__).parent, quiet=1)


def pelican_page(page: Path, content: Path) -> None:
    """A game page's Markdown as a Pelican article (its metadata on top, the page unchanged)."""
    text = page.read_text(encoding="utf-8")
    title = text.split("\n", 1)[0].lstrip("# ")
    (content / page.name).write_text(
        f"Title: {title}\nDate: 2024-01-01 00:00\nSlug: game-{page.stem}\n\n{text}",
        encoding="utf-8")


def pelican_settings(content: Path, output: Path, cache: Path | None) -> dict:
    return {
        "PATH": str(content),
        "OUTPUT_PATH": str(output),
        "SITEURL": "",
        "RELATIVE_URLS": True,
        "TIMEZONE": "UTC",
        "FEED_DOMAIN": "http://bench.invalid",
        "DEFAULT_PAGINATION": 50,
        "CACHE_PATH": str(cache or output.parent / "pelican-no-cache"),
        "CACHE_CONTENT": cache is not None,
        "LOAD_CONTENT_CACHE": cache is not None,
        "FEED_ALL_ATOM": "feeds/all.atom.xml",
        "CATEGORY_FEED_ATOM": None,
        "AUTHOR_FEED_ATOM": None,
        "AUTHOR_FEED_RSS": None,
        "TRANSLATION_FEED_ATOM": None,
        "MARKDOWN": {
            "extension_configs": {
                "markdown.extensions.tables": {},
                "markdown.extensions.attr_list": {},
                "markdown.extensions.meta": {},
            },
            "output_format": "html5",
        },
    }


def run_pelican(python: Path, settings: list[dict]) -> Timed:
    """One Pelican run per settings, all at once, each in its own interpreter: the
    slowest one's seconds (not counting its imports) and all their CPU seconds."""
    load = os.getloadavg()[0]
    runs = [subprocess.Popen([str(python), "-c", PELICAN_RUNNER, json.dumps(one)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            for one in settings]
    seconds, cpu = 0.0, 0.0
    for run in runs:
        out, err = run.communicate()
        if run.returncode:
            raise subprocess.CalledProcessError(run.returncode, run.args, out, err)
        took, used = json.loads(out.strip().splitlines()[-1])
        seconds, cpu = max(seconds, took), cpu + used
    return Timed(seconds, cpu, load)


class Pelican:
    """Pelican over the game pages of a build: in one process, or in ``parts`` at once
    (Pelican renders in one process; ``parts`` processes each make the site of every
    ``parts``-th page, with its own indexes and feed, as ``parts`` builds side by side)."""

    def __init__(self, python: Path, pages: list[Path], work: Path, parts: int) -> None:
        self.python, self.work, self.pages = python, work, len(pages)
        self.contents = [work / f"pelican-content-{parts}-{k}" for k in range(parts)]
        for k, content in enumerate(self.contents):
            shutil.rmtree(content, ignore_errors=True)
            content.mkdir()
            for page in pages[k::parts]:
                pelican_page(page, content)

    def full(self, cached: bool = False) -> Timed:
        """Every part's site into an empty folder: without a cache, or with the content
        cache of each part (filled by its first cached run)."""
        settings = []
        for content in self.contents:
            output = self.work / f"{content.name}-output"
            shutil.rmtree(output, ignore_errors=True)
            settings.append(pelican_settings(
                content, output, self.work / f"{content.name}-cache" if cached else None))
        return run_pelican(self.python, settings)

    def files(self) -> int:
        """The files its last full run made (pages, indexes, feeds, its theme's own)."""
        return sum(1 for content in self.contents
                   for path in (self.work / f"{content.name}-output").rglob("*")
                   if path.is_file())

    def cached(self, new_page: Path | None = None) -> Timed:
        """A run with its content cache (the first one fills it), after ``new_page`` is
        added to the first part."""
        content = self.contents[0]
        if new_page is not None:
            pelican_page(new_page, content)
            self.pages += 1
        return run_pelican(self.python, [pelican_settings(
            content, self.work / "pelican-cached", self.work / "pelican-cache")])


def file_cost(folder: Path, files: int = 300) -> float:
    """Microseconds to create (and write a page into) one new file in ``folder``.

    On a shared machine this varies tenfold from one folder to another and
    from one minute to the next (the archive writes four files a game, where
    Pelican writes one a page), so it is printed beside the results.
    """
    probe = Path(tempfile.mkdtemp(prefix="probe-", dir=folder))
    data = b"x" * 20_000
    started = time.perf_counter()
    for i in range(files):
        (probe / f"{i}.html").write_bytes(data)
    seconds = time.perf_counter() - started
    shutil.rmtree(probe)
    return 1e6 * seconds / files


#: the archive's code fingerprint when the run began (see :func:`cold_caches`)
_CODE_AT_START: list[str] = []


def cold_caches() -> None:
    """Empty what a build keeps in its process, as a new ``pbem build-site`` would find it.

    The code fingerprints are then read from the files again: should the archive's code
    change while the benchmark runs (a checkout, an edit), every page is rendered again
    and the incremental figures are of full renders, so that is said.
    """
    pipeline.code_fingerprint.cache_clear()
    now = pipeline.code_fingerprint(None)
    if _CODE_AT_START and now != _CODE_AT_START[0]:
        print("warning: the archive's code changed while the benchmark ran; its incremental "
              "builds render every page again", file=sys.stderr, flush=True)
    _CODE_AT_START[:] = _CODE_AT_START or [now]
    pipeline.code_fingerprint.cache_clear()
    pipeline.rendering_sources.cache_clear()
    drawn.drawing_fingerprint.cache_clear()
    drawn.drawing_sources.cache_clear()
    pipeline._renderer = None


@dataclass
class Runs:
    """The repeats of one measure: each run's value and the load it began at."""

    values: list[float] = field(default_factory=list)
    loads: list[float] = field(default_factory=list)

    def add(self, value: float, load: float) -> None:
        self.values.append(value)
        self.loads.append(load)

    def spread(self, fmt: str = ".2f") -> str:
        """median (min–max) over the repeats."""
        v = sorted(self.values)
        if len(v) == 1:
            return format(v[0], fmt)
        return (f"{format(statistics.median(v), fmt)} "
                f"({format(v[0], fmt)}–{format(v[-1], fmt)})")

    def load(self) -> str:
        return f"load {min(self.loads):.1f}–{max(self.loads):.1f}"


#: the full builds each side makes, in their order within a repeat: pbem reading the
#: tables kept, Pelican without a cache, pbem drawing every table, Pelican with its cache
PBEM_SIDES = {"pbem": False, "pbem --redraw": True}
PELICAN_SIDES = {"Pelican": False, "Pelican cached": True}
#: the ratios printed: (pbem side, Pelican side)
RATIOS = [("pbem", "Pelican"), ("pbem", "Pelican cached"), ("pbem --redraw", "Pelican")]


def full_builds(work: Path, counts: list[int], repeats: int, python: Path | None,
                progress, redraw: bool = True) -> tuple[dict[str, Runs], BuildReport,
                                                        list[Path]]:
    """Full builds of pbem and Pelican on each of ``counts`` processes, n against n,
    interleaved (pbem, Pelican, pbem --redraw, Pelican cached) ``repeats`` times; the
    pages of the last."""
    runs: dict[str, Runs] = {}
    pelicans: dict[int, Pelican] = {}
    report = None
    sides = PBEM_SIDES if redraw else {"pbem": False}
    for repeat in range(repeats):
        for n in counts:
            for (ours, redrawn), (theirs, cached) in zip(sides.items(), PELICAN_SIDES.items(),
                                                         strict=False):
                folder = work / f"site-{n}"
                shutil.rmtree(folder, ignore_errors=True)
                print(f"Full build {repeat + 1}/{repeats}, {ours}, {n} process(es) ...",
                      file=sys.stderr, flush=True)
                cold_caches()
                report, took = timed_build(folder, full=True, progress=progress, jobs=n,
                                           redraw=redrawn)
                pages = report.rendered_games
                add_run(runs, f"{ours} {n}", pages, took, len(report.written))
                runs.setdefault(f"{ours} drawn {n}", Runs()).add(report.drawn_games, took.load)
                if python is None:
                    continue
                if n not in pelicans:
                    pelicans[n] = Pelican(python, sorted((folder / "games").glob("*.md")),
                                          work, n)
                    print(f"Pelican, {n} process(es), a first run to fill its cache ...",
                          file=sys.stderr, flush=True)
                    pelicans[n].full(cached=True)
                print(f"Full build {repeat + 1}/{repeats}, {theirs}, {n} process(es) ...",
                      file=sys.stderr, flush=True)
                took = pelicans[n].full(cached=cached)
                add_run(runs, f"{theirs} {n}", pages, took, pelicans[n].files())
    assert report is not None
    for n in counts:
        for ours, theirs in RATIOS:
            if f"{ours} {n}" not in runs or f"{theirs} {n}" not in runs:
                continue
            for by in ("", "cpu "):
                mine, other = runs[f"{ours} {by}{n}"], runs[f"{theirs} {by}{n}"]
                # pages a second: ours over theirs; CPU a page: theirs over ours
                pairs = zip(mine.values, other.values, strict=True)
                runs[f"ratio {by}{ours}/{theirs} {n}"] = Runs(
                    [a / b if not by else b / a for a, b in pairs], mine.loads)
    return runs, report, sorted((work / f"site-{counts[-1]}" / "games").glob("*.md"))


def add_run(runs: dict[str, Runs], side: str, pages: int, took: Timed, files: int) -> None:
    """One full build of ``side`` (its name and processes): pages a second, CPU
    milliseconds a page, files a page."""
    name, n = side.rsplit(" ", 1)
    runs.setdefault(f"{name} {n}", Runs()).add(pages / took.seconds, took.load)
    runs.setdefault(f"{name} cpu {n}", Runs()).add(1000 * took.cpu / pages, took.load)
    runs.setdefault(f"{name} files {n}", Runs()).add(files / pages, took.load)


def keep_tables(work: Path, jobs: int, progress) -> tuple[Timed, int, int]:
    """The games' tables drawn and kept as the builds at each game's end leave them in
    production (one untimed build here, into a folder of its own): its time, and the games
    kept with their bytes in the table."""
    print("Drawing and keeping every game's tables, as at each game's end ...",
          file=sys.stderr, flush=True)
    cold_caches()
    _report, took = timed_build(work / "site-kept", full=True, progress=progress, jobs=jobs)
    shutil.rmtree(work / "site-kept", ignore_errors=True)
    games, size = db.execute(RoundsDrawn.select(
        pw.fn.COUNT(RoundsDrawn.game), pw.fn.SUM(pw.fn.LENGTH(RoundsDrawn.tables)))).fetchone()
    return took, games, size or 0


def incremental_builds(site: Path, jobs: int, repeats: int, first: int, pool: list[Player],
                       rng: random.Random, pelican: Pelican | None) -> tuple[Runs, Runs,
                                                                           BuildReport]:
    """``repeats`` times one more finished game, brought up to date by pbem, then by
    Pelican with its cache (the same page added to its cached pages)."""
    ours, theirs = Runs(), Runs()
    report = None
    for repeat in range(repeats):
        pages = set((site / "games").glob("*.md"))
        add_game(first + repeat, pool, all_games(), rng)
        cold_caches()
        report, took = timed_build(site, jobs=jobs)
        ours.add(took.seconds, took.load)
        if pelican is not None:
            new_page = sorted(set((site / "games").glob("*.md")) - pages)[0]
            cached = pelican.cached(new_page)
            theirs.add(cached.seconds, cached.load)
    assert report is not None
    return ours, theirs, report


def main() -> None:
    keep_freed_memory()  # this process builds as ``pbem archive build`` would (pbem.heap)
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--played", type=int, default=1000,
                        help="games played to their end; the others are copies of them")
    parser.add_argument("--players", type=int, default=300, help="named players in the pool")
    parser.add_argument("--repeats", type=int, default=3, help="runs of each measure")
    parser.add_argument("--jobs", type=int, default=default_jobs(),
                        help="processes of the parallel full build (default: one per CPU)")
    parser.add_argument("--no-full", action="store_true",
                        help="one full build (in --jobs processes) to start from, no "
                             "comparison of full builds")
    parser.add_argument("--keep", type=Path, default=None,
                        help="build here and keep the database and the sites")
    parser.add_argument("--pelican-python", type=Path, default=None,
                        help="an interpreter that has Pelican (default: install it into a "
                             "cached environment of the benchmark's own)")
    parser.add_argument("--no-pelican", action="store_true", help="skip the Pelican baseline")
    args = parser.parse_args()
    started = time.perf_counter()
    python, source = (None, "--no-pelican") if args.no_pelican else \
        pelican_python(args.pelican_python)

    compile_pbem()
    work = args.keep or Path(tempfile.mkdtemp(prefix="pbem-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    try:
        database = work / "bench.db"
        for old in work.glob("bench.db*"):
            old.unlink()
        open_database(f"sqlite:///{database}")
        create_tables()
        rng = random.Random(20240101)
        print(f"Seeding {args.games} finished games into {database} ...", file=sys.stderr)
        pool = seed_database(args.games, args.players, rng, args.played)

        def progress(stage: str, done: int, total: int) -> None:
            if stage == "games" and (done % 1000 == 0 or done == total):
                print(f"  rendered {done}/{total} games", file=sys.stderr, flush=True)

        creating = file_cost(work)
        full_python = None if args.no_full else python
        kept = None if args.no_full else keep_tables(work, args.jobs, progress)
        runs, report, pages = full_builds(
            work, [args.jobs] if args.no_full else sorted({1, args.jobs}),
            1 if args.no_full else args.repeats, full_python, progress,
            redraw=not args.no_full)
        print()
        copies = max(0, args.games - args.played)  # fewer games than --played: all played
        if kept is not None:
            took, games, size = kept
            print(f"tables kept: {games:,} games, {size / max(1, games) / 1024:.1f} KiB a game "
                  f"in the database ({size / 2**20:.1f} MiB); drawing and keeping them took "
                  f"a full build in {args.jobs} process(es) {took.seconds:.1f} s "
                  f"({1000 * took.cpu / max(1, games):.1f} ms CPU a game, load "
                  f"{took.load:.1f}), untimed")
        print(f"full build of {report.games:,} finished games ({copies:,} "
              f"of them copies; {len(report.written):,} files, {report.rendered_indexes:,} "
              "index pages); median (min–max) of "
              f"{args.repeats if not args.no_full else 1} interleaved runs")
        print_full(runs, args.jobs)
        if python is not None and args.no_full:
            print("  Pelican: not run (--no-full)")
        elif python is None:
            print(f"  Pelican: skipped: {source}")

        pelican = None
        if python is not None:
            print("Pelican, first run with its cache ...", file=sys.stderr, flush=True)
            pelican = Pelican(python, pages, work, 1)
            first = pelican.cached()
        ours, theirs, inc = incremental_builds(work / f"site-{args.jobs}", args.jobs,
                                               args.repeats, args.games, pool, rng, pelican)
        print(f"one new game at {args.games:,} archived games, brought up to date "
              f"({args.repeats} times, a game more each time)")
        print(f"  pbem incremental build:   {ours.spread()} s  (target: at most 1 s; "
              f"{ours.load()}; the last one read {inc.read_games} game from the database, "
              f"rendered {inc.rendered_games} game page and {inc.rendered_indexes} index "
              f"pages, wrote {len(inc.written)} files)")
        if pelican is not None:
            print(f"  Pelican with its cache:   {theirs.spread()} s  ({theirs.load()}; the "
                  f"same new page added to its cached pages; its first cached run: "
                  f"{first.seconds:.2f} s)")
            ratios = Runs([t / o for t, o in zip(theirs.values, ours.values, strict=True)],
                          ours.loads)
            print(f"  ratio Pelican / pbem: {ratios.spread('.1f')}")
            print(f"  (baseline: {source})")
        after = file_cost(work)
        print(f"  creating a file in {work}: {creating:,.0f} µs before the builds, "
              f"{after:,.0f} µs after{files_share(runs, args.jobs, (creating + after) / 2)}")
        print(f"  benchmark run: {time.perf_counter() - started:.0f} s in all")
    finally:
        db.close()
        if args.keep is None:
            shutil.rmtree(work, ignore_errors=True)


def print_full(runs: dict[str, Runs], jobs: int) -> None:
    for n in sorted({1, jobs}):
        for side in [*PBEM_SIDES, *PELICAN_SIDES]:
            if f"{side} {n}" not in runs:
                continue
            mine = runs[f"{side} {n}"]
            drawn_games = runs.get(f"{side} drawn {n}")
            drew = "" if drawn_games is None else \
                f", {statistics.median(drawn_games.values):.0f} drawn"
            parts = "" if n == 1 or side.startswith("pbem") else \
                f"; {n} Pelicans at once, each over 1/{n} of the pages"
            print(f"  {side}, {n} process(es):".ljust(34)
                  + f"{mine.spread('.1f')} pages/s, "
                  f"{runs[f'{side} cpu {n}'].spread('.1f')} ms CPU a page "
                  f"({runs[f'{side} files {n}'].spread('.1f')} files a page{drew}; "
                  f"{mine.load()}{parts})")
        for ours, theirs in RATIOS:
            if f"ratio {ours}/{theirs} {n}" not in runs:
                continue
            print(f"  ratio {ours} / {theirs}, {n} against {n}: "
                  f"{runs[f'ratio {ours}/{theirs} {n}'].spread()} by pages a second, "
                  f"{runs[f'ratio cpu {ours}/{theirs} {n}'].spread()} by CPU a page"
                  "  (target: at least 2)")


def files_share(runs: dict[str, Runs], jobs: int, micros: float) -> str:
    """What making its files takes of each one's game page at ``micros`` a file: a build
    of pbem makes some twenty files a game page (its pictures), Pelican about one, so
    the disk of the day weighs on the ratio (``file_cost``)."""
    n = 1 if "pbem files 1" in runs else jobs
    if f"pbem files {n}" not in runs:
        return ""
    ours = statistics.median(runs[f"pbem files {n}"].values) * micros / 1000
    text = f"; at {micros:,.0f} µs, a game page's files take pbem {ours:.1f} ms"
    if f"Pelican files {n}" in runs:
        theirs = statistics.median(runs[f"Pelican files {n}"].values) * micros / 1000
        text += f", Pelican {theirs:.1f} ms"
    return text


if __name__ == "__main__":
    main()
