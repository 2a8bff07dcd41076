"""Clicks under load on a real server, against the floor click in runs of its own.

For each server and database asked for, runs of two kinds, interleaved (click,
floor, floor, click, …; ``--runs`` of each), on one server:

* a real server on loopback: ``gunicorn`` with 4 sync workers (or ``pbem serve``,
  the threaded development server), serving pbem's app plus the bench-only routes
  of ``bench/load_app.py``;
* SQLite (WAL) in a temporary folder, or PostgreSQL on 127.0.0.1 (a scratch
  database the bench creates and drops, or ``--postgres-url``);
* 32 clients (``--clients``), each a process of its own (so that no client waits
  for another's GIL; the two cores are shared by clients, server and database);
* a **click run**: each client plays its own Visby games for two humans (made up
  front) back to back like a player at a browser: the latest turn mail of a seat
  (read from the outbox, where the server queued it) gives the move links; GET the
  confirm page, POST its form with the CSRF token, follow the redirect to the seat
  page; and again.  A link the server refuses (a decision that is over, a card
  already played) is counted and the next one tried; when a mail has no playable
  link left, the seat page's form plays;
* beside the server, the tick's compose step in a process of its own, run every
  0.1 s (the scheduler's is a minute): a click queues the next turn mail addressed
  only, and the step writes its body (``pbem.mail.later``), which a client waits for
  before it reads the mail's links, as a player waits for the mail; its work shares
  the machine with the server in both kinds of run (in a floor run it finds nothing);
* a **floor run**: the same clients at the same concurrency make floor clicks
  (``load_app``): GET a page that reads one row and renders pbem's base template,
  POST that inserts and commits one row, GET the page it redirects to.

The floor's p99 is its own, at the same concurrency: never measured inside a server
saturated by the path it is compared with. At saturation a p99 follows the CPU a click
costs the machine, so each run also prints that, per click made: the server's workers,
the compose step and the clients (which share the two cores here though a player's
browser and mail client do not: they look for a mail with one prepared statement, not
a query built each time, which had cost them twice the server's CPU). It prints p50
and p99 of the whole click (its three requests) and of each request, for each run; the
ratio of the click's p99 to the floor's (per pair of runs, min/median/max; target at
most 2x), refusals, 5xx answers and tracebacks in the server's log, and whether a move
was applied twice. Every request is a connection of its own (``Connection: close``).

``--double-click`` plays every move link with two POSTs of the same confirm form
at the same moment (one browser, one cookie, two connections) and prints how
many moves were applied twice (the same link twice in the move log) and how
many 5xx answers came back: both must be 0.  It has no floor runs.

    python bench/load.py                              # gunicorn, SQLite and PostgreSQL
    python bench/load.py --database sqlite --moves 20 --runs 3
    python bench/load.py --server both                # and pbem serve
    python bench/load.py --double-click               # 1,000 double clicks per DB
    python bench/load.py --postgres-url postgresql://postgres@127.0.0.1/scratch
      (a scratch database: pbem's tables in it are dropped and created)

gunicorn is not a dependency of pbem: the bench installs it into this environment (``pip
install gunicorn``) when it is missing. The servers run without the scheduler (nothing
here is due but the turn mails' bodies, which the compose process above writes; the
clients read mails from the outbox). Every loop is bounded in count and in time; the
servers, the client processes, the temporary folder and a scratch database the bench
created are removed at the end, also after an error or Ctrl-C.
"""

from __future__ import annotations

import argparse
import functools
import html
import http.client
import importlib.util
import math
import multiprocessing as mp
import os
import queue
import random
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlsplit

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
LOOPBACK = "127.0.0.1"
WORKERS = 4
#: player moves a client counts on per game (a 2-player Visby game has about 60 moves)
MOVES_PER_GAME = 35
#: seconds a server may take to answer /healthz after its start
START_SECONDS = 60
#: one request's time limit
REQUEST_SECONDS = 60
#: the floor click's routes (``load_app.FLOOR_PATH``)
FLOOR_PATH = "/bench-floor"
#: how often the compose step looks for turn mails to write when it found none, and how
#: long a client waits for one
COMPOSE_SECONDS = 0.1
MAIL_WAIT_SECONDS = 60

SERVERS = {"gunicorn": f"gunicorn, {WORKERS} sync workers", "serve": "pbem serve (threaded)"}
DATABASES = {"sqlite": "SQLite (WAL)", "postgresql": "PostgreSQL"}


# -- the servers ------------------------------------------------------------------


def ensure_gunicorn() -> None:
    if importlib.util.find_spec("gunicorn") is None:
        print("installing gunicorn into this environment (for the bench only) ...", flush=True)
        subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "gunicorn"],
                       check=True)


def free_port() -> int:
    with socket.socket() as s:
        s.bind((LOOPBACK, 0))
        return s.getsockname()[1]


def check_loopback(url: str) -> None:
    host = urlsplit(url).hostname or ""
    if host not in ("127.0.0.1", "localhost", "::1"):
        raise SystemExit(f"only loopback databases, not {host!r}")


