"""The whole click a player makes, over real HTTP, next to a floor click on the same app.

One run per database, the two kinds of click interleaved on one server:

* **click**: a move link of a turn mail as a player uses it: ``GET /m/<token>`` (the
  confirm page, showing the table the mail kept: ``pbem.mail.picture.keep_table``),
  ``POST`` of its form (CSRF, token checks, the service's transaction with the move,
  snapshot, deadlines and queued mails), then the redirect followed (``GET
  /s/<token>``, the seat page). Clicks are made at move ~50 (``--at``) of real games
  of every kind (``--games`` of each, ``--players`` seated people, played move by move
  through the service by the game's own bot, as players would build and buy; the
  click is the first seat's default move where it begins another seat's turn; until
  session 29 the tables were played by default moves, with which nobody in Riga ever
  built, and its tables were cheaper to draw than a real game's): each click is
  made on a fresh copy of such a game (copied untimed), so that every click meets the
  same position and Riga's and Macao's heavier pictures count;
* **floor**: the cheapest click of that shape on the same app, server and database
  (``bench/load_app.py``): a GET that reads one row and renders pbem's base
  template, a POST that inserts and commits one row, the GET it redirects to.

The server is ``gunicorn`` with one sync worker on loopback (``--server serve``:
``pbem serve``, the threaded development server), serving pbem's app plus the
floor's bench-only routes; the bench is its only client, one request at a time,
each on a connection of its own.  Clicks alternate (click, floor, floor, click, …),
``--clicks`` of each per repeat; the ratio of the repeat's medians is printed
with its min/median/max over ``--repeats``, the SQL statements each click
sent (the server counts them per request: peewee's query hook plus BEGIN/COMMIT), and
the engines' share of the click: the seconds the server spent in the games' ``Rules``
(rules, menus, views, sentences, text and pictures; ``load_app.time_engines``) over the
click's seconds as the bench waited for them, per game and overall (issue 23 aims at
5% at most).

A repeat clicks the same few tables again (on fresh copies), whose pictures' pieces the
server then keeps whole from the first repeat on, as no real click finds them: the table
after a move is a new one, and a turn mail's confirm page shows the table the tick drew
in its own process.  So after the repeats ``--fresh`` tables of each kind that the server
has not drawn (pieces they share with the tables before may be kept) are clicked once
each (a floor click beside each), and their ratio and engines' share are printed apart,
as "first sight" (session 29: 18.8% against 5.5%, the seat page's picture 0.7-3 ms of
cold drawing).

    python bench/move_latency.py                      # SQLite, then PostgreSQL
    python bench/move_latency.py --database sqlite --repeats 3 --clicks 20
    python bench/move_latency.py --postgres-url postgresql://postgres@127.0.0.1/scratch

PostgreSQL: a database of the bench's own on 127.0.0.1:5432 (made and dropped), or
``--postgres-url`` (a scratch one: pbem's tables in it are dropped).  SQLite: a
temporary folder, removed at the end.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import signal
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))  # load (the servers), load_app (the floor), long_game

from load import (  # noqa: E402
    LOOPBACK,
    Browser,
    Server,
    ensure_gunicorn,
    free_port,
    nullctx,
    running,
    scratch_postgres,
    server_env,
)
from load_app import FLOOR_PATH, BenchRow  # noqa: E402
from long_game import click_of, copy_game, situation  # noqa: E402

from pbem.context import Context, make_context  # noqa: E402
from pbem.games import game_names, get_game  # noqa: E402
from pbem.games.protocol import Rules  # noqa: E402
from pbem.lifecycle import create, moves  # noqa: E402
from pbem.mail import compose  # noqa: E402
from pbem.models import (  # noqa: E402
    Game,
    Outbox,
    Seat,
    create_tables,
    db,
    drop_tables,
    open_database,
    utcnow,
)

_CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')
DATABASES = {"sqlite": "SQLite (WAL)", "postgresql": "PostgreSQL"}


@dataclass
class Template:
    """A game at its first decision from move ``--at`` on, and the click to make there."""

    kind: str
    game_id: int
    seq: int
    seat: int
    move: str


@dataclass
class Click:
    """One timed click: its three requests' seconds and the statements they sent."""

    kind: str
    seconds: list[float]
    #: statements of each of the three requests
    parts: list[int]
    #: seconds the server spent in the games' engines (pictures included), per request
    engine: list[float] = field(default_factory=list)
    #: the server's CPU seconds, the collector's seconds (of them, inside the engines) and
    #: collections of generations 0, 1, 2, summed over the three requests (``X-Bench-GC``)
    gc: tuple[float, ...] = (0.0, 0.0, 0.0, 0, 0, 0)

    @property
    def engine_share(self) -> float:
        """The engines' part of the whole click as the player waits for it."""
        return sum(self.engine) / self.total if self.total else 0.0

    @property
    def statements(self) -> int:
        return sum(self.parts)

    @property
    def total(self) -> float:
        return sum(self.seconds)


