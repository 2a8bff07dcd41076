"""Text in the games' pictures: what every ``picture.py`` needs to put words into SVG.

A picture is a pure function of a view (see ``Rules.picture``); the words in it come
from players (names) and from the game.  Both must reach the SVG as character data
XML accepts (escaped, without the control characters XML forbids), and fit the
390-unit width a phone shows: names are shortened with an ellipsis, long lines broken
at spaces.  Nothing here knows a game.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from html import escape
from typing import Any

#: characters XML 1.0 does not allow in a document, even escaped
NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def xml_text(value: Any) -> str:
    """``value`` as SVG character data or attribute value: escaped (quotes too), without
    the characters XML forbids."""
    return escape(NOT_XML.sub("", str(value)), quote=True)


def shorten(text: str, limit: int) -> str:
    """``text`` on one line (white space folded), cut to ``limit`` characters with "…"."""
    text = " ".join(NOT_XML.sub("", str(text)).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def seat_name(names: Sequence[str], seat: int, limit: int, missing: str = "seat {n}") -> str:
    """The name of ``seat`` shortened to ``limit``; ``missing`` (with ``{n}``, the seat
    from 1) for a seat ``names`` lacks or whose name is empty."""
    name = names[seat] if 0 <= seat < len(names) else ""
    return shorten(name, limit) or missing.format(n=seat + 1)


def wrap(line: str, limit: int) -> list[str]:
    """``line`` in pieces of at most ``limit`` characters, broken at spaces (a longer
    word stands alone on its line)."""
    lines: list[str] = []
    for word in line.split(" "):
        if lines and len(lines[-1]) + 1 + len(word) <= limit:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines or [""]
