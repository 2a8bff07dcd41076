"""Terminal commands that need no server: ``selfplay`` and ``replay``."""

from __future__ import annotations

import json
import sys
import time

import click

from pbem.gamelog.records import GameRecord, RecordError, replay, replay_steps
from pbem.gamelog.selfplay import play_random_game
from pbem.games import game_names, get_game
from pbem.games.protocol import EVERYTHING
from pbem.games.render import seat_text


@click.command(help="Play K games of GAME to the end, bots at every seat, and report them.")
@click.argument("game_name", metavar="GAME", type=click.Choice(game_names()))
@click.option("--players", "-n", type=int, default=None, help="seats (default: the minimum)")
@click.option("--seed", "-s", type=int, default=1, show_default=True, help="first seed")
@click.option("--games", "-k", type=int, default=1, show_default=True)
@click.option("--option", "-o", "option_pairs", multiple=True, metavar="NAME=VALUE",
              help="a game option, e.g. target=45 or legat=yes")
@click.option("--record", "record_dir", type=click.Path(file_okay=False), default=None,
              help="write each game's record as JSON into this folder")
@click.option("--moves/--no-moves", default=False, help="print every move in words")
@click.option("--random", "uniform", is_flag=True,
              help="every seat plays uniformly random legal moves instead of the game's bot")
@click.option("--bot-vs-random", "bot_vs_random", is_flag=True,
              help="seat 0 plays the game's bot, every other seat uniformly random; "
                   "prints how many games seat 0 won")
def selfplay(game_name: str, players: int | None, seed: int, games: int,
             option_pairs: tuple[str, ...], record_dir: str | None, moves: bool,
             uniform: bool, bot_vs_random: bool) -> None:
    if uniform and bot_vs_random:
        raise click.UsageError("--random and --bot-vs-random exclude each other")
    game = get_game(game_name)
    players = players or game.min_players
    options = parse_options(game, option_pairs)
    total_moves = 0
    won = shared = 0
    started = time.perf_counter()
    for k in range(games):
        bots = () if uniform else (0,) if bot_vs_random else range(players)
        record, state = play_random_game(game_name, players, seed + k, options, bots=bots)
        total_moves += len(record.moves)
        result = game.result(state)
        if 0 in result.winners:
            won += len(result.winners) == 1
            shared += len(result.winners) > 1
        if moves:
            _print_moves(game, record)
        standing = ", ".join(
            f"{record.players[s]} {result.scores[s]} (#{result.ranks[s]})" for s in range(players)
        )
        click.echo(f"seed {seed + k}: {len(record.moves)} moves, rounds {game.round(state)}; "
                   f"{standing}")
        if record_dir:
            from pathlib import Path

            path = Path(record_dir)
            path.mkdir(parents=True, exist_ok=True)
            (path / f"{game_name}-{players}p-seed{seed + k}.json").write_text(
                record.dumps(), encoding="utf-8")
    elapsed = time.perf_counter() - started
    click.echo(f"{games} games, {total_moves} moves in {elapsed:.2f} s: "
               f"{total_moves / elapsed:,.0f} moves per second")
    if bot_vs_random:
        click.echo(f"seat 0 (bot) against {players - 1} random: won {won} of {games} games "
                   f"outright, shared {shared}; {won + shared} of {games} "
                   f"({(won + shared) / games:.0%}) won or shared")


_YES, _NO = ("yes", "y", "true", "on", "1"), ("no", "n", "false", "off", "0")


def parse_options(game, pairs: tuple[str, ...]) -> dict:
    """``NAME=VALUE`` pairs as the game's options: numbers as numbers, and yes/no for a
    variant that is played or not (``legat=yes``)."""
    known = {o.name: o for o in game.options}
    options = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep:
            raise click.BadParameter(f"{pair!r} is not NAME=VALUE", param_hint="--option")
        option = known.get(name)
        if option is not None and option.is_yes_no:
            if value.lower() not in _YES + _NO:
                raise click.BadParameter(f"{name} is yes or no, not {value!r}",
                                         param_hint="--option")
            options[name] = value.lower() in _YES
        else:
            options[name] = int(value) if value.lstrip("-").isdigit() else value
    return options


def _print_moves(game, record: GameRecord) -> None:
    for index, seat, move, before, after in replay_steps(record):
        sentence = seat_text(game.describe(before, seat, move, after, EVERYTHING),
                             record.players)
        click.echo(f"  {index + 1:>4}. {sentence}")


@click.command(help="Replay a game record (JSON) and print the final result as JSON.")
@click.argument("record_file", type=click.File("r", encoding="utf-8"))
def replay_cmd(record_file) -> None:
    try:
        record = GameRecord.loads(record_file.read())
        game = get_game(record.game)
        state = replay(record)
    except (RecordError, KeyError) as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(1)
    out = {
        "game": record.game,
        "rules_version": game.rules_version,
        "moves": len(record.moves),
        "over": game.is_over(state),
        "players": record.players,
        "scores": game.scores(state),
    }
    if game.is_over(state):
        out["result"] = game.result(state).to_json()
    click.echo(json.dumps(out, indent=1, ensure_ascii=False))


def register(group: click.Group) -> None:
    group.add_command(selfplay)
    group.add_command(replay_cmd, name="replay")
