"""Whole games played through the server's lifecycle, then ``pbem verify`` over all of them.

    python bench/server_games.py                  # 50 games of each kind, SQLite
    python bench/server_games.py --games 5 --kinds riga,macao

As in production, the database sits between the moves: the seats of every game are
people (invited, accepted) whose moves go through ``pbem.lifecycle.moves.play`` from
the state read back from the database, and now and then a person takes a step back
(``take_back``, which rebuilds from the log); at a table of three or more, the last
seat is a bot, which the server moves itself within the people's changes.  A person
plays what the game's bot would.  Player counts run through each game's range, options
through their values.

At the end ``pbem verify`` checks every game: its log must replay to the stored
snapshot, status, result and every move's sentences (issue 28: a rule that followed
the key order of a dict made the game played differ from its replay).  The script
prints the games per kind, moves, seconds, and verify's summary and exit status;
it exits with verify's.  ``tests/lifecycle/test_replay_through_server.py`` runs a
few games of each kind through the same function.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from itertools import cycle, product
from pathlib import Path
from typing import Any

from pbem.context import Context, make_context
from pbem.games import get_game
from pbem.lifecycle import create, moves
from pbem.models import Game, Seat, create_tables, open_database

KINDS = ("riga", "visby", "tallinn", "macao")
#: a whole game's moves and take-backs, at most (the longest Macao has some 700 moves)
MAX_STEPS = 20_000


def configurations(name: str) -> list[tuple[int, dict[str, Any]]]:
    """Every player count of ``name`` with every combination of its options it accepts."""
    rules = get_game(name)
    out = []
    for players in range(rules.min_players, rules.max_players + 1):
        for values in product(*(o.choices for o in rules.options)):
            options = {o.name: v for o, v in zip(rules.options, values, strict=True)}
            try:
                rules.resolve_options(options, players)
            except Exception:  # noqa: BLE001 - a combination the game refuses
                continue
            out.append((players, options))
    return out


def play_through_server(ctx: Context, name: str, players: int, options: dict[str, Any],
                        seed: str, takeback_share: float = 0.03,
                        stop_after: int = MAX_STEPS) -> Game:
    """One game of ``name`` played through the lifecycle to its end (or until the log has
    ``stop_after`` moves): the game.

    Every seat is a person (playing the game's bot's move through ``moves.play`` with
    the seat's link versions) but the last of three or more, a bot.
    """
    rules = get_game(name)
    people = players if players == 2 else players - 1
    creator = create.get_or_create_player(f"seat0-{seed}@example.org", "Anna")
    invited = [f"seat{i}-{seed}@example.org" for i in range(1, people)]
    game = create.create_game(ctx, name, creator, [*invited, *[None] * (players - people)],
                              options=options, seed=seed)
    for index, address in enumerate(invited, start=1):
        seat = Seat.get(Seat.game == game, Seat.index == index)
        create.accept_invite(ctx, game, seat, create.get_or_create_player(address, f"P{index}"))
    rng = random.Random(seed)
    for _step in range(MAX_STEPS):
        game = Game.get_by_id(game.id)
        if game.status == Game.FINISHED or game.seq >= stop_after:
            return game
        if game.bots_pending:  # what the tick does
            moves.continue_bots(ctx, game.id)
            continue
        state = game.state  # read back from the database, keys sorted
        index = rng.choice(rules.to_move(state))
        seat = Seat.get(Seat.game == game, Seat.index == index)
        if rng.random() < takeback_share and moves.takeback_candidate(game, index):
            moves.take_back(ctx, game.id, index, menu_seq=seat.menu_seq)
            continue
        moves.play(ctx, game.id, index, rules.bot_move(state, index, rng),
                   menu_seq=seat.menu_seq, turn_seq=seat.turn_seq)
    raise RuntimeError(f"{name} game {game.id} (seed {seed}) did not end in {MAX_STEPS} steps")


def play_many(ctx: Context, kinds: list[str], per_kind: int, seed: str) -> dict[str, Any]:
    """``per_kind`` games of each kind, configurations in turn; moves and seconds per kind."""
    out: dict[str, Any] = {}
    for name in kinds:
        started, total = time.perf_counter(), 0
        configs = cycle(configurations(name))
        for k in range(per_kind):
            players, options = next(configs)
            total += play_through_server(ctx, name, players, options, f"{seed}-{name}-{k}").seq
        out[name] = {"games": per_kind, "moves": total,
                     "seconds": round(time.perf_counter() - started, 1)}
    return out


def _verify(env: dict[str, str]) -> tuple[int, str]:
    from click.testing import CliRunner

    from pbem.cli import main

    result = CliRunner().invoke(main, ["verify", "--quiet"], env=env, catch_exceptions=False)
    return result.exit_code, result.output


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=50, help="games of each kind")
    parser.add_argument("--kinds", default=",".join(KINDS))
    parser.add_argument("--seed", default="verify")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="pbem-server-games-"))
    env = {"PBEM_SERVER_INSTANCE": str(folder / "instance"),
           "PBEM_SERVER_BASE_URL": "http://pbem.test",
           "PBEM_ARCHIVE_SITE_DIR": str(folder / "site"),
           "PBEM_DATABASE_URL": ""}  # the instance folder's SQLite
    os.environ.update(env)
    ctx = make_context()
    open_database(ctx.config.database_url)
    create_tables()
    figures = play_many(ctx, args.kinds.split(","), args.games, args.seed)
    for name, row in figures.items():
        print(f"{name:8} {row['games']} games, {row['moves']} moves, {row['seconds']} s")
    started = time.perf_counter()
    status, output = _verify(env)
    print(output.rstrip())
    print(f"pbem verify: exit status {status} ({time.perf_counter() - started:.1f} s); "
          f"database in {folder}")
    return status


if __name__ == "__main__":
    sys.exit(main())
