"""The build, top to bottom: read, decide, render, write.

1. Read.  The manifest of the last build (:class:`manifest.Manifest`) keeps,
   for each game, what the indexes show of it (:meth:`GameSummary.kept`: ids,
   end, standing, seats; not the seed) and, in a file per block of games read
   only for the games that change, the fingerprint of its page, its files and
   what the statistics count of it; for each index page its fingerprint and
   the list it belongs to; and the statistics' totals (:mod:`tally`).  An
   **incremental** build asks the database only which games are finished (a
   few small columns of each, :func:`collect.finished_games`) and what the
   players are called; it reads the rows, seats and move logs of just the
   games that are new since the last build, or whose columns or players' names
   changed, and takes every other game from the manifest.  A **full** build
   (``--full``, or a folder without a manifest of this format) reads every
   game from the database.  The players' ratings are read each build too (every
   current rating, a row per player and game; and what each game did to the
   ratings of the players whose pages are made, :func:`collect.ratings`): a
   rating changes when its player's game ends, which makes their pages anyway;
   ``pbem ratings``, which rates every game again, then makes every index page
   again (``build(indexes=True)``; no game page shows a rating).
2. Decide.  A game page is rendered again when its fingerprint (the game's
   row and seats, and the code and templates that render it) differs from the
   manifest's; a full build renders them all.  Index pages are made (as
   Markdown, which is cheap) for the lists of the games rendered or gone
   (:func:`indexes.groups_of`: all games, the game's, its month's, its
   players'), from the earliest place on each list that changed
   (:class:`indexes.Lists`), and for the three tables of lists; the
   statistics of the game names whose games came, changed or went, from the
   old totals less the old games plus the new ones; every other page stays.
   Of the pages made, only those whose Markdown changed are converted to
   HTML and written.  Nothing is written before all reading is
   done but the move logs, which are read in batches while pages render.
3. Render and write.  The game pages, then the changed index pages, are
   rendered in this process or, when there are many, by it and ``jobs - 1``
   worker processes, which write their pages' files themselves.  A game page
   takes the tables (pictures and words of each round) kept in the database
   when an earlier build drew them, with the course of its replay (rounds, scores,
   result: it then replays nothing), read with the move logs; the tables a page
   drew are kept for the next builds (:mod:`pbem.archive.drawn`).  Then the feed and
   the stylesheet.  The writer skips any file whose bytes are unchanged; the
   files of pages that are gone are removed, and the manifest is written
   last, so a build that stops half-way is finished by the next.

So an incremental build's work grows with what changed, not with the
archive, but for a few cheap passes over the manifest.  The files of an
unchanged page are not checked (``--full`` makes every file again).  Output
depends on nothing but the database and the code (no clock, no locale, no
dict order, not which build made which page), so two builds of one
database, full or incremental, are byte-identical.
"""

from __future__ import annotations

import contextlib
import dataclasses
import gc
import hashlib
import multiprocessing
import os
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from functools import cache
from importlib import import_module
from pathlib import Path
from typing import Any

import markdown

from pbem.archive import about, drawn, paths, statistics, tally
from pbem.archive.collect import (
    FinishedGame,
    GameSummary,
    Ratings,
    collect,
    fingerprint,
    finished_games,
    load_moves,
    player_names,
    ratings,
    seeds,
)
from pbem.archive.feed import ENTRIES, atom
from pbem.archive.indexes import TABLES, IndexPage, Lists, SortKey, all_indexes, groups_of
from pbem.archive.manifest import Manifest
from pbem.archive.pages import render_game
from pbem.archive.render import ARCHIVE_TEMPLATES, Renderer
from pbem.archive.tally import Totals
from pbem.archive.writer import SiteWriter
from pbem.context import TEMPLATES_DIR
from pbem.heap import keep_freed_memory
from pbem.models import Game, utcnow
from pbem.sqlcache import Prepared

#: bump to re-render every page when the output changes for a reason the
#: code fingerprint cannot see
ARCHIVE_FORMAT = "1"
SOURCE_STYLESHEET = TEMPLATES_DIR.parent / "site" / paths.STYLESHEET
_PACKAGE = Path(__file__).resolve().parent
_GAMES = _PACKAGE.parent / "games"

