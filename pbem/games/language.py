"""The games' words per language: how a game picks the table of its reader's language.

Each game keeps its words in its ``words`` module as one table per language (``EN``,
``DE``: an entry per thing it says, ``str.format`` templates where numbers or names go
in) and one renderer per view that reads the table of the reader's language.  This
module only chooses the table: the reader's language by its primary code ("de-AT"
reads "de"), English where the game has no table for it, and English for any entry
the table leaves out, so a missing word never fails a mail.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Container, Mapping, Sequence
from typing import Any

from pbem.games.render import seat_text

Words = dict[str, Any]
#: the language every game speaks, and the one a missing word reads in
ENGLISH = "en"


def code(lang: str | None) -> str:
    """The primary language code of ``lang``: "de" for "de-AT" or "DE"; "" for none."""
    return str(lang or "").split("-")[0].lower()


def table_for(tables: Mapping[str, Words], lang: str | None) -> Words:
    """The words of ``lang`` from ``tables`` (by language code), with English for what
    they leave out, and English itself where ``tables`` has no such language."""
    # a picture asks for its words hundreds of times (a card's name, its help): the
    # table found for these tables and this very ``lang`` is kept
    found = _FOUND.get((id(tables), lang))
    if found is None or found[0] is not tables:
        merged = _merged(id(tables), tables, code(lang) if code(lang) in tables else ENGLISH)
        if len(_FOUND) > 1000:  # ``lang`` as a reader gave it: keep no unbounded list
            _FOUND.clear()
        found = _FOUND[id(tables), lang] = (tables, merged)
    return found[1]


#: merged tables by (id of the tables, language); each entry keeps its tables alive, so
#: that an id is never reused for other tables while it is cached
_MERGED: dict[tuple[int, str], tuple[Mapping[str, Words], Words]] = {}
#: ``table_for``'s answers by (id of the tables, ``lang`` as asked), likewise kept with
#: their tables; the languages asked for are the few a server's readers read
_FOUND: dict[tuple[int, str | None], tuple[Mapping[str, Words], Words]] = {}


def _merged(key: int, tables: Mapping[str, Words], lang: str) -> Words:
    # the tables are module constants: merge each language once
    found = _MERGED.get((key, lang))
    if found is None or found[0] is not tables:
        found = _MERGED[key, lang] = (tables, {**tables[ENGLISH], **tables[lang]})
    return found[1]


def together(w: Words, forms: Mapping[str, str], sentence: str,
             field: str = "seat") -> str | None:
    """``Rules.together`` from a words table: ``forms[key]`` (its seats ``{seats}``) for
    the first entry ``key`` of ``w`` that tells ``sentence`` of the seat ``{n}``."""
    for key, form in forms.items():
        if w[key].format(**{field: "{n}"}) == sentence:
            return form.format(seats="{n}")
    return None


def plural(w: Words, key: str, n: int) -> str:
    """The entry ``key`` of ``w`` for ``n``: a pair of templates (one, more), such as
    ``("{n} seal", "{n} seals")``, with ``n`` filled in."""
    one, more = w[key]
    return (one if n == 1 else more).format(n=n)


#: a line the rules write: its pattern, its key in the words, and what fills the words
#: from the match (given the match, the words and the language)
Retelling = tuple[re.Pattern[str], str, Callable[..., dict[str, Any]]]


def retell(line: str, retellings: Sequence[Retelling], w: Words, prefix: str,
           lang: str) -> str:
    """A line a game's rules wrote into the state in English, told with the words ``w``.

    States keep such lines in English (a state is the same for every reader, and the
    snapshots of running games hold them).  The first of ``retellings`` whose pattern
    matches the whole line names the words' entry ``"<prefix> <key>"``; a table without
    that entry (English) and a line no pattern matches keep the line as written.
    """
    for pattern, key, fill in retellings:
        m = pattern.fullmatch(line)
        if m:
            template = w.get(f"{prefix} {key}")
            return line if template is None else template.format(**fill(m, w, lang))
    return line


class Retold:
    """A game's lines retold (``tell(line, lang)``, a ``retell``), kept by data version,
    line and language: a seat page and a mail retell the round's events for every reader
    at every move, each a walk through the patterns.  Kept for the languages the game
    speaks (``languages``) only, at most ``most`` lines (then all forgotten: a round's
    lines are told again within a page)."""

    def __init__(self, tell: Callable[[str, str], str], languages: Container[str],
                 most: int = 4096) -> None:
        self.tell, self.languages, self.most = tell, languages, most
        self.kept: dict[tuple[str, str, str], str] = {}
        self.kept_named: dict[tuple[str, tuple[str, ...], str, tuple[str, ...]],
                              tuple[str, ...]] = {}

    def __call__(self, version: str, line: str, lang: str) -> str:
        key = (version, line, lang)
        found = self.kept.get(key)
        if found is None:
            found = self.tell(line, lang)
            if lang in self.languages:
                if len(self.kept) >= self.most:
                    self.kept.clear()
                self.kept[key] = found
        return found

    def named(self, version: str, lines: tuple[str, ...], lang: str,
              names: tuple[str, ...]) -> tuple[str, ...]:
        """A round's ``lines`` as a text lists them: each told, its seats named by
        ``names``, indented by two.  Kept whole (at most ``most`` rounds' lines, then
        all forgotten), as the lines are: the texts of one table for all its readers (the
        seat page, the turn mails, the confirm page) list the same round again."""
        key = (version, lines, lang, names)
        found = self.kept_named.get(key)
        if found is None:
            found = tuple([f"  {seat_text(self(version, line, lang), names)}"
                           for line in lines])
            if lang in self.languages:
                if len(self.kept_named) >= self.most:
                    self.kept_named.clear()
                self.kept_named[key] = found
        return found
