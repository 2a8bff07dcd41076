"""What the browser tests share: Debian's chromium, driven by playwright, the mark that
skips them, saying why, where either is missing (the suite never downloads a browser;
``.ci/run`` installs Debian's package), and the pages they open.

A browser test takes the ``browser`` fixture (tests/conftest.py): one chromium per test
process (each pytest-xdist worker), started when a test first asks for it and kept for
the rest of the run.  Each page a test opens with ``browser.new_page`` has a browser
context of its own, so no cookie, storage or route carries over from one page or test to
the next; what a test leaves open is closed after it.

A test that looks at one given page after another takes the ``tab`` fixture and
``show``s each in it in a new document.  The tab is one page per test process, lent to
every test that takes it (``LENT``; ``close_pages`` leaves it open) and left on an empty
document after each: a new page costs chromium a renderer process of its own, started
and warmed up again: 0.8 CPU seconds for an empty one (27 November, two cores at load
5), more than most checks of a page take, and axe-core's 500 kB compiled again on top.
A page shown in it keeps nothing a later one could see (``show``), so what one test
shows there cannot change what the next one measures; a test that routes the page's
requests, listens to its events or changes its media takes a page of its own
(``browser.new_page``).

Pages come from the Flask test client or the archive's build, so no server runs: their
stylesheet goes in inline (``inline_app_css``, ``inline_site_css``).
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from pbem.web import STATIC_DIR

CHROMIUM = Path("/usr/bin/chromium")
#: headless and quiet: no first-run pages, no background traffic off this machine
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]

ROOT = Path(__file__).resolve().parents[1]
#: the web app's stylesheet, as a page links it
APP_CSS = STATIC_DIR / "style.css"
#: (with its version, ``pbem.web.assets``)
APP_CSS_LINK = re.compile(r'<link rel="stylesheet" href="/static/style\.css\?v=[0-9a-f]{12}">')
#: the archive's stylesheet, which its pages link relatively (``../style.css``)
SITE_CSS = ROOT / "site" / "style.css"


def skip_reason() -> str | None:
    """Why the browser tests cannot run here, or None."""
    if not CHROMIUM.exists():
        return (f"no chromium at {CHROMIUM}: install Debian's package "
                "(apt-get install chromium) to run the browser test")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright is not installed (pip install -e '.[test]')"
    return None


#: put on a browser test module as ``pytestmark = needs_browser``
needs_browser = pytest.mark.skipif(skip_reason() is not None, reason=skip_reason() or "")


#: seconds between the live server's looks at whether it is to stop (``live_server``)
POLL = 0.01


@contextmanager
def live_server(app) -> Iterator[str]:
    """``app`` served over HTTP on loopback in a thread, for as long as the block runs;
    yields its origin ("http://127.0.0.1:<port>").  A browser that taps links and posts
    forms needs a server that answers its redirects too."""
    from werkzeug.serving import make_server

    server = make_server("127.0.0.1", 0, app, threaded=False)
    # ``shutdown`` waits for the serving loop to look at its flag, which it does once a
    # poll: at the default half second, every browser test that ends its server sat
    # idle for about that long (py-spy, 27 November); a hundredth costs the thread a
    # wake-up of microseconds a poll.
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": POLL},
                              daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(timeout=10)


# -- the picture as the board: tapping its places (pbem.games.svg.Canvas.region) --


def tap(page, region: str) -> None:
    """Tap the framed place ``region`` of the picture, as a finger would: on its frame's
    middle (the frame is transparent inside, so the whole box is the target)."""
    link = page.locator(f'figure.table-picture a.target[data-region="{region}"]')
    assert link.count() >= 1, f"nothing to tap at {region}: {targets(page)}"
    with page.expect_navigation():
        link.first.locator("rect.target-mark").click()


def targets(page) -> list[str]:
    """The places of the picture one may tap now, by region name, in drawing order."""
    return page.eval_on_selector_all("figure.table-picture a.target",
                                     "els => els.map(e => e.dataset.region)")


def confirm(page) -> None:
    """Press the confirm page's one button and wait for the seat page."""
    with page.expect_navigation():
        page.locator("section.confirm button.move").click()


