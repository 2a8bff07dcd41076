"""What the browser tests share: Debian's chromium, driven by playwright, the mark that
skips them, saying why, where either is missing (the suite never downloads a browser;
``.ci/run`` installs Debian's package), and the pages they open.

A browser test takes the ``browser`` fixture (tests/conftest.py): one chromium per test
process (each pytest-xdist worker), started when a test first asks for it and kept for
the rest of the run.  Each page a test opens with ``browser.new_page`` (or ``open_page``)
has a browser context of its own, so no cookie, storage or route carries over from one
page or test to the next; what a test leaves open is closed after it.

Pages come from the Flask test client or the archive's build, so no server runs: their
stylesheet goes in inline (``inline_app_css``, ``inline_site_css``).
"""

from __future__ import annotations

import re
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
APP_CSS_LINK = '<link rel="stylesheet" href="/static/style.css">'
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


def close_pages(browser) -> None:
    """Close every context (and so every page) a test left open on ``browser``."""
    for context in list(browser.contexts):
        context.close()


def inline_app_css(html: str) -> str:
    """A page of the web app with its one stylesheet link replaced by the stylesheet."""
    assert APP_CSS_LINK in html
    return html.replace(APP_CSS_LINK, f"<style>{APP_CSS.read_text()}</style>")


def inline_site_css(html: str) -> str:
    """A page of the archive with its one stylesheet link replaced by the stylesheet."""
    inlined, n = re.subn(r'<link rel="stylesheet" href="(\.\./)*style\.css">',
                         lambda _m: f"<style>{SITE_CSS.read_text()}</style>", html)
    assert n == 1
    return inlined


def open_page(browser, html: str, width: int, height: int = 900):
    """A new page (in a context of its own) of ``width`` CSS pixels showing ``html``."""
    page = browser.new_page(viewport={"width": width, "height": height})
    page.set_content(html)
    return page
