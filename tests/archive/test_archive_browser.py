"""A game page of the archive in a real browser: Debian's chromium, driven by playwright.

Skips, saying why, where chromium or playwright is missing (CI installs
both: ``.ci/run`` and the test extras).  Never downloads a browser.
"""

from __future__ import annotations

import shutil
import struct
import zlib

from archive_data import HOSTILE, Archive
from browser_support import needs_browser

from pbem.archive import chart as chart_module

pytestmark = needs_browser


def png_pixels(data: bytes) -> list[list[tuple[int, int, int]]]:
    """The rows of RGB pixels of an 8-bit PNG, as a browser's screenshot is (no PIL here)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, chunks, header = 8, [], b""
    while pos < len(data):
        (length,), kind = struct.unpack(">I", data[pos:pos + 4]), data[pos + 4:pos + 8]
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = body
        elif kind == b"IDAT":
            chunks.append(body)
        pos += 12 + length
    width, height, depth, colour, _c, _f, interlace = struct.unpack(">IIBBBBB", header)
    assert depth == 8 and colour in (2, 6) and interlace == 0, header
    step = 3 if colour == 2 else 4
    raw, stride = zlib.decompress(b"".join(chunks)), width * step
    rows, previous, pos = [], bytearray(stride), 0
    for _ in range(height):
        kind, line = raw[pos], bytearray(raw[pos + 1:pos + 1 + stride])
        pos += 1 + stride
        for i in range(stride):
            a = line[i - step] if i >= step else 0
            b, c = previous[i], previous[i - step] if i >= step else 0
            if kind == 1:
                line[i] = (line[i] + a) & 255
            elif kind == 2:
                line[i] = (line[i] + b) & 255
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([tuple(line[i:i + 3]) for i in range(0, stride, step)])
        previous = line
    return rows


def near(pixel: tuple[int, int, int], colour: str, slack: int = 24) -> bool:
    rgb = tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return all(abs(p - q) <= slack for p, q in zip(pixel, rgb, strict=True))


def test_game_page_shows_the_chart_and_the_moves(sqlite_archive: Archive, sqlite_built_site,
                                                browser, tmp_path):
    game = next(g for g in sqlite_archive.games
                if any(s.player and s.player.name == HOSTILE for s in g.seats))
    page_file = sqlite_archive.site / f"games/{game.id}.html"
    page = browser.new_page(viewport={"width": 1000, "height": 900})
    requests: list[str] = []
    errors: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("dialog", lambda d: errors.append(f"dialog: {d.message}"))
    page.goto(page_file.as_uri())

    chart = page.locator("main img").first
    chart.scroll_into_view_if_needed()
    page.wait_for_function("document.querySelector('main img').complete")
    assert chart.evaluate("img => img.naturalWidth") == 640
    box = chart.bounding_box()
    assert box is not None and box["width"] > 300 and box["height"] > 200
    # each seat's line is drawn in its colour across the plot (above the axis and the
    # legend, which has a short line in each colour too)
    rows = png_pixels(chart.screenshot())
    scale = len(rows[0]) / 640
    plot = rows[int(scale * chart_module.TOP):int(scale * (chart_module.TOP
                                                           + chart_module.PLOT_HEIGHT))]
    for seat in range(len(game.seats)):
        colour = chart_module.COLOURS[seat]
        columns = {x for row in plot for x, pixel in enumerate(row) if near(pixel, colour)}
        assert len(columns) > len(rows[0]) / 3, f"no line for seat {seat} ({colour})"

    moves = page.locator("main li > a[id^='m']")
    assert moves.count() == game.seq
    assert moves.first.is_visible() and moves.first.inner_text() == "1"
    assert HOSTILE in page.locator("h1").inner_text()  # shown as text, never run
    assert page.locator("script").count() == 0

    shot = tmp_path / "game.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 50_000
    assert errors == []
    assert all(url.startswith("file://") for url in requests), requests  # all from disk
    page.close()


def test_pages_fit_a_phone_and_print_without_navigation(sqlite_archive: Archive,
                                                        sqlite_built_site, browser):
    game = sqlite_archive.games[-1]
    page = browser.new_page(viewport={"width": 375, "height": 740})
    for name in ("index.html", f"games/{game.id}.html", "players/index.html"):
        page.goto((sqlite_archive.site / name).as_uri())
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 375, f"{name} is {width}px wide on a phone"
    page.goto((sqlite_archive.site / f"games/{game.id}.html").as_uri() + "#m3")
    assert page.locator("#m3").is_visible()
    page.emulate_media(media="print")
    assert not page.locator("header nav").is_visible()
    page.close()


def test_site_copied_elsewhere_still_works(sqlite_archive: Archive, sqlite_built_site,
                                          browser, tmp_path):
    copy = tmp_path / "copied"
    shutil.copytree(sqlite_archive.site, copy)
    page = browser.new_page()
    page.goto((copy / "index.html").as_uri())
    page.get_by_role("link", name="Players").first.click()
    assert page.url.endswith("/copied/players/index.html")
    page.locator("main a").first.click()
    assert "/copied/players/" in page.url
    assert page.locator("main table").count() >= 1
    page.close()
