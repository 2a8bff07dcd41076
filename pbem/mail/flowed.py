"""Plain text as ``format=flowed`` (RFC 3676): lines of at most 78 characters that a
reader's mail program joins again to its own width.

A mail's text (``Outbox.text_body``) is written in whole lines, a menu's choice with its
help often longer than 78 characters.  RFC 5322 asks for at most 78; a program that shows
text as it comes (a terminal's) cuts such lines anywhere, and one that fills its window
(most, and every phone's) would show hard-wrapped lines ragged at its narrower width.
``format=flowed`` serves both: each long line is cut at spaces into lines that end in a
space (a *soft* break, which a flowed-aware reader joins again and fills to its width),
and a line that ends in no space ends a paragraph (a *hard* break, kept).  ``DelSp=No``:
the space before a soft break is the space between the two words.

A word longer than a line (a link) is never cut: it stands on a line of its own, however
long, so a link stays whole.  Lines that begin with a space, ``>`` or ``From `` are
*stuffed* with one more space, which readers take away again (RFC 3676 4.4).  Trailing
spaces of the written lines are dropped: they would read as soft breaks.
"""

from __future__ import annotations

import re
from email.message import EmailMessage, Message

#: the longest line sent, a soft break's space included (RFC 5322 2.1.1)
WIDTH = 78
#: the parameters of the text part's Content-Type
PARAMS = {"format": "flowed", "delsp": "no"}
#: a word with the spaces after it; the first chunk of a line carries its indent.  Only
#: the space (U+0020) separates: a soft break is a space, and a no-break space or a tab
#: at the end of a line would read as a hard one
_CHUNK = re.compile(r" *[^ ]+ *")
_SIGNATURE = "-- "


def _stuffed(line: str) -> str:
    return " " + line if line.startswith((" ", ">", "From ")) else line


def _cut(line: str) -> list[str]:
    """``line`` (no trailing space) as lines of at most ``WIDTH``, each but the last
    ending in the space where it was cut."""
    out: list[str] = []
    current = ""
    for chunk in _CHUNK.findall(line):
        # the chunk's own spaces count: where the line is cut after it, they end it
        if current and current != _SIGNATURE and len(_stuffed(current + chunk)) > WIDTH:
            out.append(current)
            current = chunk.lstrip(" ")  # the cut's space stays at the end of the line before
        else:
            current += chunk
    out.append(current)
    # a line cut after several spaces keeps them all: each reads as one soft break's
    # content, and the join gives the spaces back
    return out


def flow(text: str) -> str:
    """``text`` as format=flowed lines (``unflow`` gives it back, trailing spaces of its
    lines dropped)."""
    lines: list[str] = []
    for line in text.split("\n"):
        line = line.rstrip(" ") if line != _SIGNATURE else line
        pieces = [line] if line == _SIGNATURE or len(_stuffed(line)) <= WIDTH else _cut(line)
        lines.extend(_stuffed(piece) for piece in pieces)
    return "\n".join(lines)


def unflow(text: str, delsp: bool = False) -> str:
    """The lines a flowed-aware reader sees in format=flowed ``text``: soft breaks
    joined (with ``delsp``, DelSp=Yes: the space before each taken away), within one
    depth of quoting (``>``, ``>>``: a quoted line is given back as ``> `` and its
    text); a soft break before a line of another depth counts as hard (RFC 3676 4.5)."""
    out: list[str] = []
    joined: str | None = None
    depth = 0

    def done() -> None:
        nonlocal joined
        if joined is not None:
            out.append(f"{'>' * depth} {joined}" if depth else joined)
            joined = None

    for raw in text.replace("\r\n", "\n").split("\n"):
        quotes = len(raw) - len(raw.lstrip(">"))
        line = raw[quotes:]
        line = line[1:] if line.startswith(" ") else line
        soft = line.endswith(" ") and line != _SIGNATURE
        if soft and delsp:
            line = line[:-1]
        if joined is not None and quotes != depth:
            joined = joined.rstrip(" ")  # improperly flowed: a hard break after all
            done()
        depth = quotes
        joined = line if joined is None else joined + line
        if not soft:
            done()
    done()
    return "\n".join(out)


def set_text(msg: EmailMessage, text: str) -> None:
    """``msg``'s content: ``text`` as a format=flowed text part."""
    msg.set_content(flow(text), params=PARAMS)


def is_flowed(part: Message) -> bool:
    return str(part.get_param("format", "")).lower() == "flowed"


def text_of(part: EmailMessage) -> str:
    """The text of a text part as its reader sees it: unflowed where it is flowed."""
    content = part.get_content()
    if not is_flowed(part):
        return content
    return unflow(content, str(part.get_param("delsp", "")).lower() == "yes")