@dataclass
class Server:
    kind: str
    port: int
    env: dict[str, str]
    folder: Path
    process: subprocess.Popen | None = None
    workers: int = WORKERS

    @property
    def log_path(self) -> Path:
        return self.folder / f"{self.kind}-{self.port}.log"

    def command(self) -> list[str]:
        if self.kind == "gunicorn":
            return [sys.executable, "-m", "gunicorn", "--workers", str(self.workers),
                    "--bind", f"{LOOPBACK}:{self.port}", "--pythonpath", str(BENCH),
                    "--timeout", "120", "--log-level", "warning", "load_app:build_app()"]
        return [sys.executable, str(BENCH / "load_app.py"), "serve",
                "--host", LOOPBACK, "--port", str(self.port)]

    def start(self) -> None:
        with open(self.log_path, "wb") as log:
            # a session of its own: stopping it stops its workers, and Ctrl-C in the
            # terminal reaches only the bench, which then stops it
            self.process = subprocess.Popen(self.command(), cwd=self.folder, env=self.env,
                                            stdout=log, stderr=subprocess.STDOUT,
                                            start_new_session=True)
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"{self.kind} exited at start:\n{self.log_tail()}")
            try:
                conn = http.client.HTTPConnection(LOOPBACK, self.port, timeout=5)
                conn.request("GET", "/healthz")
                if conn.getresponse().status == 200:
                    conn.close()
                    return
                conn.close()
            except OSError:
                pass
            time.sleep(0.2)
        raise RuntimeError(f"{self.kind} did not answer in {START_SECONDS} s:\n{self.log_tail()}")

    def stop(self) -> None:
        process = self.process
        if process is None or process.poll() is not None:
            return
        with suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            with suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait(15)

    def log_tail(self, lines: int = 40) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""

    def tracebacks(self) -> tuple[int, str]:
        """How many tracebacks the server logged, and the first one."""
        try:
            text = self.log_path.read_text(errors="replace")
        except OSError:
            return 0, ""
        count = text.count("Traceback (most recent")
        first = ""
        if count:
            start = text.rfind("\n", 0, text.index("Traceback (most recent")) + 1
            first = "\n".join(text[start:].splitlines()[:60])
        return count, first


@contextmanager
def running(server: Server):
    try:
        server.start()
        yield server
    finally:
        server.stop()


# -- the databases ------------------------------------------------------------------


@contextmanager
def scratch_postgres(url: str | None):
    """A PostgreSQL URL to use: ``url`` as given, or a database made now and dropped after."""
    if url:
        check_loopback(url)
        yield url
        return
    import psycopg2

    name = f"pbem_bench_load_{os.getpid()}"
    admin = psycopg2.connect(host=LOOPBACK, port=5432, user="postgres", dbname="postgres")
    admin.autocommit = True
    try:
        with admin.cursor() as cur:
            cur.execute(f'DROP DATABASE IF EXISTS "{name}"')
            cur.execute(f'CREATE DATABASE "{name}"')
        yield f"postgresql://postgres@{LOOPBACK}:5432/{name}"
    finally:
        with admin.cursor() as cur:
            cur.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.close()


def server_env(database_url: str, port: int, folder: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("PBEM_") and k != "DATABASE_URL"}
    env.update({
        "PBEM_CONFIG": str(folder / "no-config.ini"),
        "PBEM_DATABASE_URL": database_url,
        "PBEM_SERVER_BASE_URL": f"http://{LOOPBACK}:{port}",
        "PBEM_SERVER_INSTANCE": str(folder / "instance"),
        "PBEM_ARCHIVE_SITE_DIR": str(folder / "site"),
        "PBEM_SCHEDULER_ENABLED": "false",
        "PYTHONUNBUFFERED": "1",
    })
    return env


@dataclass
class Table:
    """The games of one client: both seats are its own, so it always has a move."""

    games: list[int]
    players: list[int]  # seat 0, seat 1


def prepare(database_url: str, port: int, folder: Path, clients: int,
            games_each: int) -> list[Table]:
    """Fresh tables (pbem's and the bare route's) and every client's games."""
    from load_app import BenchRow

    from pbem.context import make_context
    from pbem.lifecycle import create
    from pbem.models import Game, Seat, create_tables, db, drop_tables, open_database, utcnow

    big = "1000000"
    ctx = make_context(server={"instance": str(folder / "instance"),
                               "base_url": f"http://{LOOPBACK}:{port}"},
                       database={"url": database_url},
                       archive={"site_dir": str(folder / "site")},
                       limits={"games_per_creator": big, "invitations_per_creator": big,
                               "games_per_client": big, "invitations_per_invitee": big})
    open_database(database_url)
    drop_tables()
    db.drop_tables([BenchRow], safe=True)
    create_tables()
    db.create_tables([BenchRow], safe=True)
    BenchRow.create(value=1)  # the row the floor's GET reads
    tables = []
    for c in range(clients):
        people = [create.get_or_create_player(f"{who}{c}@bench.example.org", f"{who}{c}",
                                              quiet_start="00:00", quiet_end="00:00",
                                              confirmed_at=utcnow())
                  for who in ("alice", "bob")]
        games = []
        for _ in range(games_each):
            game = create.create_game(ctx, "visby", people[0], [people[1].email])
            create.accept_invite(ctx, game, Seat.get(Seat.game == game, Seat.index == 1),
                                 people[1])
            assert Game.get_by_id(game.id).status == Game.ACTIVE
            games.append(game.id)
        tables.append(Table(games, [p.id for p in people]))
    db.close_all()  # the client processes open their own
    return tables


