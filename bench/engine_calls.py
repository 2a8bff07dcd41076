"""The games' engine calls of ``bench/move_latency.py``'s click, in one process.

``move_latency.py`` prints the engines' share of a click over HTTP (the server times
every public method of each game's ``Rules``: ``load_app.time_engines``).  This script
makes the same games (``move_latency.templates``: the same seeds, the click where it
begins another seat's turn) and the same clicks (confirm page, POST, seat page, each on
a fresh copy of its game) through pbem's app in this process (Flask's test client,
SQLite), records each outermost engine call the click makes (its method, its
arguments, its seconds, which of the three requests made it), and prints per game and
method:

* **app, first**: the call's microseconds within the app at the first click of each
  game (its tables never drawn before in this process; other games' pieces were);
* **app, again**: the same at the later clicks of the same game (what the server's
  clicks of the bench mostly are: every click meets one of a few positions);
* **replay, fresh**: the recorded call made again alone, after every picture cache and
  every cache of the games' modules is forgotten (a process's first table);
* **replay, warm**: the recorded call made again alone, many times in a row (what a
  tool that times a method in a loop measures);
* **replay, evicted** (``--evict MB``): the same, each time after reading that much
  memory, so that the processor's caches hold none of what the call reads.

The gap between the app's figures and the warm replays' is what the surroundings cost
the engines, not their own work: at the bench's clicks every piece of a picture is
kept already (its table was drawn at the clicks before), and a call made after the
request's other work (the web's, the database's) finds its code and data out of the
processor's caches.  ``--evict 64`` brings the replays up to the app's figures and
past them; a small call suffers most (Tallinn's ``together``: 2 us warm, 17 in the
app).

    python bench/engine_calls.py                       # every game, 3 games each
    python bench/engine_calls.py --kinds riga --clicks 8 --profile seat
"""

from __future__ import annotations

import argparse
import cProfile
import functools
import pstats
import shutil
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

from load_app import wrap_engines  # noqa: E402
from move_latency import (  # noqa: E402
    Template,
    copy_with_threads,
    template_arguments,
    templates,
)

from pbem.context import Context, make_context  # noqa: E402
from pbem.games import svg as svg_module  # noqa: E402
from pbem.mail import compose  # noqa: E402
from pbem.models import Seat, create_tables, db, open_database  # noqa: E402
from pbem.web import create_app  # noqa: E402

PHASES = ("confirm", "POST", "seat")


@dataclass
class Call:
    """One outermost engine call a click made."""

    kind: str
    phase: str
    method: str
    bound: Any
    args: tuple[Any, ...]
    kwargs: dict[str, Any]
    seconds: float
    first: bool
    #: which click made it (a number for the whole run)
    click: int


class Recorder:
    """Wraps every public method of each registered game's ``Rules`` (as
    ``load_app.time_engines`` does) and records the outermost calls."""

    def __init__(self) -> None:
        self.calls: list[Call] = []
        self.depth = 0
        self.phase = ""
        self.kind = ""
        self.first = False
        self.click = 0
        self.profile: cProfile.Profile | None = None
        self.profile_phase = ""
        self.profile_kind = ""
        wrap_engines(self._wrapped)

    def _wrapped(self, kind: str, name: str, method: Any) -> Any:
        def timed(*args: Any, **kwargs: Any) -> Any:
            depth = self.depth
            self.depth = depth + 1
            profiling = (depth == 0 and self.profile is not None
                         and self.phase == self.profile_phase and kind == self.profile_kind)
            if profiling:
                self.profile.enable()
            started = time.perf_counter()
            try:
                return method(*args, **kwargs)
            finally:
                seconds = time.perf_counter() - started
                if profiling:
                    self.profile.disable()
                self.depth = depth
                if depth == 0 and self.phase:  # not the click's set-up (its turn mail)
                    self.calls.append(Call(kind, self.phase, name, method, args, kwargs,
                                           seconds, self.first, self.click))
        return timed


def click(ctx: Context, client: Any, recorder: Recorder, t: Template, first: bool) -> None:
    """``move_latency.click`` through the test client."""
    game = copy_with_threads(ctx, t.game_id)
    seat = Seat.get(Seat.game == game, Seat.index == t.seat)
    with db.atomic():
        compose.queue_turn(ctx, game, seat, Seat.of(game), game.state)
    path = urlsplit(compose.move_url(ctx, game, seat, t.move)).path
    recorder.kind, recorder.first = t.kind, first
    recorder.click += 1
    recorder.phase = "confirm"
    page = client.get(path)
    if page.status_code != 200:
        raise SystemExit(f"confirm page of {t.kind}: {page.status_code}")
    token = page.text.split('name="csrf_token" value="', 1)[1].split('"', 1)[0]
    recorder.phase = "POST"
    played = client.post(path, data={"csrf_token": token})
    if played.status_code != 303:
        raise SystemExit(f"POST of {t.kind}: {played.status_code}")
    recorder.phase = "seat"
    seat_page = client.get(urlsplit(played.headers["Location"]).path)
    if seat_page.status_code != 200:
        raise SystemExit(f"seat page of {t.kind}: {seat_page.status_code}")
    recorder.phase = ""


def forget_everything() -> None:
    """Every picture cache (``svg.forget``) and every ``functools`` cache of the games'
    modules: as a fresh process."""
    svg_module.forget()
    for name, module in list(sys.modules.items()):
        if name.startswith("pbem.games"):
            for thing in list(vars(module).values()):
                if isinstance(thing, functools._lru_cache_wrapper):
                    thing.cache_clear()


