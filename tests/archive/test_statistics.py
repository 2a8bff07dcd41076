"""The archive's statistics (issue 26, item 4): per card, building or office how often it
was taken, played or built and where those who did finished; per game and player count
each seat's and the start player's results.  Pages with a small table and a chart each,
made from the games' records (their moves, read by each game's ``uses``), incremental
and deterministic."""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from pathlib import Path

from archive_data import Archive, Snapshot, restore, snapshot
from browser_support import needs_browser

from pbem.archive import build
from pbem.archive.sample import add_finished_game, add_player
from pbem.archive.statistics import slug
from pbem.models import Game, Move, Player, Seat

START = datetime(2025, 3, 1, 12, 0)


#: the rows ``_games`` left, by its count, on the first database of this process that
#: asked for them: the next test that asks gets a copy of them (``archive_data.restore``,
#: on either kind), not games played again (0.1 CPU s each)
_PLAYED: dict[int, Snapshot] = {}


def _games(count: int = 4) -> list[Game]:
    """``count`` games of Visby and one of Riga, with Anna and Bernd, in an empty database."""
    if count in _PLAYED:
        return restore(_PLAYED[count], Path("site")).games
    assert not Player.select().exists(), "the games are played into an empty database"
    anna, bernd = add_player("Anna"), add_player("Bernd")
    games = []
    for n in range(count):
        games.append(add_finished_game("visby", [anna, bernd, None], 10 + n,
                                       START + timedelta(days=n)))
    games.append(add_finished_game("riga", [anna, bernd, None], 7, START + timedelta(days=9),
                                   {"riga": True}))
    _PLAYED[count] = snapshot(Archive(Path("site"), [anna, bernd], games))
    return games


def _row(markdown: str, first: str) -> list[str]:
    for line in markdown.splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if cells and cells[0] == first:
            return cells
    raise AssertionError(f"no row {first!r} in:\n{markdown}")


def _expected(card: str, verb_move: str) -> tuple[int, int, str]:
    """Times, seats that did, average final place: counted from the rows themselves."""
    rows = list(Move.select(Move.game, Move.seat).where(Move.move == verb_move))
    seats = sorted({(r.game_id, r.seat) for r in rows})
    places = [Game.get_by_id(g).result["ranks"][s] for g, s in seats]
    mean = sum(places) / len(places)
    return len(rows), len(seats), (str(int(mean)) if mean.is_integer() else f"{mean:.2f}")


def test_a_cards_page_counts_what_the_moves_say(database, tmp_path):
    _games()
    site = tmp_path / "site"
    build(site)
    times, seats, place = _expected("Zöllner", "play Zöllner")
    page = (site / "statistics/visby/zollner.md").read_text()
    assert page.startswith("# Zöllner (Visby)")
    row = _row(page, "Played")
    assert row[1:3] == [str(times), str(seats)] and row[4] == place
    assert "![Final places of the seats that had Zöllner](zollner.svg)" in page
    svg = (site / "statistics/visby/zollner.svg").read_text()
    assert svg.startswith("<svg") and "1st place" in svg
    html = (site / "statistics/visby/zollner.html").read_text()
    assert '<img alt="Final places of the seats that had Zöllner" src="zollner.svg"' in html
    game_page = (site / "statistics/visby.md").read_text()
    assert _row(game_page, "[Zöllner](../statistics/visby/zollner.html)")[1] == str(times)
    assert "Visby has no start player in its log" in game_page
    # each seat's results, from the games' results
    visby = list(Game.select().where(Game.game == "visby"))
    scores = [g.result["scores"][0] for g in visby]
    mean = sum(scores) / len(scores)
    assert _row(game_page, "3")[1:4] == ["seat 1", str(len(visby)),
                                         str(int(mean)) if mean.is_integer() else f"{mean:.2f}"]
    index = (site / "statistics/index.md").read_text()
    assert _row(index, "[Visby](visby.html)")[1] == str(len(visby))
    assert "as [statistics](statistics/index.html)" in (site / "index.md").read_text()


def test_riga_names_its_start_player_and_counts_built_buildings(database, tmp_path):
    games = _games(1)
    riga = games[-1]
    site = tmp_path / "site"
    build(site)
    page = (site / "statistics/riga.md").read_text()
    starts = [m.move for m in Move.select().where(Move.game == riga.id,
                                                  Move.move.startswith("start "))]
    start = int(starts[0].split()[1]) - 1
    match = re.search(r"\| 3 \| start player \| 1 \| (-?\d+) \| (\d+) \|", page)
    assert match, page
    assert match.groups() == (str(riga.result["scores"][start]), str(riga.result["ranks"][start]))
    assert "| Card, building or office | Taken | Built |" in page
    built = re.findall(r"\| \[([^\]]+)\]\(\.\./statistics/riga/([^)]+)\.html\)", page)
    assert built and all(slug(name) in file for name, file in built)


def test_statistics_are_incremental_and_deterministic(database, tmp_path):
    games = _games(2)
    site = tmp_path / "site"
    build(site)
    assert build(site).written == []
    anna = Seat.get(Seat.game == games[0].id, Seat.index == 0).player
    add_finished_game("visby", [anna, None], 99, START + timedelta(days=30))
    report = build(site)
    assert "statistics/visby.md" in report.written
    assert not any(f.startswith("statistics/riga") for f in report.written)
    elsewhere = tmp_path / "full"
    build(elsewhere, full=True)
    for path in sorted(elsewhere.rglob("statistics/**/*")):
        if path.is_file():
            rel = path.relative_to(elsewhere)
            assert (site / rel).read_bytes() == path.read_bytes(), rel
    assert "| 2 | seat 1 | 1 |" in (site / "statistics/visby.md").read_text()


def test_german_card_names_stay_as_printed_with_a_plain_file_name():
    assert slug("Bettelmönch") == "bettelmonch" and slug("Zöllner") == "zollner"
    assert slug("Herold (C53)") == "herold-c53" and slug("Kran-Visby") == "kran-visby"
    assert slug("!!!") == "card"  # never an empty file name


@needs_browser
def test_a_cards_statistics_read_at_390_pixels(database, tmp_path, browser):
    _games(2)
    site = tmp_path / "site"
    build(site)
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto((site / "statistics/index.html").as_uri())
    with page.expect_navigation():
        page.get_by_role("link", name="Visby").click()
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the game's statistics scroll sideways: {width}px"
    with page.expect_navigation():
        page.get_by_role("link", name="Bettelmönch").click()
    assert page.url.endswith("statistics/visby/bettelmonch.html")
    assert page.locator("h1").inner_text() == "Bettelmönch (Visby)"
    assert page.locator("table").get_by_text("Played").is_visible()
    loaded = page.evaluate(
        "Array.from(document.images).every(i => i.complete && i.naturalWidth > 0)")
    assert loaded, "the chart shows"
    chart = page.locator("img").first.bounding_box()
    assert chart is not None and chart["width"] <= 390
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page scrolls sideways: {width}px"


def test_a_log_its_game_cannot_read_is_not_counted_and_breaks_nothing(database, tmp_path):
    games = _games(2)
    Move.update(move="play Nobody").where(Move.game == games[0].id,
                                          Move.move.startswith("play ")).execute()
    site = tmp_path / "site"
    report = build(site)
    assert report.games == len(games)
    assert _row((site / "statistics/visby.md").read_text(), "3")[2] == "2", \
        "both games count for the seats' results"
    times, _seats, _place = _expected("Ritter", "play Ritter")
    page = (site / "statistics/visby/ritter.md").read_text()
    assert _row(page, "Played")[1] == str(times), "the other game's cards count alone"