def applied_twice() -> int:
    """Moves in the log played from the same link (game, seat, turn, menu, move) twice."""
    import peewee as pw

    from pbem.models import Move

    twice = (Move.select(Move.game, Move.seat, Move.turn_seq, Move.menu_seq, Move.move)
             .where(Move.kind == Move.PLAYER)
             .group_by(Move.game, Move.seat, Move.turn_seq, Move.menu_seq, Move.move)
             .having(pw.fn.COUNT(Move.id) > 1))
    return twice.count()


def player_moves() -> int:
    from pbem.models import Move

    return Move.select().where(Move.kind == Move.PLAYER).count()


# -- a client ---------------------------------------------------------------------


@dataclass
class Answer:
    status: int
    location: str | None
    text: str
    seconds: float
    started: float = 0.0  # time.perf_counter() when the request began
    #: SQL statements the server sent for it (``load_app``'s ``X-Bench-Statements``)
    statements: int = 0
    #: seconds the server spent in the games' engines for it (``X-Bench-Engine``)
    engine: float = 0.0
    #: the server's CPU seconds for it, the garbage collector's seconds in it (of them,
    #: inside the engines), its collections of generations 0, 1, 2 (``X-Bench-GC``)
    gc: tuple[float, ...] = (0.0, 0.0, 0.0, 0, 0, 0)


class Browser:
    """One browser: its cookie (the session with the CSRF secret), a connection per request."""

    def __init__(self, port: int):
        self.port = port
        self.cookies: dict[str, str] = {}
        self.lock = threading.Lock()

    def request(self, method: str, path: str, form: dict[str, str] | None = None) -> Answer:
        headers = {"Connection": "close"}
        with self.lock:
            if self.cookies:
                headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if form is not None:
            body = urlencode(form)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        started = time.perf_counter()
        conn = http.client.HTTPConnection(LOOPBACK, self.port, timeout=REQUEST_SECONDS)
        try:
            conn.request(method, path, body=body, headers=headers)
            response = conn.getresponse()
            data = response.read()
        finally:
            conn.close()
        seconds = time.perf_counter() - started
        with self.lock:
            for cookie in response.headers.get_all("Set-Cookie") or []:
                name, _, rest = cookie.partition("=")
                value = rest.split(";", 1)[0]
                if value:
                    self.cookies[name.strip()] = value
                else:
                    self.cookies.pop(name.strip(), None)
        return Answer(response.status, response.getheader("Location"),
                      data.decode("utf-8", "replace"), seconds, started,
                      int(response.getheader("X-Bench-Statements") or 0),
                      float(response.getheader("X-Bench-Engine") or 0),
                      tuple(float(x) for x in (response.getheader("X-Bench-GC")
                                               or "0 0 0 0 0 0").split()))


_CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')
_REASON = re.compile(r'data-reason="([^"]+)"')
_PLAY_FORM = re.compile(r'<form method="post" action="([^"]+/play)"[^>]*>(.*?)</form>', re.S)
_INPUT = re.compile(r'<input type="hidden" name="([^"]+)" value="([^"]*)"')


@dataclass
class Plan:
    index: int
    port: int
    database_url: str
    table: Table
    moves: int
    warmup: int
    seconds: float
    double: bool
    seed: int
    #: "click" (move links), or "floor" (the floor click); double clicks are clicks
    mode: str = "click"


@dataclass
class Tally:
    times: dict[str, list[float]] = field(default_factory=dict)
    statuses: Counter = field(default_factory=Counter)  # (what, status)
    refused: Counter = field(default_factory=Counter)  # reason of a refused link
    pairs: Counter = field(default_factory=Counter)  # double clicks by their two statuses
    overlapping: int = 0  # double clicks whose two POSTs were in flight at the same time
    moves: int = 0
    #: clicks (or floor clicks) made, the untimed first ones included, and this client's
    #: own CPU seconds while it made them
    made: int = 0
    cpu: float = 0.0
    errors: list[str] = field(default_factory=list)
    finished: bool = False
    #: the timed requests' server CPU seconds, collector seconds and collections of
    #: generations 0, 1, 2 summed (``X-Bench-GC``), their count, the longest collection
    collector: list[float] = field(default_factory=lambda: [0.0] * 5)
    requests: int = 0
    longest_collection: float = 0.0


