"""Commands that run and look after the server: init-db, serve, demo, verify, export, import."""

from __future__ import annotations

import os
import sys
from typing import Any

import click

from pbem.cli.play import parse_options
from pbem.context import Context, make_context
from pbem.gamelog.records import GameRecord, RecordError, replay
from pbem.games import UnknownGameError, game_names, get_game
from pbem.games.protocol import RESULT_LANGUAGE_KEYS, OptionError, Result
from pbem.lifecycle import create
from pbem.lifecycle.records import game_record, import_record
from pbem.mail import compose
from pbem.models import Game, Move, Player, Seat, create_tables, db, open_database

DEMO_EMAIL = "demo@localhost"
# a name, not "You": the game's sentences name seats in the third person ("Alex chooses
# Truppen"), and pages mark your own seat "(you)" already
DEMO_NAME = "Alex"


def _open(ctx: Context | None = None, create: bool = False) -> Context:
    ctx = ctx or make_context()
    open_database(ctx.config.database_url)
    if create:
        create_tables()
    elif not db.table_exists("game"):
        click.echo(f"error: no pbem database at {_shown(ctx.config.database_url)}; "
                   "run `pbem init-db` first", err=True)
        sys.exit(1)
    return ctx


def _shown(url: str) -> str:
    """A database URL without its password, for messages."""
    if "@" in url and "://" in url:
        scheme, rest = url.split("://", 1)
        cred, host = rest.rsplit("@", 1)
        return f"{scheme}://{cred.split(':', 1)[0]}:***@{host}" if ":" in cred else url
    return url


@click.command("init-db", help="Create the database tables (safe to run again).")
def init_db() -> None:
    ctx = _open(create=True)
    click.echo(f"database ready: {_shown(ctx.config.database_url)}")


def scheduler_wanted(ctx: Context, use_reloader: bool, environ: dict[str, str]) -> bool:
    """Whether this process runs the scheduler: enabled, and not the reloader's watcher.

    With the reloader, werkzeug runs the app in a child process that has
    ``WERKZEUG_RUN_MAIN=true``; the parent only watches files.  Only the child
    may tick, or every mail would have two senders racing for it.
    """
    if not ctx.config.getbool("scheduler", "enabled"):
        return False
    return not use_reloader or environ.get("WERKZEUG_RUN_MAIN") == "true"


@click.command(help="Run the development web server with the scheduler in the same process.")
@click.option("--host", default=None, help="address to listen on (default: [server] host)")
@click.option("--port", type=int, default=None, help="port (default: [server] port)")
@click.option("--reload/--no-reload", default=False,
              help="restart when the code changes (the scheduler runs in the child only)")
def serve(host: str | None, port: int | None, reload: bool) -> None:
    # the web app (Flask, every blueprint) is the heaviest import: only `serve` needs it
    from pbem.web import create_app

    ctx = _open(create=True)
    db.close()  # back to the pool: the requests' threads take their own
    app = create_app(ctx)
    host = host or ctx.config.get("server", "host")
    port = port or ctx.config.getint("server", "port")
    if scheduler_wanted(ctx, reload, dict(os.environ)):
        from pbem.time.scheduler import start_background  # APScheduler: see `demo`

        background = start_background(ctx)
        click.echo(f"scheduler: a tick every {ctx.config.get('scheduler', 'interval_seconds')} s")
        if background is not None and not background.pbem_standby.holding:
            click.echo(f"scheduler: waiting: {background.pbem_lock.holder()}; "
                       "this one takes over when it stops")
    if os.environ.get("WERKZEUG_RUN_MAIN") != "true":
        click.echo(f"pbem on {ctx.base_url}/ (listening on {host}:{port})")
        if not ctx.config.getbool("server", "production"):
            click.echo(f"mails: {ctx.base_url}/dev/mail")
    app.run(host=host, port=port, debug=False, use_reloader=reload, threaded=True)


@click.command(help="Create a demo game (you against bots), deliver its mail, print the links.")
@click.option("--game", "game_name", type=click.Choice(game_names()), default="visby",
              show_default=True)
@click.option("--players", "-n", type=int, default=3, show_default=True,
              help="seats, you included (within what the game allows)")
@click.option("--option", "-o", "option_pairs", multiple=True, metavar="NAME=VALUE",
              help="a game option, e.g. target=45 or legat=yes")
@click.option("--new", "force_new", is_flag=True,
              help="always start another game, even when a demo game is running")
@click.option("--seed", type=str, default=None)
@click.option("--name", default=DEMO_NAME, show_default=True,
              help="your name at the table (when the demo player is first made)")
