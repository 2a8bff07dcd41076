"""Benchmark of the archive build, with Pelican on the same Markdown as the baseline.

    python bench/site_build.py                 # 10,000 finished games
    python bench/site_build.py --games 1000    # a quicker look

From one run it prints games per second for

* a full build of N finished games into an empty folder, in one process (as
  Pelican works) and with one process per CPU (as ``pbem build-site`` does),
* an incremental build after one more game has finished (the archive then
  holds N + 1 games: each is checked, one is rendered, the indexes it is in
  are written again),
* Pelican rendering the very Markdown pages of the full build (the game
  pages, with Pelican's own indexes) into its default theme,

and the ratio of the first to the last.  Pelican is for the benchmark only,
never a dependency of pbem: the script installs it (pinned, with the same
Markdown version as pbem's) once into a virtual environment of its own under
the user's cache folder, and runs it there in a subprocess; ``--pelican-python``
names an interpreter that has Pelican instead, ``--no-pelican`` skips the
baseline.  If the install fails (no network), the baseline is skipped, saying why.

The games are random legal games of every registered game (2 to 6 players,
named players and bots), written straight into a fresh SQLite database.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
import venv
from datetime import datetime, timedelta
from pathlib import Path

import markdown

from pbem.archive import build, default_jobs
from pbem.archive.sample import add_finished_game, add_player
from pbem.games import all_games
from pbem.models import Player, create_tables, db, open_database

START = datetime(2020, 1, 1)
#: the baseline's version, pinned so that runs stay comparable; change it here
PELICAN = "pelican==4.12.0"

#: run in the Pelican interpreter: settings (JSON) in argv, its seconds (JSON) out
PELICAN_RUNNER = """
import contextlib, io, json, logging, sys, time
from pelican import Pelican
from pelican.settings import read_settings
settings = read_settings(override=json.loads(sys.argv[1]))
logging.getLogger("pelican").setLevel(logging.ERROR)
started = time.perf_counter()
with contextlib.redirect_stdout(io.StringIO()):  # its summary line, not ours
    Pelican(settings).run()
print(json.dumps(time.perf_counter() - started))
"""


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


def pelican_baseline(site: Path, work: Path, python: Path) -> tuple[int, float]:
    """Pelican over the game pages' Markdown: (pages, seconds of its run)."""
    content = work / "pelican-content"
    output = work / "pelican-output"
    shutil.rmtree(content, ignore_errors=True)
    shutil.rmtree(output, ignore_errors=True)
    content.mkdir()
    pages = 0
    for page in sorted((site / "games").glob("*.md")):
        text = page.read_text(encoding="utf-8")
        title = text.split("\n", 1)[0].lstrip("# ")
        # Pelican wants its metadata on top; the page itself is unchanged
        (content / page.name).write_text(
            f"Title: {title}\nDate: 2024-01-01 00:00\nSlug: game-{page.stem}\n\n{text}",
            encoding="utf-8")
        pages += 1
    settings = {
        "PATH": str(content),
        "OUTPUT_PATH": str(output),
        "SITEURL": "",
        "RELATIVE_URLS": True,
        "TIMEZONE": "UTC",
        "FEED_DOMAIN": "http://bench.invalid",
        "DEFAULT_PAGINATION": 50,
        "LOAD_CONTENT_CACHE": False,
        "CACHE_CONTENT": False,
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
    out = subprocess.run([str(python), "-c", PELICAN_RUNNER, json.dumps(settings)],
                         check=True, capture_output=True, text=True)
    return pages, float(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--players", type=int, default=300, help="named players in the pool")
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
        database.unlink(missing_ok=True)
        open_database(f"sqlite:///{database}")
        create_tables()
        rng = random.Random(20240101)
        print(f"Seeding {args.games} finished games into {database} ...", file=sys.stderr)
        pool = seed_database(args.games, args.players, rng)
        site = work / "site"
        shutil.rmtree(site, ignore_errors=True)

        def progress(stage: str, done: int, total: int) -> None:
            if stage == "games" and (done % 1000 == 0 or done == total):
                print(f"  rendered {done}/{total} games", file=sys.stderr, flush=True)

        full = build(site, full=True, progress=progress, jobs=1)
        full_rate = full.rendered_games / full.seconds
        jobs = default_jobs()
        parallel = None
        if jobs > 1:
            other = work / "site-parallel"
            shutil.rmtree(other, ignore_errors=True)
            parallel = build(other, full=True, progress=progress, jobs=jobs)

        add_game(args.games, pool, all_games(), rng)
        incremental = build(site)
        incremental_rate = incremental.games / incremental.seconds

        print()
        print(f"archive of {full.games} finished games ({len(full.written)} files)")
        print(f"  full build, 1 process:   {full.seconds:8.2f} s  {full_rate:10,.1f} games/s")
        if parallel is not None:
            print(f"  full build, {jobs} processes: {parallel.seconds:8.2f} s  "
                  f"{parallel.rendered_games / parallel.seconds:10,.1f} games/s")
        print(f"  incremental build:       {incremental.seconds:8.2f} s  "
              f"{incremental_rate:10,.1f} games/s  (after one new game: "
              f"{incremental.games} checked, {incremental.rendered_games} rendered, "
              f"{len(incremental.written)} files written)")
        if python is None:
            print(f"  Pelican baseline: skipped: {source}")
        else:
            pages, seconds = pelican_baseline(site, work, python)
            pelican_rate = pages / seconds
            print(f"  Pelican, same Markdown:  {seconds:8.2f} s  {pelican_rate:10,.1f} games/s  "
                  f"({pages} game pages, its default theme and indexes, 1 process)")
            print(f"  ratio full build (1 process) / Pelican: {full_rate / pelican_rate:.2f}")
            if parallel is not None:
                rate = parallel.rendered_games / parallel.seconds
                print(f"  ratio full build ({jobs} processes) / Pelican: "
                      f"{rate / pelican_rate:.2f}")
            print(f"  ratio incremental build / Pelican: {incremental_rate / pelican_rate:,.1f}")
            print(f"  (baseline: {source})")
        print(f"  benchmark run: {time.perf_counter() - started:.0f} s in all")
    finally:
        db.close()
        if args.keep is None:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