class Client:
    def __init__(self, plan: Plan):
        self.plan = plan
        self.rng = random.Random(plan.seed)
        self.browser = Browser(plan.port)
        self.base = f"http://{LOOPBACK}:{plan.port}"
        self.links = re.compile(re.escape(self.base) + r"(/m/[A-Za-z0-9_.\-]+)")
        self.seat_link = re.compile(re.escape(self.base) + r"(/s/[A-Za-z0-9_.\-]+)")
        self.tally = Tally()
        self.games = list(plan.table.games)
        self.dead_mails: set[int] = set()
        self.dead_links: set[str] = set()
        self.timing = False

    # what was answered
    def note(self, what: str, answer: Answer) -> Answer:
        self.tally.statuses[(what, answer.status)] += 1
        if self.timing:
            self.tally.times.setdefault(what, []).append(answer.seconds)
            cpu, collecting, _, *made = answer.gc
            for i, value in enumerate((cpu, collecting, *made)):
                self.tally.collector[i] += value
            self.tally.requests += 1
            self.tally.longest_collection = max(self.tally.longest_collection, collecting)
        if (answer.status >= 500 or answer.status == 0) and len(self.tally.errors) < 3:
            title = re.search(r"<title>(.*?)</title>", answer.text, re.S)
            self.tally.errors.append(f"{what} {answer.status}: "
                                     f"{title.group(1) if title else answer.text[:200]}")
        return answer

    def get(self, what: str, path: str) -> Answer:
        return self.note(what, self.browser.request("GET", path))

    def post(self, what: str, path: str, form: dict[str, str] | None = None) -> Answer:
        return self.note(what, self.browser.request("POST", path, form or {}))

    # the mails
    def latest_mails(self, game_id: int) -> list[tuple[int, str]]:
        """Each seat's latest turn mail, once the tick wrote it (a click's mails are
        addressed only until then: ``pbem.mail.later``); waits for it a while, as a
        player waits for the mail.

        The look is a prepared statement (``pbem.sqlcache``), not a peewee query built
        each time: a player's mail client is not on the server's machine, and building
        the query cost the clients twice the server's CPU a click (their polls)."""
        for _ in range(int(MAIL_WAIT_SECONDS / 0.05)):
            mails, waiting = [], False
            for player in self.plan.table.players:
                mail = _latest_turn_mail().first(game_id, player)
                if mail is not None and not mail.composed:
                    waiting = True
                elif mail is not None and mail.id not in self.dead_mails:
                    mails.append((mail.id, mail.text_body))
            if mails or not waiting:
                return mails
            time.sleep(0.05)
        raise RuntimeError(f"client {self.plan.index}: no turn mail written in "
                           f"{MAIL_WAIT_SECONDS} s")

    def game_over(self, game_id: int) -> bool:
        from pbem.models import Game

        return Game.select(Game.status).where(Game.id == game_id).scalar() != Game.ACTIVE

    def refused(self, answer: Answer) -> str:
        match = _REASON.search(answer.text)
        reason = match.group(1) if match else f"status {answer.status}"
        self.tally.refused[reason] += 1
        return reason

    # one move
    def play_one(self) -> bool:
        """Play one move of the client's current game (the next game when it ends)."""
        for _ in range(60):
            if not self.games:
                return False
            game_id = self.games[0]
            mails = self.latest_mails(game_id)
            candidates = [(mail_id, path) for mail_id, text in mails
                          for path in self.links.findall(text) if path not in self.dead_links]
            self.rng.shuffle(candidates)
            for mail_id, path in candidates:
                if mail_id in self.dead_mails:
                    continue
                page = self.get("confirm GET", path)
                if page.status == 200:
                    self.dead_links.add(path)
                    if self.confirm(mail_id, path, _CSRF.search(page.text).group(1),
                                    page.seconds):
                        return True
                    continue
                reason = self.refused(page)
                if reason == "stale":
                    self.dead_mails.add(mail_id)
                elif reason == "not-active":
                    break
                else:
                    self.dead_links.add(path)
            else:
                # no link of the latest mails plays: the seat page's menu does
                for mail_id, text in mails:
                    if mail_id not in self.dead_mails and self.seat_move(mail_id, text):
                        return True
            if self.game_over(game_id):
                self.games.pop(0)
        raise RuntimeError(f"client {self.plan.index}: no playable move found")

    def confirm(self, mail_id: int, path: str, csrf: str, shown: float) -> bool:
        """POST the confirm form (twice at once with ``double``); whether the move played.

        ``shown``: the seconds the confirm page took, counted into the whole click."""
        form = {"csrf_token": csrf}
        if not self.plan.double:
            answer = self.post("move POST", path, form)
            if answer.status != 303:
                self.refused(answer)
                return False
            page = self.follow(mail_id, answer)
            if self.timing and page.status == 200:
                self.tally.times.setdefault("click", []).append(
                    shown + answer.seconds + page.seconds)
            return True
        answers: list[Answer | None] = [None, None]
        barrier = threading.Barrier(2)

        def click(i: int) -> None:
            try:
                barrier.wait(REQUEST_SECONDS)
                answers[i] = self.browser.request("POST", path, form)
            except Exception as exc:  # noqa: BLE001 - counted below
                answers[i] = Answer(0, None, repr(exc), 0.0)

        threads = [threading.Thread(target=click, args=(i,)) for i in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(REQUEST_SECONDS * 2)
        got = [a if a is not None else Answer(0, None, "no answer", 0.0) for a in answers]
        for answer in got:
            self.note("double-click POST", answer)
        self.tally.pairs[tuple(sorted(a.status for a in got))] += 1
        if max(a.started for a in got) < min(a.started + a.seconds for a in got):
            self.tally.overlapping += 1
        for answer in got:
            if answer.status != 303:
                self.refused(answer)
        winner = next((a for a in got if a.status == 303), None)
        if winner is not None:
            self.follow(mail_id, winner)
        return winner is not None

    def follow(self, mail_id: int, answer: Answer) -> Answer:
        """The seat page the move redirects to; without a menu on it, the seat's turn
        is over, and so is the mail's (a player does not click it again)."""
        page = self.get("redirect GET (seat page)", urlsplit(answer.location or "/").path)
        if page.status == 200 and not _PLAY_FORM.search(page.text):
            self.dead_mails.add(mail_id)
        return page

    def floor_one(self) -> bool:
        """One floor click: the page of a row, the POST that writes one, its redirect."""
        shown = self.get("floor GET", f"{FLOOR_PATH}/1")
        answer = self.post("floor POST", FLOOR_PATH)
        if shown.status != 200 or answer.status != 303:
            return False
        page = self.get("floor redirect GET", urlsplit(answer.location or "/").path)
        if self.timing and page.status == 200:
            self.tally.times.setdefault("floor click", []).append(
                shown.seconds + answer.seconds + page.seconds)
        return page.status == 200

    def seat_move(self, mail_id: int, text: str) -> bool:
        match = self.seat_link.search(text)
        if match is None:
            return False
        page = self.get("seat page GET", match.group(1))
        forms = _PLAY_FORM.findall(page.text) if page.status == 200 else []
        if not forms:
            self.dead_mails.add(mail_id)
            return False
        action, inner = self.rng.choice(forms)
        fields = {name: html.unescape(value) for name, value in _INPUT.findall(inner)}
        answer = self.post("seat form POST", html.unescape(action), fields)
        if answer.status == 303:
            self.follow(mail_id, answer)
            return True
        self.refused(answer)
        return False

    def run(self, start: Any) -> Tally:
        from pbem.models import db, open_database

        open_database(self.plan.database_url)
        db.connect(reuse_if_open=True)
        start.wait(START_SECONDS * 2)
        began = time.process_time()  # this client's own CPU (user and system)
        deadline = time.monotonic() + self.plan.seconds
        total = self.plan.warmup + self.plan.moves
        try:
            for i in range(total):
                if time.monotonic() > deadline:
                    break
                self.timing = i >= self.plan.warmup
                if self.plan.mode == "floor":
                    if not self.floor_one():
                        self.tally.errors.append(f"client {self.plan.index}: floor failed")
                        break
                elif not self.play_one():
                    self.tally.errors.append(f"client {self.plan.index}: out of games")
                    break
                self.tally.made += 1
                if self.timing:
                    self.tally.moves += 1
            else:
                self.tally.finished = True
        except Exception as exc:  # noqa: BLE001 - reported with what was measured
            self.tally.errors.append(f"client {self.plan.index}: {exc!r}")
        self.tally.cpu = time.process_time() - began
        db.close()
        return self.tally


@functools.cache
def _latest_turn_mail() -> Any:
    """A player's latest turn mail in a game (its id, text and whether it is written), as
    a prepared statement: made in the client's process, after pbem is imported there."""
    from pbem.models import Outbox
    from pbem.sqlcache import Prepared

    return Prepared(Outbox, lambda game_id, player_id: (
        Outbox.select(Outbox.id, Outbox.text_body, Outbox.composed)
        .where(Outbox.game == game_id, Outbox.player == player_id, Outbox.kind == "turn")
        .order_by(Outbox.id.desc()).limit(1)), 2)


def tree_cpu(pid: int) -> float:
    """CPU seconds (user and system) of process ``pid`` and all its descendants now
    alive, from /proc (0 where there is none: the figure is then not printed)."""
    parents: dict[int, int] = {}
    ticks: dict[int, int] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(entry.name)] = int(fields[1])
        ticks[int(entry.name)] = int(fields[11]) + int(fields[12])
    wanted, total = {pid}, 0
    while wanted:
        total += sum(ticks.get(p, 0) for p in wanted)
        wanted = {child for child, parent in parents.items() if parent in wanted}
    return total / os.sysconf("SC_CLK_TCK")


