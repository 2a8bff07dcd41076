"""The instructions of ``bench/move_latency.py``'s click in one process, and its pages.

Three steps, the first made once, the others run against any code (the old and the
new, each from its own tree, on copies of the same prepared database):

``prepare DIR``  plays the games of ``move_latency.templates`` (``--kinds``, ``--games``,
                 ``--at``) in a SQLite database in DIR and copies each ``--rounds``
                 times, each copy with the turn mail whose link is clicked written as
                 the tick writes it (``move_latency.click`` does the same, timed apart);
                 the clicks' addresses and a clock an hour on go to DIR/clicks.json
``run DIR``      makes the clicks through Flask's test client in this process (confirm
                 page, POST, seat page; ``--floor``: the floor click of ``load_app``
                 in place of each), on a copy of the database: the first round
                 warms the process (templates compiled, pieces of pictures kept), the
                 others are counted.  Under ``valgrind --tool=callgrind
                 --instr-atstart=no`` only the counted requests are measured (a client
                 request from a small C library built with gcc), and a dump is made
                 after each request, named by it: ``summary`` adds them up by request
                 (``--profile FILE``: cProfile over the counted requests instead)
``pages DIR OUT`` the same clicks under DIR's frozen clock, every page and the POST's
                 answer written to OUT (the browser's random CSRF value replaced by a
                 mark): two trees' OUT compared with ``diff -r``
``summary FILES`` the instructions of a callgrind run's dumps by request, a click's
                 and per click

    python bench/click_instructions.py prepare /tmp/clicks
    valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file=/tmp/cg.%p \\
        python bench/click_instructions.py run /tmp/clicks
    python bench/click_instructions.py summary /tmp/cg.1234*
"""

from __future__ import annotations

import argparse
import cProfile
import ctypes
import json
import re
import shutil
import subprocess
import sys
import tempfile
from collections import defaultdict
from datetime import timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

from move_latency import copy_with_threads, template_arguments, templates  # noqa: E402

from pbem.context import Context, make_context  # noqa: E402
from pbem.mail import compose  # noqa: E402
from pbem.models import Seat, create_tables, db, open_database, utcnow  # noqa: E402

PHASES = ("confirm", "POST", "seat")
_CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')

_SHIM = r"""
#include <valgrind/callgrind.h>
void cg_start(void) { CALLGRIND_START_INSTRUMENTATION; }
void cg_stop(void) { CALLGRIND_STOP_INSTRUMENTATION; }
void cg_zero(void) { CALLGRIND_ZERO_STATS; }
void cg_dump(const char *name) { CALLGRIND_DUMP_STATS_AT(name); }
"""


class Callgrind:
    """Callgrind's client requests (no-ops outside valgrind), from a library gcc builds."""

    def __init__(self, folder: Path) -> None:
        source, library = folder / "cg.c", folder / "cg.so"
        source.write_text(_SHIM)
        subprocess.run(["gcc", "-O1", "-shared", "-fPIC", "-o", str(library), str(source)],
                       check=True)
        self.lib = ctypes.CDLL(str(library))
        self.lib.cg_dump.argtypes = [ctypes.c_char_p]

    def start(self) -> None:
        self.lib.cg_zero()
        self.lib.cg_start()

    def dump(self, name: str) -> None:
        self.lib.cg_dump(name.encode())

    def stop(self) -> None:
        self.lib.cg_stop()


def context(folder: Path, database: Path) -> Context:
    big = "1000000"
    return make_context(server={"instance": str(folder / "instance"),
                                "base_url": "http://bench.test"},
                        database={"url": f"sqlite:///{database}"},
                        archive={"site_dir": str(folder / "site")},
                        limits={"games_per_creator": big, "invitations_per_creator": big,
                                "games_per_client": big, "invitations_per_invitee": big})