#: ``progress(stage, done, total)``: stage is "games" or "indexes"
Progress = Callable[[str, int, int], None]
#: fewer pages than this are rendered in the building process itself
PARALLEL_MIN = 64
#: fewer index pages than this are converted in the building process, unless the workers
#: run already: an index page takes a millisecond or two, starting the workers (a new
#: interpreter each, importing pbem) most of a second
PARALLEL_INDEXES = 1000
#: game pages per task of a worker process, and move logs per database read
TASK_GAMES = 16
TASK_INDEXES = 8
LOAD_GAMES = 256


@dataclass
class BuildReport:
    site: Path
    games: int = 0
    rendered_games: int = 0
    rendered_indexes: int = 0
    #: whether the build read every game from the database (``--full``, or no manifest)
    full: bool = False
    #: games whose summary (row and seats) the build read from the database
    read_games: int = 0
    #: games whose pages drew their tables (none kept, or not of the current code) and
    #: kept them (:mod:`pbem.archive.drawn`)
    drawn_games: int = 0
    written: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    #: ``(game id, why its page shows less than usual)``
    problems: list[tuple[int, str]] = field(default_factory=list)
    seconds: float = 0.0

    def summary(self) -> dict[str, Any]:
        return {"games": self.games, "rendered_games": self.rendered_games,
                "rendered_indexes": self.rendered_indexes, "drawn_games": self.drawn_games,
                "written": len(self.written),
                "removed": len(self.removed), "problems": len(self.problems)}


# -- what renders a page ------------------------------------------------------------


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
    files += sorted(_GAMES.glob("*.py")) + [_PACKAGE.parent / "gamelog" / "records.py"]
    if game_name is not None:
        try:
            module = import_module(f"pbem.games.{game_name}")
        except ImportError:
            return None
        folder = Path(module.__file__ or "").resolve().parent
        files += sorted(p for p in folder.rglob("*")
                        if p.is_file() and "__pycache__" not in p.parts)
    return files


def game_fingerprint(s: GameSummary) -> str:
    return fingerprint([s.fingerprint, code_fingerprint(s.game)])


# -- deciding what to render -------------------------------------------------------------


@dataclass
class Plan:
    """What a build reads and renders."""

    #: every finished game, oldest first (those taken from the manifest without a seed)
    summaries: list[GameSummary]
    #: the games to render, with their fingerprints
    todo: list[tuple[GameSummary, str]]
    #: the manifest entries of the games that stay as they are
    kept: dict[str, dict[str, Any]]
    #: the lists whose index pages to make, each with the earliest place on it that
    #: changed (None: every list, in full)
    wanted: dict[str, SortKey] | None
    #: games whose summary was read from the database
    read: int = 0
    full: bool = True
    #: the old manifest entries of the games rendered again or gone (an incremental
    #: build takes them out of the statistics' totals)
    replaced: list[dict[str, Any]] = field(default_factory=list)


def _plan_full(writer: SiteWriter, old: Manifest, full: bool) -> Plan:
    """Read every summary; render each game whose page differs from the manifest's."""
    summaries = collect()
    todo, kept = [], {}
    for s in summaries:
        fp = game_fingerprint(s)
        key = str(s.id)
        entry = old.entry(key) if old.usable and not full and key in old.games else None
        # its summary too: a damaged main file may name a game its shard has right
        if (entry is not None and entry.get("fp") == fp and entry.get("summary") == s.kept()
                and all(writer.exists(f) for f in entry.get("files", []))):
            kept[str(s.id)] = entry
        else:
            todo.append((s, fp))
    return Plan(summaries, todo, kept, wanted=None, read=len(summaries), full=True)


