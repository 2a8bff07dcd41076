"""The table a player plays at, on a phone and at a desk, for every game in English and
German: Debian's chromium, driven by playwright.

At 1280 pixels the table (its picture and the table in words) and the moves stand side
by side; at 390 the table comes first, at full width, no text smaller than 11 CSS
pixels, nothing scrolls sideways.  On seat pages at both widths and in the HTML turn
mail at 390, no word is broken inside a table cell nor in the table in words (opened
where it is folded): each word is measured as the browser laid it out, and a word whose
letters stand on two lines is a broken word ("Sea|ls", "Startspie|ler").  Pages come
from the Flask test client with the stylesheet inlined; mails as they are queued.
Skips, saying why, where chromium or playwright is missing.  With
PBEM_SCREENSHOTS=<folder> it keeps a screenshot of each page and mail there, to look at.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from browser_support import inline_app_css, needs_browser, show, table_in_words_unbroken
from web_helpers import mid_game

from pbem.models import Outbox

pytestmark = needs_browser

GAMES = ("riga", "visby", "tallinn", "macao")
#: the reader of each language: Alice reads English, Bob German
READERS = {"en": "alice@example.org", "de": "bob@example.org"}

#: every word of every table cell whose letters the browser set on more than one line;
#: a word ends at white space, a hyphen, a slash or a soft hyphen (where breaking is
#: the writer's choice, not the browser's)
BROKEN_WORDS = r"""() => {
  const broken = [];
  for (const cell of document.querySelectorAll('td, th')) {
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent;
      for (const m of text.matchAll(/[^\s\-\u2010\u2011\u00ad\/]+/g)) {
        if (m[0].length < 2) continue;
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const tops = new Set([...range.getClientRects()]
          .filter(r => r.width > 0).map(r => Math.round(r.top / 4)));
        if (tops.size > 1) broken.push(m[0]);
      }
    }
  }
  return broken;
}"""

#: the smallest text on the page, in CSS pixels as drawn (an SVG's text scaled with its
#: picture), with a sample of it
SMALLEST_TEXT = r"""() => {
  let smallest = [1000, ''];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent.trim();
    const el = node.parentElement;
    if (!text || !el || el.closest('title, style, script')) continue;
    const box = el.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) continue;
    let size = parseFloat(getComputedStyle(el).fontSize);
    if (el instanceof SVGElement && el.getScreenCTM()) {
      const m = el.getScreenCTM();
      size *= Math.sqrt(m.a * m.a + m.b * m.b);
    }
    if (size < smallest[0]) smallest = [size, text.slice(0, 40)];
  }
  return smallest;
}"""


def _mails(address: str, kind: str) -> list[Outbox]:
    return list(Outbox.select().where(Outbox.to_address == address, Outbox.kind == kind)
                .order_by(Outbox.id.desc()))


def _seat_path(address: str) -> str:
    for mail in Outbox.select().where(Outbox.to_address == address).order_by(Outbox.id.desc()):
        for word in mail.text_body.split():
            if "/s/" in word:
                return word[word.index("/s/"):].rstrip(".,)>")
    raise AssertionError(f"no seat link mailed to {address}")


def _shot(page, name: str) -> None:
    import os

    if os.environ.get("PBEM_SCREENSHOTS"):
        folder = Path(os.environ["PBEM_SCREENSHOTS"])
        folder.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(folder / f"{name}.png"), full_page=True)
        # and the first screenful and a half, big enough to read
        page.screenshot(path=str(folder / f"{name}-top.png"), full_page=True,
                        clip={"x": 0, "y": 0, "width": page.viewport_size["width"],
                              "height": 1400})


def _no_broken_words(page, what: str) -> None:
    broken = page.evaluate(BROKEN_WORDS)
    assert not broken, f"{what}: words broken inside table cells: {broken}"


def _phone(page, what: str) -> None:
    """Nothing scrolls sideways and no text is smaller than 11 CSS pixels."""
    scroll = page.evaluate("document.documentElement.scrollWidth")
    assert scroll <= 390, f"{what} scrolls sideways: {scroll}px"
    size, sample = page.evaluate(SMALLEST_TEXT)
    assert size >= 11 - 0.01, f"{what}: text of {size:.1f}px: {sample!r}"


def _boxes(page) -> tuple[dict, dict]:
    board, side = page.locator(".play .board"), page.locator(".play .side")
    assert board.count() == 1 and side.count() == 1
    return board.bounding_box(), side.bounding_box()


@pytest.mark.parametrize("name", GAMES)
def test_the_table_on_a_phone_and_at_a_desk(ctx, sqlite_client, tab, name):
    mid_game(ctx, name)
    for lang, address in READERS.items():
        seat_html = sqlite_client.get(_seat_path(address)).text
        assert f'lang="{lang}"' in seat_html
        [mail, *_] = _mails(address, "turn") or _mails(address, "started")
        for width in (390, 1280):
            what = f"{name}'s seat page in {lang} at {width}px"
            page = show(tab, inline_app_css(seat_html), width)
            _shot(page, f"{name}-{lang}-{width}")
            _no_broken_words(page, what)
            table_in_words_unbroken(page, what)
            board, side = _boxes(page)
            if width == 390:
                _phone(page, what)
                assert board["y"] + board["height"] <= side["y"] + 1, (
                    f"{what}: the table does not come first: {board}, {side}")
                assert board["width"] >= 390 - 40, f"{what}: a narrow table {board}"
            else:
                assert side["x"] >= board["x"] + board["width"] - 1, (
                    f"{what}: the moves are not beside the table: {board}, {side}")
                assert side["y"] < board["y"] + board["height"], (what, board, side)
        what = f"{name}'s {mail.kind} mail in {lang} at 390px"
        page = show(tab, mail.html_body, 390)
        _shot(page, f"{name}-{lang}-mail-390")
        assert page.locator("pre.view-text").count() == 1, f"{what} has no table in words"
        _no_broken_words(page, what)
        table_in_words_unbroken(page, what)
        _phone(page, what)
