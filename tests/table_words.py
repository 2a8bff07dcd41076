"""The table in words as pages and HTML mails show it: ``templates/games/_text.html``
around a game's text view (``Rules.render_text``, the words of the plain-text mail), in
an environment set up as the web app's (autoescaped, strict, trim_blocks, lstrip_blocks).

Tests of what a viewer sees render it here, as ``pbem.web.play.table_values`` and
``pbem.mail.compose`` do, so that escaping is checked where the words are shown."""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Any

import jinja2

TEMPLATES = Path(__file__).resolve().parents[1] / "templates"

_ENV = jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES)), autoescape=True,
                          undefined=jinja2.StrictUndefined, trim_blocks=True,
                          lstrip_blocks=True)
_PRE = re.compile(r'\A<pre class="view-text" style="[^"]*">(.*)</pre>\Z', re.S)


def table_in_words(rules: Any, view: dict, names: list[str], lang: str = "en") -> str:
    """The HTML of the table in words of ``view`` for a reader of ``lang``."""
    return _ENV.get_template("games/_text.html").render(
        view_text=rules.render_text(view, names, lang))


def words_read(page: str) -> str:
    """What a reader of ``page`` (the HTML of :func:`table_in_words`) reads: the pre's
    text, unescaped; it fails unless the page is that one pre and nothing else."""
    match = _PRE.match(page.strip())
    assert match, page[:200]
    assert "<" not in match.group(1), "markup inside the table in words"
    return html.unescape(match.group(1))
