"""How strong the bot levels are: each level against the one below, per game and player count.

    nice python bench/bots.py                          # every pair, game and count
    nice python bench/bots.py --pair strong:easy --game riga --players 2 --games 40
    nice python bench/bots.py --jobs 2                  # games in two processes

One seat plays the upper level (``pbem.games.search.LEVELS``), every other seat the lower
one; the upper seat goes round the table from game to game, and game ``i`` of a case has
the same seed in every run (``--first`` starts at another ``i``, to add games to a case).
Searching levels think by their number of iterations, not by the clock, so a result
repeats exactly whatever the machine's load; ``--clock`` gives them their seconds of
CPU instead (``Level.seconds``), as the server does, so that the levels players meet
are measured too (CPU seconds move little with the load, but a result then depends on
the machine and no longer repeats exactly).

It prints per case the upper level's share of first places (a first place shared by
``k`` seats counts ``1/k``), its 95% Wilson interval, and whether the interval's lower end
clears the bar (60% with 2 players, 40% with 3 or 4), beside the CPU seconds a searched
move took on average and at most, and the machine's load average when the case ended.
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from pbem.games import game_names, get_game, search

BARS = {2: 0.60, 3: 0.40, 4: 0.40}


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a share ``wins / n``."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def _move(game, state, seat, rng, level: search.Level, horizon: int | None,
          clock: bool = False) -> str:
    if not level.searches:
        return game.bot_move(state, seat, rng)
    if clock:  # as the server thinks: the level's seconds of this process's CPU
        begun = time.process_time()
        budget = search.Budget(stop=lambda: time.process_time() - begun >= level.seconds)
    else:
        budget = search.Budget(iterations=level.iterations)
    return search.choose(game, state, seat, rng, budget, horizon)


def play_one(args: tuple[str, int, int, str, str, int | None, int | None, bool]
             ) -> tuple[float, list[float]]:
    """One game: the upper level's share of first place, and its seconds per searched move."""
    name, players, index, upper, lower, horizon, iterations, clock = args
    game = get_game(name)
    levels = {k: search.LEVELS[k] for k in (upper, lower)}
    if iterations is not None:
        levels[upper] = search.Level(upper, levels[upper].seconds, iterations)
    me = index % players
    seed = f"bench-bots-{name}-{players}-{index}"
    state = game.setup(players, None, seed)
    rng = random.Random(seed)
    spent: list[float] = []
    while movers := game.to_move(state):
        seat = movers[0]
        level = levels[upper] if seat == me else levels[lower]
        started = time.process_time()
        move = _move(game, state, seat, rng, level, horizon, clock)
        if seat == me and level.searches and len(game.legal_moves(state, seat)) > 1:
            spent.append(time.process_time() - started)
        state = game.apply(state, seat, move)
    winners = game.result(state).winners
    return (1.0 / len(winners) if me in winners else 0.0), spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", action="append", choices=game_names())
    parser.add_argument("--players", type=int, action="append")
    parser.add_argument("--pair", action="append",
                        help="upper:lower, e.g. strong:easy (default: each level against "
                             "the one below, and strong against easy)")
    parser.add_argument("--games", type=int, default=20, help="games per case")
    parser.add_argument("--first", type=int, default=0,
                        help="the first game's number: a later run adds games of other seeds")
    parser.add_argument("--iterations", type=int, help="the upper level's iterations")
    parser.add_argument("--horizon", type=int,
                        help="moves per playout (default: each game's search_horizon)")
    parser.add_argument("--clock", action="store_true",
                        help="searching levels think by their seconds of CPU, as the server "
                             "has them think (results then depend on the machine)")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--each", action="store_true",
                        help="print each game's result to stderr as it ends")
    args = parser.parse_args()
    names = args.game or list(game_names())
    pairs = [tuple(p.split(":")) for p in (args.pair or ["normal:easy", "strong:normal",
                                                          "strong:easy"])]
    print(f"# bench/bots.py on {platform.node()}, {os.cpu_count()} cores, Python "
          f"{platform.python_version()}, load {os.getloadavg()[0]:.1f} at the start")
    thinks = ((lambda lv: f"{lv.seconds} s of CPU") if args.clock
              else (lambda lv: f"{lv.iterations} iterations"))
    print("# levels: " + ", ".join(f"{lv.name} {thinks(lv)}"
                                    for lv in search.LEVELS.values() if lv.searches)
          + (f"; the upper level here {args.iterations} iterations" if args.iterations else "")
          + f"; horizon {args.horizon or 'the game’s'} moves; {args.games} games per case")
    print(f"{'game':8} {'n':>2} {'pair':14} {'games':>5} {'first':>6} {'95% interval':>15}"
          f" {'bar':>4} {'clears':>6} {'s/move':>7} {'max s':>6} {'load':>5}")
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for name in names:
            game = get_game(name)
            for players in args.players or range(game.min_players, game.max_players + 1):
                if not game.min_players <= players <= min(game.max_players, 4):
                    continue
                for upper, lower in pairs:
                    jobs = [(name, players, i, upper, lower, args.horizon, args.iterations,
                             args.clock)
                            for i in range(args.first, args.first + args.games)]
                    results = []
                    for i, result in enumerate(pool.map(play_one, jobs), args.first):
                        results.append(result)
                        if args.each:  # a long case shows how it goes
                            print(f"# game {i}: {result[0]:.2f}", file=sys.stderr, flush=True)
                    wins = sum(w for w, _ in results)
                    spent = [s for _, ss in results for s in ss]
                    low, high = wilson(wins, len(results))
                    bar = BARS[players]
                    mean = sum(spent) / len(spent) if spent else 0.0
                    print(f"{name:8} {players:>2} {upper + ':' + lower:14} {len(results):>5}"
                          f" {wins / len(results):>6.1%} {f'{low:.1%}-{high:.1%}':>15}"
                          f" {bar:>4.0%} {'yes' if low >= bar else 'no':>6} {mean:>7.3f}"
                          f" {max(spent, default=0.0):>6.2f} {os.getloadavg()[0]:>5.1f}",
                          flush=True)
    sys.stdout.flush()


if __name__ == "__main__":
    main()
