"""The archive built from a database of finished bot games: links, scores, records, escaping."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import posixpath
import re
import xml.etree.ElementTree as ET
from html import unescape
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from archive_data import HOSTILE, LINE_START_NAME, MARKDOWN_NAME, Archive, leave_only
from click.testing import CliRunner

from pbem.archive import build
from pbem.archive.manifest import FORMAT, SHARD, shard_path
from pbem.cli import main as cli
from pbem.gamelog.records import GameRecord, replay, replay_steps
from pbem.games import get_game
from pbem.lifecycle.records import game_record
from pbem.models import Game, Move, Seat

ATOM = "{http://www.w3.org/2005/Atom}"


class Page(HTMLParser):
    """What a crawler needs of one HTML file: ids, links, text, tags."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()
        self.links: list[str] = []
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        self.tags.append((tag, attributes))
        if attributes.get("id"):
            self.ids.add(attributes["id"])
        for name in ("href", "src"):
            if attributes.get(name):
                self.links.append(attributes[name])

    def handle_data(self, data):
        self.text.append(data)


#: a test about the builder's own bookkeeping (its manifest, its blocks of lists, its code
#: fingerprints), not about reading rows: on SQLite only.  What the archive reads of the
#: database is tested on both (full and incremental builds, a changed row, unfinished
#: games, two builds alike, several processes)
ABOUT_THE_BUILDER = pytest.mark.parametrize("database", ["sqlite"], indirect=True)


def parse(path: Path) -> Page:
    page = Page()
    page.feed(path.read_text(encoding="utf-8"))
    return page


#: a page's ids and links by its bytes (their digest): the two kinds of database build the
#: same pages, and the second crawl of them need not parse each again (0.5 CPU s)
_IDS_AND_LINKS: dict[bytes, tuple[frozenset[str], tuple[str, ...]]] = {}


def ids_and_links(path: Path) -> tuple[frozenset[str], tuple[str, ...]]:
    """``parse(path)``'s ids and links, kept by the page's bytes for this process."""
    data = path.read_bytes()
    key = hashlib.sha256(data).digest()
    if key not in _IDS_AND_LINKS:
        page = Page()
        page.feed(data.decode("utf-8"))
        _IDS_AND_LINKS[key] = (frozenset(page.ids), tuple(page.links))
    return _IDS_AND_LINKS[key]


#: what the engine makes of a record, by the record (its JSON): the same games are in both
#: kinds of database, and what a test checks each one's rows and pages against is
#: computed once (the record is read from the test's own database every time)
_REPLAYED: dict[str, object] = {}
_TOLD: dict[str, list[tuple[str, tuple[str, bool] | None]]] = {}


def replayed(record: GameRecord) -> object:
    """``replay(record)``, kept by the record for this process (read it, never change it)."""
    key = json.dumps(record.to_json(), sort_keys=True)
    if key not in _REPLAYED:
        _REPLAYED[key] = replay(record)
    return _REPLAYED[key]


def told(record: GameRecord) -> list[tuple[str, tuple[str, bool] | None]]:
    """For each move of ``record``: the game's sentence for it, as everybody may read it
    once the game is over; and after the last move of a round or the game, the table as
    text with everything shown, and whether a spectator sees less of it.  Kept by the
    record for this process."""
    from pbem.games.protocol import EVERYTHING, SPECTATOR

    key = json.dumps(record.to_json(), sort_keys=True)
    if key not in _TOLD:
        rules, names = get_game(record.game), list(record.players)
        steps: list[tuple[str, tuple[str, bool] | None]] = []
        for _index, seat, move, before, after in replay_steps(record):
            table = None
            if rules.is_over(after) or rules.round(after) != rules.round(before):
                everything = rules.render_text(rules.view(after, EVERYTHING), names)
                table = (everything, everything != rules.render_text(
                    rules.view(after, SPECTATOR), names))
            steps.append((rules.describe(before, seat, move, after, EVERYTHING), table))
        _TOLD[key] = steps
    return _TOLD[key]


def site_files(site: Path) -> dict[str, bytes]:
    return {p.relative_to(site).as_posix(): p.read_bytes()
            for p in sorted(site.rglob("*")) if p.is_file() and p.name != ".lock"}


def finished_games() -> list[Game]:
    return list(Game.select().where(Game.status == Game.FINISHED).order_by(Game.id))


# -- links ------------------------------------------------------------------


