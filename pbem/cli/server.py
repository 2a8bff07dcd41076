"""Commands that run and look after the server: init-db, serve, demo, verify, export, import."""

from __future__ import annotations

import json
import logging
import os
import socket
import sys
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import click

from pbem.cli.lmtp import start_listener
from pbem.cli.play import parse_options
from pbem.context import Context, make_context
from pbem.gamelog.records import GameRecord, RecordError
from pbem.games import UnknownGameError, game_names, get_game
from pbem.games.protocol import OptionError
from pbem.lifecycle import create
from pbem.lifecycle import verify as checks
from pbem.lifecycle.records import game_record, import_record
from pbem.mail import compose
from pbem.models import Game, Player, Seat, create_tables, db, open_database

log = logging.getLogger(__name__)

#: where a running ``pbem serve`` writes its address, in the instance folder: ``pbem demo``
#: in another terminal prints links for that server, not for its own configuration
RUNNING_FILE = "server.json"

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


def warn_if_no_fonts() -> None:
    """Say at start-up when the mails' pictures would have no words (they go without)."""
    from pbem.mail.picture import font_warning

    warning = font_warning()
    if warning:
        log.warning(warning)
        click.echo(warning, err=True)


def _running_path(ctx: Context) -> Path:
    return ctx.config.instance_path / RUNNING_FILE


def record_running(ctx: Context, host: str, port: int) -> None:
    """Note where this server listens and what its links say, for ``pbem demo``."""
    path = _running_path(ctx)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"base_url": ctx.base_url, "host": host, "port": port,
                                "pid": os.getpid()}), encoding="utf-8")


def running_server(ctx: Context) -> dict[str, Any] | None:
    """What the ``pbem serve`` of this instance folder recorded, while it still listens."""
    try:
        found = json.loads(_running_path(ctx).read_text(encoding="utf-8"))
        host, port = str(found["host"]), int(found["port"])
        str(found["base_url"])
    except (OSError, ValueError, KeyError, TypeError):
        return None
    probe = "127.0.0.1" if host in ("", "0.0.0.0", "::") else host
    try:
        with socket.create_connection((probe, port), timeout=1):
            return found
    except OSError:
        return None  # that server has stopped


def _local_port(url: str) -> int | None:
    """The port of a URL on this machine (loopback), else None."""
    parts = urlsplit(url)
    if parts.hostname not in ("127.0.0.1", "localhost", "::1"):
        return None
    try:
        return parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        return None


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
    from pbem.web import serving_app

    ctx = _open(create=True)
    db.close()  # back to the pool: the requests' threads take their own
    app = serving_app(ctx)
    host = host or ctx.config.get("server", "host")
    port = port or ctx.config.getint("server", "port")
    warn_if_no_fonts()
    if _local_port(ctx.base_url) not in (None, port):
        click.echo(f"warning: the links pbem mails say {ctx.base_url}, but it listens on port "
                   f"{port}: set PBEM_SERVER_BASE_URL too, e.g. "
                   f"PBEM_SERVER_BASE_URL=http://127.0.0.1:{port}", err=True)
    if scheduler_wanted(ctx, reload, dict(os.environ)):
        from pbem.time.scheduler import start_background  # APScheduler: see `demo`

        background = start_background(ctx)
        click.echo(f"scheduler: a tick every {ctx.config.get('scheduler', 'interval_seconds')} s")
        if background is not None and not background.pbem_standby.holding:
            click.echo(f"scheduler: waiting: {background.pbem_lock.holder()}; "
                       "this one takes over when it stops")
    if not reload or os.environ.get("WERKZEUG_RUN_MAIN") == "true":
        # replies to mails come in here (one listener: the reloader's child has it)
        start_listener(ctx)
    if os.environ.get("WERKZEUG_RUN_MAIN") != "true":
        record_running(ctx, host, port)
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
    _follow_running_server(ctx)
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