def _plan_incremental(old: Manifest) -> Plan:
    """Read only what is new or changed since the build that wrote ``old``.

    Raises ``KeyError``, ``TypeError`` or ``ValueError`` for a manifest that is
    not what this code writes (the build is then a full one).
    """
    names = player_names()
    code_changed = {name for name, fp in old.code.items() if code_fingerprint(name or None) != fp}
    cached: list[GameSummary] = []
    reread: list[int] = []
    for row in finished_games():
        key = str(row.id)
        entry = old.games.get(key)
        if entry is None:
            reread.append(row.id)
            continue
        kept = entry["summary"]
        if (GameSummary.kept_check(kept) != row.check or kept[1] in code_changed
                or kept[1] not in old.code
                or any(names.get(player) != name
                       for player, name in GameSummary.kept_players(kept))):
            reread.append(row.id)
        else:
            cached.append(GameSummary.from_kept(kept, archived=row.archived))
    fresh = collect(reread)
    todo, kept = [], {}
    since: dict[str, SortKey] = {}
    replaced: list[dict[str, Any]] = []

    def touch(s: GameSummary) -> None:
        for group in groups_of(s):
            if group not in since or s.sort_key < since[group]:
                since[group] = s.sort_key

    for s in cached:
        kept[str(s.id)] = old.games[str(s.id)]
    for s in fresh:
        fp = game_fingerprint(s)
        entry = old.entry(str(s.id)) if str(s.id) in old.games else None
        if entry is not None and entry["fp"] == fp:
            kept[str(s.id)] = entry
            continue
        todo.append((s, fp))
        touch(s)
        if entry is not None:
            touch(GameSummary.from_kept(entry["summary"]))
            replaced.append(entry)
    current = {str(s.id) for s in cached} | {str(s.id) for s in fresh}
    for key, entry in old.games.items():
        if key not in current:  # no longer finished (or gone): off every list it was on
            touch(GameSummary.from_kept(entry["summary"]))
            replaced.append(old.entry(key))
    summaries = sorted(cached + fresh, key=lambda s: s.sort_key)
    # a change of code may change any list (a game's title is in every row)
    wanted = None if code_changed or "" not in old.code else since
    return Plan(summaries, todo, kept, wanted, read=len(fresh), full=False,
                replaced=replaced)


# -- rendering, here or in worker processes -----------------------------------------------------


_renderer: Renderer | None = None


def _shared_renderer() -> Renderer:
    """One renderer per process (the building one, or each worker)."""
    global _renderer
    if _renderer is None:
        _renderer = Renderer()
    return _renderer


@dataclass
class GameResult:
    files: list[str]
    problem: str
    #: what the statistics keep of the game (``statistics.of_game``)
    stats: dict[str, Any] | None = None
    #: the page's tables packed for keeping, when it drew any (``Rendered.tables``)
    tables: bytes | None = None


def _game_task(games: list[FinishedGame], root: str) -> tuple[list[GameResult], list[str]]:
    """Render and write ``games``: what each made, and the files written."""
    writer = SiteWriter(root)
    results = []
    for finished in games:
        rendered = render_game(finished, _shared_renderer())
        for rel in sorted(rendered.files):
            writer.write(rel, rendered.files[rel])
        results.append(GameResult(sorted(rendered.files), rendered.problem,
                                  statistics.of_game(finished), rendered.tables))
    return results, writer.written


def _index_task(pages: list[IndexPage], root: str) -> tuple[list[None], list[str]]:
    """Convert and write index pages: the files written."""
    writer = SiteWriter(root)
    renderer = _shared_renderer()
    for index in pages:
        for rel, text in index.extra:
            writer.write(rel, text)
        writer.write(index.path + ".md", index.markdown)
        writer.write(index.path + ".html", renderer.page(index.path, index.title, index.markdown))
    return [None] * len(pages), writer.written


def _warm_up() -> None:
    _shared_renderer()


def _worker_start() -> None:
    """A worker's start: no cyclic garbage collection, as in this process
    (``_no_gc_pauses``: it lives for one build, and its collections were 3% of its
    CPU), and the heap kept as the ``pbem`` command keeps it (``pbem.heap``: a spawned
    worker starts without it)."""
    gc.disable()
    keep_freed_memory()


