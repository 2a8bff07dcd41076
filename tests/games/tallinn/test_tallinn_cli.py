"""``pbem selfplay tallinn``, with options and with ``--bot-vs-random``."""

from __future__ import annotations

import re

from click.testing import CliRunner

from pbem.cli import main


def run(*args: str):
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.stdout.strip().splitlines()


def test_selfplay_plays_tallinn_with_its_options():
    lines = run("selfplay", "tallinn", "-n", "3", "--games", "2", "-o", "legat=yes",
                "-o", "tower_order=yes")
    assert re.match(r"seed 1: \d+ moves, rounds \d+; Bot 1 ", lines[0]), lines[0]
    assert lines[-1].startswith("2 games, ")


def test_bot_vs_random_counts_the_games_seat_0_won():
    lines = run("selfplay", "tallinn", "--games", "10", "--bot-vs-random")
    match = re.fullmatch(r"seat 0 \(bot\) against 1 random: won (\d+) of 10 games outright, "
                         r"shared (\d+); (\d+) of 10 \(\d+%\) won or shared", lines[-1])
    assert match, lines[-1]
    won, shared, total = map(int, match.groups())
    assert won + shared == total >= 7
    outright = sum(bool(re.search(r"Bot 1 \d+ \(#1\)", line)) and "(#1)" not in
                   line.split("Bot 2")[1] for line in lines[:10])
    assert outright == won


def test_bot_vs_random_and_random_exclude_each_other():
    result = CliRunner().invoke(main, ["selfplay", "tallinn", "--random", "--bot-vs-random"])
    assert result.exit_code != 0 and "exclude each other" in result.output
