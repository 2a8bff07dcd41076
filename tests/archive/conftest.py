"""The ``archive`` fixtures: a database of finished bot games and a folder for the site.

The games are played once per test run (the first worker to need them plays them,
the others read its snapshot) and copied into each test's own fresh database.  The
site a first build makes of them is built once per test process and kind of database,
and copied into each test that needs it (``built_site``).
"""

from __future__ import annotations

import fcntl
import os
import pickle
import shutil
from pathlib import Path

import pytest
from archive_data import NAMES, Archive, Snapshot, fill, restore, snapshot

from pbem.archive import build
from pbem.archive.sample import add_player
from pbem.models import create_tables, db, open_database


def _play(folder: Path) -> Snapshot:
    open_database(f"sqlite:///{folder / 'games.sqlite'}")
    create_tables()
    try:
        players = [add_player(name, email=f"p{i}@example.org") for i, name in enumerate(NAMES)]
        played = Archive(site=folder / "site", players=players)
        fill(played)
        return snapshot(played)
    finally:
        db.close()


@pytest.fixture(scope="session")
def archive_games(tmp_path_factory) -> Snapshot:
    """The games ``fill`` plays, as rows; shared by the workers of one run (pytest-xdist)
    through a file in the run's temporary folder, which the first of them writes."""
    base = tmp_path_factory.getbasetemp()
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    saved = shared / "archive-games.pickle"
    with open(shared / "archive-games.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # the others wait for the one who plays
        if saved.exists():
            return pickle.loads(saved.read_bytes())
        shot = _play(tmp_path_factory.mktemp("archive-games"))
        saved.with_suffix(".part").write_bytes(pickle.dumps(shot))
        saved.with_suffix(".part").rename(saved)
        return shot


@pytest.fixture
def archive(archive_games, database, tmp_path) -> Archive:
    """Finished games in the test database (SQLite, and PostgreSQL when there is one)."""
    return restore(archive_games, tmp_path / "site")


@pytest.fixture
def sqlite_archive(archive_games, sqlite_database, tmp_path) -> Archive:
    """The same on SQLite only, for tests about the pages rather than the database."""
    return restore(archive_games, tmp_path / "site")


@pytest.fixture(scope="session")
def _first_builds() -> dict[str, Path]:
    """The site ``build`` made of the untouched games, per kind of database, in this process."""
    return {}


@pytest.fixture
def built_site(archive: Archive, database: str, _first_builds: dict[str, Path],
               tmp_path_factory) -> Path:
    """``archive.site`` as ``build(archive.site)`` leaves it, for a test about what comes
    after (an incremental build, the pages' contents): every test's database holds the
    same rows with the same ids, and two builds of them are byte for byte the same
    (``test_two_builds_of_one_database_are_byte_identical``), so the first test of this
    process on each kind of database builds the site and the others get a copy of it,
    manifest and all.  A test that changes the games before its first build, or about
    the first build itself, calls ``build`` instead."""
    return _first_build(archive, database, _first_builds, tmp_path_factory)


@pytest.fixture
def sqlite_built_site(sqlite_archive: Archive, _first_builds: dict[str, Path],
                      tmp_path_factory) -> Path:
    """``built_site`` on SQLite only (``sqlite_archive``: the same rows, so the same site
    as ``built_site`` makes on SQLite, and the copy of one first build serves both)."""
    return _first_build(sqlite_archive, "sqlite", _first_builds, tmp_path_factory)


def _first_build(archive: Archive, database: str, first_builds: dict[str, Path],
                 tmp_path_factory) -> Path:
    if database not in first_builds:
        build(archive.site)
        kept = tmp_path_factory.mktemp(f"first-build-{database}") / "site"
        shutil.copytree(archive.site, kept)
        first_builds[database] = kept
    else:
        shutil.copytree(first_builds[database], archive.site, dirs_exist_ok=True)
    return archive.site
