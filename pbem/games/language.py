"""The games' words per language: how a game picks the table of its reader's language.

Each game keeps its words in its ``words`` module as one table per language (``EN``,
``DE``: an entry per thing it says, ``str.format`` templates where numbers or names go
in) and one renderer per view that reads the table of the reader's language.  This
module only chooses the table: the reader's language by its primary code ("de-AT"
reads "de"), English where the game has no table for it, and English for any entry
the table leaves out, so a missing word never fails a mail.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

Words = dict[str, Any]
#: the language every game speaks, and the one a missing word reads in
ENGLISH = "en"


def code(lang: str | None) -> str:
    """The primary language code of ``lang``: "de" for "de-AT" or "DE"; "" for none."""
    return str(lang or "").split("-")[0].lower()


def table_for(tables: Mapping[str, Words], lang: str | None) -> Words:
    """The words of ``lang`` from ``tables`` (by language code), with English for what
    they leave out, and English itself where ``tables`` has no such language."""
    return _merged(id(tables), tables, code(lang) if code(lang) in tables else ENGLISH)


_MERGED: dict[tuple[int, str], Words] = {}


def _merged(key: int, tables: Mapping[str, Words], lang: str) -> Words:
    # the tables are module constants: merge each language once
    found = _MERGED.get((key, lang))
    if found is None:
        found = _MERGED[key, lang] = {**tables[ENGLISH], **tables[lang]}
    return found