def _follow_running_server(ctx: Context) -> None:
    """Links for the server that runs on this instance folder: its base URL, where this
    terminal's settings say another (``./run.sh`` with PBEM_SERVER_* in one terminal only)."""
    running = running_server(ctx)
    if running is None:  # none yet (./run.sh starts it after the demo): the settings' links
        return
    if _local_port(running["base_url"]) not in (None, int(running["port"])):
        click.echo(f"warning: the running server listens on port {running['port']} but its "
                   f"links say {running['base_url']}: restart it with PBEM_SERVER_BASE_URL "
                   f"set to match", err=True)
    if running["base_url"] != ctx.base_url:
        click.echo(f"note: the running server's links say {running['base_url']} (this "
                   f"terminal's settings: {ctx.base_url}); the links below are for it")
        ctx.config.values["server"]["base_url"] = running["base_url"]


#: ``pbem verify``'s exit status: every game agrees with the replay of its log (0); a
#: real difference, or a log that does not replay (1); differences in order only,
#: which ``--repair`` mends (3).  Click itself exits with 2 on a usage error.
VERIFY_OK, VERIFY_REAL, VERIFY_ORDER = 0, 1, 3


@click.command(help="Replay every game's move log and compare it with the stored snapshot, "
                    "result and sentences. Exit status: 0 all agree; 1 a real difference "
                    "(or a log that does not replay); 3 differences in order only, which "
                    "--repair mends.")
@click.option("--quiet", "-q", is_flag=True, help="print only problems")
@click.option("--repair", is_flag=True,
              help="write the replay over stored rows that differ from it only in order "
                   "(snapshot, result, sentences), printing each game and what changed; "
                   "games with real differences are left as they are")
@click.option("--game", "game_ids", type=int, multiple=True, metavar="ID",
              help="check only this game (may be given again)")
def verify(quiet: bool, repair: bool, game_ids: tuple[int, ...]) -> None:
    _open()
    query = Game.select(Game.id).where(Game.state.is_null(False)).order_by(Game.id)
    if game_ids:
        query = query.where(Game.id.in_(game_ids))
    outcomes = {"ok": 0, "real": 0, "order": 0, "repaired": 0}
    for (game_id,) in query.tuples():
        found = checks.check(Game.get_by_id(game_id))
        if repair and found.repairable:
            # checked again under the game's lock: a move may have come in meanwhile
            found = checks.repair(game_id) or found
            outcome = "repaired" if found.repairable else _verdict(found)
        else:
            outcome = _verdict(found)
        outcomes[outcome] += 1
        _report_check(found, outcome, quiet)
    checked = sum(outcomes.values())
    bad = outcomes["real"] + outcomes["order"]
    click.echo(f"{checked} games checked, {bad} with problems"
               + (f" ({outcomes['order']} only in order: `pbem verify --repair` mends them)"
                  if outcomes["order"] else "")
               + (f", {outcomes['repaired']} repaired" if repair else ""))
    if outcomes["real"]:
        sys.exit(VERIFY_REAL)
    if outcomes["order"]:
        sys.exit(VERIFY_ORDER)


def _verdict(found: Any) -> str:
    if found.ok:
        return "ok"
    return "order" if found.repairable else "real"


def _report_check(found: Any, outcome: str, quiet: bool) -> None:
    """One game's lines: what differs (on stderr), what a repair wrote, notes."""
    head = f"game {found.game_id}"
    if outcome == "ok" and not quiet:
        click.echo(f"{head}: ok ({found.seq} moves)")
    elif outcome == "real":
        for finding in found.findings:
            order = " (order only)" if finding.order_only else ""
            click.echo(f"{head}: {finding.text}{order}", err=True)
    elif outcome == "order":
        for finding in found.findings:
            click.echo(f"{head} ({found.name}): {finding.text}", err=True)
    elif outcome == "repaired":
        written = [{"state": "the replayed snapshot", "result": "the replayed result"}[c]
                   for c in found.game_columns]
        if found.move_columns:
            seqs = ", ".join(str(c["seq"]) for c in found.move_columns.values())
            written.append(f"the replay's sentences of moves {seqs}")
        click.echo(f"{head} ({found.name}): repaired: "
                   f"{'; '.join(f.text for f in found.findings)}; wrote {', '.join(written)}")
    if found.notes and not quiet:
        click.echo(f"{head}: note: {len(found.notes)} stored sentences read otherwise than "
                   f"today's engine tells them (its words may have changed since); pages keep "
                   f"the stored ones. First: {found.notes[0]}")


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