@dataclass
class Repeat:
    clicks: list[Click] = field(default_factory=list)
    floors: list[Click] = field(default_factory=list)
    #: the clicks of ``first_sight``, reported apart
    first_sight: bool = False

    @property
    def ratio(self) -> float:
        return (statistics.median(c.total for c in self.clicks)
                / statistics.median(c.total for c in self.floors))


# -- the games ------------------------------------------------------------------------


def new_game(ctx: Context, rules: Rules, players: int, seed: str) -> Game:
    people = [create.get_or_create_player(f"p{i}-{seed}@bench.example.org", f"Player {i + 1}",
                                          quiet_start="00:00", quiet_end="00:00",
                                          confirmed_at=utcnow())
              for i in range(players)]
    game = create.create_game(ctx, rules.name, people[0], [p.email for p in people[1:]],
                              seed=seed)
    for index, person in enumerate(people[1:], start=1):
        create.accept_invite(ctx, game, Seat.get(Seat.game == game, Seat.index == index),
                             person)
    return Game.get_by_id(game.id)


def template(ctx: Context, rules: Rules, players: int, at: int, seed: int) -> Template | None:
    """A game of ``rules`` played to its first decision from move ``at`` on whose click
    begins another seat's turn (and so queues a "your move" mail, as most clicks do);
    from move ``at // 2`` on if it ends before (a 3-player Tallinn game lasts about 30
    moves); None if it ends before that too."""
    game = new_game(ctx, rules, players, f"click-{rules.name}-{seed}")
    rng = random.Random(seed)
    fallback = None
    while game.status == Game.ACTIVE:
        state = game.state
        if (game.seq >= at or (fallback is None and game.seq >= at // 2)) and (
                situation(rules, state)[-1] > 0):
            seat, move = click_of(rules, state)
            found = Template(rules.name, copy_game(game.id).id, game.seq, seat, move)
            if game.seq >= at:
                return found
            fallback = found
        seat = rng.choice(rules.to_move(state))
        # the games' own bots play the table up to the click, as players would: the
        # default moves a timeout plays, which are never strong, left Riga's displays
        # empty at every click (nobody built), a table cheaper to draw than a real one
        moves.play(ctx, game.id, seat, rules.bot_move(state, seat, rng))
        game = Game.get_by_id(game.id)
    return fallback


def template_arguments(parser: argparse.ArgumentParser, games: int) -> None:
    """The arguments ``templates`` reads (which games, how many, where clicked), for each
    bench that clicks in its games: ``--kinds`` comes as a list of names."""
    parser.add_argument("--kinds", type=_names, default=list(game_names()),
                        help="games to click in, comma-separated (default: all)")
    parser.add_argument("--games", type=int, default=games,
                        help=f"games of each kind ({games})")
    parser.add_argument("--players", type=int, default=3, help="people at each table (3)")
    parser.add_argument("--at", type=int, default=50, help="the move clicked at (50)")
    parser.add_argument("--seed", type=int, default=1)


def _names(text: str) -> list[str]:
    return [k.strip() for k in text.split(",") if k.strip()]


def templates(ctx: Context, args: argparse.Namespace) -> list[Template]:
    found = []
    for kind in args.kinds:
        rules = get_game(kind)
        players = max(rules.min_players, min(args.players, rules.max_players))
        made, seed = 0, args.seed
        while made < args.games:
            if seed - args.seed > 10 * args.games:
                raise SystemExit(f"{kind}: the games end before move {args.at}")
            t = template(ctx, rules, players, args.at, seed)
            seed += 1
            if t is not None:
                found.append(t)
                made += 1
    return found


# -- the clicks -----------------------------------------------------------------------


def request(browser: Browser, method: str, path: str, form: dict[str, str] | None,
            want: int, engine: list[float] | None = None,
            collector: list[tuple[float, ...]] | None = None
            ) -> tuple[float, int, str, str | None]:
    answer = browser.request(method, path, form)
    if answer.status != want:
        raise SystemExit(f"{method} {path}: {answer.status}, not {want}\n{answer.text[:3000]}")
    if engine is not None:
        engine.append(answer.engine)
    if collector is not None:
        collector.append(answer.gc)
    # the statements came in a header; Browser keeps only the cookie and Location
    return answer.seconds, answer.statements, answer.text, answer.location


def copy_with_threads(ctx: Context, template_id: int) -> Game:
    """A copy of the game with the root mail of each player's thread, as a game at move 50
    has (its first mail to each player): so the click's mails are not roots."""
    game = copy_game(template_id)
    domain = compose.mail_domain(ctx)
    now = utcnow()
    for seat in Seat.select().where(Seat.game == game):
        if seat.player_id is not None:
            Outbox.create(game=game, player=seat.player_id, kind="notice",
                          to_address=seat.player.email, subject="root", text_body="root",
                          message_id=game.thread_id(domain, seat.player_id), created_at=now,
                          not_before=now, sent_at=now)
    return game


def summed(parts: list[tuple[float, ...]]) -> tuple[float, ...]:
    return tuple(sum(column) for column in zip(*parts, strict=True))


def click(ctx: Context, browser: Browser, t: Template) -> Click:
    """The click of ``t`` on a fresh copy of its game (the copy is made untimed, with the
    turn mail whose link is clicked written as the tick writes it: the table it keeps
    is what the confirm page shows)."""
    game = copy_with_threads(ctx, t.game_id)
    seat = Seat.get(Seat.game == game, Seat.index == t.seat)
    with db.atomic():
        compose.queue_turn(ctx, game, seat, Seat.of(game), game.state)
    path = urlsplit(compose.move_url(ctx, game, seat, t.move)).path
    got: list[float] = []
    parts: list[int] = []
    engine: list[float] = []
    collector: list[tuple[float, ...]] = []
    seconds, n, text, _ = request(browser, "GET", path, None, 200, engine, collector)
    got.append(seconds)
    parts.append(n)
    token = _CSRF.search(text)
    if token is None:
        raise SystemExit(f"the confirm page of {t.kind} has no form:\n{text[:3000]}")
    seconds, n, _, location = request(browser, "POST", path, {"csrf_token": token.group(1)},
                                      303, engine, collector)
    got.append(seconds)
    parts.append(n)
    seconds, n, _, _ = request(browser, "GET", urlsplit(location or "/").path, None, 200,
                               engine, collector)
    got.append(seconds)
    return Click(t.kind, got, [*parts, n], engine, summed(collector))


def floor_click(browser: Browser, row_id: int) -> Click:
    got: list[float] = []
    parts: list[int] = []
    collector: list[tuple[float, ...]] = []
    seconds, n, _, _ = request(browser, "GET", f"{FLOOR_PATH}/{row_id}", None, 200,
                               collector=collector)
    got.append(seconds)
    parts.append(n)
    seconds, n, _, location = request(browser, "POST", FLOOR_PATH, {}, 303,
                                      collector=collector)
    got.append(seconds)
    parts.append(n)
    seconds, n, _, _ = request(browser, "GET", urlsplit(location or "/").path, None, 200,
                               collector=collector)
    got.append(seconds)
    return Click("floor", got, [*parts, n], gc=summed(collector))


# -- one database -----------------------------------------------------------------------


def run_one(database: str, args: argparse.Namespace, folder: Path) -> list[Repeat]:
    with (scratch_postgres(args.postgres_url) if database == "postgresql"
          else nullctx(f"sqlite:///{folder / 'pbem.db'}")) as url:
        port = free_port()
        big = "1000000"
        ctx = make_context(server={"instance": str(folder / "instance"),
                                   "base_url": f"http://{LOOPBACK}:{port}"},
                           database={"url": url}, archive={"site_dir": str(folder / "site")},
                           limits={"games_per_creator": big, "invitations_per_creator": big,
                                   "games_per_client": big, "invitations_per_invitee": big})
        open_database(url)
        drop_tables()
        db.drop_tables([BenchRow], safe=True)
        create_tables()
        db.create_tables([BenchRow], safe=True)
        row_id = BenchRow.create(value=1).id
        started = time.perf_counter()
        games = templates(ctx, args)
        # tables of other seeds, each clicked once after the repeats (``first_sight``)
        unseen = (templates(ctx, argparse.Namespace(**{**vars(args), "games": args.fresh,
                                                      "seed": args.seed + 1000}))
                  if args.fresh else [])
        print(f"\n[{DATABASES[database]}] {len(games)} games played to move ~{args.at} in "
              f"{time.perf_counter() - started:.0f} s: "
              + ", ".join(f"{t.kind} at {t.seq}" for t in games)
              + (f"; {len(unseen)} more, each clicked once" if unseen else ""), flush=True)
        server = Server(args.server, port, server_env(url, port, folder), folder, workers=1)
        repeats: list[Repeat] = []
        with running(server):
            browser = Browser(port)
            for i in range(args.warmup):  # the worker's first pages, templates, pictures
                click(ctx, browser, games[i % len(games)])
                floor_click(browser, row_id)
            turn = 0
            for _ in range(args.repeats):
                repeat = Repeat()
                for i in range(args.clicks):
                    t = games[turn % len(games)]
                    turn += 1
                    for which in ((0, 1) if i % 2 == 0 else (1, 0)):
                        if which == 0:
                            repeat.clicks.append(click(ctx, browser, t))
                        else:
                            repeat.floors.append(floor_click(browser, row_id))
                repeats.append(repeat)
                print(f"  repeat {len(repeats)}: click / floor {repeat.ratio:.2f}x "
                      f"(load {os.getloadavg()[0]:.1f})", flush=True)
            if unseen:
                repeats.append(first_sight(ctx, browser, unseen, row_id))
        count, first = server.tracebacks()
        if count:
            print(f"  ! {count} tracebacks in the server's log; the first:\n{first}")
        db.close_all() if hasattr(db.obj, "close_all") else db.close()
        return repeats


def first_sight(ctx: Context, browser: Browser, unseen: list[Template],
                row_id: int) -> Repeat:
    """Each of ``unseen`` clicked once, kinds in turn, a floor click beside each: tables
    this server has drawn nothing of (a repeat's clicks meet positions it drew before,
    their pictures' pieces all kept, as no real click does: the table after a move is a
    new one, and the confirm page showed the table the tick drew in its own process)."""
    made = Repeat(first_sight=True)
    by_kind: dict[str, list[Template]] = {}
    for t in unseen:
        by_kind.setdefault(t.kind, []).append(t)
    order = [t for group in zip(*by_kind.values(), strict=False) for t in group]
    for i, t in enumerate(order):
        for which in ((0, 1) if i % 2 == 0 else (1, 0)):
            if which == 0:
                made.clicks.append(click(ctx, browser, t))
            else:
                made.floors.append(floor_click(browser, row_id))
    print(f"  first sight: {len(made.clicks)} tables each clicked once: click / floor "
          f"{made.ratio:.2f}x (load {os.getloadavg()[0]:.1f})", flush=True)
    return made


def report(database: str, everything: list[Repeat], server: str) -> None:
    repeats = [r for r in everything if not r.first_sight]
    clicks = [c for r in repeats for c in r.clicks]
    floors = [c for r in repeats for c in r.floors]

    def ms(values: list[float]) -> str:
        return f"{statistics.median(values) * 1000:6.1f} ms"

    ratios = sorted(r.ratio for r in repeats)
    print(f"\n== {DATABASES[database]}, {server}: {len(clicks)} clicks and {len(floors)} "
          f"floor clicks, interleaved, in {len(repeats)} repeats")
    print(f"  click (confirm GET + POST + seat page GET)  median {ms([c.total for c in clicks])}"
          f"  (GET {ms([c.seconds[0] for c in clicks])}, POST "
          f"{ms([c.seconds[1] for c in clicks])}, redirect GET "
          f"{ms([c.seconds[2] for c in clicks])})")
    print(f"  floor (GET + POST + GET, one row each)      median {ms([c.total for c in floors])}")
    for kind in sorted({c.kind for c in clicks}):
        mine = [c.total for c in clicks if c.kind == kind]
        print(f"    {kind:<8} click median {ms(mine)}: "
              f"{statistics.median(mine) / statistics.median(c.total for c in floors):.2f}x "
              "the floor")
    verdict = "met" if ratios[len(ratios) // 2] <= 3 else "MISSED"
    for i, label in enumerate(("confirm GET", "POST", "seat page GET")):
        print(f"    {label:<14} {statistics.median(c.parts[i] for c in clicks):4g} statements "
              "(median)")
    print(f"  ratio click / floor (median of each repeat): min {ratios[0]:.2f}x, median "
          f"{statistics.median(ratios):.2f}x, max {ratios[-1]:.2f}x (goal <= 3x: {verdict})")
    for label, rows in (("click", clicks), ("floor", floors)):
        n = sorted(c.statements for c in rows)
        print(f"  SQL statements per {label}: min {n[0]}, median {statistics.median(n):g}, "
              f"max {n[-1]}")
    most = max(c.statements for c in clicks)
    print(f"  (goal: <= 12 statements per click: {'met' if most <= 12 else 'MISSED'})")
    report_engine(clicks)
    report_collector(clicks, floors)
    for seen in (r for r in everything if r.first_sight):
        print(f"  first sight: {len(seen.clicks)} other tables, each clicked once after the "
              f"repeats (tables this server has not drawn; pieces they share with the "
              f"tables before, a card's, may be kept): click / floor {seen.ratio:.2f}x")
        report_engine(seen.clicks)


def report_collector(clicks: list[Click], floors: list[Click]) -> None:
    """The server's CPU a click and the cyclic garbage collector's part of it."""
    print("  the server's CPU and the garbage collector (gc.callbacks) a click:")
    for label, rows in (("click", clicks), ("floor", floors)):
        cpu = statistics.median(c.gc[0] for c in rows) * 1000
        mean_gc = statistics.fmean(c.gc[1] for c in rows) * 1000
        in_engine = statistics.fmean(c.gc[2] for c in rows) * 1000
        made = [statistics.fmean(c.gc[3 + g] for c in rows) for g in range(3)]
        print(f"    {label:<6} CPU median {cpu:.2f} ms; collections' CPU mean {mean_gc:.3f} ms "
              f"({in_engine:.3f} ms inside the engines), "
              f"p90 {sorted(c.gc[1] for c in rows)[int(len(rows) * 0.9)] * 1000:.3f} ms; "
              f"collections a click gen0 {made[0]:.2f}, gen1 {made[1]:.2f}, "
              f"gen2 {made[2]:.3f}")


def report_engine(clicks: list[Click]) -> None:
    """The engines' share of the whole click (rules, menus, views, sentences, text and
    pictures, timed in the server), per kind of game and over all clicks."""
    def pct(values: list[float]) -> str:
        values = sorted(values)
        return (f"min {values[0]:.1%}, median {statistics.median(values):.1%}, "
                f"max {values[-1]:.1%}")

    print("  the engines' share of the whole click (time in the games' Rules, pictures "
          "included, / the click's seconds as the bench waited for it):")
    for kind in sorted({c.kind for c in clicks}):
        mine = [c for c in clicks if c.kind == kind]
        # in microseconds as well as the share: the share moves with the host's speed
        # for the rest of the click (the same code 5.0% on one host, 5.2% on a faster)
        parts = [statistics.median(c.engine[i] for c in mine) * 1e6 for i in range(3)]
        whole = statistics.median(sum(c.engine) for c in mine) * 1e6
        print(f"    {kind:<8} {pct([c.engine_share for c in mine])}  (median us in the "
              f"engines: confirm {parts[0]:.0f}, POST {parts[1]:.0f}, seat page "
              f"{parts[2]:.0f}; a click {whole:.0f})")
    shares = [c.engine_share for c in clicks]
    verdict = "met" if statistics.median(shares) <= 0.05 else "MISSED"
    print(f"    all      {pct(shares)}  (goal: <= 5%: {verdict})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog=__doc__.split("\n\n", 1)[1])
    parser.add_argument("--database", choices=[*DATABASES, "both"], default="both")
    parser.add_argument("--postgres-url", default="")
    parser.add_argument("--server", choices=["gunicorn", "serve"], default="gunicorn")
    template_arguments(parser, games=3)
    parser.add_argument("--clicks", type=int, default=24, help="clicks of each per repeat")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--warmup", type=int, default=4)
    parser.add_argument("--fresh", type=int, default=3,
                        help="tables of each kind clicked once, at first sight (3; 0: none)")
    args = parser.parse_args()
    if not (0 < args.games <= 20 and 0 < args.clicks <= 1000 and 0 < args.repeats <= 100
            and 0 <= args.warmup <= 100 and 0 <= args.at <= 1000 and 0 <= args.fresh <= 20):
        parser.error("sizes out of range")
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    if args.server == "gunicorn":
        ensure_gunicorn()
    print(f"load before: {' '.join(f'{x:.2f}' for x in os.getloadavg())} on "
          f"{os.cpu_count()} cores", flush=True)
    databases = list(DATABASES) if args.database == "both" else [args.database]
    for database in databases:
        folder = Path(tempfile.mkdtemp(prefix="pbem-click-"))
        try:
            repeats = run_one(database, args, folder)
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        report(database, repeats, "gunicorn, 1 sync worker" if args.server == "gunicorn"
               else "pbem serve")
    print(f"\nload after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