def composer_main(database_url: str, folder: Path, port: int, stop: Any) -> None:
    """The tick's compose step (``pbem.mail.later``), run every ``COMPOSE_SECONDS`` beside
    the server as the scheduler runs it (whose minute would keep each client waiting a
    minute per mail): the turn mails' bodies the clicks left to it are work of the
    server's machine too, under the same load."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    from pbem.context import make_context
    from pbem.heap import keep_freed_memory
    from pbem.mail import later
    from pbem.models import db, open_database

    # as the ``pbem`` command keeps it for the scheduler and ``pbem tick`` (``pbem.heap``):
    # without it every token a mail signs sets zlib up in memory mapped anew (71 us
    # against 9 us a token here), which no deployed compose step pays
    keep_freed_memory()

    ctx = make_context(server={"instance": str(folder / "instance"),
                               "base_url": f"http://{LOOPBACK}:{port}"},
                       database={"url": database_url},
                       archive={"site_dir": str(folder / "site")})
    open_database(database_url)
    while not stop.is_set():
        if not later.finish_due(ctx):
            stop.wait(COMPOSE_SECONDS)
    db.close()


@contextmanager
def composing(database_url: str, folder: Path, port: int):
    """The compose step in a process of its own while the block runs."""
    context = mp.get_context("fork")
    stop = context.Event()
    process = context.Process(target=composer_main, args=(database_url, folder, port, stop))
    process.start()
    try:
        yield process
    finally:
        stop.set()
        process.join(START_SECONDS)
        if process.is_alive():
            process.kill()


def client_main(plan: Plan, ready: Any, start: Any, results: Any) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the bench stops its clients itself
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    try:
        client = Client(plan)
        ready.put(plan.index)
        tally = client.run(start)
    except Exception as exc:  # noqa: BLE001 - reported by the bench
        tally = Tally(errors=[f"client {plan.index}: {exc!r}"])
    results.put((plan.index, tally))


def drive(plans: list[Plan], seconds: float) -> list[Tally]:
    """Run the clients, each a process, started at the same moment; their tallies."""
    context = mp.get_context("fork")
    ready, results, start = context.Queue(), context.Queue(), context.Event()
    processes = [context.Process(target=client_main, args=(plan, ready, start, results),
                                 daemon=True) for plan in plans]
    tallies: dict[int, Tally] = {}
    try:
        for p in processes:
            p.start()
        deadline = time.monotonic() + START_SECONDS
        for _ in plans:
            ready.get(timeout=max(0.1, deadline - time.monotonic()))
        start.set()
        deadline = time.monotonic() + seconds + REQUEST_SECONDS * 2 + 30
        while len(tallies) < len(plans):
            try:
                index, tally = results.get(timeout=max(0.1, deadline - time.monotonic()))
            except queue.Empty:
                break
            tallies[index] = tally
    finally:
        for p in processes:
            if p.is_alive():
                p.terminate()
        for p in processes:
            p.join(10)
    missing = [i for i in range(len(plans)) if i not in tallies]
    if missing:
        raise RuntimeError(f"clients {missing} did not report in time")
    return [tallies[i] for i in range(len(plans))]


# -- one run and its numbers -----------------------------------------------------------


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]


@dataclass
class Run:
    """One run of the clients: its kind ("click", "floor" or "double"), its tallies."""

    mode: str
    seconds: float
    tallies: list[Tally]
    #: CPU seconds of the server (its workers), and of the compose step, in the run
    server_cpu: float = 0.0
    compose_cpu: float = 0.0

    @property
    def made(self) -> int:
        return sum(t.made for t in self.tallies)

    def cpu_line(self) -> str:
        """Where the machine's CPU went, per click made: what the clients spend (reading
        mails, parsing pages) shares the cores with the server in this bench, though a
        player's browser is elsewhere."""
        if not self.made:
            return ""
        per = 1000 / self.made
        clients = sum(t.cpu for t in self.tallies)
        return (f"CPU a click made ({self.made}): server {self.server_cpu * per:.1f} ms, "
                f"compose step {self.compose_cpu * per:.1f} ms, clients {clients * per:.1f} ms")

    def collector_line(self) -> str:
        """The garbage collector in the server's workers, over the timed requests."""
        n = sum(t.requests for t in self.tallies)
        if not n:
            return ""
        total = [sum(t.collector[i] for t in self.tallies) for i in range(5)]
        return (f"collector over {n} timed requests: CPU {total[1] / max(total[0], 1e-9):.1%} of "
                f"their server CPU ({total[1] * 1000 / n:.3f} ms a request), collections "
                f"gen0 {total[2]:.0f}, gen1 {total[3]:.0f}, gen2 {total[4]:.0f}, the longest "
                f"{max(t.longest_collection for t in self.tallies) * 1000:.2f} ms of CPU")

    def times(self, what: str) -> list[float]:
        return [t for tally in self.tallies for t in tally.times.get(what, [])]

    def counter(self, name: str) -> Counter:
        total: Counter = Counter()
        for tally in self.tallies:
            total.update(getattr(tally, name))
        return total

    @property
    def moves(self) -> int:
        return sum(t.moves for t in self.tallies)


