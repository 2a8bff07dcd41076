"""Markdown to HTML, quickly, for the Markdown the archive writes.

Python-Markdown is general, and most of a full build's time went into it:
its inline processor tries every pattern at every position of every line.
The archive writes a small, regular subset of Markdown (see
:mod:`pbem.archive.markdown`, :mod:`pbem.archive.indexes`): single-line
headings (some with an ``{#id}``), single-line paragraphs and quotes, tight
lists with one level of nesting, pipe tables, indented code blocks, and
inline links (``{#id}`` after a few), one image, one code span, one emphasis,
backslash escapes and entities.  :func:`convert` turns a document made only
of those into exactly the HTML that :func:`pbem.archive.render.make_markdown`
makes of it, byte for byte, about twenty times faster; a document with
anything else in it (a name with a backtick, say) gives ``None`` and the
renderer converts it with Python-Markdown.  So the HTML is still made from
the Markdown alone, and what Python-Markdown would write is the
specification: ``tests/archive/test_archive_quick.py`` compares the two on
every page of an archive and on hostile text.

Whenever this module is unsure how Python-Markdown reads something, it
gives up (:class:`Unsupported`) rather than guess.
"""

from __future__ import annotations

import re

__all__ = ["convert"]


class Unsupported(Exception):
    """The text leaves the subset this module converts."""


#: what Python-Markdown (with the tables extension) takes after a backslash
ESCAPABLE = frozenset("\\`*_{}[]()>#+-.!|")
#: characters Python-Markdown's whitespace normalisation changes, or uses itself
#: (STX/ETX mark its placeholders); any of them, and the whole page goes the slow way
_ODD = re.compile("[\x00-\x09\x0b-\x1f\x7f\x85\u2028\u2029]")
#: a character inline text cannot take as it is
_SPECIAL = re.compile(r"[\\&<>\[\]!`*_{}|]")
_SPACES_LINE = re.compile(r"^ +$", re.M)
_BLANK_LINES = re.compile(r"\n\n+")
_ENTITY = re.compile(r"&(?:#[0-9]+|#x[0-9a-fA-F]+|[a-zA-Z0-9]+);")
_URL = re.compile(r"\(([A-Za-z0-9_./#-]+)\)")
_ATTR_ID = re.compile(r"\{#([A-Za-z][A-Za-z0-9_-]*)\}")
#: an alt text of letters (any script's: a card's name, "Böttcherei"), digits and ,.'-
_IMAGE = re.compile(r"!\[((?:[^\W_]|[ ,.'-])+)\]\(([A-Za-z0-9_./-]+)\)")
_EMPHASIS = re.compile(r"\*([A-Za-z0-9(),.'-](?:[A-Za-z0-9 (),.'-]*[A-Za-z0-9(),.'-])?)\*")
_HEADING = re.compile(r"(#{1,6}) (\S(?:.*\S)?)\Z")
_HEADING_ID = re.compile(r" \{#([A-Za-z][A-Za-z0-9_-]*)\}\Z")
_SEPARATOR = re.compile(r"\|(?::?-+:?\|)+\Z")
#: the commonest line of all, a step with its permalink, in plain words
_STEP = re.compile(r"\[([0-9]+)\]\(#(m[0-9]+)\)\{#\2\} ([^\\&<>\[\]!`*_{}|]+)\Z")
#: a line that starts a block other than a paragraph, or might (Python-Markdown
#: lists, headings, quotes, rules, tables, setext underlines, code)
_NOT_TEXT_START = re.compile(r"[ #>+*=|_-]|\d+\.")
_ALIGN = {(False, False): "", (True, False): ' style="text-align: left;"',
          (False, True): ' style="text-align: right;"',
          (True, True): ' style="text-align: center;"'}


def convert(text: str) -> str | None:
    """The HTML Python-Markdown makes of ``text``, or ``None`` if ``text`` leaves the subset."""
    try:
        return _document(text)
    except Unsupported:
        return None


# -- blocks ---------------------------------------------------------------------


