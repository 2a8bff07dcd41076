"""The operator's corrected game data (``[games] data_dir``), read for the games.

A game never reads a file at play time: this module reads ``<data_dir>/<game>.toml``
when a game is created and hands the text to the game (``Rules.load_data``), which checks
it and registers it under a version of its own; the game records that version and plays
on it to the end.  So that a running game still finds its version after the operator
has changed or removed the file, or the server restarted, each file a game started on is
kept, by version, under the instance folder (``data-versions/``) and registered again
when a context is built.
"""

from __future__ import annotations

import logging
from pathlib import Path

from pbem.config import Config
from pbem.games import EXAMPLES, UnknownGameError, all_games, get_example, get_game
from pbem.games.datafile import DataFileError
from pbem.games.protocol import Rules

log = logging.getLogger(__name__)

KEPT = "data-versions"


def data_dir(config: Config) -> Path | None:
    folder = config.get("games", "data_dir").strip()
    return Path(folder) if folder else None


def game_rules(name: str) -> Rules:
    """The game ``name``: a registered one or an example (``ziehen``)."""
    try:
        return get_game(name)
    except UnknownGameError:
        return get_example(name)


def corrected_file(config: Config, game: str) -> Path | None:
    """The operator's file for ``game``, if there is one."""
    folder = data_dir(config)
    path = folder / f"{game}.toml" if folder else None
    return path if path is not None and path.is_file() else None


def version_for_new_game(config: Config, rules: Rules) -> str:
    """The data version a game of ``rules`` created now starts on: the operator's file's
    when there is one and it passes the check (else the shipped one, and a warning)."""
    path = corrected_file(config, rules.name)
    if path is None or rules.data_sets is None:
        return rules.data_version
    text = path.read_text(encoding="utf-8")
    try:
        version = rules.load_data(text, str(path))
    except DataFileError as exc:
        log.warning("%s is not used (pbem data check %s %s): %s", path, rules.name, path, exc)
        return rules.data_version
    if version != rules.data_version:
        kept = config.instance_path / KEPT / f"{rules.name}-{version}.toml"
        if not kept.is_file():
            kept.parent.mkdir(parents=True, exist_ok=True)
            kept.write_text(text, encoding="utf-8")
    return version


def register_kept(config: Config) -> None:
    """Register every corrected file a game has started on (``data-versions/``)."""
    folder = config.instance_path / KEPT
    if not folder.is_dir():
        return
    games = {rules.name: rules for rules in all_games()}
    games.update((name, get_example(name)) for name in EXAMPLES if name not in games)
    for path in sorted(folder.glob("*.toml")):
        rules = games.get(path.stem.split("-", 1)[0])
        if rules is None or rules.data_sets is None:
            continue
        try:
            rules.load_data(path.read_text(encoding="utf-8"), str(path))
        except DataFileError as exc:  # a game on it will say so when it is played
            log.warning("%s: %s", path, exc)