@dataclass
class Result:
    """The runs on one server and database, and what the database says after them."""

    server: str
    database: str
    runs: list[Run]
    applied_twice: int
    player_moves: int
    tracebacks: tuple[int, str]

    def of(self, mode: str) -> list[Run]:
        return [r for r in self.runs if r.mode == mode]

    def statuses(self) -> Counter:
        total: Counter = Counter()
        for run in self.runs:
            total.update(run.counter("statuses"))
        return total

    @property
    def server_errors(self) -> int:
        return sum(n for (_, status), n in self.statuses().items()
                   if status >= 500 or status == 0)

    def p99_ratios(self) -> list[float]:
        """p99 of the click over p99 of the floor, run by run in the order they ran."""
        return [percentile(c.times("click"), .99) / percentile(f.times("floor click"), .99)
                for c, f in zip(self.of("click"), self.of("floor"), strict=False)
                if c.times("click") and f.times("floor click")]


def line(label: str, values: list[float]) -> str:
    if not values:
        return f"    {label:<26} {'-':>6}"
    ms = [v * 1000 for v in values]
    return (f"    {label:<26} {len(ms):>6}  p50 {percentile(ms, 0.5):8.1f} ms  "
            f"p99 {percentile(ms, 0.99):8.1f} ms  max {max(ms):8.1f} ms")