class Workers:
    """Pages rendered in this process, or, when there are many, by this process and
    ``jobs - 1`` worker processes.

    Rendering is pure (values in, texts out), and each page's files are its
    own, so the processes share nothing, the results come back in order, and
    the output is the same whatever ``jobs`` is.  This process renders a task
    itself whenever the workers have enough queued: it has everything imported
    already, where a worker is a new interpreter that imports pbem first (half a
    second of CPU), and it would otherwise only wait for them.
    """

    def __init__(self, jobs: int, root: Path) -> None:
        self.jobs = jobs
        self.root = str(root)
        self._pool: ProcessPoolExecutor | None = None

    def run(self, task: Callable[[list[Any], str], tuple[list[Any], list[str]]],
            batches: Iterable[list[Any]], parallel: bool, written: list[str]) -> Iterator[Any]:
        """``task`` over ``batches``, in order: each item's result (files go to ``written``)."""
        if self.jobs <= 1 or not parallel:
            for batch in batches:
                results, files = task(batch, self.root)
                written += files
                yield from results
            return
        pool = self.start()
        #: each task's future, or its result where this process did it
        pending: deque[Future | tuple[list[Any], list[str]]] = deque()
        for batch in batches:
            queued = sum(1 for item in pending if isinstance(item, Future) and not item.done())
            if queued < 2 * (self.jobs - 1):
                pending.append(pool.submit(task, batch, self.root))
            else:  # the workers have enough to do: this one renders
                pending.append(task(batch, self.root))
            while pending and (not isinstance(pending[0], Future) or pending[0].done()):
                yield from self._done(pending.popleft(), written)
        while pending:
            yield from self._done(pending.popleft(), written)

    @staticmethod
    def _done(item: Future | tuple[list[Any], list[str]], written: list[str]) -> list[Any]:
        results, files = item.result() if isinstance(item, Future) else item
        written += files
        return results

    @property
    def started(self) -> bool:
        return self._pool is not None

    def start(self) -> ProcessPoolExecutor:
        """The worker processes, started now if they are not yet."""
        if self._pool is None:
            workers = max(1, self.jobs - 1)
            # spawn, not fork: the caller may hold a database connection or threads
            self._pool = ProcessPoolExecutor(
                max_workers=workers, mp_context=multiprocessing.get_context("spawn"),
                initializer=_worker_start)
            for _ in range(workers):  # start them all now, while this process reads
                self._pool.submit(_warm_up)
        return self._pool

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown()
            self._pool = None


def default_jobs() -> int:
    return max(1, min(8, os.cpu_count() or 1))


def _batches(items: Sequence[Any], size: int) -> Iterator[list[Any]]:
    for start in range(0, len(items), size):
        yield list(items[start:start + size])


def _game_batches(todo: Sequence[tuple[GameSummary, str]], jobs: int = 1,
                  redraw: bool = False) -> Iterator[list[FinishedGame]]:
    """The games to render with their move logs and their kept tables (none: ``redraw``),
    read a few hundred at a time, in tasks of :data:`TASK_GAMES`, smaller towards the
    end (:func:`_task_size`)."""
    left = len(todo)
    for start in range(0, len(todo), LOAD_GAMES):
        summaries = [s for s, _fp in todo[start:start + LOAD_GAMES]]
        games = load_moves(summaries)
        kept = {} if redraw else drawn.read(summaries)
        if kept:
            games = [dataclasses.replace(g, tables=kept.get(g.summary.id)) for g in games]
        at = 0
        while at < len(games):
            size = _task_size(left, jobs)
            yield games[at:at + size]
            at, left = at + size, left - size


