"""What the browser tests share: Debian's chromium, driven by playwright, and the mark
that skips them, saying why, where either is missing (the suite never downloads a
browser; ``.ci/run`` installs Debian's package)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
#: headless and quiet: no first-run pages, no background traffic off this machine
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


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
def live_server(app) -> Iterator[str]:
    """``app`` served over HTTP on loopback in a thread, for as long as the block runs;
    yields its origin ("http://127.0.0.1:<port>").  A browser that taps links and posts
    forms needs a server that answers its redirects too."""
    from werkzeug.serving import make_server

    server = make_server("127.0.0.1", 0, app, threaded=False)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
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