_ORDER = {"click": ["click", "confirm GET", "move POST", "redirect GET (seat page)",
                    "seat page GET", "seat form POST"],
          "floor": ["floor click", "floor GET", "floor POST", "floor redirect GET"],
          "double": ["confirm GET", "double-click POST", "redirect GET (seat page)",
                     "seat page GET", "seat form POST"]}


def report_run(number: int, run: Run, clients: int) -> None:
    rate = run.moves / run.seconds if run.seconds else 0.0
    print(f"  run {number} ({run.mode}): {clients} clients, {run.moves} timed "
          f"{'floor clicks' if run.mode == 'floor' else 'moves'} in {run.seconds:.1f} s "
          f"({rate:.1f}/s)", flush=True)
    for what in _ORDER[run.mode]:
        values = run.times(what)
        if values:
            print(line(what, values))
    for tally in run.tallies:
        for error in tally.errors:
            print(f"    ! {error}")
    if run.cpu_line():
        print(f"    {run.cpu_line()}")
    if run.collector_line():
        print(f"    {run.collector_line()}")
    stopped = sum(not t.finished for t in run.tallies)
    if stopped:
        print(f"    ! {stopped} clients did not finish (time limit or errors)")


def report(result: Result) -> None:
    title = f"{SERVERS[result.server]}, {DATABASES[result.database]}"
    print(f"\n== {title}")
    clicks, floors = result.of("click"), result.of("floor")
    if clicks and floors:
        click = [t for r in clicks for t in r.times("click")]
        floor = [t for r in floors for t in r.times("floor click")]
        print(line("click, all runs", click))
        print(line("floor click, all runs", floor))
        ratios = sorted(result.p99_ratios())
        if ratios:
            verdict = "met" if statistics.median(ratios) <= 2 else "MISSED"
            print(f"  p99 click / p99 floor, run by run: min {ratios[0]:.2f}x, median "
                  f"{statistics.median(ratios):.2f}x, max {ratios[-1]:.2f}x "
                  f"(target <= 2x: {verdict}); all runs pooled "
                  f"{percentile(click, .99) / percentile(floor, .99):.2f}x; p50 pooled "
                  f"{percentile(click, .5) / percentile(floor, .5):.2f}x")
    refused: Counter = Counter()
    for run in result.runs:
        refused.update(run.counter("refused"))
    if refused:
        print("  links refused (and the next one tried): "
              + ", ".join(f"{reason} {n}" for reason, n in sorted(refused.items())))
    for run in result.of("double"):
        pairs = run.counter("pairs")
        overlapping = sum(t.overlapping for t in run.tallies)
        print(f"  double clicks: {sum(pairs.values())} ({overlapping} with both POSTs in "
              "flight at the same time); their answers: "
              + ", ".join(f"{'+'.join(map(str, k))} x{n}" for k, n in sorted(pairs.items())))
    statuses = result.statuses()
    print("  answers: " + ", ".join(f"{what} {status} x{n}"
                                     for (what, status), n in sorted(statuses.items())))
    print(f"  player moves in the log: {result.player_moves}; applied twice (same link "
          f"twice in the move log): {result.applied_twice}; 5xx (or no answer): "
          f"{result.server_errors}; tracebacks in the server log: {result.tracebacks[0]}")
    if result.tracebacks[1]:
        print("  the first traceback:\n    " + result.tracebacks[1].replace("\n", "\n    "))


def schedule(args: argparse.Namespace) -> list[str]:
    """The runs in order: click and floor interleaved, each going first as often."""
    if args.double_click:
        return ["double"]
    order: list[str] = []
    for i in range(args.runs):
        order += ["click", "floor"] if i % 2 == 0 else ["floor", "click"]
    return order


