"""Benchmark of the games' pictures: how long ``picture`` takes, beside a baseline.

    python bench/pictures.py                # every game, every player count
    python bench/pictures.py --game macao   # one game only
    python bench/pictures.py --digest       # also a sha256 over every picture drawn

For every registered game with a picture, at each of its player counts, it plays
``--games`` seeded random games with its default options and keeps every
``--every``-th state.  At each kept state it draws every viewer's picture (each seat's,
the spectator's and the archive's) in English and German, and the seat to move's
picture once more with a link for every region its menu names (the seat page's): the
pictures the seat page, the mails, the archive and the contract test draw.

The baseline is ``copy.deepcopy`` of the views drawn (what it costs at least to touch
every value of the view once in Python), timed interleaved with the pictures, batch
by batch of states, in ``--repeat`` rounds, so that a swing of the machine's load
falls on both alike (each round draws the states in the order played, and begins with
what the canvas keeps between pictures forgotten: no round draws from another's); the
ratio picture/deepcopy is printed as min/median/max of the rounds.  Run the bench on
two trees (before and after a change) to compare them: the ratio travels between runs
better than the milliseconds do, and ``--digest`` tells whether both drew the same
bytes (the golden manifest does not draw links).
"""

from __future__ import annotations

import argparse
import copy
import hashlib
import platform
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

from pbem.gamelog.records import replay_steps
from pbem.gamelog.selfplay import play_random_game
from pbem.games import all_games, game_names, get_game, svg
from pbem.games.protocol import EVERYTHING, SPECTATOR, Rules

LANGS = ("en", "de")
#: names that make the pictures escape and shorten, as players' names do
NAMES = ["Alice", "Bob <&> \"Co\"", "Carol Longname-Overflowingsson", "Dörte", "Eve",
         "Ferdinand"]
#: states per batch: pictures and the baseline take turns batch by batch
BATCH = 10


@dataclass
class Drawing:
    """One picture to draw: the view and what else ``picture`` is given."""

    view: object
    lang: str
    links: dict[str, str] | None


def _links(game: Rules, state: object, seat: int) -> dict[str, str]:
    """A link for every region the menu of ``seat`` names, as the seat page makes them."""
    return {c.region: f"/m/{i}" for i, c in enumerate(game.menu(state, seat, "en"))
            if c.region}


def _drawings(game: Rules, state: object, players: int) -> list[Drawing]:
    viewers: list[int | None] = [*range(players), SPECTATOR, EVERYTHING]
    drawings = []
    for viewer in viewers:
        view = game.view(state, viewer)
        drawings.extend(Drawing(view, lang, None) for lang in LANGS)
    for seat in game.to_move(state):
        links = _links(game, state, seat)
        if links:
            drawings.append(Drawing(game.view(state, seat), "en", links))
    return drawings


def collect(game: Rules, players: int, games: int, every: int) -> list[list[Drawing]]:
    """The pictures to draw, state by state: every ``every``-th state of ``games``
    seeded random games."""
    states = []
    for seed in range(1, games + 1):
        record, _ = play_random_game(game.name, players, seed)
        for i, _seat, _move, before, _after in replay_steps(record):
            if i % every == 0:
                states.append(_drawings(game, before, players))
    return states


def _timed(run: Callable[[], None]) -> float:
    started = time.perf_counter()
    run()
    return time.perf_counter() - started


def measure(game: Rules, states: list[list[Drawing]], repeat: int) -> dict[str, object]:
    names = NAMES[:len(states[0][0].view["seats"])] if states else NAMES
    batches = [[d for s in states[i:i + BATCH] for d in s]
               for i in range(0, len(states), BATCH)]
    picture = game.picture
    rounds = []
    for _ in range(repeat):
        # each round as a fresh process draws them: what a picture keeps for the next
        # (``pbem.games.svg``) is kept from the pictures before it in this round only
        if hasattr(svg, "forget"):
            svg.forget()
        else:  # a tree from before ``forget``: its attributes kept
            getattr(svg, "_WRITTEN", {}).clear()
        total = {"picture": 0.0, "deepcopy": 0.0}
        for batch in batches:
            def run_picture(batch: list[Drawing] = batch) -> None:
                for d in batch:
                    picture(d.view, names, d.lang, d.links)

            def run_deepcopy(batch: list[Drawing] = batch) -> None:
                for d in batch:
                    copy.deepcopy(d.view)

            total["picture"] += _timed(run_picture)
            total["deepcopy"] += _timed(run_deepcopy)
        rounds.append(total)
    n = sum(len(b) for b in batches)
    return {"pictures": n,
            "picture_us": statistics.median(r["picture"] for r in rounds) / n * 1e6,
            "deepcopy_us": statistics.median(r["deepcopy"] for r in rounds) / n * 1e6,
            "ratios": sorted(r["picture"] / r["deepcopy"] for r in rounds)}


def digest(game: Rules, states: list[list[Drawing]]) -> str:
    """sha256 over every picture drawn, in order: equal on two trees, equal bytes."""
    names = NAMES[:len(states[0][0].view["seats"])] if states else NAMES
    sha = hashlib.sha256()
    for drawings in states:
        for d in drawings:
            sha.update((game.picture(d.view, names, d.lang, d.links) or "").encode())
    return sha.hexdigest()[:16]


def _spread(ratios: list[float]) -> str:
    return f"{ratios[0]:.2f}/{statistics.median(ratios):.2f}/{ratios[-1]:.2f}"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=3,
                        help="seeded random games per game and player count (default 3)")
    parser.add_argument("--every", type=int, default=10,
                        help="draw at every this many states (default 10)")
    parser.add_argument("--repeat", type=int, default=5,
                        help="rounds over every picture, interleaved with the baseline "
                             "batch by batch (default 5)")
    parser.add_argument("--game", action="append", choices=game_names(), default=None,
                        help="measure only this game (repeat for several)")
    parser.add_argument("--digest", action="store_true",
                        help="print a sha256 over every picture drawn (to compare trees)")
    args = parser.parse_args(argv)
    games = [get_game(name) for name in args.game] if args.game else all_games()

    print(f"Pictures, Python {platform.python_version()}, {args.repeat} rounds, pictures "
          f"and deepcopy of their views interleaved in batches of {BATCH} states")
    header = (f"{'game':<10} {'players':>7} {'pictures':>8} {'picture µs':>11} "
              f"{'deepcopy µs':>12} {'picture/deepcopy min/med/max':>29}"
              + (f" {'digest':>16}" if args.digest else ""))
    print(header)
    print("-" * len(header))
    for game in games:
        for players in range(game.min_players, game.max_players + 1):
            states = collect(game, players, args.games, args.every)
            if not states or game.picture(states[0][0].view, NAMES[:players]) is None:
                continue
            r = measure(game, states, args.repeat)
            line = (f"{game.name:<10} {players:>7} {r['pictures']:>8,} "
                    f"{r['picture_us']:>11.1f} {r['deepcopy_us']:>12.1f} "
                    f"{_spread(r['ratios']):>29}")
            if args.digest:
                line += f" {digest(game, states):>16}"
            print(line, flush=True)
    print()
    print("picture µs: one picture (a viewer, a language; links where the seat page has "
          "them), median of the rounds; deepcopy µs: copy.deepcopy of its view.")


if __name__ == "__main__":
    sys.exit(main())
