"""Finished games played by bots, for the archive's tests (see ``conftest.archive``).

Every registered game, every player count it allows, three seeds each;
named players (some with hostile names) on most seats and bots of their own
on the rest, the games ending over three months.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path

from pbem.archive.sample import add_finished_game
from pbem.games import all_games
from pbem.models import Game, Player

HOSTILE = "<script>alert('x')</script>"
MARKDOWN_NAME = "*Bold* [link](javascript:alert(1)) {: onclick=x} | # 1. & &amp;"
LINE_START_NAME = "1. Listed"
NAMES = ["Heike", "Malte", HOSTILE, "Anne-Marie", MARKDOWN_NAME, "Søren Ø", LINE_START_NAME]
SEEDS_PER_COUNT = 3
START = datetime(2024, 1, 3, 12, 0)


@dataclass
class Archive:
    site: Path
    players: list[Player]
    games: list[Game] = field(default_factory=list)
    counter: int = 0

    def add(self, game_name: str, seats: list[Player | None], seed: int,
            finished_at: datetime | None = None) -> Game:
        self.counter += 1
        when = finished_at or START + timedelta(days=3 * self.counter, hours=self.counter)
        game = add_finished_game(game_name, seats, seed, when)
        self.games.append(game)
        return game


def fill(archive: Archive) -> None:
    players = archive.players
    k = 0
    for game in all_games():
        for count in range(game.min_players, game.max_players + 1):
            for seed in range(SEEDS_PER_COUNT):
                # the last seat of games with 4 or more is a bot of its own
                seats: list[Player | None] = [players[(k + i) % len(players)]
                                              for i in range(count)]
                if count >= 4:
                    seats[-1] = None
                archive.add(game.name, seats, seed=100 * count + seed)
                k += 1
