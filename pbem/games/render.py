"""Helpers for showing a game's texts in HTML, shared by every game's templates.

Engine texts (events in a view, ``describe`` sentences) name seats by
``{0}``-style placeholders.  :func:`seat_filter` is the Jinja filter ``seats``
that turns one into HTML::

    env.filters["seats"] = seat_filter
    {{ event | seats(names) }}
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from markupsafe import Markup, escape

from pbem.games.protocol import Choice

_PLACEHOLDER = re.compile(r"\{(\d+)\}")


def _name(names: Sequence[str], index: int) -> str:
    return names[index] if index < len(names) else f"seat {index + 1}"


def seat_text(text: str, names: Sequence[str]) -> str:
    """``text`` as plain text (for mails) with each ``{n}`` replaced by ``names[n]``."""
    # a page's and a mail's histories and events fill hundreds of these: one pass
    if "{" not in text:
        return text
    return _PLACEHOLDER.sub(lambda m: _name(names, int(m.group(1))), text)


def seat_filter(text: str, names: Sequence[str]) -> Markup:
    """``text`` as safe HTML with each ``{n}`` replaced by ``names[n]``.

    The text and the names are both escaped, so a name like ``<script>`` shows
    as typed.  Only ``{n}`` placeholders are filled; any other brace is kept as
    text (unlike ``str.format``, which would fail on it).  A placeholder for a
    seat that ``names`` lacks reads "seat n+1" rather than breaking the page.
    """
    if "{" not in text:
        return escape(text)
    # escaping leaves braces and digits be: the placeholders are found in the escaped text
    return Markup(_PLACEHOLDER.sub(lambda m: escape(_name(names, int(m.group(1)))),
                                   escape(text)))


def seat_lines(lines: Sequence[str], names: Sequence[str]) -> Markup:
    """One turn's lines as safe HTML, each filled as ``seat_filter`` fills it, joined by
    "; " (``{{ t.lines | seat_lines(names) }}``: a filter, not ``map`` and ``join``, which
    cost a history as much as its lines)."""
    # joined as text and made Markup once: ``Markup.join`` escapes each of them again,
    # which copies each (they are Markup already)
    return Markup("; ".join([seat_filter(line, names) for line in lines]))


def seat_lines_text(lines: Sequence[str], names: Sequence[str]) -> str:
    """``seat_lines`` as plain text (for mails)."""
    return "; ".join([seat_text(line, names) for line in lines])


def named_choices(choices: Sequence[Choice], names: Sequence[str]) -> list[Choice]:
    """``choices`` with the seat placeholders of their labels and help filled with
    ``names`` as plain text (pages and HTML mails escape them where they show them)."""
    return [replace(c, label=seat_text(c.label, names), help=seat_text(c.help, names))
            if "{" in c.label or "{" in c.help else c for c in choices]