def prepare(args: argparse.Namespace) -> None:
    folder = Path(args.dir)
    folder.mkdir(parents=True, exist_ok=True)
    ctx = context(folder, folder / "pbem.db")
    open_database(ctx.config.database_url)
    create_tables()
    games = templates(ctx, args)
    clicks = []
    for round_ in range(args.rounds):
        for t in games:
            game = copy_with_threads(ctx, t.game_id)
            seat = Seat.get(Seat.game == game, Seat.index == t.seat)
            with db.atomic():
                compose.queue_turn(ctx, game, seat, Seat.of(game), game.state)
            path = urlsplit(compose.move_url(ctx, game, seat, t.move)).path
            clicks.append({"kind": t.kind, "round": round_, "path": path})
    db.execute_sql("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    frozen = (utcnow() + timedelta(hours=1)).replace(microsecond=0)
    (folder / "clicks.json").write_text(json.dumps(
        {"frozen": frozen.isoformat(), "clicks": clicks}, indent=1))
    print(f"{len(clicks)} clicks: " + ", ".join(f"{t.kind} at {t.seq}" for t in games))


def _clicks(args: argparse.Namespace, work: Path, before: Any, after: Any) -> None:
    """Every prepared click through the test client, on a copy of the database;
    ``before(phase, click)`` and ``after(phase, click, answer)`` around each request."""
    from pbem.web import create_app

    folder = Path(args.dir)
    prepared = json.loads((folder / "clicks.json").read_text())
    for old in work.glob("pbem.db*"):  # a run before's copy, its log beside it
        old.unlink()
    shutil.copy(folder / "pbem.db", work / "pbem.db")
    ctx = context(work, work / "pbem.db")
    open_database(ctx.config.database_url)
    app = create_app(ctx)
    if getattr(args, "floor", False):  # the floor click of load_app, in place of each click
        from load_app import FLOOR_PATH, BenchRow, floor

        app.register_blueprint(floor)
        BenchRow.create_table()
        first = BenchRow.create(value=1)
    client = app.test_client()

    def request(phase: str, c: dict[str, Any], want: int, method: Any, path: str,
                **kwargs: Any) -> Any:
        before(phase, c)
        answer = method(path, **kwargs)
        after(phase, c, answer)
        if answer.status_code != want:
            raise SystemExit(f"{phase} of {c['kind']}: {answer.status_code}")
        return answer

    for c in prepared["clicks"] if getattr(args, "floor", False) else ():
        request("confirm", c, 200, client.get, f"{FLOOR_PATH}/{first.id}")
        played = request("POST", c, 303, client.post, FLOOR_PATH)
        request("seat", c, 200, client.get, urlsplit(played.headers["Location"]).path)
    for c in prepared["clicks"] if not getattr(args, "floor", False) else ():
        path = c["path"]
        page = request("confirm", c, 200, client.get, path)
        token = _CSRF.search(page.text)
        if token is None:
            raise SystemExit(f"the confirm page of {c['kind']} has no form")
        played = request("POST", c, 303, client.post, path,
                         data={"csrf_token": token.group(1)})
        request("seat", c, 200, client.get, urlsplit(played.headers["Location"]).path)
    db.close()


def run(args: argparse.Namespace) -> None:
    work = Path(tempfile.mkdtemp(prefix="pbem-click-instr-"))
    try:
        grind = Callgrind(work)
        profile = cProfile.Profile() if args.profile else None
        counted = [0]
        now = {"counted": False}
        if args.templates:  # only Flask's ``_render``: the context's update, Jinja's render
            import flask.templating

            render = flask.templating._render

            def measured_render(*a: Any, **k: Any) -> Any:
                if not now["counted"]:
                    return render(*a, **k)
                grind.lib.cg_start()
                try:
                    return render(*a, **k)
                finally:
                    grind.stop()

            flask.templating._render = measured_render

        def before(_phase: str, c: dict[str, Any]) -> None:
            now["counted"] = c["round"] > 0  # the first round warms the process
            if now["counted"]:
                grind.lib.cg_zero()
                if not args.templates:
                    grind.start()
                if profile is not None:
                    profile.enable()

        def after(phase: str, c: dict[str, Any], _answer: Any) -> None:
            if c["round"] > 0:
                if profile is not None:
                    profile.disable()
                if not args.templates:
                    grind.stop()
                grind.dump(f"{phase} {c['kind']}")
                counted[0] += phase == "seat"

        _clicks(args, work, before, after)
        print(f"{counted[0]} clicks counted", file=sys.stderr)
        if profile is not None:
            profile.dump_stats(args.profile)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def timed(args: argparse.Namespace) -> None:
    """The counted requests' CPU in this process, and of it the templates' (Flask's
    ``_render``: the context's update, the signals, Jinja's render)."""
    import time

    import flask.templating

    work = Path(tempfile.mkdtemp(prefix="pbem-click-time-"))
    spent: dict[str, list[float]] = defaultdict(list)
    rendered: dict[str, list[float]] = defaultdict(list)
    now = {"phase": "", "at": 0.0, "render": 0.0}
    render = flask.templating._render

    def timed_render(*a: Any, **k: Any) -> Any:
        started = time.thread_time()
        try:
            return render(*a, **k)
        finally:
            now["render"] += time.thread_time() - started

    flask.templating._render = timed_render

    def before(_phase: str, _c: dict[str, Any]) -> None:
        now["render"] = 0.0
        now["at"] = time.thread_time()

    def after(phase: str, c: dict[str, Any], _answer: Any) -> None:
        if c["round"] > 0:
            spent[phase].append(time.thread_time() - now["at"])
            rendered[phase].append(now["render"])

    try:
        for _ in range(args.times):
            _clicks(args, work, before, after)
    finally:
        flask.templating._render = render
        shutil.rmtree(work, ignore_errors=True)
    n = len(spent["seat"])
    import statistics

    print(f"{n} clicks, CPU µs a request, median (of it the templates'):")
    for phase in PHASES:
        print(f"  {phase:<8} {statistics.median(spent[phase]) * 1e6:7.0f} "
              f"({statistics.median(rendered[phase]) * 1e6:5.0f})")
    whole = sum(sum(v) for v in spent.values()) / n
    templates_ = sum(sum(v) for v in rendered.values()) / n
    print(f"  a click, mean: {whole * 1e6:.0f} µs, templates {templates_ * 1e6:.0f} µs "
          f"({templates_ / whole:.0%})")


def pages(args: argparse.Namespace) -> None:
    from freezegun import freeze_time

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    frozen = json.loads((Path(args.dir) / "clicks.json").read_text())["frozen"]
    work = Path(tempfile.mkdtemp(prefix="pbem-click-pages-"))
    n = {"i": 0}

    def after(phase: str, c: dict[str, Any], answer: Any) -> None:
        text = answer.get_data(as_text=True)
        token = _CSRF.search(text)
        if token is not None:
            text = text.replace(token.group(1), "CSRF")
        headers = "".join(f"{k}: {v}\n" for k, v in answer.headers.items()
                          if k.lower() != "set-cookie" or not v.startswith("pbem="))
        name = f"{n['i']:03d}-{c['kind']}-{phase}.html"
        (out / name).write_text(f"{answer.status}\n{headers}\n{text}")
        n["i"] += phase == "seat"

    try:
        with freeze_time(frozen, tick=False):
            _clicks(args, work, lambda *_: None, after)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"{n['i']} clicks' pages in {out}")


