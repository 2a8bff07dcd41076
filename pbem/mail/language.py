"""The languages mails are written in, and the words of mails that Python builds.

A mail's body comes from a template (``compose.render_mail`` picks
``mail/<kind>.<lang>.txt`` before ``mail/<kind>.txt``); what is built in Python
(subjects, the local time of a deadline) is said here.  Phrases are keyed by
their English form, as gettext keys by the English text: a phrase nobody
translated yet reads in English instead of failing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime

#: the language of the templates without a language in their name
DEFAULT = "en"

#: every language a player may choose, by its own name; each one but the default has a
#: ``mail/<kind>.<lang>.{txt,html}`` for every kind (tests/web/test_language.py checks)
LANGUAGES: dict[str, str] = {"en": "English", "de": "Deutsch"}

#: what Python says in mails, by the English format; ``{name}``-style fields are filled in
#: after the lookup, so a field's value (a name someone typed) is never read as a format
PHRASES: dict[str, dict[str, str]] = {
    "de": {
        "{host} invites you to {title}": "{host} lädt dich zu {title} ein",
        "{title} has started": "{title} hat begonnen",
        "{title}: your move": "{title}: du bist am Zug",
        "{title}: table talk": "{title}: Tischgespräch",
        "{title} is over": "{title} ist zu Ende",
        "Your daily digest": "Deine tägliche Übersicht",
        "Your daily digest: your move in 1 game": "Deine tägliche Übersicht: "
                                                  "du bist in 1 Spiel am Zug",
        "Your daily digest: your move in {n} games": "Deine tägliche Übersicht: "
                                                     "du bist in {n} Spielen am Zug",
        "pbem: your day ({n} to move)": "pbem: dein Tag ({n} am Zug)",
        "{left} left for your move": "noch {left} für deinen Zug",
        "your time is up": "deine Zeit ist abgelaufen",
        "a default move for you": "ein Standardzug für dich",
        "a bot plays your seat": "ein Bot spielt deinen Platz",
        "{name} ran out of time": "{name} hat die Zeit überschritten",
        "default move for {name}": "Standardzug für {name}",
        "a bot plays for {name}": "ein Bot spielt für {name}",
        "{name} leaves the game": "{name} verlässt das Spiel",
        "{name} is back": "{name} ist zurück",
        "{name} is on vacation": "{name} ist im Urlaub",
        "pbem: your new links": "pbem: deine neuen Links",
        "{title}: please confirm your address": "{title}: bitte bestätige deine Adresse",
        "{title}: {who} declined": "{title}: {who} hat abgesagt",
        "and": "und",
        "The game is over": "Das Spiel ist zu Ende",
        "{name} wins with {score}": "{name} gewinnt mit {score}",
        "{names} share the win with {score}": "{names} teilen sich den Sieg mit {score}",
    },
}

#: how a local time reads in a language other than English: its weekday names (strftime's
#: ``%a`` follows the process locale, which a server leaves at C) and the date and time
TIME_FORMATS: dict[str, tuple[tuple[str, ...], str]] = {
    "de": (("Mo", "Di", "Mi", "Do", "Fr", "Sa", "So"), "%d.%m.%Y, %H:%M"),
}


@dataclass(frozen=True)
class Phrase:
    """An English format and its values, to be said in each reader's language.

    Callers that mail a whole table build one; ``say`` turns it into each
    player's words when their mail is made.
    """

    english: str
    values: Mapping[str, object] = field(default_factory=dict)


def phrase(english: str, **values: object) -> Phrase:
    return Phrase(english, values)


def supported(lang: str | None) -> str:
    """``lang`` if mails can be written in it, else the default."""
    return lang if lang in LANGUAGES else DEFAULT


def say(text: str | Phrase, lang: str) -> str:
    """``text`` in ``lang``, or in English where it has no translation.

    A plain string is a phrase without fields: it is looked up, never formatted.
    """
    if isinstance(text, str):
        return PHRASES.get(lang, {}).get(text, text)
    return PHRASES.get(lang, {}).get(text.english, text.english).format(**text.values)


def local_time(local: datetime, tz: str, lang: str) -> str:
    """A local time as a reader of ``lang`` writes it: 'Di 24.11.2026, 18:00 (Europe/Berlin)'."""
    if lang not in TIME_FORMATS:
        return f"{local:%a %d %b %Y, %H:%M} ({tz})"
    days, form = TIME_FORMATS[lang]
    return f"{days[local.weekday()]} {local.strftime(form)} ({tz})"
