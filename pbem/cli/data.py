"""``pbem data check``: a game's data file, shipped or an operator's, checked."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from pbem import datadir
from pbem.config import load_config
from pbem.games import UnknownGameError
from pbem.games.datafile import DataSets


@click.group("data", help="The games' card and board data files.")
def data_group() -> None:
    pass


@data_group.command("check", help=(
    "Check GAME's data file FILE (default: the operator's file in [games] data_dir, else "
    "the shipped one) against the schema, every printed or sourced value and the "
    "rulebook's constraints, and list what it changes against the shipped data."))
@click.argument("game")
@click.argument("file", required=False, type=click.Path(dir_okay=False, exists=True))
def check(game: str, file: str | None) -> None:
    try:
        rules = datadir.game_rules(game)
    except UnknownGameError as exc:
        raise click.UsageError(str(exc)) from None
    sets: DataSets | None = rules.data_sets
    if sets is None:
        click.echo(f"{game}: no data file of its own yet (its values are in data.py)",
                   err=True)
        sys.exit(2)
    path = Path(file) if file else datadir.corrected_file(load_config(), game)
    name = str(path) if path else f"{game}: shipped data.toml"
    text = path.read_text(encoding="utf-8") if path else sets.shipped.text
    checked, data = sets.check(text, name)
    for warning in checked.warnings:
        click.echo(f"warning: {warning}")
    if checked.changes:
        click.echo(f"{name} differs from the shipped data ({sets.shipped.version}):")
        for diff in checked.changes:
            click.echo(f"  {diff}" + ("" if diff.allowed else "   (refused: not a "
                                                               "reconstructed value)"))
    for error in checked.errors:
        click.echo(f"error: {error}", err=True)
    if not checked.ok:
        click.echo(f"{name}: refused", err=True)
        sys.exit(1)
    click.echo(f"{name}: ok, version {data.version if data else '?'}"
               + ("" if checked.changes else " (the shipped values)"))


def register(main: click.Group) -> None:
    main.add_command(data_group)
