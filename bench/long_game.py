"""What a turn-mail click and a seat page cost at move 500, against the same at move 5.

One run, side by side on the same database, through the whole pbem app (Flask's
test client in this process: the server's own work, without network or a WSGI
server in front):

* **click**: a move link from a turn mail, as a player uses it: ``GET /m/<token>``
  (the confirm page: the table, what happened since the seat's last turn) plus
  its ``POST`` (CSRF, token checks, the service's transaction with the move, the
  snapshot, deadlines and the mails it queues, the redirect);
* **seat page**: ``GET /s/<token>``, the personal seat page.

Each is measured on a game at move 5 and on the very same game at move 500, and
printed with the ratio of the two (the service stores every move's sentences
when it records the move, so that neither should grow with the log; the
target is a ratio of at most 1.2).

The long game is real, played move by move through the service
(``pbem.lifecycle.moves.play``) by a table of people (no bots): each plays the
game's documented timeout default, and a random legal move one time in ten
(``--wander``), so that it lasts (a 6-player Visby game of random play ends
after about 140 moves).  A game that ends before ``--long`` moves anyway is
replaced by one with the next seed.  The game is copied into a template at its
first decision at or after move ``--short``, and again at its first decision at
or after move ``--long`` that is alike (as many seats to move, a click that ends
a round or not, as many turns beginning after it), so that both clicks do the
same work.  Each sample copies both templates into two fresh games (untimed),
then times the seat page and the click on each, the two games in turns,
alternating which goes first.  Times are medians (and means) over ``--samples``.

    python bench/long_game.py                                   # SQLite, a temporary folder
    python bench/long_game.py --samples 100 --long 1000
    python bench/long_game.py --database-url postgresql://postgres@127.0.0.1/bench
      (SQLite first, then that database; a scratch one: pbem's tables in it are
      dropped and created)
"""

from __future__ import annotations

import argparse
import random
import shutil
import statistics
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import peewee as pw

from pbem.context import Context, make_context
from pbem.games import game_names, get_game
from pbem.games.protocol import Rules, State
from pbem.lifecycle import create, moves
from pbem.mail import compose
from pbem.models import (
    Game,
    Move,
    Notice,
    Seat,
    create_tables,
    db,
    drop_tables,
    open_database,
)
from pbem.web import create_app

#: games that end before the late move, at most, before the benchmark gives up (a game
#: with a fixed number of rounds may never last that long)
MAX_SEEDS = 20

@dataclass
class Template:
    """A game copied at a decision, with the click that will be made there."""

    game_id: int
    seq: int
    seat: int
    move: str


@dataclass
class Timings:
    seat_page: list[float] = field(default_factory=list)
    click: list[float] = field(default_factory=list)


# -- the long game ------------------------------------------------------------------


def new_game(ctx: Context, rules: Rules, players: int, seed: str) -> Game:
    people = [create.get_or_create_player(f"p{i}-{seed}@bench.example.org", f"Player {i + 1}",
                                          quiet_start="00:00", quiet_end="00:00")
              for i in range(players)]
    game = create.create_game(ctx, rules.name, people[0], [p.email for p in people[1:]],
                              seed=seed)
    for index, person in enumerate(people[1:], start=1):
        create.accept_invite(ctx, game, Seat.get(Seat.game == game, Seat.index == index),
                             person)
    return Game.get_by_id(game.id)


def click_of(rules: Rules, state: State) -> tuple[int, str]:
    """The click a sample makes: the first seat to move plays its default move."""
    seat = rules.to_move(state)[0]
    return seat, rules.default_move(state, seat)


def situation(rules: Rules, state: State) -> tuple[Any, ...]:
    """What the click at ``state`` does, in the protocol's terms: positions alike in
    this make the service do alike work (the same turns to end and begin, the same mails)."""
    seat, move = click_of(rules, state)
    after = rules.apply(state, seat, move)
    still = set(rules.to_move(state))
    if rules.turn_over(state, seat, move, after):
        still.discard(seat)
    begin = set(rules.to_move(after)) - still
    return (len(rules.to_move(state)), rules.is_secret(state),
            rules.round(after) != rules.round(state), rules.is_over(after), len(begin))


