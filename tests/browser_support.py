"""What the browser tests share: Debian's chromium, driven by playwright, and the mark
that skips them, saying why, where either is missing (the suite never downloads a
browser; ``.ci/run`` installs Debian's package)."""

from __future__ import annotations

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