def _task_size(left: int, jobs: int) -> int:
    """Games in the next task, ``left`` games to go: the last tasks are small, so that
    the workers end together (a task of 16 games is most of a second, which one worker
    spent alone at the end of a build of a few hundred games)."""
    return max(1, min(TASK_GAMES, left // (4 * jobs)))


# -- the build ---------------------------------------------------------------------------


def build(site_dir: str | Path, *, full: bool = False, progress: Progress | None = None,
          site_key: str = "pbem", wait: bool = True, jobs: int = 1,
          indexes: bool = False, redraw: bool = False) -> BuildReport:
    """Bring ``site_dir`` up to date with the database's finished games.

    ``full`` reads and renders every page again, whatever the manifest says
    (files whose bytes come out the same are still left alone, and the files of
    pages that are gone are still removed).  ``site_key`` names the deployment
    in the feed's ids.  ``wait=False`` raises
    :class:`pbem.archive.writer.BuildLocked` if another build is running.
    ``jobs`` > 1 renders the pages in that many processes when there are many.
    ``indexes`` makes every index page again from the database, as a full build
    would, and the game pages as an incremental one does: after ``pbem ratings``,
    which changes what the player pages show of games whose pages show no rating.
    ``redraw`` renders every page again as ``full`` does, drawing every table of every
    game again rather than reading those an earlier build kept, and keeps the new ones
    (:mod:`pbem.archive.drawn`).
    """
    full = full or redraw
    started = time.perf_counter()
    report = BuildReport(site=Path(site_dir))
    writer = SiteWriter(site_dir)
    tell = progress or (lambda stage, done, total: None)
    workers = Workers(jobs, writer.root)
    with writer.lock(wait=wait), _no_gc_pauses(), contextlib.closing(workers):
        # 1. read, and decide
        old = Manifest.read(writer)
        if jobs > 1 and (full or not old.usable) and _finished_count() >= PARALLEL_MIN:
            workers.start()  # their imports overlap this process's reading
        plan = None
        if old.usable and not full:
            try:
                plan = _plan_incremental(old)
            except (KeyError, TypeError, ValueError, AttributeError, IndexError):
                plan = None  # not a manifest this code wrote: read everything
        if plan is None:
            plan = _plan_full(writer, old, full)
        if indexes:
            plan.wanted = None  # every list in full, every player's ratings
        summaries = plan.summaries
        report.games, report.read_games, report.full = len(summaries), plan.read, plan.full
        # the ratings of the players whose pages are made (every player's, in full)
        shown = ratings(None if plan.wanted is None else
                        [int(group.split("/", 1)[1]) for group in plan.wanted
                         if group.startswith("player/")])
        # kept entries are the old ones: their details are read from the old shards
        manifest = Manifest(games=dict(plan.kept), usable=True, writer=writer)
        manifest.code = {name: code_fingerprint(name or None)
                         for name in sorted({s.game for s in summaries} | {""})}

        # 2. render and write the games
        _render_games(writer, workers, plan, manifest, report, tell, jobs, redraw)

        # 3. the indexes of the lists that changed (only changed pages to HTML)
        report.rendered_indexes = _render_indexes(writer, workers, plan, old, manifest,
                                                  full, tell, shown)
        workers.close()
        writer.write(paths.FEED, atom(_with_seeds(summaries[-ENTRIES:]), site_key))
        writer.write(paths.STYLESHEET, SOURCE_STYLESHEET.read_bytes())
        for rel, text in about.files(_shared_renderer()).items():  # unchanged bytes: skipped
            writer.write(rel, text)
        writer.write(paths.NO_JEKYLL, "")

        # 4. remove what is gone, then record what is there
        for rel in sorted(old.gone(manifest)):
            writer.remove(rel)
        manifest.write(writer, old, plan.full)
    _mark_archived([s.id for s in summaries if not s.archived])
    report.written, report.removed = writer.written, writer.removed
    report.seconds = time.perf_counter() - started
    return report


def _render_games(writer: SiteWriter, workers: Workers, plan: Plan, manifest: Manifest,
                  report: BuildReport, tell: Progress, jobs: int, redraw: bool) -> None:
    """Render and write the pages of ``plan.todo`` into ``manifest``, and keep the tables
    the pages drew (:mod:`pbem.archive.drawn`)."""
    parallel = len(plan.todo) >= PARALLEL_MIN
    results = workers.run(_game_task, _game_batches(plan.todo, jobs, redraw), parallel,
                          writer.written)
    #: tables the pages drew, to keep: ``(game id, key, packed)``
    to_keep: list[tuple[int, str, bytes]] = []
    for done, (result, (s, fp)) in enumerate(zip(results, plan.todo, strict=True), start=1):
        manifest.games[str(s.id)] = {"fp": fp, "files": result.files,
                                     "summary": s.kept(), "stats": result.stats}
        if result.problem:
            report.problems.append((s.id, result.problem))
        if result.tables is not None:
            to_keep.append((s.id, drawn.key(s), result.tables))
            if len(to_keep) >= LOAD_GAMES:
                drawn.write(to_keep)
                report.drawn_games += len(to_keep)
                to_keep = []
        tell("games", done, len(plan.todo))
    drawn.write(to_keep)
    report.drawn_games += len(to_keep)
    report.rendered_games = len(plan.todo)


def _render_indexes(writer: SiteWriter, workers: Workers, plan: Plan, old: Manifest,
                    manifest: Manifest, full: bool, tell: Progress,
                    shown: Ratings | None = None) -> int:
    """Write the index pages whose lists changed into ``manifest``; how many were rendered.

    Only a changed page goes to HTML: an index page is kept when its fingerprint and
    files are as the old manifest has them.
    """
    common = code_fingerprint(None)
    lists = Lists()
    if plan.wanted is not None:  # the lists no game of this build is on stay
        lists = Lists(plan.wanted, reuse=old.pages.__contains__)
        manifest.pages = {path: entry for path, entry in old.pages.items()
                          if entry.get("group") not in plan.wanted
                          and entry.get("group") not in TABLES}
    totals, kinds = _totals(plan, old, manifest)
    manifest.totals = totals.to_json() if totals.exact else None
    # the statistics of the other game names stay as they are
    remade = None if kinds is None else {statistics.group(k) for k in kinds}
    manifest.pages = {path: entry for path, entry in manifest.pages.items()
                      if not statistics.is_group(entry.get("group"), remade)}
    changed: list[IndexPage] = []
    made = all_indexes(plan.summaries, lists, shown) + statistics.pages(totals, kinds)
    for path in lists.kept:  # blocks of the lists made that are as they were
        manifest.pages[path] = old.pages[path]
    for index in made:
        fp = fingerprint([common, index.title, index.markdown, list(index.extra)])
        entry = {"fp": fp, "files": [index.path + ".html", index.path + ".md"]
                 + [rel for rel, _text in index.extra], "group": index.group}
        manifest.pages[index.path] = entry
        before = old.pages.get(index.path) if old.usable and not full else None
        if not (before == entry and all(writer.exists(f) for f in entry["files"])):
            changed.append(index)
    done = 0
    for _ in workers.run(_index_task, _batches(changed, TASK_INDEXES),
                         workers.started or len(changed) >= PARALLEL_INDEXES,
                         writer.written):
        done += 1
        tell("indexes", done, len(changed))
    return len(changed)


def _totals(plan: Plan, old: Manifest, manifest: Manifest) -> tuple[Totals, set[str] | None]:
    """The statistics' totals, and the game names whose statistics changed (None: all).

    An incremental build takes the games it rendered again or lost out of the old
    manifest's totals and adds those it rendered; a full one, or one whose old totals
    are missing or not :attr:`Totals.exact`, adds up every game.
    """
    if plan.wanted is not None and old.totals is not None:
        try:
            totals = Totals.from_json(old.totals)
            kinds = set()
            for entry in plan.replaced:
                kept = GameSummary.from_kept(entry["summary"])
                totals.add(kept, entry.get("stats"), -1)
                kinds.add(kept.game)
            for s, _fp in plan.todo:
                totals.add(s, manifest.games[str(s.id)].get("stats"))
                kinds.add(s.game)
            if totals.exact:
                return totals, kinds
        except (KeyError, TypeError, ValueError, AttributeError, IndexError):
            pass  # totals this code did not write: add them up again
    totals = tally.gather(plan.summaries, {int(key): manifest.entry(key).get("stats")
                                           for key in manifest.games})
    return totals, None


@contextlib.contextmanager
def _no_gc_pauses() -> Iterator[None]:
    """No cyclic garbage collection during a build.

    A build holds tens of thousands of objects (summaries, the manifest) until
    its end, which made the collector run through them again and again (a
    third of an incremental build); what a build makes is freed as it goes, not
    left in cycles.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _with_seeds(newest: list[GameSummary]) -> list[GameSummary]:
    """The feed's games, with the seeds the manifest does not keep (its ids are made of them)."""
    missing = [s.id for s in newest if not s.seed]
    if not missing:
        return newest
    found = seeds(missing)
    return [s if s.seed else dataclasses.replace(s, seed=found[s.id]) for s in newest]


def _finished_count() -> int:
    return Game.select().where(Game.status == Game.FINISHED).count()


def _mark_archived(ids: list[int]) -> None:
    """Note in the database that these games are in the archive now."""
    now = utcnow()
    for start in range(0, len(ids), 500):
        chunk = ids[start:start + 500]
        Game.update(archived_at=now).where(Game.id.in_(chunk),
                                           Game.archived_at.is_null()).execute()


#: a game finished and not yet archived (what peewee's ``exists`` asks: one row at most):
#: every tick asks, its SQL built once
_UNARCHIVED = Prepared(Game, lambda: Game.select(Game.id).where(
    Game.status == Game.FINISHED, Game.archived_at.is_null()).limit(1), 0)


def needs_build() -> bool:
    """Whether a game has finished since the last build (cheap: one indexed query)."""
    return bool(_UNARCHIVED.rows())