def copy_game(template_id: int) -> Game:
    """A new game that is ``template_id`` as it stands: its row, seats, log and notices
    (its mails stay behind)."""
    with db.atomic():
        row = dict(Game.get_by_id(template_id).__data__)
        row.pop("id")
        row["thread_key"] = uuid.uuid4().hex
        game = Game.create(**row)
        for seat in Seat.select().where(Seat.game == template_id).order_by(Seat.index):
            values = dict(seat.__data__)
            values.pop("id")
            values["game"] = game.id
            Seat.create(**values)
        for model in (Move, Notice):
            columns = [f for f in model._meta.sorted_fields if f.name not in ("id", "game")]
            query = model.select(pw.Value(game.id), *columns).where(model.game == template_id)
            model.insert_from(query, [model.game, *columns]).execute()
    return game


def templates(ctx: Context, rules: Rules, players: int, short: int, long: int,
              wander: float, first_seed: int) -> tuple[Template, Template, float]:
    """The game at its first decision from ``short`` on, the same game at its first
    alike decision from ``long`` on, and the seconds it took to play."""
    started = time.perf_counter()
    seed = first_seed
    while True:
        game = new_game(ctx, rules, players, f"long-{seed}")
        rng = random.Random(seed)
        early: Template | None = None
        wanted: tuple[Any, ...] | None = None
        while game.status == Game.ACTIVE:
            state = game.state
            if early is None and game.seq >= short:
                wanted = situation(rules, state)
                early = Template(copy_game(game.id).id, game.seq, *click_of(rules, state))
            elif early is not None and game.seq >= long and situation(rules, state) == wanted:
                late = Template(copy_game(game.id).id, game.seq, *click_of(rules, state))
                return early, late, time.perf_counter() - started
            seat = rng.choice(rules.to_move(state))
            move = (rng.choice(rules.legal_moves(state, seat)) if rng.random() < wander
                    else rules.default_move(state, seat))
            moves.play(ctx, game.id, seat, move)
            game = Game.get_by_id(game.id)
        print(f"  (the game of seed {seed} ended after {game.seq} moves; the next seed)",
              flush=True)
        seed += 1
        if seed - first_seed >= MAX_SEEDS:
            raise SystemExit(f"{rules.title}: {MAX_SEEDS} games all ended before move {long}; "
                             "try a smaller --long or --wander")


# -- the measurements -------------------------------------------------------------


def csrf_of(page: str) -> str:
    return page.split('name="csrf_token" value="', 1)[1].split('"', 1)[0]


def measure_one(ctx: Context, client: Any, template: Template, into: Timings | None) -> None:
    """The seat page and the click on a fresh copy of ``template``."""
    game = copy_game(template.game_id)
    seat = Seat.get(Seat.game == game, Seat.index == template.seat)
    seat_path = compose.seat_url(ctx, game, seat).removeprefix(ctx.base_url)
    move_path = compose.move_url(ctx, game, seat, template.move).removeprefix(ctx.base_url)

    started = time.perf_counter()
    page = client.get(seat_path)
    seat_seconds = time.perf_counter() - started
    if page.status_code != 200:
        raise SystemExit(f"seat page: {page.status_code}\n{page.text[:2000]}")

    started = time.perf_counter()
    confirm = client.get(move_path)
    get_seconds = time.perf_counter() - started
    if confirm.status_code != 200:
        raise SystemExit(f"confirm page: {confirm.status_code}\n{confirm.text[:2000]}")
    token = csrf_of(confirm.text)  # untimed: a browser has the form already
    started = time.perf_counter()
    played = client.post(move_path, data={"csrf_token": token})
    post_seconds = time.perf_counter() - started
    if played.status_code != 303:
        raise SystemExit(f"move: {played.status_code}\n{played.text[:2000]}")
    if Game.get_by_id(game.id).seq <= template.seq:
        raise SystemExit("the click played no move")
    if into is not None:
        into.seat_page.append(seat_seconds)
        into.click.append(get_seconds + post_seconds)


