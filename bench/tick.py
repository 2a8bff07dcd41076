"""Benchmark: the cost of one scheduler tick follows the due work, not the number of games.

    python bench/tick.py                        # 1,000 and 100,000 idle games, SQLite
    python bench/tick.py --sizes 1000,10000     # a quicker look
    python bench/tick.py --database-url postgresql://postgres@127.0.0.1/bench  # emptied first!

For each size N it builds a fresh database of N idle games and measures, side
by side in one run:

* an idle tick: nothing is due anywhere (median of ``--repeat`` x 10 ticks);
* a tick with a fixed amount of due work (``--due``, 100 by default), split
  into mails to deliver, reminders to send and timeouts to apply (the grace
  period is over, so each plays the game's default moves through the move
  service, which queues more mails that the same tick delivers).

The tick with due work is the median of ``--repeat`` ticks; every
repetition gets fresh due items on games of its own.  The ratio of the
largest size to the smallest is what the benchmark is for: near 1 means a
tick's cost does not grow with idle games.

An idle game is a running Visby game of two players: both seats have a clock
(deadline in 2 days, next reminder in 1 day) and one earlier mail has been
sent.  Players have no quiet hours, so no due mail is deferred, whatever the
time of day the benchmark runs.  Mail goes to an in-memory transport: what is
measured is the database, the rules and the rendering, not an SMTP server.
Rows are written with bulk inserts.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from datetime import datetime, timedelta
from pathlib import Path

from pbem.context import make_context
from pbem.games import get_game
from pbem.models import (
    Game,
    Outbox,
    Player,
    Seat,
    create_tables,
    db,
    drop_tables,
    open_database,
    utcnow,
)
from pbem.time import clock, scheduler

PLAYERS = 2_000
BATCH = 500
#: idle ticks are cheap and noisy: this many per repetition
IDLE_TICKS = 10


class NullTransport:
    def __init__(self) -> None:
        self.sent = 0

    def send(self, message) -> None:
        bytes(message)  # render it, as a real transport would
        self.sent += 1


def _insert(model, rows: list[dict]) -> None:
    for start in range(0, len(rows), BATCH):
        model.insert_many(rows[start:start + BATCH]).execute()


def build(ctx, games: int, now: datetime) -> float:
    """N idle games in bulk; returns the seconds it took."""
    started = time.perf_counter()
    visby = get_game("visby")
    policy = clock.resolve_policy(ctx, {"days": 2, "grace_hours": 12})
    deadline, remind = now + timedelta(days=2), now + timedelta(days=1)
    with db.atomic():
        _insert(Player, [dict(email=f"p{i}@bench.example", name=f"Player {i}",
                              quiet_start="00:00", quiet_end="00:00", created_at=now)
                         for i in range(PLAYERS)])
    first_player = Player.select(Player.id).order_by(Player.id).first().id
    for chunk in range(0, games, 10_000):
        count = min(10_000, games - chunk)
        with db.atomic():
            _insert(Game, [dict(game="visby", options={"target": 30}, seed=n,
                                rules_version=visby.rules_version,
                                data_version=visby.data_version, status=Game.ACTIVE,
                                clock=policy, seq=0, state=visby.setup(2, None, n),
                                created_at=now, started_at=now)
                           for n in range(chunk, chunk + count)])
            ids = [g.id for g in Game.select(Game.id).order_by(Game.id.desc()).limit(count)]
            seats, mails = [], []
            for k, game_id in enumerate(sorted(ids)):
                n = chunk + k
                for index in (0, 1):
                    seats.append(dict(game=game_id, index=index,
                                      player=first_player + (2 * n + index) % PLAYERS,
                                      deadline=deadline, deadline_started=now,
                                      remind_at=remind, menu_seq=1))
                mails.append(dict(game=game_id, player=first_player + (2 * n) % PLAYERS,
                                  kind="turn", to_address=f"p{(2 * n) % PLAYERS}@bench.example",
                                  subject="Visby: your move", text_body="(sent earlier)",
                                  message_id=f"<bench-old-{n}@pbem>", created_at=now,
                                  not_before=now - timedelta(hours=1), attempts=1,
                                  sent_at=now - timedelta(hours=1)))
            _insert(Seat, seats)
            _insert(Outbox, mails)
        print(f"  {chunk + count:,} idle games written", file=sys.stderr, flush=True)
    return time.perf_counter() - started


def arm(round_: int, due: int, now: datetime) -> dict[str, int]:
    """Make ``due`` items due on games of their own (40% mails, 30% reminders, 30% timeouts)."""
    mails = due * 4 // 10
    reminders = due * 3 // 10
    timeouts = due - mails - reminders
    first = Game.select(Game.id).order_by(Game.id).first().id + round_ * (reminders + timeouts)
    player = Player.select().order_by(Player.id).first()
    with db.atomic():
        _insert(Outbox, [dict(player=player.id, kind="notice", to_address=player.email,
                              to_name=player.name, subject="A due mail",
                              text_body="Something happened.",
                              message_id=f"<bench-due-{round_}-{i}@pbem>", created_at=now,
                              not_before=now - timedelta(minutes=1))
                         for i in range(mails)])
        for k in range(reminders):
            (Seat.update(remind_at=now - timedelta(minutes=1))
             .where(Seat.game == first + k, Seat.index == 0).execute())
        for k in range(timeouts):
            (Seat.update(deadline=now - timedelta(minutes=1), in_grace=True, remind_at=None)
             .where(Seat.game == first + reminders + k, Seat.index == 0).execute())
    return {"mails": mails, "reminders": reminders, "timeouts": timeouts}


def measure(ctx, size: int, due: int, repeat: int, url: str | None, work: Path) -> dict:
    if url:
        open_database(url)
        drop_tables()
    else:
        path = work / f"tick-{size}.db"
        open_database(f"sqlite:///{path}")
    create_tables()
    now = utcnow()
    built = build(ctx, size, now)
    idle, busy, sent = [], [], []
    for r in range(repeat):
        transport = NullTransport()
        for _ in range(IDLE_TICKS):
            started = time.perf_counter()
            done = scheduler.tick(ctx, now, transport=transport)
            idle.append(time.perf_counter() - started)
            assert done["timeouts"] == 0 and done["mail"]["sent"] == 0, done
        armed = arm(r, due, now)
        started = time.perf_counter()
        done = scheduler.tick(ctx, now, transport=transport)
        busy.append(time.perf_counter() - started)
        if done["timeouts"] != armed["timeouts"] or done["reminders"] != armed["reminders"]:
            raise SystemExit(f"the tick did not do the due work: {json.dumps(done)}")
        sent.append(transport.sent)
    db.close()
    return {"size": size, "build": built, "idle": statistics.median(idle),
            "busy": statistics.median(busy), "sent": statistics.median(sent), "armed": armed}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1000,100000",
                        help="idle game counts, comma-separated (default: 1000,100000)")
    parser.add_argument("--due", type=int, default=100, help="due items per measured tick")
    parser.add_argument("--repeat", type=int, default=3, help="ticks measured per size")
    parser.add_argument("--database-url", default=None,
                        help="PostgreSQL URL to use instead of a temporary SQLite file "
                             "(its pbem tables are dropped and rebuilt)")
    args = parser.parse_args()
    sizes = [int(s.replace("_", "")) for s in args.sizes.split(",")]
    with tempfile.TemporaryDirectory(prefix="pbem-bench-tick-") as tmp:
        work = Path(tmp)
        ctx = make_context(server={"instance": str(work / "instance")},
                           archive={"site_dir": str(work / "site")})
        kind = "PostgreSQL" if args.database_url else "SQLite (WAL, a temporary file)"
        print(f"One scheduler tick against the number of idle games, on {kind}.")
        print(f"Idle game: 2 seats with running clocks (deadline in 2 days, next reminder in "
              f"1 day) and 1 mail sent earlier;\n{PLAYERS:,} players, no quiet hours. Mail "
              f"goes to an in-memory transport (no SMTP).")
        results = []
        for size in sizes:
            print(f"building {size:,} idle games...", file=sys.stderr, flush=True)
            results.append(measure(ctx, size, args.due, args.repeat, args.database_url, work))
        armed = results[0]["armed"]
        print(f"Due work per measured tick: {args.due} items = {armed['mails']} mails to "
              f"deliver, {armed['reminders']} reminders to send, {armed['timeouts']} timeouts "
              f"to apply\n(each timeout plays the default moves and queues mails, which the same "
              f"tick delivers). Median of {args.repeat} such ticks, and of "
              f"{args.repeat * IDLE_TICKS} idle ticks, per size.\n")
        print(f"{'idle games':>12}  {'build':>8}  {'idle tick':>10}  "
              f"{'tick with ' + str(args.due) + ' due':>18}  {'mails sent':>10}")
        for r in results:
            print(f"{r['size']:>12,}  {r['build']:>7.1f}s  {r['idle'] * 1000:>8.1f}ms  "
                  f"{r['busy'] * 1000:>16.1f}ms  {r['sent']:>10.0f}")
        small, large = results[0], results[-1]
        if large is not small:
            factor = large["size"] / small["size"]
            print(f"\nratio {large['size']:,} / {small['size']:,} idle games "
                  f"({factor:,.0f}x the games): tick with due work "
                  f"{large['busy'] / small['busy']:.2f}x, idle tick "
                  f"{large['idle'] / small['idle']:.2f}x")


if __name__ == "__main__":
    main()