def test_every_internal_link_resolves(archive: Archive, built_site):
    site = archive.site
    pages = {p.relative_to(site).as_posix(): ids_and_links(p) for p in site.rglob("*.html")}
    assert "index.html" in pages
    fresh = parse(site / "index.html")  # what is kept is what parsing gives
    assert pages["index.html"] == (fresh.ids, tuple(fresh.links))
    checked = 0
    for name, (_ids, links) in pages.items():
        for link in links:
            parts = urlsplit(link)
            assert not parts.scheme and not parts.netloc, f"{name}: absolute link {link}"
            assert not link.startswith("/"), f"{name}: link from the host's root {link}"
            target = (posixpath.normpath(posixpath.join(posixpath.dirname(name),
                                                        unquote(parts.path)))
                      if parts.path else name)
            assert not target.startswith(".."), f"{name}: {link} leaves the site"
            assert (site / target).is_file(), f"{name}: {link} leads nowhere"
            if parts.fragment and target.endswith(".html"):
                assert parts.fragment in pages[target][0], f"{name}: no #{parts.fragment}"
            checked += 1
    assert checked > 1000
    # every page is reachable from the front page
    seen, todo = set(), ["index.html"]
    while todo:
        name = todo.pop()
        if name in seen or not name.endswith(".html"):
            continue
        seen.add(name)
        for link in pages[name][1]:
            path = urlsplit(link).path
            if path:
                todo.append(posixpath.normpath(posixpath.join(posixpath.dirname(name), path)))
    assert seen == set(pages)


def test_an_empty_archive_is_a_site_too(sqlite_database, tmp_path):
    report = build(tmp_path / "site")
    assert report.games == 0
    index = (tmp_path / "site" / "index.md").read_text(encoding="utf-8")
    assert "No finished games yet." in index
    assert ET.parse(tmp_path / "site" / "feed.xml").getroot().findall(f"{ATOM}entry") == []
    assert (tmp_path / "site" / "style.css").is_file()
    # GitHub Pages serves the folder as it is, not each .md rendered over its .html
    assert (tmp_path / "site" / ".nojekyll").is_file()


def test_feed_is_atom_with_links_into_the_site(archive: Archive, built_site):
    feed = ET.parse(archive.site / "feed.xml").getroot()
    assert feed.tag == f"{ATOM}feed"
    entries = feed.findall(f"{ATOM}entry")
    assert len(entries) == len(archive.games)
    newest = max(archive.games, key=lambda g: g.finished_at)
    first = entries[0].find(f"{ATOM}link").get("href")
    assert first == f"games/{newest.id}.html"
    for entry in entries:
        assert (archive.site / entry.find(f"{ATOM}link").get("href")).is_file()
    titles = " ".join(e.find(f"{ATOM}title").text for e in entries)
    assert HOSTILE in titles  # XML-escaped in the file, the name itself once parsed


# -- what a game page says --------------------------------------------------


