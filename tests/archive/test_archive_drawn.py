"""The tables of a game's page (its picture and words at the setup and after each round),
drawn once and kept in the database (``pbem.archive.drawn``): a page made from them is
the page drawn afresh, byte for byte; new drawing code, a renamed player or ``--redraw``
draws them again, new page code does not."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from archive_data import Archive, leave_only
from click.testing import CliRunner
from test_archive_site import site_files

from pbem.archive import build, drawn, pipeline
from pbem.archive.collect import collect
from pbem.archive.render import ARCHIVE_TEMPLATES
from pbem.archive.visit import walk
from pbem.cli import main as cli
from pbem.games import all_games
from pbem.models import Game, Player, RoundsDrawn


def _first_of_each_kind(archive: Archive) -> list[Game]:
    """Two games of each kind, the others aborted (each build here renders all it has)."""
    kept: dict[str, list[Game]] = {}
    for game in archive.games:
        if len(kept.setdefault(game.game, [])) < 2:
            kept[game.game].append(game)
    games = [g for pair in kept.values() for g in pair]
    leave_only(*games)
    assert {g.game for g in games} == {g.name for g in all_games()}
    return games


def _kept() -> dict[int, str]:
    return dict(RoundsDrawn.select(RoundsDrawn.game, RoundsDrawn.fingerprint).tuples())


def _no_drawing(monkeypatch) -> None:
    """A build after this draws no table: it would fail."""
    from pbem.archive import markdown

    def refuse(*args):
        raise AssertionError("a table was drawn")

    monkeypatch.setattr(markdown, "draw", refuse)


def _no_replay(monkeypatch) -> None:
    """A build after this replays no log (its pages are told from the kept course)."""
    from pbem.archive import pages

    def refuse(*args, **kwargs):
        raise AssertionError("a log was replayed")

    monkeypatch.setattr(pages, "walk", refuse)


def test_pages_from_kept_tables_are_the_pages_drawn_afresh(archive: Archive, tmp_path,
                                                           monkeypatch):
    games = _first_of_each_kind(archive)
    drew = build(tmp_path / "drawn", full=True)
    assert drew.rendered_games == drew.drawn_games == len(games)
    assert _kept() == {s.id: drawn.key(s) for s in collect()}
    # every game's replay course is kept with its tables
    assert all(drawn.unpack(row.tables)[0] is not None for row in RoundsDrawn.select())
    _no_drawing(monkeypatch)
    _no_replay(monkeypatch)
    kept = build(tmp_path / "kept", full=True)
    assert (kept.rendered_games, kept.drawn_games) == (len(games), 0)
    assert site_files(tmp_path / "kept") == site_files(tmp_path / "drawn")
    # and in worker processes, which get the kept tables with the move logs (a worker
    # that drew would hand its tables back to keep; a worker is a new interpreter,
    # where the refusals above do not hold: the kept rows, unchanged, show it did not)
    before = {row.game_id: bytes(row.tables) for row in RoundsDrawn.select()}
    monkeypatch.setattr(pipeline, "PARALLEL_MIN", 1)
    parallel = build(tmp_path / "parallel", full=True, jobs=2)
    assert parallel.drawn_games == 0
    assert site_files(tmp_path / "parallel") == site_files(tmp_path / "drawn")
    assert {row.game_id: bytes(row.tables) for row in RoundsDrawn.select()} == before


def test_a_row_without_the_course_replays_and_keeps_it(sqlite_archive: Archive, tmp_path,
                                                       monkeypatch):
    """Tables kept without the course (or with one whose result is not the stored one):
    the page replays its log, the same page, and keeps the course it lacked."""
    games = _first_of_each_kind(sqlite_archive)
    build(tmp_path / "drawn", full=True)
    rows = {row.game_id: bytes(row.tables) for row in RoundsDrawn.select()}
    for game_id, data in rows.items():
        RoundsDrawn.update(tables=drawn.pack(drawn.unpack(data)[1])).where(
            RoundsDrawn.game == game_id).execute()
    _no_drawing(monkeypatch)
    again = build(tmp_path / "again", full=True)
    assert again.drawn_games == len(games)  # kept anew, with the course
    assert site_files(tmp_path / "again") == site_files(tmp_path / "drawn")
    assert {row.game_id: bytes(row.tables) for row in RoundsDrawn.select()} == rows
    # a course whose result differs from the one stored is not told: the log replays
    visby = next(g for g in games if g.game == "visby")
    course, tables = drawn.unpack(rows[visby.id])
    other = dataclasses.replace(course, result={**course.result,
                                                "scores": [-1] * len(course.result["scores"])})
    RoundsDrawn.update(tables=drawn.pack(tables, other)).where(
        RoundsDrawn.game == visby.id).execute()
    replayed = []
    from pbem.archive import pages
    monkeypatch.setattr(pages, "walk", lambda *a, **k: replayed.append(a) or walk(*a, **k))
    build(tmp_path / "third", full=True)
    assert replayed and site_files(tmp_path / "third") == site_files(tmp_path / "drawn")


def test_a_kept_course_is_what_the_page_shows(sqlite_archive: Archive, tmp_path,
                                              monkeypatch):
    """The page reads its rounds and scores from the kept course (not replaying)."""
    game = next(g for g in _first_of_each_kind(sqlite_archive) if g.game == "visby")
    build(tmp_path / "drawn", full=True)
    course, tables = drawn.unpack(RoundsDrawn.get_by_id(game.id).tables)
    assert course is not None and course.rounds and course.points[0][0] == "start"
    points = [(label, [77_777] * len(scores)) for label, scores in course.points]
    RoundsDrawn.update(tables=drawn.pack(tables, dataclasses.replace(course, points=points))
                       ).where(RoundsDrawn.game == game.id).execute()
    _no_replay(monkeypatch)
    build(tmp_path / "kept", full=True)
    assert "77777" in (tmp_path / f"kept/games/{game.id}.md").read_text("utf-8")
    assert "77777" in (tmp_path / f"kept/games/{game.id}.svg").read_text("utf-8")


def test_a_kept_table_is_what_the_page_shows(sqlite_archive: Archive, tmp_path):
    """The page reads the kept row (not drawing again): a row of the game's key shows,
    a row of another key is drawn again and replaced."""
    game = next(g for g in _first_of_each_kind(sqlite_archive) if g.game == "visby")
    build(tmp_path / "drawn", full=True)
    [s] = [s for s in collect() if s.id == game.id]
    course, tables = drawn.unpack(RoundsDrawn.get_by_id(game.id).tables)
    tables["r1"] = ["", "a table nobody drew"]
    RoundsDrawn.update(tables=drawn.pack(tables, course)).where(
        RoundsDrawn.game == game.id).execute()
    build(tmp_path / "kept", full=True)
    assert "a table nobody drew" in (tmp_path / f"kept/games/{game.id}.md").read_text("utf-8")
    RoundsDrawn.update(fingerprint="other code").where(RoundsDrawn.game == game.id).execute()
    again = build(tmp_path / "again", full=True)
    assert again.drawn_games == 1
    assert site_files(tmp_path / "again") == site_files(tmp_path / "drawn")
    assert _kept()[game.id] == drawn.key(s)
    assert drawn.unpack(RoundsDrawn.get_by_id(game.id).tables)[1]["r1"] != tables["r1"]


@pytest.mark.parametrize("database", ["sqlite"], indirect=True)
def test_new_drawing_code_draws_its_games_again_and_new_page_code_does_not(
        archive: Archive, tmp_path, monkeypatch):
    games = _first_of_each_kind(archive)
    visby = [g.id for g in games if g.game == "visby"]
    build(archive.site)
    before = _kept()
    # new page code (a template, the archive's own modules): pages again, tables kept
    page_code = pipeline.code_fingerprint
    monkeypatch.setattr(pipeline, "code_fingerprint",
                        lambda name=None: "new pages" if name == "visby" else page_code(name))
    report = build(archive.site)
    assert (report.rendered_games, report.drawn_games) == (len(visby), 0)
    assert _kept() == before
    # new code that draws Visby's tables (its page code changes with it: the page's
    # sources hold every drawing source): Visby's tables drawn again and replaced
    drawing_code = drawn.drawing_fingerprint
    monkeypatch.setattr(drawn, "drawing_fingerprint",
                        lambda name: "new tables" if name == "visby" else drawing_code(name))
    monkeypatch.setattr(pipeline, "code_fingerprint",
                        lambda name=None: "new tables" if name == "visby" else page_code(name))
    report = build(archive.site)
    assert (report.rendered_games, report.drawn_games) == (len(visby), len(visby))
    after = _kept()
    assert {i for i in after if after[i] != before[i]} == set(visby)
    assert after == {s.id: drawn.key(s) for s in collect()}


def test_a_renamed_player_draws_the_tables_of_their_games_again(archive: Archive, built_site):
    heike = archive.players[0]
    build(archive.site, full=True)  # ``built_site`` is a copy: these rows kept nothing yet
    Player.update(name="Heike Renamed").where(Player.id == heike.id).execute()
    theirs = {g.id for g in archive.games if any(s.player_id == heike.id for s in g.seats)}
    report = build(archive.site)
    assert report.drawn_games == report.rendered_games == len(theirs)


@pytest.mark.parametrize("database", ["sqlite"], indirect=True)
def test_redraw_draws_every_table_again(archive: Archive, ctx, monkeypatch, tmp_path):
    games = _first_of_each_kind(archive)
    build(archive.site)
    RoundsDrawn.update(tables=drawn.pack({})).execute()  # nothing of use kept, same key
    monkeypatch.setenv("PBEM_DATABASE_URL", ctx.config.database_url)
    monkeypatch.setenv("PBEM_ARCHIVE_SITE_DIR", str(archive.site))
    out = CliRunner().invoke(cli, ["build-site", "--redraw"])
    assert out.exit_code == 0, out.output
    assert f"rendered {len(games)} game pages ({len(games)} of them drawn" in out.output
    assert all(drawn.unpack(row.tables)[1] for row in RoundsDrawn.select())
    _no_drawing(monkeypatch)
    build(tmp_path / "kept", full=True)
    # the pages (the feed's ids are the command's site key, not the default one)
    assert site_files(tmp_path / "kept/games") == site_files(archive.site / "games")


def test_the_drawing_fingerprint_covers_what_draws_and_not_the_pages():
    """Every module a table is drawn with is a drawing source, and a page source too (so
    that new drawing code renders the page again); the page code and templates are not."""
    import sys

    from pbem.archive import markdown  # noqa: F401 - what a page imports
    from pbem.archive.pipeline import rendering_sources

    package = Path(sys.modules["pbem"].__file__).resolve().parent
    for game in all_games():
        sources = set(drawn.drawing_sources(game.name))
        used = {Path(m.__file__).resolve() for name, m in list(sys.modules.items())
                if name.startswith(f"pbem.games.{game.name}") and getattr(m, "__file__", None)}
        assert used and used <= sources
        assert package / "games" / "protocol.py" in sources
        assert package / "archive" / "visit.py" in sources
        assert package / "archive" / "chart.py" in sources  # the score track kept
        assert sources <= set(rendering_sources(game.name))
        assert not {p for p in sources if p.is_relative_to(ARCHIVE_TEMPLATES)}
        assert not sources & {package / "archive" / f for f in
                              ("markdown.py", "pages.py", "render.py", "pipeline.py")}
    assert drawn.drawing_sources("no such game") is None


def test_tables_packed_come_back_as_they_were():
    tables = {"setup": ["<svg>\"a\" ä</svg>", "text\n  with lines"], "r1": ["", "words"]}
    assert drawn.unpack(drawn.pack(tables)) == (None, tables)
    assert drawn.unpack(drawn.pack({})) == (None, {})
    # a NUL would split a table: such tables are not kept (the page draws them each time)
    assert drawn.pack({"r1": ["<svg>\0</svg>", "words"]}) is None
    course = drawn.Course([(1, 4, True), (2, 3, False)], [("start", [0, 0]), ("1", [3, -1])],
                          {"scores": [3, -1], "details": ["{0} \0 ä"], "f": 1.5})
    assert drawn.unpack(drawn.pack(tables, course)) == (course, tables)
    assert drawn.unpack(drawn.pack({}, course)) == (course, {})
    # a course that would not come back as it was (a key not a string) is not kept
    odd = dataclasses.replace(course, result={1: "one"})
    assert odd.text() is None
    assert drawn.unpack(drawn.pack(tables, odd)) == (None, tables)


def test_the_build_at_a_games_end_keeps_its_tables(ctx, sqlite_archive: Archive, monkeypatch):
    """Production keeps a game's tables as the scheduler archives it."""
    from pbem.time import scheduler

    games = _first_of_each_kind(sqlite_archive)
    monkeypatch.setitem(ctx.config.values["archive"], "site_dir", str(sqlite_archive.site))
    assert scheduler.tick(ctx)["archive"]["drawn_games"] == len(games)
    assert _kept() == {s.id: drawn.key(s) for s in collect()}