def run(url: str, folder: Path, args: argparse.Namespace) -> dict[str, Any]:
    ctx = make_context(server={"instance": str(folder), "base_url": "http://bench.test"},
                       database={"url": url}, archive={"site_dir": str(folder / "site")})
    open_database(ctx.config.database_url)
    if url:
        drop_tables()
    create_tables()
    kind = "PostgreSQL" if isinstance(db.obj, pw.PostgresqlDatabase) else "SQLite (WAL)"
    rules = get_game(args.game)
    players = args.players or rules.max_players
    print(f"{kind}: playing {rules.title} for {players} to move {args.long} ...", flush=True)
    short, long, seconds = templates(ctx, rules, players, args.short, args.long, args.wander,
                                     args.seed)
    print(f"  templates at move {short.seq} and move {long.seq} ({seconds:.0f} s)", flush=True)
    client = create_app(ctx).test_client()
    timings = {"short": Timings(), "long": Timings()}
    for i in range(args.warmup + args.samples):
        pair = [("short", short), ("long", long)]
        if i % 2:
            pair.reverse()  # either goes first as often as the other
        for name, template in pair:
            measure_one(ctx, client, template, timings[name] if i >= args.warmup else None)
    db.close()
    return {"kind": kind, "short": short, "long": long, "timings": timings,
            "players": players, "title": rules.title}


def report(result: dict[str, Any]) -> list[tuple[str, float]]:
    short, long = result["short"], result["long"]
    timings = result["timings"]

    def ms(values: list[float]) -> str:
        return (f"median {statistics.median(values) * 1000:7.2f} ms   "
                f"mean {statistics.fmean(values) * 1000:7.2f} ms")

    print()
    print(f"{result['kind']}: {result['title']} for {result['players']}, "
          f"{len(timings['short'].click)} samples each, side by side")
    ratios = []
    for label, key in (("turn-mail click (GET + POST /m/<token>)", "click"),
                       ("seat page (GET /s/<token>)", "seat_page")):
        at_short = getattr(timings["short"], key)
        at_long = getattr(timings["long"], key)
        print(f"  {label}")
        print(f"    at move {short.seq:>5}  {ms(at_short)}")
        print(f"    at move {long.seq:>5}  {ms(at_long)}")
        median = statistics.median(at_long) / statistics.median(at_short)
        mean = statistics.fmean(at_long) / statistics.fmean(at_short)
        print(f"    ratio move {long.seq} / move {short.seq}: median {median:.2f}x, "
              f"mean {mean:.2f}x (target: at most 1.2)")
        ratios.append((f"{result['kind']} {key}", median))
    return ratios


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=game_names(), default="visby")
    parser.add_argument("--players", type=int, default=0,
                        help="seats (default: the most the game allows)")
    parser.add_argument("--short", type=int, default=5, help="the early move (default 5)")
    parser.add_argument("--long", type=int, default=500, help="the late move (default 500)")
    parser.add_argument("--samples", type=int, default=40,
                        help="timed clicks and pages at each move (default 40)")
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--wander", type=float, default=0.1,
                        help="how often a player plays a random move instead of the "
                             "default (default 0.1)")
    parser.add_argument("--seed", type=int, default=1, help="the long game's first seed")
    parser.add_argument("--database-url", default="",
                        help="PostgreSQL as well, after SQLite (a scratch database)")
    args = parser.parse_args(argv)

    folder = Path(tempfile.mkdtemp(prefix="pbem-bench-long-"))
    try:
        results = [run("", folder / "sqlite", args)]
        if args.database_url:
            results.append(run(args.database_url, folder / "postgresql", args))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    ratios = [ratio for result in results for ratio in report(result)]
    print()
    print("median ratios, late move / early move (target: at most 1.2 each): "
          + ", ".join(f"{name} {value:.2f}x" for name, value in ratios))


if __name__ == "__main__":
    main()