def _result_rows(path: Path) -> list[list[str]]:
    """The rows of the table after the "Result" heading of a game page."""
    html = path.read_text(encoding="utf-8")
    section = html.split('<h2 id="result">', 1)[1].split("</table>", 1)[0]
    rows = []
    for row in re.findall(r"<tr>(.*?)</tr>", section, re.S)[1:]:
        cells = [re.sub(r"<[^>]+>", "", c).strip()
                 for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
        rows.append(cells)
    return rows


def test_each_game_page_shows_the_scores_the_engine_computed(archive: Archive, built_site):
    games = finished_games()
    assert len(games) == len(archive.games) >= 10
    for game in games:
        seats = list(game.seats.order_by(Seat.index))
        rows = _result_rows(archive.site / f"games/{game.id}.html")
        shown = {unescape(name): (int(place), int(score)) for place, name, score, *_ in rows}
        engine = get_game(game.game).result(replayed(game_record(game)))
        assert engine.to_json() == game.result  # stored at the end == replayed now
        expected = {s.display: (engine.ranks[s.index], engine.scores[s.index]) for s in seats}
        assert shown == expected
        # rows are in the order of the places, tie-breakers applied
        assert [int(r[0]) for r in rows] == sorted(engine.ranks)


def test_game_page_has_every_move_with_a_permalink_and_the_state_of_each_round(archive, built_site):
    game = archive.games[0]
    page = parse(archive.site / f"games/{game.id}.html")
    moves = [i for i in page.ids if re.fullmatch(r"m\d+", i)]
    assert len(moves) == game.seq
    assert f'href="#m{game.seq}"' in (archive.site / f"games/{game.id}.html").read_text()
    rounds = get_game(game.game).round(replay(game_record(game)))
    assert {f"round-{r}" for r in range(1, rounds + 1)} <= page.ids
    text = (archive.site / f"games/{game.id}.md").read_text(encoding="utf-8")
    assert text.count("State after the last move of round") == rounds
    assert "## Setup" in text and f"Rules version: {game.rules_version}" in text
    assert (archive.site / f"games/{game.id}.svg").read_text().startswith("<svg")


def test_the_page_shows_everything_once_the_game_is_over(archive: Archive, built_site):
    """Secret choices in the moves, and every hand in the state after each round."""
    from pbem.archive.text import code_block, fill, md_name
    from pbem.gamelog.history import is_told
    from pbem.models import Move

    hidden = 0
    for game in archive.games:
        record = game_record(game)
        names = record.players
        text = (archive.site / f"games/{game.id}.md").read_text(encoding="utf-8")
        lines = {line.strip() for line in text.splitlines()}  # steps of a turn are indented
        rows = list(Move.select().where(Move.game == game).order_by(Move.seq))
        for n, (row, (sentence, table)) in enumerate(zip(rows, told(record), strict=True),
                                                    start=1):
            # the author's sentence, stored on the row; everything, as the archive reads it
            assert row.said_author == sentence
            said = fill(row.said_author, [md_name(x) for x in names], name_escape=str)
            if is_told(row):
                assert f"- [{n}](#m{n}){{#m{n}}} {said}" in lines
            else:  # menu navigation (Macao's "show", Riga's "more"): never told
                assert not any(line.startswith(f"- [{n}](#m{n})") for line in lines)
            hidden += row.said_author != row.said_others
            if table is not None:  # the last move of a round, or of the game
                everything, more_than_a_spectator_sees = table
                assert code_block(everything) in text
                hidden += more_than_a_spectator_sees
    assert hidden  # the games had secrets, and the archive shows them


def test_what_the_engine_made_of_a_record_is_kept_for_that_record(sqlite_archive: Archive):
    """``replayed`` and ``told`` keep the engine's answers by record: a game, or the same
    game with another move log, gets its own."""
    from pbem.games.protocol import EVERYTHING

    first, other = (game_record(g) for g in sqlite_archive.games[:2])
    for record in (first, other, first):
        assert replayed(record) == replay(record)
        rules, names = get_game(record.game), list(record.players)
        steps = list(replay_steps(record))
        assert [sentence for sentence, _table in told(record)] == [
            rules.describe(before, seat, move, after, EVERYTHING)
            for _index, seat, move, before, after in steps]
        tables = [table[0] for _sentence, table in told(record) if table]
        assert tables[-1] == rules.render_text(rules.view(steps[-1][4], EVERYTHING), names)
        assert len(tables) == sum(rules.is_over(after) or rules.round(after) != rules.round(before)
                                  for _i, _s, _m, before, after in steps)
    shorter = dataclasses.replace(first, moves=first.moves[:-1])
    assert replayed(shorter) == replay(shorter) != replayed(first)
    assert len(told(shorter)) == len(told(first)) - 1


def test_a_move_played_on_timeout_says_so(archive: Archive):
    from pbem.models import Move

    game = archive.games[0]
    Move.update(kind=Move.TIMEOUT).where(Move.game == game.id, Move.seq == 3).execute()
    leave_only(game)
    build(archive.site)
    text = (archive.site / f"games/{game.id}.md").read_text(encoding="utf-8")
    line = next(line.strip() for line in text.splitlines()
                if line.strip().startswith("- [3](#m3)"))
    assert line.endswith("*(default move after a timeout)*")
    assert text.count("after a timeout") == 1


def test_json_record_replays_to_the_same_result(archive: Archive, built_site):
    runner = CliRunner()
    for game in finished_games():
        path = archive.site / f"games/{game.id}.json"
        record = GameRecord.loads(path.read_text(encoding="utf-8"))
        assert record.to_json() == game_record(game).to_json()
        out = runner.invoke(cli, ["replay", str(path)])
        assert out.exit_code == 0, out.output
        replayed = json.loads(out.output)
        assert replayed["over"] is True
        assert replayed["result"] == game.result


# -- incremental and deterministic -----------------------------------------------


def test_second_build_writes_nothing(archive: Archive, built_site, first_build_report):
    # the first build: the one ``built_site`` is a copy of, ``build(archive.site)`` of these
    # rows (in this test, or in an earlier one of this process)
    assert first_build_report.rendered_games == len(archive.games)
    before = {p: (archive.site / p).stat().st_mtime_ns for p in site_files(archive.site)}
    second = build(archive.site)
    assert (second.written, second.removed, second.rendered_games,
            second.rendered_indexes) == ([], [], 0, 0)
    after = {p: (archive.site / p).stat().st_mtime_ns for p in site_files(archive.site)}
    assert after == before


def test_two_builds_of_one_database_are_byte_identical(archive: Archive, built_site, tmp_path):
    # the first: ``built_site``, ``build(archive.site)`` of these rows, in this test or in
    # an earlier one of this process (whose copy every other test then trusts to be what
    # a build of its own would make: this is the test of that)
    other = tmp_path / "elsewhere"
    build(other, full=True)
    assert site_files(archive.site) == site_files(other)
    # and a full rebuild over a built site changes no byte
    again = build(archive.site, full=True)
    assert again.written == [] and again.rendered_games == len(archive.games)


def test_pages_rendered_by_several_processes_are_the_same(archive: Archive, built_site,
                                                          tmp_path, monkeypatch):
    from pbem.archive import pipeline

    # ``built_site``: as ``build(archive.site, jobs=1)`` leaves it, in this one process
    monkeypatch.setattr(pipeline, "PARALLEL_MIN", 1)
    parallel = tmp_path / "parallel"
    report = build(parallel, jobs=2)
    assert report.rendered_games == len(archive.games)
    assert site_files(parallel) == site_files(archive.site)


def test_the_last_tasks_of_games_are_small_so_the_workers_end_together():
    from pbem.archive import pipeline

    sizes, left = [], 300
    while left:
        sizes.append(pipeline._task_size(left, jobs=2))
        left -= sizes[-1]
    assert sizes[0] == pipeline.TASK_GAMES and sizes[-3:] == [1, 1, 1]
    assert sizes == sorted(sizes, reverse=True)


def test_one_new_game_rewrites_only_its_page_and_the_indexes_it_is_in(archive: Archive, built_site):
    heike, malte = archive.players[0], archive.players[1]
    last = max(g.finished_at for g in archive.games)
    game = archive.add("visby", [heike, malte, None], seed=4242, finished_at=last)
    report = build(archive.site)
    assert report.rendered_games == 1
    page = f"games/{game.id}"
    month = game.finished_at.strftime("%Y-%m")
    expected = {f"{page}.md", f"{page}.html", f"{page}.json", f"{page}.svg",
                "feed.xml", ".manifest.json", shard_path(game.id // SHARD)}
    # the table's picture at the setup and after each round, beside the page
    rounds = get_game("visby").round(game.state)
    expected |= {f"{page}-setup.svg"} | {f"{page}-r{n}.svg" for n in range(1, rounds + 1)}
    for index in ("index", "by-game/index", "by-game/visby", "players/index",
                  f"players/{heike.id}", f"players/{malte.id}", "months/index",
                  f"months/{month}"):
        expected |= {f"{index}.md", f"{index}.html"}
    # and the statistics of Visby it counts in, with their charts, and their index
    statistics = {f for f in report.written if f.startswith("statistics/")}
    assert {"statistics/index.md", "statistics/visby.md", "statistics/visby-results.svg"} \
        <= statistics
    assert all(f.startswith(("statistics/visby", "statistics/index.")) for f in statistics)
    assert set(report.written) - statistics == expected
    assert report.removed == []


def test_a_game_that_is_no_longer_finished_leaves_the_archive(archive: Archive, built_site):
    gone = archive.games[3]
    Game.update(status=Game.ABORTED).where(Game.id == gone.id).execute()
    report = build(archive.site)
    pictures = {f"games/{gone.id}-setup.svg"} | {
        f"games/{gone.id}-r{n}.svg" for n in range(1, get_game(gone.game).round(gone.state) + 1)}
    assert set(report.removed) == {f"games/{gone.id}.{ext}"
                                   for ext in ("html", "json", "md", "svg")} | pictures
    assert f"games/{gone.id}.html" not in (archive.site / "index.html").read_text()


def test_a_full_build_also_removes_the_pages_of_games_that_are_gone(archive: Archive, built_site):
    gone = archive.games[3]
    Game.update(status=Game.ABORTED).where(Game.id == gone.id).execute()
    report = build(archive.site, full=True)
    pictures = {f"games/{gone.id}-setup.svg"} | {
        f"games/{gone.id}-r{n}.svg" for n in range(1, get_game(gone.game).round(gone.state) + 1)}
    assert set(report.removed) == {f"games/{gone.id}.{ext}"
                                   for ext in ("html", "json", "md", "svg")} | pictures
    assert not list(archive.site.glob(f"games/{gone.id}.*"))
    assert site_files(archive.site) == site_files(_fresh_build(archive.site))


def _fresh_build(site: Path) -> Path:
    other = site.parent / "fresh"
    build(other)
    return other


def _full_build_elsewhere(site: Path) -> Path:
    other = site.parent / "full"
    report = build(other, full=True)
    assert report.full and report.read_games == report.games
    return other


def test_an_incremental_build_after_new_games_equals_a_full_build(archive: Archive, built_site):
    from pbem.archive.sample import add_player

    heike, newcomer = archive.players[0], add_player("Newcomer", email="new@example.org")
    last = max(g.finished_at for g in archive.games)
    first = min(g.finished_at for g in archive.games)
    added = [archive.add("visby", [heike, newcomer, None], seed=4242, finished_at=last),
             # one that ended before most others (a late close): every list shifts
             archive.add("tallinn", [newcomer, heike], seed=4243, finished_at=first)]
    report = build(archive.site)
    assert not report.full
    assert report.read_games == report.rendered_games == len(added)
    assert report.games == len(archive.games)
    assert site_files(archive.site) == site_files(_full_build_elsewhere(archive.site))


@ABOUT_THE_BUILDER
def test_incremental_equals_full_with_lists_split_into_blocks(archive: Archive, monkeypatch):
    from pbem.archive import indexes

    monkeypatch.setattr(indexes, "BLOCK", 4)
    monkeypatch.setattr(indexes, "FRONT", 3)
    build(archive.site)
    assert (archive.site / "all" / "2.html").is_file()
    heike, malte = archive.players[0], archive.players[1]
    middle = sorted(g.finished_at for g in archive.games)[len(archive.games) // 2]
    archive.add("visby", [heike, malte], seed=99, finished_at=middle)
    Game.update(status=Game.ABORTED).where(Game.id == archive.games[1].id).execute()
    report = build(archive.site)
    assert report.read_games == 1 and report.rendered_games == 1
    assert site_files(archive.site) == site_files(_full_build_elsewhere(archive.site))


def test_incremental_equals_full_after_a_rename_and_a_game_that_left(archive: Archive, built_site):
    heike = archive.players[0]
    heike.name = "Heike Renamed"
    heike.save()
    Game.update(status=Game.ABORTED).where(Game.id == archive.games[2].id).execute()
    report = build(archive.site)
    theirs = {g.id for g in archive.games if any(s.player_id == heike.id for s in g.seats)}
    assert report.read_games == len(theirs - {archive.games[2].id})
    assert site_files(archive.site) == site_files(_full_build_elsewhere(archive.site))


@ABOUT_THE_BUILDER
def test_statistics_kept_in_the_manifest_come_to_what_a_full_build_makes(archive: Archive,
                                                                         built_site):
    """An incremental build takes the changed and departed games out of the statistics'
    totals and adds the new ones: after each change its site, manifest and all, is the one
    a build from scratch makes, down to a game name whose last game left."""
    heike, malte = archive.players[0], archive.players[1]
    last = max(g.finished_at for g in archive.games)

    def from_scratch(name: str) -> dict[str, bytes]:
        report = build(archive.site.parent / name)
        assert report.full
        return site_files(archive.site.parent / name)

    added = archive.add("macao", [heike, malte], seed=4244, finished_at=last)
    report = build(archive.site)
    assert (report.read_games, report.rendered_games) == (1, 1)
    assert {re.match(r"statistics/([a-z]+)", f)[1] for f in report.written
            if f.startswith("statistics/")} == {"macao", "index"}
    assert site_files(archive.site) == from_scratch("after-a-new-game")

    gone = {g.id for g in archive.games if g.game == "tallinn"}
    Game.update(status=Game.ABORTED).where(Game.id.in_(gone)).execute()
    moved = next(g for g in archive.games if g.game == "macao" and g.id != added.id)
    Game.update(finished_at=moved.finished_at.replace(year=2019)).where(
        Game.id == moved.id).execute()
    report = build(archive.site)
    assert report.read_games == 1
    now = site_files(archive.site)
    assert not [f for f in now if f.startswith("statistics/tallinn")]
    assert not (archive.site / "statistics" / "tallinn").exists()  # nor its empty folder
    assert (archive.site / "statistics" / "macao").is_dir()
    assert now == from_scratch("after-games-left-and-changed")


def test_a_changed_game_row_is_read_again(archive: Archive, built_site):
    """A finished game whose end or length changed (closed again, say) is read and rendered."""
    game = archive.games[5]
    Game.update(finished_at=game.finished_at.replace(year=2025)).where(
        Game.id == game.id).execute()
    report = build(archive.site)
    assert (report.read_games, report.rendered_games) == (1, 1)
    assert "2025-" in (archive.site / f"games/{game.id}.md").read_text(encoding="utf-8")
    assert site_files(archive.site) == site_files(_full_build_elsewhere(archive.site))


@ABOUT_THE_BUILDER
def test_new_code_for_a_game_renders_its_pages_and_every_index(archive: Archive, built_site,
                                                               monkeypatch):
    from pbem.archive import pipeline

    real = pipeline.code_fingerprint
    # ``built_site`` was built by the code as it is; Visby's code changes after it (and
    # stays changed for the build from scratch it is compared with)
    monkeypatch.setattr(pipeline, "code_fingerprint",
                        lambda name=None: "new visby" if name == "visby" else real(name))
    report = build(archive.site)
    visby = [g for g in archive.games if g.game == "visby"]
    assert report.read_games == report.rendered_games == len(visby)
    assert site_files(archive.site) == site_files(_full_build_elsewhere(archive.site))


@ABOUT_THE_BUILDER
def test_a_manifest_of_another_kind_means_a_full_read(archive: Archive):
    # the first game of each kind: the builder makes of a manifest it cannot use what it
    # makes of none, for four games as for forty (and each of the builds below reads and
    # renders every game again: 2 CPU s each for the forty)
    first: dict[str, Game] = {}
    for game in archive.games:
        first.setdefault(game.game, game)
    leave_only(*first.values())
    assert build(archive.site).rendered_games == len(first) == 4
    # what a full build makes of these rows, manifest and all: the first build of them
    full = site_files(archive.site)
    main = (archive.site / ".manifest.json").read_text(encoding="utf-8")
    for manifest in ["not json", '{"format": 1, "pages": {}}',
                     f'{{"format": {FORMAT}, "code": {{"": "x"}}, "pages": {{}}, '
                     '"games": {"1": {"id": "x"}}}', "no shard"]:
        if manifest == "no shard":  # the main file as it was, one of the games' files gone
            manifest = main
            (archive.site / shard_path(0)).unlink()
        (archive.site / ".manifest.json").write_text(manifest, encoding="utf-8")
        report = build(archive.site)
        assert report.full and report.read_games == report.rendered_games == len(first)
        assert site_files(archive.site) == full


@ABOUT_THE_BUILDER
def test_the_fingerprint_covers_every_module_a_page_is_made_with(archive: Archive, built_site):
    """A change to any code that renders a page renders it again (pbem/games/render.py…)."""
    import sys

    from pbem.archive.pipeline import rendering_sources

    # every module a page needs is imported now: ``built_site`` was built in this process
    package = Path(sys.modules["pbem"].__file__).resolve().parent
    covered = set(rendering_sources("visby"))
    used = {Path(m.__file__).resolve() for name, m in list(sys.modules.items())
            if name.startswith(("pbem.games", "pbem.archive", "pbem.gamelog.records"))
            and getattr(m, "__file__", None)}
    used = {p for p in used if p.is_relative_to(package / "games") and
            (p.parent == package / "games" or p.is_relative_to(package / "games" / "visby"))
            or p.is_relative_to(package / "archive") or p == package / "gamelog" / "records.py"}
    assert package / "games" / "render.py" in used
    assert used - covered == set()


def test_a_renamed_player_rewrites_the_pages_that_show_the_name(archive: Archive, built_site):
    heike = archive.players[0]
    heike.name = "Heike Renamed"
    heike.save()
    report = build(archive.site)
    theirs = {g.id for g in archive.games
              if any(s.player_id == heike.id for s in g.seats)}
    assert report.rendered_games == len(theirs)
    assert "Heike Renamed" in (archive.site / f"players/{heike.id}.md").read_text()


def test_unfinished_games_never_appear(archive: Archive):
    from pbem.archive.sample import add_finished_game

    open_game = add_finished_game("visby", archive.players[:2], 7, archive.games[0].finished_at)
    Game.update(status=Game.ACTIVE, finished_at=None).where(Game.id == open_game.id).execute()
    build(archive.site)
    assert not list(archive.site.glob(f"games/{open_game.id}.*"))
    for path in archive.site.rglob("*.html"):
        assert f"games/{open_game.id}.html" not in path.read_text(encoding="utf-8")


# -- escaping ---------------------------------------------------------------------


def test_names_with_markup_are_escaped_everywhere(archive: Archive, built_site):
    hostile = next(p for p in archive.players if p.name == HOSTILE)
    for path in archive.site.rglob("*"):
        if not path.is_file() or path.suffix not in {".html", ".xml", ".json", ".svg"}:
            continue
        text = path.read_text(encoding="utf-8")
        assert "<script" not in text.lower(), path
        assert 'href="javascript' not in text.lower(), path
        if path.suffix != ".json":  # no attribute of any tag came from a name
            assert not any("onclick" in tag for tag in re.findall(r"<[^>]*>", text)), path
    # the names read as themselves
    game = next(g for g in archive.games if any(s.player_id == hostile.id for s in g.seats))
    text = "".join(parse(archive.site / f"games/{game.id}.html").text)
    assert HOSTILE in text
    other = next(g for g in archive.games
                 if any(s.player and s.player.name == MARKDOWN_NAME for s in g.seats))
    page = parse(archive.site / f"games/{other.id}.html")
    assert MARKDOWN_NAME in "".join(page.text)
    assert not any(tag in {"strong", "em", "script"} for tag, _ in page.tags)
    # a name that would start a list where it starts a line
    listed = next(g for g in archive.games
                  if any(s.player and s.player.name == LINE_START_NAME for s in g.seats))
    page = parse(archive.site / f"games/{listed.id}.html")
    assert LINE_START_NAME + ":" in "".join(page.text)  # the result's details
    assert not any(tag == "ol" for tag, _ in page.tags)
    # and in the Markdown, outside the plain-text blocks, as entities
    markdown = (archive.site / f"games/{game.id}.md").read_text(encoding="utf-8")
    prose = "\n".join(line for line in markdown.splitlines() if not line.startswith("    "))
    assert "&lt;script&gt;" in prose and "<script" not in prose
    record = (archive.site / f"games/{game.id}.json").read_text(encoding="utf-8")
    assert HOSTILE in GameRecord.loads(record).players


def test_markdown_in_names_reads_as_the_name(sqlite_archive: Archive, sqlite_built_site):
    """Backticks, braces, links, emphasis: the HTML shows each name as typed, nothing more."""
    from pbem.archive.sample import add_player

    names = ["`tick` {0} {1}", "[x](javascript:alert(1))", "_under_ **b** ~~s~~",
             "<img src=x onerror=alert(1)>", "![i](x.png) \\ &lt;"]
    seats = [add_player(name, email=f"md{i}@example.org") for i, name in enumerate(names)]
    game = sqlite_archive.add("visby", seats, seed=77)
    build(sqlite_archive.site)  # over ``sqlite_built_site``: the one page to make is this
    html = (sqlite_archive.site / f"games/{game.id}.html").read_text(encoding="utf-8")
    page = parse(sqlite_archive.site / f"games/{game.id}.html")
    # no markup came from a name: the images are the chart and the table's pictures of
    # the game (which escape the names themselves), the one code the command
    assert not {tag for tag, _ in page.tags} & {"em", "strong", "del", "script"}
    images = [a.get("src") for tag, a in page.tags if tag == "img"]
    assert images[0] == f"{game.id}.svg"
    assert f"{game.id}-setup.svg" in images and f"{game.id}-r1.svg" in images
    assert all(re.fullmatch(rf"{game.id}-(setup|r\d+)\.svg", src) for src in images[1:])
    for src in images[1:]:  # each picture is a whole SVG document, names escaped in it
        ET.parse(sqlite_archive.site / "games" / src)
    prose = html.split("<main>", 1)[1].split('<h2 id="setup">', 1)[0]
    assert prose.count("<code>") == 1 and f"<code>pbem replay {game.id}.json" in prose
    assert not any("javascript" in (a.get("href") or "") for _, a in page.tags)
    assert not any("onerror" in tag for tag in re.findall(r"<[^>]*>", html))
    # and each name reads as typed: in the heading, the result, every move
    heading = html.split("<h1>", 1)[1].split("</h1>", 1)[0]
    assert unescape(heading) == (f"Visby #{game.id}: " + ", ".join(names[:-1])
                                 + " and " + names[-1])
    rows = _result_rows(sqlite_archive.site / f"games/{game.id}.html")
    assert sorted(unescape(r[1]) for r in rows) == sorted(names)
    moves = [unescape(re.sub(r"<[^>]+>", "", li))
             for li in re.findall(r'<li><a href="#m\d+" id="m\d+">\d+</a>(.*?)</li>', html)]
    assert len(moves) == game.seq
    assert all(any(m.strip().startswith(n + " ") for n in names) for m in moves)


def test_a_game_that_no_longer_replays_still_gets_a_page(archive: Archive):
    old = archive.games[0]
    Game.update(rules_version="0").where(Game.id == old.id).execute()
    report = build(archive.site)
    assert [game_id for game_id, _why in report.problems] == [old.id]
    text = (archive.site / f"games/{old.id}.md").read_text(encoding="utf-8")
    assert "does not replay" in text and "## Moves" in text
    assert f"[{old.seq}](#m{old.seq})" in text
    assert not (archive.site / f"games/{old.id}.svg").exists()


def test_a_stored_log_that_no_longer_holds_is_told_by_the_checked_replay(archive: Archive):
    """A stored log replays without checking each move (``apply_played``); one that ends
    before its game does replays again through ``apply``, which names the refused move."""
    game = next(g for g in archive.games if g.game == "riga")
    steps = list(replay_steps(game_record(game)))
    rules = get_game(game.game)
    index, seat = next((i, s) for i, _s, _m, before, _a in steps[len(steps) // 2:]
                       for s in range(len(game.seats)) if s not in rules.to_move(before))
    Move.delete().where(Move.game == game.id, Move.seq > index + 1).execute()
    Move.update(seat=seat).where(Move.game == game.id, Move.seq == index + 1).execute()
    report = build(archive.site)
    [(game_id, why)] = report.problems
    assert game_id == game.id
    assert why.startswith(f"move {index + 1} ({seat}: {steps[index][2]}) is refused")
    text = (archive.site / f"games/{game.id}.md").read_text(encoding="utf-8")
    assert "does not replay" in text


# -- the command and the scheduler ----------------------------------------------------


@pytest.fixture
def cli_env(monkeypatch, request, ctx, database, archive: Archive) -> Archive:
    url = ctx.config.database_url if database == "sqlite" else request.getfixturevalue("pg_url")
    monkeypatch.setenv("PBEM_DATABASE_URL", url)
    monkeypatch.setenv("PBEM_ARCHIVE_SITE_DIR", str(archive.site))
    return archive


def test_build_site_command(cli_env: Archive):
    runner = CliRunner()
    out = runner.invoke(cli, ["build-site"])
    assert out.exit_code == 0, out.output
    assert f"{len(cli_env.games)} finished games" in out.output
    assert (cli_env.site / "index.html").is_file()
    out = runner.invoke(cli, ["build-site"])
    assert "wrote 0 files" in out.output


def test_progress_on_a_terminal_and_in_a_log():
    import io

    from pbem.cli.archive import TerminalProgress

    log = io.StringIO()
    progress = TerminalProgress(log, min_total=10)
    for done in range(1, 101):
        progress("games", done, 100)
    lines = log.getvalue().splitlines()
    assert lines[0] == "rendering games: 1/100 (1%)"
    assert lines[-1] == "rendering games: 100/100 (100%)"
    assert len(lines) == 11


def test_tick_archives_games_that_ended(ctx, archive: Archive, monkeypatch):
    from pbem.time import scheduler

    monkeypatch.setitem(ctx.config.values["archive"], "site_dir", str(archive.site))
    done = scheduler.tick(ctx)
    assert done["archive"]["rendered_games"] == len(archive.games)
    assert (archive.site / "index.html").is_file()
    assert Game.select().where(Game.archived_at.is_null()).count() == 0
    assert scheduler.tick(ctx)["archive"] is None  # nothing new: no build at all


def test_a_failing_build_never_stops_the_mail(ctx, archive: Archive, monkeypatch):
    from pbem.time import scheduler

    def broken(ctx):
        raise OSError("disk full")

    monkeypatch.setattr(scheduler, "build_if_needed", broken)
    done = scheduler.tick(ctx)
    assert done["archive"] == "failed"
    assert "mail" in done
