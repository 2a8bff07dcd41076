"""Benchmark of the game engines: how fast ``apply`` is, beside two baselines.

    python bench/engine.py                  # about 20,000 moves per game and player count
    python bench/engine.py --moves 5000     # a quicker look
    python bench/engine.py --game visby     # one game only

For every registered game (``pbem.games.all_games()``) at each of its player
counts, over random legal games with its default options, it prints

* **random play**: moves per second of whole games as ``pbem selfplay
  --random`` plays them (``to_move``, ``legal_moves``, a random choice and
  ``apply``);
* **apply**: microseconds per ``apply`` alone, replaying the recorded moves of
  those games on their recorded states;
* two baselines on the very same states, measured in the same run:
  ``copy.deepcopy(state)`` (the cost of the most obvious way to keep ``apply``
  from mutating its input) and ``json.loads(json.dumps(state))`` (what storing
  a state snapshot per move and reading it back costs at least);

and ``apply`` as a ratio of each baseline (below 1: faster than copying the
state).  The three are timed interleaved, batch by batch of moves, in ``--repeat``
rounds over every move, so that a swing of the machine's load falls on all alike; each
ratio is printed as min/median/max of the rounds.  The random-play rate is measured
once, over all the games played.
A game added to the registry is measured without a change here.
"""

from __future__ import annotations

import argparse
import copy
import json
import platform
import statistics
import sys
import time
from collections.abc import Callable

from pbem.gamelog.records import replay_steps
from pbem.gamelog.selfplay import play_random_game
from pbem.games import all_games, game_names, get_game
from pbem.games.protocol import Rules


def collect(game: Rules, players: int, moves: int) -> tuple[list[tuple[dict, int, str]], float]:
    """Random games until ``moves`` moves: every (state, seat, move) and the play rate."""
    steps: list[tuple[dict, int, str]] = []
    played = 0
    elapsed = 0.0
    seed = 1
    while played < moves:
        started = time.perf_counter()
        record, _ = play_random_game(game.name, players, seed)
        elapsed += time.perf_counter() - started
        played += len(record.moves)
        steps.extend((before, seat, move) for _i, seat, move, before, _a in replay_steps(record))
        seed += 1
    return steps, played / elapsed


#: steps per batch: apply, deepcopy and json take turns batch by batch, so that a swing
#: of the machine's load falls on all three alike
BATCH = 100


def _timed(run: Callable[[], None]) -> float:
    started = time.perf_counter()
    run()
    return time.perf_counter() - started


def measure(game: Rules, players: int, moves: int, repeat: int) -> dict[str, float]:
    steps, play_rate = collect(game, players, moves)
    apply = game.apply
    batches = [steps[i:i + BATCH] for i in range(0, len(steps), BATCH)]
    n = len(steps)
    rounds: list[dict[str, float]] = []
    for _ in range(repeat):
        total = {"apply": 0.0, "deepcopy": 0.0, "json": 0.0}
        for batch in batches:
            def run_apply(batch: list[tuple[dict, int, str]] = batch) -> None:
                for state, seat, move in batch:
                    apply(state, seat, move)

            def run_deepcopy(batch: list[tuple[dict, int, str]] = batch) -> None:
                for state, _seat, _move in batch:
                    copy.deepcopy(state)

            def run_json(batch: list[tuple[dict, int, str]] = batch) -> None:
                for state, _seat, _move in batch:
                    json.loads(json.dumps(state))

            total["apply"] += _timed(run_apply)
            total["deepcopy"] += _timed(run_deepcopy)
            total["json"] += _timed(run_json)
        rounds.append(total)
    deepcopy_ratios = sorted(r["apply"] / r["deepcopy"] for r in rounds)
    json_ratios = sorted(r["apply"] / r["json"] for r in rounds)
    return {
        "moves": n,
        "play_rate": play_rate,
        "apply_us": statistics.median(r["apply"] for r in rounds) / n * 1e6,
        "deepcopy_us": statistics.median(r["deepcopy"] for r in rounds) / n * 1e6,
        "json_us": statistics.median(r["json"] for r in rounds) / n * 1e6,
        "deepcopy_ratios": deepcopy_ratios,
        "json_ratios": json_ratios,
    }


def _spread(ratios: list[float]) -> str:
    """min/median/max of the ratios of the repeats."""
    return f"{ratios[0]:.2f}/{statistics.median(ratios):.2f}/{ratios[-1]:.2f}"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--moves", type=int, default=20_000,
                        help="at least this many moves per game and player count "
                             "(default 20000)")
    parser.add_argument("--repeat", type=int, default=5,
                        help="rounds over every move, each interleaved batch by batch; the "
                             "ratios are printed as min/median/max of the rounds (default 5)")
    parser.add_argument("--game", action="append", choices=game_names(), default=None,
                        help="measure only this game (repeat for several; default: every "
                             "registered game)")
    args = parser.parse_args(argv)
    games = [get_game(name) for name in args.game] if args.game else all_games()

    print(f"Game engines, Python {platform.python_version()} "
          f"({platform.python_implementation()}), {args.repeat} rounds, apply and the "
          f"baselines interleaved in batches of {BATCH} moves")
    print("baselines per move on the same states: deepcopy = copy.deepcopy(state), "
          "json = json.loads(json.dumps(state)); µs are medians of the rounds")
    print()
    header = (f"{'game':<10} {'rules':>5} {'players':>7} {'moves':>7} {'play moves/s':>13} "
              f"{'apply µs':>9} {'apply/s':>9} {'deepcopy µs':>12} {'json µs':>8} "
              f"{'apply/deepcopy min/med/max':>27} {'apply/json min/med/max':>23}")
    print(header)
    print("-" * len(header))
    for game in games:
        for players in range(game.min_players, game.max_players + 1):
            r = measure(game, players, args.moves, args.repeat)
            print(f"{game.name:<10} {game.rules_version:>5} {players:>7} {r['moves']:>7,} "
                  f"{r['play_rate']:>13,.0f} {r['apply_us']:>9.2f} "
                  f"{1e6 / r['apply_us']:>9,.0f} {r['deepcopy_us']:>12.2f} "
                  f"{r['json_us']:>8.2f} {_spread(r['deepcopy_ratios']):>27} "
                  f"{_spread(r['json_ratios']):>23}", flush=True)
    print()
    print("play moves/s: whole random games (to_move, legal_moves, choice, apply); "
          "apply µs: the game's apply alone.")
    print("A ratio below 1 means apply costs less than that baseline on the same state.")


if __name__ == "__main__":
    sys.exit(main())
