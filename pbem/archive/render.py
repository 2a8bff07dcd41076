"""Markdown to HTML: the ``markdown`` package, then the templates in ``templates/archive/``.

One :class:`Renderer` is made per build and reused for every page (a
``markdown.Markdown`` instance is reset between documents, which is much
cheaper than making a new one).  The HTML of a page is made only from its
Markdown, so the two never disagree: by :mod:`pbem.archive.quick`, which
writes what Python-Markdown writes for the Markdown the archive makes, ten
times faster, and by Python-Markdown itself for a page it declines.

The archive's Markdown never contains HTML, reference links or autolinks,
so the converter is made without them: raw HTML in a page's Markdown comes
out as text, whatever slipped past the escaping, and the conversion is a
third faster with fewer patterns to try on every piece of text.
"""

from __future__ import annotations

import posixpath
from collections.abc import Sequence

import jinja2
import markdown
import markupsafe

from pbem.archive import paths, quick
from pbem.context import TEMPLATES_DIR

ARCHIVE_TEMPLATES = TEMPLATES_DIR / "archive"
#: tables for standings and indexes; attr_list for the ids of rounds and moves
EXTENSIONS = ("tables", "attr_list")
#: what the archive never writes: raw HTML, reference links, autolinks, hard breaks
UNUSED_INLINE = ("html", "reference", "short_reference", "image_reference", "short_image_ref",
                 "autolink", "automail", "linebreak")
UNUSED_BLOCK = ("reference",)
UNUSED_PRE = ("html_block",)


def make_markdown() -> markdown.Markdown:
    md = markdown.Markdown(extensions=list(EXTENSIONS), output_format="html")
    for name in UNUSED_INLINE:
        md.inlinePatterns.deregister(name, strict=False)
    for name in UNUSED_BLOCK:
        md.parser.blockprocessors.deregister(name, strict=False)
    for name in UNUSED_PRE:
        md.preprocessors.deregister(name, strict=False)
    return md


class Renderer:
    def __init__(self) -> None:
        self._md: markdown.Markdown | None = None
        self.env = jinja2.Environment(
            loader=jinja2.FileSystemLoader(str(ARCHIVE_TEMPLATES)),
            autoescape=True,
            undefined=jinja2.StrictUndefined,
            keep_trailing_newline=True,
            auto_reload=False,  # one build, one template: not a stat of its file per page
        )
        self._page = self.env.get_template("page.html")

    @property
    def md(self) -> markdown.Markdown:
        """Python-Markdown, made when a page first needs it (most never do)."""
        if self._md is None:
            self._md = make_markdown()
        return self._md

    def to_html(self, text: str) -> str:
        html = quick.convert(text)
        return html if html is not None else self.md.reset().convert(text)

    def page(self, page: str, title: str, text: str, kind: str = "index",
             downloads: Sequence[tuple[str, str]] = (), lang: str = "en") -> str:
        """The HTML file of ``page`` from its Markdown ``text`` in ``lang`` (the archive's
        navigation stays English, and says so)."""
        # a text table too wide for a phone scrolls in its own box, which a keyboard
        # must reach as well (axe-core: scrollable-region-focusable)
        body = markupsafe.Markup(self.to_html(text).replace("<pre>", '<pre tabindex="0">'))
        return self._page.render(
            title=title,
            body=body,
            root=paths.root(page),
            source=posixpath.basename(page) + ".md",
            kind=kind,
            downloads=list(downloads),
            lang=lang,
        )
