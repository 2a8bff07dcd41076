"""The ``archive`` fixtures: a database of finished bot games and a folder for the site."""

from __future__ import annotations

from pathlib import Path

import pytest
from archive_data import NAMES, Archive, fill

from pbem.archive.sample import add_player


def _archive(site: Path) -> Archive:
    players = [add_player(name, email=f"p{i}@example.org") for i, name in enumerate(NAMES)]
    result = Archive(site=site, players=players)
    fill(result)
    return result


@pytest.fixture
def archive(database, tmp_path) -> Archive:
    """Finished games in the test database (SQLite, and PostgreSQL when there is one)."""
    return _archive(tmp_path / "site")


@pytest.fixture
def sqlite_archive(sqlite_database, tmp_path) -> Archive:
    """The same on SQLite only, for tests about the pages rather than the database."""
    return _archive(tmp_path / "site")
