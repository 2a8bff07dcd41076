"""Text for the archive's media: Markdown, XML (SVG, Atom) and dates.

Player-entered text (names) is escaped here, once, for the medium it goes
into.  In Markdown every character that could start markup (emphasis, links,
attribute lists, table cells, raw HTML, entities) is neutralised, so a name
such as ``<script>`` or ``[x](javascript:…)`` reads as itself in the Markdown
file and in the HTML made from it.  Texts written by a game (``describe``,
result details) carry ``{0}``-style seat placeholders; :func:`fill` escapes the
game's literal text and the names alike.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime
from functools import lru_cache

#: characters that are Markdown markup anywhere in a line (Python-Markdown with the
#: tables and attr_list extensions un-escapes each after a backslash); ``#+-.!()``
#: matter only at a line's start or after ``[``/``]``, see :func:`block_safe`
_MD_INLINE = set("\\`*_{}[]|")
_PLACEHOLDER = re.compile(r"\{(\d+)\}")
#: XML 1.0 forbids these control characters even as character references
_XML_FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
_BLOCK_START = re.compile(r"^(\s*)([#>+\-*=]|\d+[.)])")


def one_line(text: str) -> str:
    """Control characters and line breaks become spaces; runs of spaces fold to one."""
    return " ".join(_flat(text).split())


def _flat(text: str) -> str:
    """Control characters and line breaks become spaces; spacing is otherwise kept."""
    text = str(text)
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else " " for c in text)


_MD_ESCAPES = {ord(c): "\\" + c for c in _MD_INLINE}
_MD_ESCAPES.update({ord("&"): "&amp;", ord("<"): "&lt;", ord(">"): "&gt;"})


def md_name(name: str) -> str:
    """A player's name for running Markdown text (one line, markup escaped).

    Names never start a Markdown line (or go through :func:`block_safe` when
    they do), so the characters that are markup only at a line's start stay
    readable: ``Anne-Marie`` is not written ``Anne\\-Marie``.
    """
    # "#" too: a name that ends a heading line must not lose its trailing "#"
    return md_text(one_line(name)).replace("#", "\\#") or "\\-"


def md_text(text: str) -> str:
    """Any text for running Markdown text: one line, with the markup escaped.

    Only what is markup anywhere in a line is escaped (HTML's ``&<>`` as
    entities, Markdown's as backslash escapes), so a sentence stays readable
    as plain text; a line's start needs :func:`block_safe` as well.
    """
    return _flat(text).translate(_MD_ESCAPES)


def block_safe(line: str) -> str:
    """Escape a marker at the start of a Markdown line (``#``, ``-``, ``1.``…)."""
    m = _BLOCK_START.match(line)
    if not m:
        return line
    start = m.end(1)
    marker = m.group(2)
    if marker[0].isdigit():
        dot = start + len(marker) - 1
        return line[:dot] + "\\" + line[dot:]
    if marker == ">":
        return line  # md_text turned it into &gt; already; kept for safety
    if marker == "=":
        return line[:start] + "&#61;" + line[start + 1:]
    return line[:start] + "\\" + line[start:]


def fill(template: str, names: Sequence[str], name_escape=md_name, text_escape=md_text) -> str:
    """A game's sentence with ``{0}``… replaced by escaped names, the rest escaped as text.

    Placeholders that name no seat stay as they are (escaped), so a game's
    odd sentence never breaks a build.
    """
    if text_escape is md_text:  # the same few sentences, in every game: escaped once
        return "".join(p if isinstance(p, str) else
                       name_escape(names[p[0]]) if p[0] < len(names) else p[1]
                       for p in _md_pieces(template))
    parts = []
    pos = 0
    for m in _PLACEHOLDER.finditer(template):
        parts.append(text_escape(template[pos:m.start()]))
        index = int(m.group(1))
        if index < len(names):
            parts.append(name_escape(names[index]))
        else:
            parts.append(text_escape(m.group(0)))
        pos = m.end()
    parts.append(text_escape(template[pos:]))
    return "".join(parts)


@lru_cache(maxsize=8192)
def _md_pieces(template: str) -> tuple[str | tuple[int, str], ...]:
    """``template`` as its escaped text and, for each placeholder, its seat number and
    itself escaped (for a seat there is not)."""
    pieces: list[str | tuple[int, str]] = []
    pos = 0
    for m in _PLACEHOLDER.finditer(template):
        pieces += [md_text(template[pos:m.start()]), (int(m.group(1)), md_text(m.group(0)))]
        pos = m.end()
    pieces.append(md_text(template[pos:]))
    return tuple(pieces)


def xml_text(text: str) -> str:
    """Text for XML content or a double-quoted attribute (SVG, Atom)."""
    text = _XML_FORBIDDEN.sub(" ", str(text))
    return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;"))


def code_block(text: str) -> str:
    """Plain text as an indented Markdown code block (no fence a name could close)."""
    text = str(text)
    lines = [line.rstrip() for line in text.splitlines() or [""]]
    if _XML_FORBIDDEN.search(text) is not None:  # hardly ever: one search, not one a line
        lines = [_XML_FORBIDDEN.sub(" ", line) for line in lines]
    return "\n".join(["    " + line if line else "" for line in lines])


def table_row(cells: Sequence[str]) -> str:
    """One Markdown table row of cells already escaped (``|`` is escaped by both escapers)."""
    return "| " + " | ".join(c if c else " " for c in cells) + " |"


def when(moment: datetime | None) -> str:
    """A stored naive-UTC time as the archive prints it."""
    return moment.strftime("%Y-%m-%d %H:%M UTC") if moment else "unknown"


def day(moment: datetime | None) -> str:
    return moment.strftime("%Y-%m-%d") if moment else "unknown"


def iso(moment: datetime) -> str:
    """RFC 3339 for Atom."""
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def number(value: float) -> str:
    """A stable short form: integers as integers, otherwise two decimals."""
    if float(value).is_integer():
        return str(int(value))
    return f"{value:.2f}"