class Evictor:
    """Reads ``megabytes`` of memory spread over many objects: the processor's caches
    then hold none of what an engine call reads, as after a request's other work."""

    def __init__(self, megabytes: int) -> None:
        self.rows = [list(range(i, i + 64)) for i in range(megabytes * 1024 * 1024 // 600)]

    def __call__(self) -> int:
        return sum(row[0] + row[-1] for row in self.rows)


def replay(call: Call, times: int, evict: Evictor | None) -> tuple[float, float, float]:
    """The call made alone: its seconds after ``forget_everything``, its median seconds
    made ``times`` times in a row, and (with ``evict``) its median seconds made
    ``times`` times, each after ``evict`` (0.0 without)."""
    forget_everything()
    started = time.perf_counter()
    call.bound(*call.args, **call.kwargs)
    fresh = time.perf_counter() - started
    warm, evicted = [], []
    for _ in range(times):
        started = time.perf_counter()
        call.bound(*call.args, **call.kwargs)
        warm.append(time.perf_counter() - started)
        if evict is not None:
            evict()
            started = time.perf_counter()
            call.bound(*call.args, **call.kwargs)
            evicted.append(time.perf_counter() - started)
    return fresh, statistics.median(warm), statistics.median(evicted) if evicted else 0.0


def report(calls: list[Call], replays: dict[int, tuple[float, float, float]],
           evicted: bool) -> None:
    print("\nmicroseconds per click: the median over clicks of the sum of a method's calls "
          "in the request (replay: the recorded calls of the later clicks made again)")
    print(f"  {'game':<8} {'request':<8} {'method':<16} {'calls':>5} {'app first':>10} "
          f"{'app again':>10} {'replay fresh':>13} {'replay warm':>12}"
          + (f" {'replay evicted':>15}" if evicted else ""))
    clicks: dict[tuple[str, bool], set[int]] = defaultdict(set)
    for c in calls:
        clicks[c.kind, c.first].add(c.click)
    # sums per click, by (game, request, method) and by what is summed
    sums: dict[tuple[str, str, str], dict[str, dict[int, float]]] = defaultdict(
        lambda: defaultdict(lambda: defaultdict(float)))
    for c in calls:
        mine = sums[c.kind, c.phase, c.method]
        if c.first:
            mine["app first"][c.click] += c.seconds
        else:
            mine["app again"][c.click] += c.seconds
            fresh, warm, cold = replays[id(c)]
            mine["replay fresh"][c.click] += fresh
            mine["replay warm"][c.click] += warm
            mine["replay evicted"][c.click] += cold
    labels: tuple[str, ...] = ("app first", "app again", "replay fresh", "replay warm")
    if evicted:
        labels += ("replay evicted",)
    totals: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    for (kind, phase, method), mine in sorted(
            sums.items(), key=lambda kv: (kv[0][0], PHASES.index(kv[0][1]), kv[0][2])):
        n = sum(1 for c in calls if (c.kind, c.phase, c.method) == (kind, phase, method))
        per = n / sum(len(clicks[kind, first]) for first in (True, False))
        cells = []
        for label in labels:
            first = label == "app first"
            # a click that made no such call counts as 0
            values = [mine[label].get(i, 0.0) for i in clicks[kind, first]]
            median = statistics.median(values) if values else 0.0
            totals[kind][label] += median
            cells.append(f"{median * 1e6:{len(label)}.0f}")
        print(f"  {kind:<8} {phase:<8} {method:<16} {per:5.1f} " + " ".join(cells))
    print("\n  per click, every method (sums of the medians above), microseconds:")
    for kind, cols in sorted(totals.items()):
        print(f"    {kind:<8} " + ", ".join(f"{label} {cols[label] * 1e6:.0f}"
                                            for label in labels))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog=__doc__.split("\n\n", 1)[1])
    template_arguments(parser, games=3)
    parser.add_argument("--clicks", type=int, default=6,
                        help="clicks of each game, the first a table never drawn (6)")
    parser.add_argument("--replays", type=int, default=30,
                        help="warm replays of each recorded call (30)")
    parser.add_argument("--evict", type=int, default=0, metavar="MB",
                        help="replay each call after reading MB of memory too (0: not)")
    parser.add_argument("--profile", choices=PHASES, default=None,
                        help="cProfile the engine calls of this request at the later "
                             "clicks of the first game kind")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="pbem-engine-calls-"))
    try:
        big = "1000000"
        ctx = make_context(server={"instance": str(folder / "instance"),
                                   "base_url": "http://bench.test"},
                           database={"url": f"sqlite:///{folder / 'pbem.db'}"},
                           archive={"site_dir": str(folder / "site")},
                           limits={"games_per_creator": big, "invitations_per_creator": big,
                                   "games_per_client": big, "invitations_per_invitee": big})
        open_database(ctx.config.database_url)
        create_tables()
        games = templates(ctx, args)
        print(", ".join(f"{t.kind} at {t.seq}" for t in games), flush=True)
        recorder = Recorder()
        client = create_app(ctx).test_client()
        client.get("/")  # the app's first page: templates compiled
        forget_everything()
        recorder.calls.clear()
        if args.profile:
            recorder.profile = cProfile.Profile()
            recorder.profile_phase, recorder.profile_kind = args.profile, args.kinds[0]
        for round_ in range(args.clicks):
            for t in games:
                click(ctx, client, recorder, t, first=round_ == 0)
        calls = list(recorder.calls)
        evict = Evictor(args.evict) if args.evict else None
        replays = {id(c): replay(c, args.replays, evict) for c in calls if not c.first}
        report(calls, replays, evict is not None)
        if recorder.profile is not None:
            print(f"\nprofile: {args.kinds[0]}'s {args.profile} request's engine calls")
            pstats.Stats(recorder.profile).sort_stats("tottime").print_stats(25)
        db.close()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
