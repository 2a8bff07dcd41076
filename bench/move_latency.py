"""How long a move takes on the web server, next to the cheapest write a web request can do.

One run, side by side on the same database:

* **move**: ``POST /m/<token>``, the confirm form of a mailed move link, through
  the whole pbem app (CSRF, token checks, the service's transaction with the
  move, the snapshot, deadlines and the queued mails, the redirect); the
  redirect is then followed to the seat page, as a browser does (timed apart:
  it shows and so clears the flash message the move left in the session cookie,
  which would otherwise grow with every move and slow every later request);
* **bare**: ``POST /bare`` on a Flask app with nothing but one route that
  inserts one row and commits, with the same connect/close per request.

Both go through Flask's test client in this process, so the numbers are the
server's own work without network or a WSGI server in front.  The two kinds
of request alternate, so both see the same machine and the same database.
Games are Visby for two humans; a finished game is replaced by a new one
(untimed), as are choosing the move and signing its link.  The temporary
folder is removed at the end.

    python bench/move_latency.py                        # SQLite in a temporary folder
    python bench/move_latency.py --moves 1000
    python bench/move_latency.py --database-url postgresql://postgres@127.0.0.1/bench
      (a scratch database: pbem's tables in it are dropped and created)
"""

from __future__ import annotations

import argparse
import random
import shutil
import statistics
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit

import peewee as pw
from flask import Flask

from pbem.context import make_context
from pbem.games import get_game
from pbem.lifecycle import create
from pbem.mail import compose
from pbem.models import BaseModel, Game, Seat, create_tables, db, drop_tables, open_database
from pbem.web import create_app


class BenchRow(BaseModel):
    """The one row the bare route writes."""

    value = pw.IntegerField()


def bare_app() -> Flask:
    app = Flask("bare")

    @app.before_request
    def _connect() -> None:
        db.connect(reuse_if_open=True)

    @app.teardown_request
    def _close(_exc) -> None:
        if not db.is_closed():
            db.close()

    @app.post("/bare")
    def bare():
        with db.atomic():
            BenchRow.create(value=1)
        return "", 204

    return app


def new_game(ctx, number: int) -> Game:
    people = [create.get_or_create_player(f"{who}{number}@bench.example.org", who,
                                           quiet_start="00:00", quiet_end="00:00")
              for who in ("alice", "bob")]
    game = create.create_game(ctx, "visby", people[0], [people[1].email], seed=number)
    create.accept_invite(ctx, game, Seat.get(Seat.game == game, Seat.index == 1), people[1])
    return Game.get_by_id(game.id)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=400, help="timed moves (default 400)")
    parser.add_argument("--warmup", type=int, default=20)
    parser.add_argument("--database-url", default="",
                        help="default: SQLite in a temporary folder")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    folder = Path(tempfile.mkdtemp(prefix="pbem-bench-"))
    try:
        run(args, folder)
    finally:
        if db.obj is not None:
            getattr(db.obj, "close_all", db.obj.close)()
        shutil.rmtree(folder, ignore_errors=True)


def run(args: argparse.Namespace, folder: Path) -> None:
    ctx = make_context(server={"instance": str(folder), "base_url": "http://bench.test"},
                       database={"url": args.database_url},
                       archive={"site_dir": str(folder / "site")})
    open_database(ctx.config.database_url)
    if args.database_url:
        drop_tables()
        db.drop_tables([BenchRow], safe=True)
    create_tables()
    db.create_tables([BenchRow], safe=True)
    kind = "PostgreSQL" if isinstance(db.obj, pw.PostgresqlDatabase) else "SQLite (WAL)"

    pbem_client = create_app(ctx).test_client()
    bare_client = bare_app().test_client()
    rules = get_game("visby")
    rng = random.Random(args.seed)
    csrf = None
    games = 0
    game = new_game(ctx, games)
    move_times: list[float] = []
    redirect_times: list[float] = []
    bare_times: list[float] = []

    total = args.warmup + args.moves
    for i in range(total):
        if game.status != Game.ACTIVE:
            games += 1
            game = new_game(ctx, games)
        seat_index = rng.choice(rules.to_move(game.state))
        seat = Seat.get(Seat.game == game, Seat.index == seat_index)
        move = rng.choice(rules.legal_moves(game.state, seat_index))
        path = compose.move_url(ctx, game, seat, move).removeprefix(ctx.base_url)
        if csrf is None:
            page = pbem_client.get(path).text
            csrf = page.split('name="csrf_token" value="', 1)[1].split('"', 1)[0]

        started = time.perf_counter()
        response = pbem_client.post(path, data={"csrf_token": csrf})
        moved = time.perf_counter() - started
        if response.status_code != 303:
            raise SystemExit(f"move {i}: {response.status_code}\n{response.text[:2000]}")
        started = time.perf_counter()
        seat_page = pbem_client.get(urlsplit(response.headers["Location"]).path)
        followed = time.perf_counter() - started
        if seat_page.status_code != 200:
            raise SystemExit(f"move {i}: the redirect answered {seat_page.status_code}")

        started = time.perf_counter()
        response = bare_client.post("/bare")
        barely = time.perf_counter() - started
        assert response.status_code == 204

        if i >= args.warmup:
            move_times.append(moved)
            redirect_times.append(followed)
            bare_times.append(barely)
        game = Game.get_by_id(game.id)

    def ms(values: list[float]) -> str:
        return (f"median {statistics.median(values) * 1000:7.2f} ms   "
                f"mean {statistics.fmean(values) * 1000:7.2f} ms   "
                f"p95 {sorted(values)[int(len(values) * 0.95)] * 1000:7.2f} ms")

    print(f"database: {kind}; {len(move_times)} timed moves in {games + 1} games "
          f"(after {args.warmup} untimed)")
    print(f"move POST /m/<token>          {ms(move_times)}")
    print(f"bare POST, 1 insert + commit  {ms(bare_times)}")
    print(f"(the redirect, GET /s/<token> {ms(redirect_times)}; not in the ratio)")
    median = statistics.median(move_times) / statistics.median(bare_times)
    mean = statistics.fmean(move_times) / statistics.fmean(bare_times)
    print(f"ratio move / bare: median {median:.1f}x, mean {mean:.1f}x")


if __name__ == "__main__":
    main()
