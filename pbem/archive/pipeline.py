"""The build, top to bottom: read, decide, render, write.

1. Read every finished game's summary (:func:`collect`), and the manifest of
   the last build.
2. Decide: a game page is rendered again only when its fingerprint (the
   game's rows and seats, and the code and templates that render it) differs
   from the manifest's, or one of its files is missing.  Read the move logs
   of just those games.  Nothing is written before all reading is done.
3. Render and write the game pages, then the indexes (whose Markdown is
   cheap to make; only changed ones are converted to HTML and written), the
   feed and the stylesheet.  The writer skips any file whose bytes are
   unchanged, removes the files of pages that are gone, and writes the
   manifest last, so a build that stops half-way is finished by the next.

Output depends on nothing but the database and the code (no clock, no
locale, no dict order), so two builds of one database are byte-identical.
"""

from __future__ import annotations

import hashlib
import multiprocessing
import os
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from functools import cache
from importlib import import_module
from pathlib import Path
from typing import Any

import markdown

from pbem.archive import paths
from pbem.archive.collect import FinishedGame, GameSummary, collect, fingerprint, load_moves
from pbem.archive.feed import atom
from pbem.archive.indexes import IndexPage, all_indexes
from pbem.archive.pages import Rendered, render_game
from pbem.archive.render import ARCHIVE_TEMPLATES, Renderer
from pbem.archive.writer import SiteWriter
from pbem.context import TEMPLATES_DIR
from pbem.models import Game, utcnow

#: bump to re-render every page when the output changes for a reason the
#: code fingerprint cannot see
ARCHIVE_FORMAT = "1"
SOURCE_STYLESHEET = TEMPLATES_DIR.parent / "site" / paths.STYLESHEET
_PACKAGE = Path(__file__).resolve().parent
_GAMES = _PACKAGE.parent / "games"

#: ``progress(stage, done, total)``: stage is "games" or "indexes"
Progress = Callable[[str, int, int], None]
#: fewer game pages than this are rendered in the building process itself
PARALLEL_MIN = 64


@dataclass
class BuildReport:
    site: Path
    games: int = 0
    rendered_games: int = 0
    rendered_indexes: int = 0
    written: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    #: ``(game id, why its page shows less than usual)``
    problems: list[tuple[int, str]] = field(default_factory=list)
    seconds: float = 0.0

    def summary(self) -> dict[str, Any]:
        return {"games": self.games, "rendered_games": self.rendered_games,
                "rendered_indexes": self.rendered_indexes, "written": len(self.written),
                "removed": len(self.removed), "problems": len(self.problems)}


def _hash_files(files: list[Path], digest: Any) -> None:
    for path in files:
        digest.update(path.name.encode())
        digest.update(path.read_bytes())


@cache
def code_fingerprint(game_name: str | None = None) -> str:
    """A checksum of what renders pages: :func:`rendering_sources` and the Markdown version.

    Changing a game's ``render_text`` (or its ``describe``, which writes the moves
    of rows stored without a sentence), or a template, thus re-renders exactly the
    pages it shows on.  The sentences stored on the rows belong to the game's data,
    not the code: a finished game's rows never change (see :mod:`pbem.archive.collect`).
    """
    digest = hashlib.sha256(f"{ARCHIVE_FORMAT}\0{markdown.__version__}".encode())
    sources = rendering_sources(game_name)
    if sources is None:  # no such game: its page shows the moves in notation
        digest.update(b"unregistered")
        sources = rendering_sources(None) or []
    _hash_files(sources, digest)
    return digest.hexdigest()


@cache
def rendering_sources(game_name: str | None = None) -> list[Path] | None:
    """The files whose code or text a page is made with (``None``: no such game).

    This package and its templates, the game record, the modules every game
    shares (``pbem/games/*.py``: the protocol, the text helpers a game's
    ``render_text`` uses, the seeded RNG) and, for a game, its whole package.
    """
    files = sorted(_PACKAGE.glob("*.py"))
    files += sorted(p for p in ARCHIVE_TEMPLATES.rglob("*") if p.is_file())
    files += sorted(_GAMES.glob("*.py")) + [_PACKAGE.parent / "lifecycle" / "records.py"]
    if game_name is not None:
        try:
            module = import_module(f"pbem.games.{game_name}")
        except ImportError:
            return None
        folder = Path(module.__file__ or "").resolve().parent
        files += sorted(p for p in folder.rglob("*")
                        if p.is_file() and "__pycache__" not in p.parts)
    return files


def _unchanged(writer: SiteWriter, entry: dict[str, Any] | None, fp: str) -> bool:
    return (entry is not None and entry.get("fp") == fp
            and all(writer.exists(f) for f in entry.get("files", [])))


_renderer: Renderer | None = None


def _shared_renderer() -> Renderer:
    """One renderer per process (the building one, or each worker)."""
    global _renderer
    if _renderer is None:
        _renderer = Renderer()
    return _renderer


def _game_task(finished: FinishedGame) -> Rendered:
    return render_game(finished, _shared_renderer())


def _index_task(index: IndexPage) -> str:
    return _shared_renderer().page(index.path, index.title, index.markdown)