def demo(game_name: str, players: int, option_pairs: tuple[str, ...], force_new: bool,
         seed: str | None, name: str) -> None:
    # the scheduler module loads APScheduler: only the commands that tick pay for it
    from pbem.time.scheduler import tick

    ctx = _open(create=True)
    # created directly: the service's address check wants a dot in the domain
    you = Player.get_or_none(Player.email == DEMO_EMAIL) or Player.create(
        email=DEMO_EMAIL, name=name, quiet_start="00:00", quiet_end="00:00")
    seat = None
    if not force_new:
        seat = (Seat.select().join(Game).where(Seat.player == you, Game.status == Game.ACTIVE,
                                               Game.game == game_name)
                .order_by(Game.id.desc()).first())
    if seat is None:
        rules = get_game(game_name)
        players = min(max(players, rules.min_players), rules.max_players)
        try:
            game = create.create_game(ctx, game_name, you, [None] * (players - 1),
                                      options=parse_options(rules, option_pairs), seed=seed)
        except OptionError as exc:
            raise click.UsageError(str(exc)) from exc
        seat = Seat.get(Seat.game == game, Seat.index == 0)
        bots = "1 bot" if players == 2 else f"{players - 1} bots"
        click.echo(f"created {compose.game_title(game)}: you ({DEMO_EMAIL}) against {bots}")
    else:
        click.echo(f"a demo game is running: {compose.game_title(seat.game)} "
                   "(--new starts another)")
    tick(ctx)
    click.echo(f"your seat:  {compose.seat_url(ctx, seat.game, seat)}")
    if ctx.config.get("mail", "transport") == "folder" and not ctx.config.getbool(
            "server", "production"):
        click.echo(f"your mails: {ctx.url('/dev/mail')}")



def _replayed_result(result: Result, stored: Any) -> dict[str, Any]:
    """The replayed result's JSON as it compares with ``stored``: a result stored by an
    older pbem has no words in other languages (``RESULT_LANGUAGE_KEYS``), which is no
    difference in the result."""
    replayed: dict[str, Any] = result.to_json()
    if isinstance(stored, dict):
        for key in RESULT_LANGUAGE_KEYS:
            if key not in stored:
                replayed.pop(key, None)
    return replayed

@click.command(help="Replay every game's move log and compare it with the stored snapshot.")
@click.option("--quiet", "-q", is_flag=True, help="print only problems")
def verify(quiet: bool) -> None:
    _open()
    checked = bad = 0
    for game in Game.select().where(Game.state.is_null(False)).order_by(Game.id):
        checked += 1
        problems = []
        moves = Move.select().where(Move.game == game).count()
        if moves != game.seq:
            problems.append(f"{moves} moves in the log but the snapshot is after {game.seq}")
        try:
            state = replay(game_record(game))
        except (RecordError, KeyError) as exc:
            problems.append(f"the log does not replay: {exc}")
        else:
            if state != game.state:
                diff = sorted(k for k in set(state) | set(game.state)
                              if state.get(k) != game.state.get(k))
                problems.append(f"replay differs from the snapshot in {', '.join(diff)}")
            rules = get_game(game.game)
            over = rules.is_over(state)
            if over != (game.status == Game.FINISHED):
                problems.append(f"status {game.status} but the replayed game "
                                f"{'is' if over else 'is not'} over")
            elif over and game.result != _replayed_result(rules.result(state), game.result):
                problems.append("the stored result differs from the replayed one")
        if problems:
            bad += 1
            for problem in problems:
                click.echo(f"game {game.id}: {problem}", err=True)
        elif not quiet:
            click.echo(f"game {game.id}: ok ({game.seq} moves)")
    click.echo(f"{checked} games checked, {bad} with problems")
    if bad:
        sys.exit(1)


@click.command("export", help="Print the record (JSON) of game GAME_ID.")
@click.argument("game_id", type=int)
def export_cmd(game_id: int) -> None:
    _open()
    game = Game.get_or_none(Game.id == game_id)
    if game is None:
        click.echo(f"error: there is no game {game_id}", err=True)
        sys.exit(1)
    click.echo(game_record(game).dumps(), nl=False)


@click.command("import", help="Create a game from a record (JSON), replaying it.")
@click.argument("record_file", type=click.File("r", encoding="utf-8"))
def import_cmd(record_file) -> None:
    ctx = _open()
    try:
        record = GameRecord.loads(record_file.read())
        game = import_record(ctx, record)
    except (RecordError, UnknownGameError, OptionError) as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(1)
    click.echo(f"imported {compose.game_title(game)} ({game.status}, {game.seq} moves): "
               f"{ctx.url(f'/g/{game.id}')}")
    if game.status != "finished":
        for seat in Seat.of(game):
            click.echo(f"  seat {seat.index + 1} ({seat.player.name}): "
                       f"{compose.seat_url(ctx, game, seat)}")


def register(group: click.Group) -> None:
    for command in (init_db, serve, demo, verify, export_cmd, import_cmd):
        group.add_command(command)