#: the table in words (``pre.view-text``), its folded ``<details>`` opened first: how
#: many of its words the browser set, and every word whose letters it set on more than one
#: line.  A word is a run of letters and digits (between punctuation, as in a name's
#: brackets, the browser may break where the writer left no space).  A page without the
#: table in words, or one whose words are not drawn, measures no word: a test asserts it
#: measured some.
WORDS_OF_THE_TABLE_IN_WORDS = r"""() => {
  for (const d of document.querySelectorAll('details')) {
    if (d.querySelector('pre.view-text')) d.open = true;
  }
  let measured = 0;
  const broken = [];
  for (const pre of document.querySelectorAll('pre.view-text')) {
    const walker = document.createTreeWalker(pre, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent;
      for (const m of text.matchAll(/[\p{L}\p{N}]+/gu)) {
        if (m[0].length < 2) continue;
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const rects = [...range.getClientRects()].filter(r => r.width > 0);
        if (!rects.length) continue;
        measured += 1;
        if (new Set(rects.map(r => Math.round(r.top / 4))).size > 1) broken.push(m[0]);
      }
    }
  }
  return [measured, broken];
}"""


def table_in_words_unbroken(page, what: str) -> None:
    """The page shows the table in words (opened where it is folded) and the browser
    broke none of its words across lines."""
    measured, broken = page.evaluate(WORDS_OF_THE_TABLE_IN_WORDS)
    assert measured, f"{what}: no word of the table in words is drawn"
    assert not broken, f"{what}: words of the table in words broken across lines: {broken}"


@contextmanager
def launched() -> Iterator[object]:
    """Debian's chromium, headless, closed when the block ends."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


#: the page the ``tab`` fixture lends (none until a test first takes it)
LENT: list = []


def lent_tab(browser):
    """The ``tab`` fixture's page of this process, opened again if a test closed it."""
    if not LENT or LENT[0].is_closed():
        LENT[:] = [browser.new_page()]
    return LENT[0]


def give_back(tab) -> None:
    """The lent tab on an empty document for the next test; closed (a new one is opened
    when next asked for) if the test left it unable to go there."""
    from playwright.sync_api import Error

    try:
        tab.goto("about:blank")
    except Error:  # a crashed or closed page: the next test gets a new one
        tab.context.close()
        LENT.clear()


def close_pages(browser) -> None:
    """Close every context (and so every page) a test left open on ``browser``, but the
    lent tab's."""
    kept = {page.context for page in LENT if not page.is_closed()}
    for context in list(browser.contexts):
        if context not in kept:
            context.close()


def inline_app_css(html: str) -> str:
    """A page of the web app with its one stylesheet link replaced by the stylesheet."""
    css = APP_CSS.read_text()
    inlined, n = APP_CSS_LINK.subn(lambda _: f"<style>{css}</style>", html)
    assert n == 1, "the page links the stylesheet once"
    return inlined


def inline_site_css(html: str) -> str:
    """A page of the archive with its one stylesheet link replaced by the stylesheet."""
    inlined, n = re.subn(r'<link rel="stylesheet" href="(\.\./)*style\.css">',
                         lambda _m: f"<style>{SITE_CSS.read_text()}</style>", html)
    assert n == 1
    return inlined


def show(tab, html: str, width: int, height: int = 900):
    """``tab`` (the ``tab`` fixture's page) ``width`` CSS pixels wide showing ``html``, as
    a new page would: ``about:blank`` first, so the document and its window (its
    scripts' globals, its scroll) are new; the viewport set before the page is laid out.
    Pages given as HTML load nothing from a server and keep nothing (an ``about:blank``
    page has no storage), so only the renderer is shared from one page to the next."""
    tab.goto("about:blank")
    tab.set_viewport_size({"width": width, "height": height})
    tab.set_content(html)
    return tab


#: axe-core, vendored (tests/vendor/axe-core): the accessibility rules pages must keep
AXE = Path(__file__).resolve().parent / "vendor" / "axe-core" / "axe.min.js"
#: the impacts of an axe finding that fail a test
SEVERE = ("serious", "critical")


def axe_violations(tab, html: str) -> list[str]:
    """axe-core's serious and critical findings on ``html`` (stylesheets inlined: a
    served page allows no script to be added), one line each, at 390 pixels, shown in
    ``tab`` (``show``), axe-core added to its new document."""
    page = show(tab, html, 390)
    page.add_script_tag(content=AXE.read_text(encoding="utf-8"))
    found = page.evaluate("""async () => {
        const r = await axe.run(document, {resultTypes: ['violations']});
        return r.violations.map(v => [v.id, v.impact, v.help,
            v.nodes.slice(0, 3).map(n => n.target.join(' ') + ' ' +
                (n.failureSummary || '').split('\\n').slice(0, 2).join(' '))]);
    }""")
    return [f"{rule} ({impact}): {what}: {nodes}" for rule, impact, what, nodes in found
            if impact in SEVERE]
