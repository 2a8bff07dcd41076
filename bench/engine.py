"""Benchmark of the Visby engine: how fast ``apply`` is, beside two baselines.

    python bench/engine.py                  # about 20,000 moves per player count
    python bench/engine.py --moves 5000     # a quicker look

For random legal games of 2, 4 and 6 players it prints

* **random play**: moves per second of whole games as ``pbem selfplay`` plays
  them (``to_move``, ``legal_moves``, a random choice and ``apply``);
* **apply**: microseconds per ``GAME.apply`` alone, replaying the recorded
  moves of those games on their recorded states;
* two baselines on the very same states, measured in the same run:
  ``copy.deepcopy(state)`` (the cost of the most obvious way to keep ``apply``
  from mutating its input) and ``json.loads(json.dumps(state))`` (what storing
  a state snapshot per move and reading it back costs at least);

and ``apply`` as a ratio of each baseline (below 1: faster than copying the
state).  The apply and baseline timings are each the best of ``--repeat``
runs; the random-play rate is measured once, over all the games played.
"""

from __future__ import annotations

import argparse
import copy
import json
import platform
import sys
import time
from collections.abc import Callable

from pbem.games.visby import GAME
from pbem.lifecycle.records import replay_steps
from pbem.lifecycle.selfplay import play_random_game

PLAYER_COUNTS = (2, 4, 6)


def collect(players: int, moves: int) -> tuple[list[tuple[dict, int, str]], float]:
    """Random games until ``moves`` moves: every (state, seat, move) and the play rate."""
    steps: list[tuple[dict, int, str]] = []
    played = 0
    elapsed = 0.0
    seed = 1
    while played < moves:
        started = time.perf_counter()
        record, _ = play_random_game("visby", players, seed)
        elapsed += time.perf_counter() - started
        played += len(record.moves)
        steps.extend((before, seat, move) for _i, seat, move, before, _a in replay_steps(record))
        seed += 1
    return steps, played / elapsed


def best_of(repeat: int, run: Callable[[], None]) -> float:
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - started)
    return best


def measure(players: int, moves: int, repeat: int) -> dict[str, float]:
    steps, play_rate = collect(players, moves)
    apply = GAME.apply
    states = [state for state, _seat, _move in steps]

    def run_apply() -> None:
        for state, seat, move in steps:
            apply(state, seat, move)

    def run_deepcopy() -> None:
        for state in states:
            copy.deepcopy(state)

    def run_json() -> None:
        for state in states:
            json.loads(json.dumps(state))

    n = len(steps)
    return {
        "moves": n,
        "play_rate": play_rate,
        "apply_us": best_of(repeat, run_apply) / n * 1e6,
        "deepcopy_us": best_of(repeat, run_deepcopy) / n * 1e6,
        "json_us": best_of(repeat, run_json) / n * 1e6,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--moves", type=int, default=20_000,
                        help="at least this many moves per player count (default 20000)")
    parser.add_argument("--repeat", type=int, default=3, help="best of N timings (default 3)")
    args = parser.parse_args(argv)

    print(f"Visby engine, rules {GAME.rules_version}, Python {platform.python_version()} "
          f"({platform.python_implementation()}), best of {args.repeat}")
    print("baselines per move on the same states: deepcopy = copy.deepcopy(state), "
          "json = json.loads(json.dumps(state))")
    print()
    header = (f"{'players':>7} {'moves':>7} {'play moves/s':>13} {'apply µs':>9} "
              f"{'apply/s':>9} {'deepcopy µs':>12} {'json µs':>8} "
              f"{'apply/deepcopy':>15} {'apply/json':>11}")
    print(header)
    print("-" * len(header))
    for players in PLAYER_COUNTS:
        r = measure(players, args.moves, args.repeat)
        print(f"{players:>7} {r['moves']:>7,} {r['play_rate']:>13,.0f} {r['apply_us']:>9.2f} "
              f"{1e6 / r['apply_us']:>9,.0f} {r['deepcopy_us']:>12.2f} {r['json_us']:>8.2f} "
              f"{r['apply_us'] / r['deepcopy_us']:>15.2f} {r['apply_us'] / r['json_us']:>11.2f}",
              flush=True)
    print()
    print("play moves/s: whole random games (to_move, legal_moves, choice, apply); "
          "apply µs: GAME.apply alone.")
    print("A ratio below 1 means apply costs less than that baseline on the same state.")


if __name__ == "__main__":
    sys.exit(main())