def _document(text: str) -> str:
    if (_ODD.search(text) or not text.strip()
            or ((" \n" in text or text.endswith(" ")) and _SPACES_LINE.search(text))):
        raise Unsupported("control characters, a line of spaces, or nothing")
    out: list[str] = []
    #: the kind of the last element written, and the text of an open code block
    last = ""
    code = ""
    body = text.strip("\n")
    # the blocks, and the runs of blank lines between them (one shorter than the run of
    # line breaks)
    blocks = _BLANK_LINES.split(body)
    gaps = [len(gap) - 1 for gap in _BLANK_LINES.findall(body)]
    for number, block in enumerate(blocks):
        if block.startswith("    "):
            if last == "list":
                raise Unsupported("indented text after a list continues the list")
            if block.count("\n") != block.count("\n    "):
                raise Unsupported("code block with an unindented line")
            # each stretch between blank lines loses its trailing space, as in Python-Markdown
            chunk = block[4:].replace("\n    ", "\n").rstrip()
            if last == "code":  # blank lines do not end a code block
                code += "\n" * (gaps[number - 1] + 1) + chunk
            else:
                code = chunk
                out.append("")  # the code block's place; filled in when it ends
            last = "code"
        else:
            if last == "code":
                out[-1] = _code(code)
            last = _block(block.split("\n"), out, last)
    if last == "code":
        out[-1] = _code(code)
    return "\n".join(out)


def _code(text: str) -> str:
    text = text.rstrip().replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return f"<pre><code>{text}\n</code></pre>"


def _block(lines: list[str], out: list[str], last: str) -> str:
    """Append the HTML of one block (not code) to ``out``; its kind."""
    first = lines[0]
    for line in lines:
        if line[-1] == " ":
            raise Unsupported("trailing space")
    head = first[0]
    if head == "#":
        if len(lines) > 1:
            raise Unsupported("heading with more lines")
        out.append(_heading(first))
        return "heading"
    if head == "|":
        out.append(_table(lines))
        return "table"
    if first.startswith("- "):
        if last == "list":
            raise Unsupported("a list after a list makes a loose list")
        out.append(_list(lines))
        return "list"
    if first.startswith("> "):
        if len(lines) > 1:
            raise Unsupported("quote of more lines")
        paragraph = f"<p>{_text_line(first[2:])}</p>"
        if last == "quote":  # Python-Markdown joins quotes with only blank lines between
            out[-1] = out[-1][:-len("\n</blockquote>")] + "\n" + paragraph + "\n</blockquote>"
        else:
            out.append(f"<blockquote>\n{paragraph}\n</blockquote>")
        return "quote"
    if len(lines) > 1:
        raise Unsupported("paragraph of more lines")
    out.append(f"<p>{_text_line(first)}</p>")
    return "paragraph"


def _text_line(text: str) -> str:
    """A paragraph's (or list item's) one line: never one that Markdown reads as a block."""
    if not text or _NOT_TEXT_START.match(text) or text.strip() != text:
        raise Unsupported("text that starts a block, or with space around it")
    return inline(text)


def _heading(line: str) -> str:
    m = _HEADING.match(line)
    if m is None:
        raise Unsupported("heading")
    level, content = len(m.group(1)), m.group(2)
    if content.strip() != content:
        raise Unsupported("heading with space around it")
    attrs = ""
    idm = _HEADING_ID.search(content)
    if idm is not None:
        content = content[:idm.start()]
        if not content or content.strip() != content or _SPECIAL.search(content):
            raise Unsupported("heading with an id and markup or space")
        attrs = f' id="{idm.group(1)}"'
    if content.endswith("#") and _backslashes_before(content, len(content) - 1) % 2 == 0:
        raise Unsupported("heading that ends in #")  # Python-Markdown drops closing #s
    return f"<h{level}{attrs}>{inline(content)}</h{level}>"


def _backslashes_before(text: str, pos: int) -> int:
    n = 0
    while pos - n - 1 >= 0 and text[pos - n - 1] == "\\":
        n += 1
    return n


def _list(lines: list[str]) -> str:
    items: list[tuple[str, list[str]]] = []
    for line in lines:
        # Python-Markdown takes any number of spaces after the marker
        if line.startswith("- "):
            items.append((_item(line[2:].lstrip(" ")), []))
        elif line.startswith("    - ") and items:
            items[-1][1].append(_item(line[6:].lstrip(" ")))
        else:
            raise Unsupported("list line")
    out = ["<ul>"]
    for text, children in items:
        if children:
            inner = "\n".join(f"<li>{child}</li>" for child in children)
            out.append(f"<li>{text}<ul>\n{inner}\n</ul>\n</li>")
        else:
            out.append(f"<li>{text}</li>")
    out.append("</ul>")
    return "\n".join(out)


def _item(text: str) -> str:
    step = _STEP.match(text)
    if step is not None:
        return f'<a href="#{step[2]}" id="{step[2]}">{step[1]}</a> {step[3]}'
    return _text_line(text)


