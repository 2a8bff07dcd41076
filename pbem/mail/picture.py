"""The table's picture in HTML mails: the game's SVG rendered as a PNG.

Most mail clients show no SVG (Gmail, Outlook strip it), so an HTML mail carries the
picture as a PNG, drawn once per mail from ``Rules.picture``.  The outbox row keeps it
inside ``html_body`` as a ``data:`` URI, so a crash between queueing and delivery loses
nothing and the row is what is sent; ``outbox.build_message`` turns that URI into a
``multipart/related`` image part referenced by ``cid:`` (clients block ``data:`` images).

The renderer is ``resvg-py`` (0.5.0, github.com/baseplate-admin/resvg-py): abi3 wheels
for Linux, macOS and Windows with resvg 0.48 (the Rust SVG renderer of the linebender
project) built in, so a plain ``pip install`` works without a system library;
``cairosvg`` (2.9) needs libcairo from the system, which a fresh macOS or a slim
container lacks.  The binding has one maintainer; the call below is its only use, so
swapping renderers touches ``render_png`` alone.  resvg draws text with the system's
fonts (it bundles none): Debian's ``fonts-dejavu-core`` is enough, and ``.ci/run``
installs it where it is missing.  A picture that cannot be drawn (no renderer, a bad
SVG) is logged and left out: the mail goes without it, its text table says the same.
"""

from __future__ import annotations

import base64
import logging
import re
from dataclasses import dataclass
from html import unescape
from typing import Any

log = logging.getLogger(__name__)

#: CSS width of the picture in a mail: readable on a phone, drawn at twice the pixels
CSS_WIDTH = 600
#: pixel widths to try, largest first: a PNG above ``MAX_BYTES`` is drawn smaller
PIXEL_WIDTHS = (2 * CSS_WIDTH, 3 * CSS_WIDTH // 2, CSS_WIDTH)
MAX_BYTES = 150_000

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
#: a picture inside a stored HTML body (``Picture.src``), and its base64 data
DATA_URI = re.compile(r'src="data:image/png;base64,([A-Za-z0-9+/=]+)"')
_TITLE = re.compile(r"<title>(.*?)</title>", re.S)
_LABEL = re.compile(r'aria-label="([^"]*)"')


@dataclass(frozen=True)
class Picture:
    """A PNG for ``<img src=… alt=…>`` in a mail's layout (``templates/mail/_layout.html``)."""

    png: bytes
    alt: str

    @property
    def src(self) -> str:
        return "data:image/png;base64," + base64.b64encode(self.png).decode("ascii")


def render_png(svg: str) -> bytes:
    """``svg`` as PNG bytes, at most ``MAX_BYTES`` where a smaller width gets there.

    Raises on a missing renderer or an SVG it cannot read."""
    import resvg_py

    png = b""
    for width in PIXEL_WIDTHS:
        png = bytes(resvg_py.svg_to_bytes(svg_string=svg, width=width))
        if not png.startswith(PNG_SIGNATURE):
            raise ValueError("the renderer returned no PNG")
        if len(png) <= MAX_BYTES:
            break
    return png


def alt_text(svg: str, fallback: str) -> str:
    """What the picture shows in words: its own ``<title>`` (or ``aria-label``), which the
    game writes in the reader's language, e.g. "Visby · round 1 · to 30 seals"."""
    found = _TITLE.search(svg) or _LABEL.search(svg)
    text = unescape(re.sub(r"<[^>]+>", "", found.group(1))) if found else ""
    return " ".join(text.split()) or fallback


def table_picture(rules: Any, view: Any, names: list[str], lang: str,
                  fallback: str) -> Picture | None:
    """The table of ``view`` as a ``Picture``; ``None`` (logged) when it cannot be drawn.

    ``fallback`` is the alt text for an SVG that has no title."""
    try:
        svg = rules.picture(view, names, lang)
        if not svg:
            return None
        return Picture(render_png(svg), alt_text(svg, fallback))
    except Exception:  # a mail without its picture still goes: never lose the mail
        log.exception("the table's picture for %s could not be rendered; mail goes without it",
                      getattr(rules, "name", rules))
        return None


def split_html(html: str, cid_of: Any) -> tuple[str, list[tuple[str, bytes]]]:
    """``html`` with each ``data:`` PNG replaced by ``cid:`` (``cid_of(n)`` names the
    n-th, without angle brackets), and the pictures as (cid, PNG bytes)."""
    found: list[tuple[str, bytes]] = []

    def swap(match: re.Match[str]) -> str:
        cid = cid_of(len(found))
        found.append((cid, base64.b64decode(match.group(1))))
        return f'src="cid:{cid}"'

    return DATA_URI.sub(swap, html), found


def inline_cids(msg: Any, html: str) -> str:
    """``html`` of ``msg`` with each ``cid:`` image as a ``data:`` URI again, for a page
    that shows a mail by itself (``/dev/mail``), where ``cid:`` means nothing."""
    for part in msg.walk():
        cid = (part["Content-ID"] or "").strip("<>")
        if cid and part.get_content_type() == "image/png":
            data = base64.b64encode(part.get_content()).decode("ascii")
            html = html.replace(f'src="cid:{cid}"', f'src="data:image/png;base64,{data}"')
    return html
