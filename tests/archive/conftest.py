"""The ``archive`` fixtures: a database of finished bot games and a folder for the site.

The games are played once per test run (the first worker to need them plays them,
the others read its snapshot) and copied into each test's own fresh database.  The
site a first build makes of them is built once per test run and kind of database (the
first worker to need it builds it, the others link its pages), and linked into each
test that needs it (``built_site``).
"""

from __future__ import annotations

import fcntl
import os
import pickle
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from archive_data import NAMES, Archive, Snapshot, fill, restore, snapshot

from pbem.archive import build
from pbem.archive.pipeline import BuildReport
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


def _shared_folder(tmp_path_factory) -> Path:
    """The run's temporary folder, which every pytest-xdist worker of the run shares."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


@pytest.fixture(scope="session")
def archive_games(tmp_path_factory) -> Snapshot:
    """The games ``fill`` plays, as rows; shared by the workers of one run (pytest-xdist)
    through a file in the run's temporary folder, which the first of them writes."""
    shared = _shared_folder(tmp_path_factory)
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


@dataclass
class FirstBuild:
    """The site ``build`` made of the untouched games, kept aside, and what it reported."""

    site: Path
    report: BuildReport
    #: each kept file's inode, size and modification time: what a write into it in place
    #: changes (not its ctime: each link made or removed changes that)
    stamps: dict[Path, tuple[int, int, int]]


@pytest.fixture(scope="session")
def _first_builds() -> dict[str, FirstBuild]:
    """The run's first build of the untouched games, per kind of database, as this
    process found it (``_run_first_build``)."""
    return {}


@pytest.fixture
def built_site(archive: Archive, database: str, _first_builds: dict[str, FirstBuild],
               tmp_path_factory) -> Iterator[Path]:
    """``archive.site`` as ``build(archive.site)`` leaves it, for a test about what comes
    after (an incremental build, the pages' contents): every test's database holds the
    same rows with the same ids, and two builds of them are byte for byte the same
    (``test_two_builds_of_one_database_are_byte_identical``), so the first test of the
    run on each kind of database builds the site and the others, in every worker, get a
    copy of it,
    manifest and all (its pages linked: ``_link_or_copy``), and what that build reported
    (``first_build_report``).  A test that changes the games before its first build
    calls ``build`` instead."""
    yield _first_build(archive, database, _first_builds, tmp_path_factory)
    _still_as_built(_first_builds, database, tmp_path_factory)


@pytest.fixture
def sqlite_built_site(sqlite_archive: Archive, _first_builds: dict[str, FirstBuild],
                      tmp_path_factory) -> Iterator[Path]:
    """``built_site`` on SQLite only (``sqlite_archive``: the same rows, so the same site
    as ``built_site`` makes on SQLite, and the copy of one first build serves both)."""
    yield _first_build(sqlite_archive, "sqlite", _first_builds, tmp_path_factory)
    _still_as_built(_first_builds, "sqlite", tmp_path_factory)


@pytest.fixture
def first_build_report(built_site: Path, database: str,
                       _first_builds: dict[str, FirstBuild]) -> BuildReport:
    """What the build that ``built_site`` is a copy of reported."""
    return _first_builds[database].report


def _first_build(archive: Archive, database: str, first_builds: dict[str, FirstBuild],
                 tmp_path_factory) -> Path:
    if database not in first_builds:
        first_builds[database], built_here = _run_first_build(archive, database,
                                                              tmp_path_factory)
        if built_here:
            return archive.site
    shutil.copytree(first_builds[database].site, archive.site, dirs_exist_ok=True,
                    copy_function=_link_or_copy)
    return archive.site


def _kept_build(tmp_path_factory, database: str) -> tuple[Path, Path]:
    """Where the run's first build on ``database`` is kept: its folder, its report."""
    kept = _shared_folder(tmp_path_factory) / f"first-build-{database}"
    return kept, kept.with_name(f"{kept.name}.pickle")


def _run_first_build(archive: Archive, database: str,
                     tmp_path_factory) -> tuple[FirstBuild, bool]:
    """The run's first build on ``database``, and whether this test made it (its site is
    then in ``archive.site``): a test makes it when no worker of the run has yet.

    Each pytest-xdist worker built the site of the same rows again (two to three seconds
    of CPU each, for each kind of database); the first worker to need it builds it, the
    others link its pages, which are byte for byte what their own build would write
    (``test_two_builds_of_one_database_are_byte_identical``).  It is kept in the run's
    temporary folder, with what the build reported beside it, written last: a worker
    finds the site whole or does not find it."""
    kept, reported = _kept_build(tmp_path_factory, database)
    with open(kept.with_name(f"{kept.name}.lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # the others wait for the one who builds
        built_here = not reported.exists()
        if built_here:
            report = build(archive.site)
            if kept.exists():  # a kept build a test changed in place (``_still_as_built``)
                shutil.rmtree(kept)
            shutil.copytree(archive.site, kept / "site", copy_function=_link_or_copy)
            reported.with_suffix(".part").write_bytes(pickle.dumps(report))
            reported.with_suffix(".part").rename(reported)
        else:
            report = pickle.loads(reported.read_bytes())
    return FirstBuild(kept / "site", report, _stamps(kept / "site")), built_here


def _link_or_copy(source: str, target: str) -> None:
    """A page as a hard link to the kept one (and the kept one to the first build's), the
    rest (the manifest's files, the lock) as a copy of its own.  Copying the 24 MB of
    1,300 pages cost the kernel 0.2 to 1.3 s of CPU a test, a link 0.03 s for them all,
    and it is as safe: the builder never writes into a page, it writes a new file and
    moves it over the old (``SiteWriter.write``), or removes it; the manifest's files are
    what a test writes into in place
    (``test_a_manifest_of_another_kind_means_a_full_read``).  ``_still_as_built`` finds
    a page written so."""
    if os.path.basename(source).startswith("."):
        shutil.copy2(source, target)
    else:
        os.link(source, target)


def _stamps(site: Path) -> dict[Path, tuple[int, int, int]]:
    return {path: (stat.st_ino, stat.st_size, stat.st_mtime_ns)
            for path in site.rglob("*") if path.is_file() and (stat := path.stat())}


def _still_as_built(first_builds: dict[str, FirstBuild], database: str,
                    tmp_path_factory) -> None:
    """After a test: the kept first build is as it was, or the test wrote into a page of
    its linked copy in place, which would change the next tests' copies too (they get a
    first build of their own then)."""
    first = first_builds[database]
    changed = sorted(str(p.relative_to(first.site)) for p, stamp in _stamps(first.site).items()
                     if first.stamps.get(p) != stamp)
    gone = sorted(str(p.relative_to(first.site)) for p in first.stamps if not p.exists())
    if changed or gone:  # the next test to need it builds it anew
        del first_builds[database]
        _kept_build(tmp_path_factory, database)[1].unlink(missing_ok=True)
    assert not changed and not gone, (
        f"a page of the kept first build changed in place: {changed + gone}; write a page "
        "of built_site as the builder does, a new file moved over the old")