class Workers:
    """Pages rendered in this process, or by ``jobs`` processes when there are many.

    Rendering is pure (values in, texts out), so the processes share nothing,
    the results come back in order, and the output is the same whatever
    ``jobs`` is; only the building process writes.
    """

    def __init__(self, jobs: int) -> None:
        self.jobs = jobs
        self._pool: ProcessPoolExecutor | None = None

    def map(self, task: Callable[[Any], Any], items: Sequence[Any]) -> Iterator[Any]:
        if self.jobs <= 1 or len(items) < PARALLEL_MIN:
            return map(task, items)
        if self._pool is None:
            # spawn, not fork: the caller may hold a database connection or threads
            self._pool = ProcessPoolExecutor(
                max_workers=self.jobs, mp_context=multiprocessing.get_context("spawn"))
        return self._pool.map(task, items, chunksize=8)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown()
            self._pool = None


def default_jobs() -> int:
    return max(1, min(8, os.cpu_count() or 1))


def build(site_dir: str | Path, *, full: bool = False, progress: Progress | None = None,
          site_key: str = "pbem", wait: bool = True, jobs: int = 1) -> BuildReport:
    """Bring ``site_dir`` up to date with the database's finished games.

    ``full`` renders every page again, whatever the manifest says (files whose
    bytes come out the same are still left alone, and the files of pages that
    are gone are still removed).  ``site_key`` names the
    deployment in the feed's ids.  ``wait=False`` raises
    :class:`pbem.archive.writer.BuildLocked` if another build is running.
    ``jobs`` > 1 renders the pages in that many processes when there are many.
    """
    started = time.perf_counter()
    report = BuildReport(site=Path(site_dir))
    writer = SiteWriter(site_dir)
    tell = progress or (lambda stage, done, total: None)
    with writer.lock(wait=wait):
        # 1. read
        summaries = collect()
        report.games = len(summaries)
        # a full build renders everything again, but still needs the last manifest
        # to remove the files of pages that are gone
        old = writer.read_manifest()
        reuse = {} if full else old
        manifest: dict[str, dict[str, Any]] = {}
        todo: list[tuple[GameSummary, str]] = []
        for s in summaries:
            page = paths.game_page(s.id)
            fp = fingerprint([s.fingerprint, code_fingerprint(s.game)])
            if _unchanged(writer, reuse.get(page), fp):
                manifest[page] = old[page]
            else:
                todo.append((s, fp))
        games = load_moves(s for s, _fp in todo)

        # 2. render and write the games
        workers = Workers(jobs)
        try:
            pages = workers.map(_game_task, games)
            for done, (rendered, (s, fp)) in enumerate(zip(pages, todo, strict=True), start=1):
                for rel in sorted(rendered.files):
                    writer.write(rel, rendered.files[rel])
                manifest[paths.game_page(s.id)] = {"fp": fp, "files": sorted(rendered.files)}
                if rendered.problem:
                    report.problems.append((s.id, rendered.problem))
                tell("games", done, len(todo))
            report.rendered_games = len(todo)

            # 3. the indexes (only changed ones to HTML), the feed, the stylesheet
            common = code_fingerprint(None)
            changed: list[tuple[IndexPage, str]] = []
            for index in all_indexes(summaries):
                fp = fingerprint([common, index.title, index.markdown])
                if _unchanged(writer, reuse.get(index.path), fp):
                    manifest[index.path] = old[index.path]
                else:
                    changed.append((index, fp))
            html = workers.map(_index_task, [index for index, _fp in changed])
            for done, (text, (index, fp)) in enumerate(zip(html, changed, strict=True), start=1):
                writer.write(index.path + ".md", index.markdown)
                writer.write(index.path + ".html", text)
                manifest[index.path] = {"fp": fp, "files": [index.path + ".html",
                                                            index.path + ".md"]}
                tell("indexes", done, len(changed))
            report.rendered_indexes = len(changed)
        finally:
            workers.close()
        writer.write(paths.FEED, atom(summaries, site_key))
        writer.write(paths.STYLESHEET, SOURCE_STYLESHEET.read_bytes())
        writer.write(paths.NO_JEKYLL, "")

        # 4. remove what is gone, then record what is there
        for page, entry in sorted(old.items()):
            keep = set(manifest.get(page, {}).get("files", []))
            for rel in entry.get("files", []):
                if rel not in keep:
                    writer.remove(rel)
        writer.write_manifest(manifest)
    _mark_archived([s.id for s in summaries if not s.archived])
    report.written, report.removed = writer.written, writer.removed
    report.seconds = time.perf_counter() - started
    return report


def _mark_archived(ids: list[int]) -> None:
    """Note in the database that these games are in the archive now."""
    now = utcnow()
    for start in range(0, len(ids), 500):
        chunk = ids[start:start + 500]
        Game.update(archived_at=now).where(Game.id.in_(chunk),
                                           Game.archived_at.is_null()).execute()


def needs_build() -> bool:
    """Whether a game has finished since the last build (cheap: one indexed query)."""
    return (Game.select(Game.id)
            .where(Game.status == Game.FINISHED, Game.archived_at.is_null())
            .exists())