def _cells(line: str) -> list[str]:
    """The cells of a table row ``| a | b |`` (escaped pipes stay in their cell)."""
    if not line.startswith("| ") or not line.endswith(" |") or len(line) < 4:
        raise Unsupported("table row")
    if "`" in line:
        raise Unsupported("code in a table")
    body = line[1:-1]
    if "\\" not in body:
        return [c.strip(" ") for c in body.split("|")]
    cells = []
    start = i = 0
    n = len(body)
    while i < n:
        c = body[i]
        if c == "\\":
            i += 2
            continue
        if c == "|":
            cells.append(body[start:i].strip(" "))
            start = i + 1
        i += 1
    cells.append(body[start:].strip(" "))
    return cells


def _table(lines: list[str]) -> str:
    if len(lines) < 3 or not _SEPARATOR.match(lines[1]):
        raise Unsupported("table shape")
    header = _cells(lines[0])
    width = len(header)
    separator = lines[1][1:-1].split("|")
    if width < 2 or len(separator) != width:
        raise Unsupported("table width")
    aligns = [_ALIGN[(s.startswith(":"), s.endswith(":"))] for s in separator]
    out = ["<table>", "<thead>", "<tr>"]
    out += [f"<th{a}>{inline(c)}</th>" for a, c in zip(aligns, header, strict=True)]
    out += ["</tr>", "</thead>", "<tbody>"]
    for line in lines[2:]:
        cells = _cells(line)
        if len(cells) != width:
            raise Unsupported("table row width")
        out.append("<tr>")
        out += [f"<td{a}>{inline(c)}</td>" for a, c in zip(aligns, cells, strict=True)]
        out.append("</tr>")
    out += ["</tbody>", "</table>"]
    return "\n".join(out)


# -- inline text ------------------------------------------------------------------


def inline(text: str, in_link: bool = False) -> str:
    """One line of inline Markdown as HTML (the caller has checked where it stands)."""
    m = _SPECIAL.search(text)
    if m is None:
        return text
    if "\\\\`" in text:
        raise Unsupported("escaped backslash before a backtick")
    out: list[str] = []
    i = 0
    n = len(text)
    while True:
        if i:
            m = _SPECIAL.search(text, i)
        if m is None:
            out.append(text[i:])
            return "".join(out)
        j = m.start()
        out.append(text[i:j])
        c = text[j]
        if c == "\\":
            if j + 1 >= n or text[j + 1] not in ESCAPABLE:
                raise Unsupported("a backslash before what it does not escape")
            e = text[j + 1]
            out.append("&gt;" if e == ">" else e)
            i = j + 2
        elif c == "&":
            em = _ENTITY.match(text, j)
            if em is None:
                raise Unsupported("a bare &")
            out.append(em.group(0))
            i = em.end()
        elif c == "<":
            out.append("&lt;")
            i = j + 1
        elif c == ">":
            out.append("&gt;")
            i = j + 1
        elif c == "[" and not in_link:
            i = _link(text, j, out)
        elif c == "!" and not in_link:
            if text.startswith("[", j + 1):
                im = _IMAGE.match(text, j)
                if im is None:
                    raise Unsupported("image")
                out.append(f'<img alt="{im.group(1)}" src="{im.group(2)}">')
                i = im.end()
            else:
                out.append("!")
                i = j + 1
        elif c == "!":
            out.append("!")
            i = j + 1
        elif c == "`" and not in_link:
            end = text.find("`", j + 1)
            content = text[j + 1:end].strip() if end > 0 else ""
            if (not content or "\\" in content or text.startswith("`", end + 1)
                    or (j > 0 and text[j - 1] == "\\")):
                raise Unsupported("code span")
            content = content.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            out.append(f"<code>{content}</code>")
            i = end + 1
        elif c == "*" and not in_link:
            em = _EMPHASIS.match(text, j)
            if em is None or (j > 0 and text[j - 1] != " ") or em.end() != n:
                raise Unsupported("emphasis")
            out.append(f"<em>{em.group(1)}</em>")
            i = em.end()
        else:
            raise Unsupported(f"markup {c!r}")


def _link(text: str, start: int, out: list[str]) -> int:
    """``[text](url)`` with an optional ``{#id}`` after it, from ``start``; where it ends."""
    i = start + 1
    n = len(text)
    while i < n:
        c = text[i]
        if c == "\\":
            i += 2
            continue
        if c == "]":
            break
        if c in "[`":
            raise Unsupported("brackets or code in a link")
        i += 1
    else:
        raise Unsupported("unclosed link")
    label = text[start + 1:i]
    um = _URL.match(text, i + 1)
    if not label or label[0] == " " or label[-1] == " " or um is None:
        raise Unsupported("link")
    end = um.end()
    attrs = f'href="{um.group(1)}"'
    am = _ATTR_ID.match(text, end)
    if am is not None:
        attrs += f' id="{am.group(1)}"'
        end = am.end()
    out.append(f"<a {attrs}>{inline(label, in_link=True)}</a>")
    return end