def summary(args: argparse.Namespace) -> None:
    by_phase: dict[str, int] = defaultdict(int)
    n = 0
    for name in args.files:
        text = Path(name).read_text(errors="replace")
        desc = re.search(r"^desc: Trigger: Client Request: (\S+) (\S+)", text, re.M)
        total = re.search(r"^totals: (\d+)", text, re.M)
        if desc is None or total is None:
            continue
        by_phase[desc.group(1)] += int(total.group(1))
        n += desc.group(1) == "seat"
    if not n:
        raise SystemExit("no dumps of counted clicks")
    whole = sum(by_phase.values())
    print(f"{n} clicks: {whole / n / 1e6:.2f} M instructions a click ("
          + ", ".join(f"{p} {by_phase[p] / n / 1e6:.2f} M" for p in PHASES) + ")")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog=__doc__.split("\n\n", 1)[1])
    steps = parser.add_subparsers(dest="step", required=True)
    p = steps.add_parser("prepare")
    p.add_argument("dir")
    template_arguments(p, games=1)
    p.add_argument("--rounds", type=int, default=5,
                   help="clicks of each game, the first warming the process (5)")
    r = steps.add_parser("run")
    r.add_argument("dir")
    r.add_argument("--profile", metavar="FILE", help="cProfile the counted requests to FILE")
    r.add_argument("--floor", action="store_true",
                   help="make load_app's floor click in place of each click (its GET, "
                        "POST and the GET it redirects to)")
    r.add_argument("--templates", action="store_true",
                   help="count the templates' instructions alone (Flask's _render)")
    t = steps.add_parser("time")
    t.add_argument("dir")
    t.add_argument("--times", type=int, default=3, help="runs of the clicks (3)")
    t.add_argument("--floor", action="store_true", help="the floor click in place of each")
    g = steps.add_parser("pages")
    g.add_argument("dir")
    g.add_argument("out")
    s = steps.add_parser("summary")
    s.add_argument("files", nargs="+")
    args = parser.parse_args()
    steps_ = {"prepare": prepare, "run": run, "time": timed, "pages": pages, "summary": summary}
    steps_[args.step](args)


if __name__ == "__main__":
    main()
