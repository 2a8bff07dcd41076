"""Clicks a turn: how many confirm clicks a person needs per turn, today's beside a
baseline revision's, every game played by its bots.

    python bench/clicks.py                      # 4 games per player count, baseline 954aea5
    python bench/clicks.py --games 10 --game macao
    python bench/clicks.py --baseline HEAD~3    # any revision of this repository

For every registered game at each of its player counts it plays ``--games`` whole games
with fixed seeds, every seat choosing by the game's ``bot_move``, and counts per seat
turn (a turn ends where ``Rules.turn_over`` says so) the moves a person would confirm:
every move the seat makes, menu navigation included, except the moves the server plays
by itself (``Rules.formality``, played at once as the server does).  Every turn counts,
one the server played alone (only formalities) with no click, so that both sides divide
by the turns of the same games.  For Macao it also counts the action phase alone (a
seat's turn that begins in phase ``actions``: its whole action phase of a round).

The baseline is the ``pbem/`` package of ``--baseline`` (``git archive`` into a
temporary folder), counted by this same script in a subprocess that imports it instead
of the working tree's; both run the same seeds in the same run, and the table gives the
working tree's average as a ratio of the baseline's (below 1: fewer clicks).  The games
differ where the rules or the bots changed, so the figures are averages over many turns,
not the same turns counted twice.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import subprocess
import sys
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
#: today's main before the payments became whole moves (issue 22, item 3)
BASELINE = "954aea5"


def play(name: str, players: int, seed: str) -> dict[str, list[int]]:
    """One game of ``name`` played by its bots: the clicks of each turn, all turns
    (``turns``) and, for Macao, those of the action phase (``actions``)."""
    from pbem.games import get_game

    game = get_game(name)
    rng = random.Random(seed)
    state = game.setup(players, None, seed)
    open_turns: dict[int, list[Any]] = {}        # seat -> [clicks, phase it began in]
    out: dict[str, list[int]] = {"turns": [], "actions": []}
    while not game.is_over(state):
        seat = rng.choice(game.to_move(state))
        formal = game.formality(state, seat)
        move = formal if formal is not None else game.bot_move(state, seat, rng)
        turn = open_turns.setdefault(seat, [0, state.get("phase")])
        turn[0] += formal is None
        after = game.apply(state, seat, move)
        if game.turn_over(state, seat, move, after):
            clicks, phase = open_turns.pop(seat)
            out["turns"].append(clicks)
            if name == "macao" and phase == "actions":
                out["actions"].append(clicks)
        state = after
    return out


def count(games: list[str] | None, per_count: int) -> dict[str, dict[str, Any]]:
    """Per game and player count: turns, clicks, action-phase turns and their clicks."""
    from pbem.games import all_games

    result: dict[str, dict[str, Any]] = {}
    for game in all_games():
        if games and game.name not in games:
            continue
        for players in range(game.min_players, game.max_players + 1):
            turns: list[int] = []
            actions: list[int] = []
            for i in range(per_count):
                played = play(game.name, players, f"clicks-{game.name}-{players}-{i}")
                turns += played["turns"]
                actions += played["actions"]
            result[f"{game.name} {players}"] = {
                "game": game.name, "players": players, "turns": len(turns),
                "clicks": sum(turns), "action_turns": len(actions),
                "action_clicks": sum(actions)}
    return result


def baseline(revision: str, games: list[str] | None, per_count: int) -> dict[str, Any]:
    """The same count over ``pbem/`` of ``revision``, in a subprocess that imports it."""
    tar = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", revision, "pbem"],
                         check=True, capture_output=True).stdout
    with tempfile.TemporaryDirectory(prefix="pbem-clicks-") as tmp:
        with tarfile.open(fileobj=BytesIO(tar)) as archive:
            archive.extractall(tmp, filter="data")
        env = dict(os.environ, PYTHONPATH=tmp)
        argv = [sys.executable, str(Path(__file__).resolve()), "--json",
                "--games", str(per_count)] + [a for g in games or [] for a in ("--game", g)]
        done = subprocess.run(argv, check=True, capture_output=True, text=True, env=env,
                              cwd=tmp)
    return json.loads(done.stdout)


def _average(clicks: int, turns: int) -> float:
    return clicks / turns if turns else 0.0


def _line(label: str, old: tuple[int, int], new: tuple[int, int]) -> str:
    before, after = _average(*old), _average(*new)
    ratio = f"{after / before:.2f}" if before else "-"
    return (f"{label:<22} {old[1]:>7,} {before:>9.2f} {new[1]:>7,} {after:>9.2f} "
            f"{ratio:>6}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=4,
                        help="games per game and player count (default 4)")
    parser.add_argument("--game", action="append", default=None,
                        help="count only this game (repeat for several; default: all)")
    parser.add_argument("--baseline", default=BASELINE,
                        help=f"the git revision to compare with (default {BASELINE})")
    parser.add_argument("--json", action="store_true",
                        help="print this tree's counts as JSON only (the baseline's run)")
    args = parser.parse_args(argv)
    if args.json:
        print(json.dumps(count(args.game, args.games)))
        return
    old = baseline(args.baseline, args.game, args.games)
    sys.path.insert(0, str(ROOT))
    new = count(args.game, args.games)
    head = subprocess.run(["git", "-C", str(ROOT), "describe", "--always", "--dirty"],
                          capture_output=True, text=True).stdout.strip()
    print(f"Confirm clicks per turn, bots choosing, {args.games} games per player count "
          f"(seeded), Python {platform.python_version()}")
    print(f"baseline {args.baseline} beside this tree ({head}); formalities the server "
          "plays are no clicks")
    print()
    header = (f"{'game, players':<22} {'turns':>7} {'baseline':>9} {'turns':>7} "
              f"{'now':>9} {'ratio':>6}")
    print(header)
    print("-" * len(header))
    totals: dict[str, list[int]] = {}
    for key in new:
        o, n = old.get(key), new[key]
        if o is None:
            continue
        print(_line(key, (o["clicks"], o["turns"]), (n["clicks"], n["turns"])))
        t = totals.setdefault(n["game"], [0, 0, 0, 0, 0, 0, 0, 0])
        for i, k in enumerate(("clicks", "turns", "action_clicks", "action_turns")):
            t[i] += o[k]
            t[4 + i] += n[k]
    print("-" * len(header))
    for name, t in totals.items():
        print(_line(f"{name}, all", (t[0], t[1]), (t[4], t[5])))
        if t[3] and t[7]:
            print(_line(f"{name}, action phase", (t[2], t[3]), (t[6], t[7])))
    print()
    print("turns: seat turns (those the server plays alone count, with no click); "
          "baseline/now: average confirm clicks per turn; ratio: now / baseline.")


if __name__ == "__main__":
    sys.exit(main())