def run_one(server_kind: str, database: str, args: argparse.Namespace,
            folder: Path) -> Result:
    from pbem.models import db, open_database

    with (scratch_postgres(args.postgres_url) if database == "postgresql"
          else nullctx(f"sqlite:///{folder / 'pbem.db'}")) as url:
        port = free_port()
        share = [args.moves] * args.clients
        if args.double_click:  # the double clicks, shared out among the clients
            share = [args.clicks // args.clients + (i < args.clicks % args.clients)
                     for i in range(args.clients)]
        order = schedule(args)
        click_runs = sum(mode != "floor" for mode in order)
        games_each = math.ceil((max(share) + args.warmup) * click_runs / MOVES_PER_GAME) + 1
        started = time.perf_counter()
        tables = prepare(url, port, folder, args.clients, games_each)
        print(f"\n[{server_kind}, {database}] {args.clients * games_each} games made in "
              f"{time.perf_counter() - started:.1f} s; starting the server on "
              f"{LOOPBACK}:{port}; runs: {', '.join(order)}", flush=True)
        server = Server(server_kind, port, server_env(url, port, folder), folder)
        runs: list[Run] = []
        with running(server), composing(url, folder, port) as composer:
            for number, mode in enumerate(order, start=1):
                plans = [Plan(i, port, url, table, share[i], args.warmup, args.seconds,
                              args.double_click, args.seed * 1000 + number * 100 + i,
                              mode="floor" if mode == "floor" else "click")
                         for i, table in enumerate(tables)]
                load = os.getloadavg()[0]
                cpu_before = (tree_cpu(server.process.pid), tree_cpu(composer.pid))
                started = time.perf_counter()
                tallies = drive(plans, args.seconds)
                run = Run(mode, time.perf_counter() - started, tallies,
                          server_cpu=tree_cpu(server.process.pid) - cpu_before[0],
                          compose_cpu=tree_cpu(composer.pid) - cpu_before[1])
                runs.append(run)
                report_run(number, run, args.clients)
                print(f"    (load average before the run: {load:.1f} on {os.cpu_count()} "
                      "cores)", flush=True)
        open_database(url)
        try:
            twice, moves = applied_twice(), player_moves()
        finally:
            db.close_all()
        return Result(server_kind, database, runs, twice, moves, server.tracebacks())


@contextmanager
def nullctx(value: str):
    yield value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog=__doc__.split("\n\n", 1)[1])
    parser.add_argument("--server", choices=[*SERVERS, "both"], default="gunicorn")
    parser.add_argument("--database", choices=[*DATABASES, "both"], default="both")
    parser.add_argument("--clients", type=int, default=32, help="client processes (32)")
    parser.add_argument("--moves", type=int, default=20,
                        help="timed clicks per client and run (20)")
    parser.add_argument("--runs", type=int, default=3,
                        help="click runs and floor runs, interleaved (3 of each)")
    parser.add_argument("--warmup", type=int, default=None,
                        help="untimed clicks per client and run first (2; 0 with "
                             "--double-click)")
    parser.add_argument("--clicks", type=int, default=1000,
                        help="with --double-click: double clicks in all (1,000)")
    parser.add_argument("--seconds", type=float, default=150,
                        help="time limit of the clients per run (150)")
    parser.add_argument("--double-click", action="store_true",
                        help="every move is two POSTs of its form at once")
    parser.add_argument("--postgres-url", default="",
                        help="a scratch database on loopback (its pbem tables are dropped); "
                             "default: one made on 127.0.0.1:5432 as postgres and dropped")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    # a plain kill cleans up too: the servers, the clients, the folder, the scratch database
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    signal.signal(signal.SIGINT, signal.default_int_handler)  # even when started in background
    if args.warmup is None:
        args.warmup = 0 if args.double_click else 2
    if not (0 < args.clients <= 64 and 0 < args.moves <= 1000 and 0 <= args.warmup <= 100
            and args.clients <= args.clicks <= 20_000 and 0 < args.seconds <= 3600
            and 0 < args.runs <= 20):
        parser.error("sizes out of range: clients 1-64, moves 1-1000, warmup 0-100, "
                     "clicks clients-20,000, seconds up to 3600, runs 1-20")
    servers = list(SERVERS) if args.server == "both" else [args.server]
    databases = list(DATABASES) if args.database == "both" else [args.database]
    if "gunicorn" in servers:
        ensure_gunicorn()
    sys.path.insert(0, str(BENCH))  # load_app, as the servers import it
    print(f"load average at the start: {' '.join(f'{x:.2f}' for x in os.getloadavg())} "
          f"on {os.cpu_count()} cores", flush=True)

    results = []
    for server_kind in servers:
        for database in databases:
            folder = Path(tempfile.mkdtemp(prefix="pbem-load-"))
            try:
                result = run_one(server_kind, database, args, folder)
            finally:
                shutil.rmtree(folder, ignore_errors=True)
            report(result)
            results.append(result)

    print("\n== summary" + (" (double clicks)" if args.double_click else ""))
    for r in results:
        name = f"{SERVERS[r.server]}, {DATABASES[r.database]}"
        if args.double_click:
            pairs = sum(sum(run.counter("pairs").values()) for run in r.runs)
            print(f"  {name:<44} {pairs} double clicks: applied twice {r.applied_twice}, "
                  f"5xx {r.server_errors}")
            continue
        ratios = sorted(r.p99_ratios())
        if ratios:
            print(f"  {name:<44} p99 click / p99 floor: min {ratios[0]:.2f}x, median "
                  f"{statistics.median(ratios):.2f}x, max {ratios[-1]:.2f}x")
    print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        print("\ninterrupted: servers and clients stopped, temporary files removed",
              file=sys.stderr)
        sys.exit(130)
