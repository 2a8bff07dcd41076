"""The words of mails that Python builds (subjects, headlines), said in each reader's language.

The words come from the gettext catalogs of :mod:`pbem.i18n`; a mail's body comes from
a template marked for translation (``compose.render_mail`` renders it inside
``i18n.in_language``).  What is said here is keyed by its English form, as gettext
keys: a phrase nobody translated yet reads in English instead of failing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime

from pbem.i18n import DEFAULT, LANGUAGES, format_local_time, supported, translations

__all__ = ["DEFAULT", "LANGUAGES", "Phrase", "local_time", "phrase", "say", "supported"]


@dataclass(frozen=True)
class Phrase:
    """An English format and its values, to be said in each reader's language.

    Callers that mail a whole table build one; ``say`` turns it into each
    player's words when their mail is made.  Fields are ``{name}``-style, filled in
    after the lookup, so a field's value (a name someone typed) is never read as a
    format.  ``phrase("…")`` marks the text for the catalog (``pybabel extract -k phrase``).
    """

    english: str
    values: Mapping[str, object] = field(default_factory=dict)


def phrase(english: str, **values: object) -> Phrase:
    return Phrase(english, values)


def say(text: str | Phrase, lang: str) -> str:
    """``text`` in ``lang``, or in English where it has no translation.

    A plain string is a phrase without fields: it is looked up, never formatted.
    """
    words = translations(supported(lang))
    if isinstance(text, str):
        return words.ugettext(text)
    return words.ugettext(text.english).format(**text.values)


def local_time(local: datetime, tz: str, lang: str) -> str:
    """A local time as a reader of ``lang`` writes it: 'Di 24.11.2026, 18:00 (Europe/Berlin)'."""
    return format_local_time(local.replace(tzinfo=None), tz, lang)
