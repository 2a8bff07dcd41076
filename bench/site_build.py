"""Benchmark of the archive build, with Pelican on the same Markdown as the baseline.

    python bench/site_build.py                 # 10,000 finished games
    python bench/site_build.py --games 1000    # a quicker look

From one run it prints

* **full build**: game pages per second for a build of N finished games into
  an empty folder, in one process and with one process per CPU (at most 8, as
  ``pbem build-site`` does), against Pelican rendering the very Markdown of
  those N game pages (with its default theme and its own indexes, one
  process, no cache), and the ratio of each to Pelican;
* **incremental build**: the seconds to bring the N-game archive up to date
  after one more game has finished, against Pelican bringing its N-page site
  up to date after the same one page is added, with its content cache (each
  page's parsed Markdown, from a first cached run over the N pages): both
  are the other's best way of doing the same small change.

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
(no network), the baseline is skipped, saying why.

The games are random legal games of every registered game (2 to 6 players,
named players and bots), written straight into a fresh SQLite database.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
import venv
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

import markdown

from pbem.archive import BuildReport, build, default_jobs, pipeline
from pbem.archive.sample import add_finished_game, add_player
from pbem.games import all_games
from pbem.models import Player, create_tables, db, open_database

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


def seed_database(games: int, players: int, rng: random.Random) -> list[Player]:
    pool = [add_player(f"Player {i + 1}", email=f"player{i + 1}@example.org")
            for i in range(players)]
    kinds = all_games()
    started = time.perf_counter()
    for batch in range(0, games, 100):
        with db.atomic():  # one transaction per hundred games
            for n in range(batch, min(games, batch + 100)):
                add_game(n, pool, kinds, rng)
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
    finished = START + timedelta(hours=5 * n + rng.randint(0, 4))
    add_finished_game(game.name, seats, seed=n, finished_at=finished)


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


def run_pelican(python: Path, settings: dict) -> Timed:
    """The seconds of one Pelican run (in its own interpreter, not counting its imports)."""
    load = os.getloadavg()[0]
    out = subprocess.run([str(python), "-c", PELICAN_RUNNER, json.dumps(settings)],
                         check=True, capture_output=True, text=True)
    seconds, cpu = json.loads(out.stdout.strip().splitlines()[-1])
    return Timed(seconds, cpu, load)


@dataclass
class PelicanResult:
    pages: int
    full: Timed
    cached_first: Timed
    incremental: Timed


def pelican_baseline(pages: list[Path], new_page: Path, work: Path,
                     python: Path) -> PelicanResult:
    """Pelican over ``pages`` (a full run; then a first and a second cached run, the
    second after ``new_page`` is added)."""
    content = work / "pelican-content"
    for folder in ("pelican-content", "pelican-output", "pelican-cached", "pelican-cache"):
        shutil.rmtree(work / folder, ignore_errors=True)
    content.mkdir()
    for page in pages:
        pelican_page(page, content)
    full = run_pelican(python, pelican_settings(content, work / "pelican-output", None))
    cached = pelican_settings(content, work / "pelican-cached", work / "pelican-cache")
    first = run_pelican(python, cached)
    pelican_page(new_page, content)
    incremental = run_pelican(python, cached)
    return PelicanResult(len(pages), full, first, incremental)


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


def cold_caches() -> None:
    """Empty what a build keeps in its process, as a new ``pbem build-site`` would find it."""
    pipeline.code_fingerprint.cache_clear()
    pipeline.rendering_sources.cache_clear()
    pipeline._renderer = None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--players", type=int, default=300, help="named players in the pool")
    parser.add_argument("--jobs", type=int, default=default_jobs(),
                        help="processes of the parallel full build (default: one per CPU)")
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
        pool = seed_database(args.games, args.players, rng)

        def progress(stage: str, done: int, total: int) -> None:
            if stage == "games" and (done % 1000 == 0 or done == total):
                print(f"  rendered {done}/{total} games", file=sys.stderr, flush=True)

        creating = file_cost(work)
        builds: dict[int, tuple[BuildReport, Timed]] = {}
        for jobs in sorted({1, args.jobs}):
            folder = work / f"site-{jobs}"
            shutil.rmtree(folder, ignore_errors=True)
            print(f"Full build, {jobs} process(es) ...", file=sys.stderr, flush=True)
            cold_caches()
            builds[jobs] = timed_build(folder, full=True, progress=progress, jobs=jobs)
        site = work / f"site-{args.jobs}"
        parallel, parallel_time = builds[args.jobs]
        single, single_time = builds[1]
        pages = sorted((site / "games").glob("*.md"))

        add_game(args.games, pool, all_games(), rng)
        cold_caches()
        incremental, incremental_time = timed_build(site, jobs=args.jobs)
        new_pages = sorted(set((site / "games").glob("*.md")) - set(pages))

        pelican = None
        if python is not None:
            print("Pelican ...", file=sys.stderr, flush=True)
            pelican = pelican_baseline(pages, new_pages[0], work, python)

        def rate(report: BuildReport) -> float:
            return report.rendered_games / report.seconds

        print()
        print(f"full build of {parallel.games:,} finished games ({len(parallel.written):,} files, "
              f"{parallel.rendered_indexes:,} of them index pages)")
        print(f"  pbem, 1 process:          {single.seconds:8.2f} s  {rate(single):8,.1f} pages/s"
              f"  ({single_time.note()})")
        if args.jobs > 1:
            print(f"  pbem, {args.jobs} processes:        {parallel.seconds:8.2f} s  "
                  f"{rate(parallel):8,.1f} pages/s  ({parallel_time.note()})")
        if pelican is None:
            print(f"  Pelican: skipped: {source}")
        else:
            pelican_rate = pelican.pages / pelican.full.seconds
            print(f"  Pelican, 1 process:       {pelican.full.seconds:8.2f} s  "
                  f"{pelican_rate:8,.1f} pages/s  ({pelican.full.note()}; {pelican.pages:,} "
                  "game pages, its default theme and its indexes)")
            if args.jobs > 1:
                print(f"  ratio pbem ({args.jobs} processes) / Pelican: "
                      f"{rate(parallel) / pelican_rate:.2f}  (target: at least 2)")
            print(f"  ratio pbem (1 process) / Pelican: {rate(single) / pelican_rate:.2f}")
            print(f"  CPU per page: pbem {1000 * single_time.cpu / single.rendered_games:.1f} ms "
                  f"(1 process), {1000 * parallel_time.cpu / parallel.rendered_games:.1f} ms "
                  f"({args.jobs} processes); Pelican "
                  f"{1000 * pelican.full.cpu / pelican.pages:.1f} ms")
        print(f"one new game at {args.games:,} archived games, brought up to date")
        print(f"  pbem incremental build:   {incremental.seconds:8.2f} s  (target: at most 1 s; "
              f"{incremental_time.note()}; read {incremental.read_games} game from the "
              f"database, rendered {incremental.rendered_games} game page and "
              f"{incremental.rendered_indexes} index pages, wrote {len(incremental.written)} "
              "files)")
        if pelican is not None:
            print(f"  Pelican with its cache:   {pelican.incremental.seconds:8.2f} s  "
                  f"({pelican.incremental.note()}; the same new page added to its "
                  f"{pelican.pages:,} cached pages; its first cached run: "
                  f"{pelican.cached_first.seconds:.2f} s)")
            print(f"  ratio Pelican / pbem: "
                  f"{pelican.incremental.seconds / incremental.seconds:,.1f}")
            print(f"  (baseline: {source})")
        print(f"  creating a file in {work}: {creating:,.0f} µs before the builds, "
              f"{file_cost(work):,.0f} µs after")
        print(f"  benchmark run: {time.perf_counter() - started:.0f} s in all")
    finally:
        db.close()
        if args.keep is None:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
