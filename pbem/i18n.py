"""Languages: which one a reader gets, and the words of pages and mails in it.

The words live in gettext catalogs, one per language, under
``pbem/translations/<lang>/LC_MESSAGES/messages.po`` (the English text is the
message id; English is the default and needs no catalog).  Only the ``.po`` is
kept in the repository: it is compiled in memory the first time a language is
read (:func:`translations`), so a fresh clone works after ``pip install -e .``
with no extra step, and no ``.mo`` file can go stale.

Pages get their language from Flask-Babel (:func:`install` gives it a locale
selector: the player whose link opened the page, else the browser's
``Accept-Language``, else English); mails and everything else built outside a
request say what they say inside ``with in_language(player.language):``.
``gettext`` here works in both places, so code shared by pages and mails has one
way to be translated.

A new string is marked with ``_``/``gettext``/``ngettext``/``lazy_gettext`` in
Python, ``{{ _("…") }}`` or ``{% trans %}`` in a template, or ``phrase("…")`` for
a mail's subject; README.md says how to extract and translate it, and
tests/test_translations.py fails while a marked string has no German.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import datetime
from functools import cache
from io import BytesIO
from pathlib import Path
from typing import Any

from babel import Locale, dates, numbers
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import NullTranslations, Translations
from jinja2 import pass_context
from markupsafe import Markup

#: the language of the message ids, of pages to a reader we know nothing about
DEFAULT = "en"

#: every language a player may choose, by its own name
LANGUAGES: dict[str, str] = {"en": "English", "de": "Deutsch"}

TRANSLATIONS_DIR = Path(__file__).resolve().parent / "translations"
DOMAIN = "messages"

#: the language forced for what is said now (a mail being written), if any
_forced: ContextVar[str | None] = ContextVar("pbem_language", default=None)


def supported(lang: str | None) -> str:
    """``lang`` if we can write in it, else the default."""
    return lang if lang in LANGUAGES else DEFAULT


def catalog_path(lang: str) -> Path:
    return TRANSLATIONS_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


@cache
def translations(lang: str) -> NullTranslations:
    """The compiled catalog of ``lang`` (English, and a language without one: the ids)."""
    po = catalog_path(lang)
    if lang == DEFAULT or not po.is_file():
        return NullTranslations()
    with po.open("rb") as f:
        catalog = read_po(f, locale=lang, domain=DOMAIN)
    mo = BytesIO()
    write_mo(mo, catalog, use_fuzzy=False)
    mo.seek(0)
    return Translations(mo, domain=DOMAIN)


def current() -> str:
    """The language being written now: a forced one, else the page's, else English."""
    forced = _forced.get()
    if forced is not None:
        return forced
    page = _page_globals()
    if page is None:
        return DEFAULT
    # asked for every word of a page: the page's language is found once (``reader``
    # changes it, and forgets this)
    known = page.get("pbem_current_language")
    if known is None:
        known = page.pbem_current_language = _page_language()
    return known


#: Flask's context variables of the request and the app, once imported (None: not yet;
#: False: this Flask has other names, and its public ``g`` is read instead)
_flask_contexts: Any = None


def _page_globals() -> Any:
    """Flask's ``g`` of the request being answered (None outside one), read from its
    context variable: the ``g`` proxy costs five times as much, and ``current`` is asked
    for every word of a page.  Imported here, not above: mails and the games' command
    line use this module without Flask."""
    global _flask_contexts
    if _flask_contexts is None:
        try:
            from flask.globals import _cv_app, _cv_request
            _flask_contexts = (_cv_request, _cv_app)
        except ImportError:
            _flask_contexts = False
    if _flask_contexts is False:
        from flask import g, has_request_context

        return g._get_current_object() if has_request_context() else None
    request_var, app_var = _flask_contexts
    if request_var.get(None) is None:
        return None
    return app_var.get().g


def _page_language() -> str:
    from flask import current_app

    if "babel" not in current_app.extensions:  # an app without our pages (a bench)
        return DEFAULT
    from flask_babel import get_locale

    locale = get_locale()
    return supported(locale.language) if locale is not None else DEFAULT


@contextmanager
def in_language(lang: str | None) -> Iterator[str]:
    """Say everything inside in ``lang`` (or English, for one we cannot write in).

    Inside a request Flask-Babel's own formatters follow too (its ``force_locale``).
    """
    lang = supported(lang)
    token = _forced.set(lang)
    try:
        from flask import has_app_context

        if has_app_context():
            from flask_babel import force_locale

            with force_locale(lang):
                yield lang
        else:
            yield lang
    finally:
        _forced.reset(token)


def gettext(message: str, **values: Any) -> str:
    """``message`` in the current language, ``%(name)s`` fields filled in after the lookup
    (so a value someone typed is never read as a format)."""
    said = translations(current()).ugettext(message)
    return said % values if values else said


def ngettext(singular: str, plural: str, num: int, **values: Any) -> str:
    values.setdefault("num", num)
    return translations(current()).ungettext(singular, plural, num) % values


def lazy_gettext(message: str, **values: Any) -> Any:
    """``gettext`` when the text is used, not when it is made (module-level messages)."""
    from flask_babel.speaklater import LazyString

    return LazyString(gettext, message, **values)


_ = gettext


def N_(message: str) -> str:
    """Marks ``message`` for the catalog where it is written; ``gettext`` translates it
    where it is said."""
    return message


# -- phrases: words built in Python, said later in each reader's language ---------------


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


# -- numbers and times -----------------------------------------------------------------

#: how a deadline reads, per language (Babel patterns); a language without one reads
#: the default's pattern with its own day and month names
_DATETIME_PATTERNS = {"en": "EEE dd MMM y, HH:mm", "de": "ccc dd.MM.y, HH:mm"}


@cache
def locale_of(lang: str) -> Locale:
    """Babel's locale of ``lang`` (a language we write in), made once: a locale made anew
    reads its data again at its first use (a deadline written with a new one cost three
    times as much as with one kept), and Flask-Babel made one from its selector's answer
    on every request (``install``)."""
    return Locale.parse(lang)


def format_local_time(local: datetime, tz: str, lang: str | None = None) -> str:
    """A local time as a reader of ``lang`` writes it, with its zone:
    'Thu 05 Mar 2026, 12:00 (UTC)', 'Do 05.03.2026, 12:00 (UTC)' (``local`` is naive)."""
    lang = supported(lang or current())
    pattern = _DATETIME_PATTERNS.get(lang, _DATETIME_PATTERNS[DEFAULT])
    return f"{dates.format_datetime(local, pattern, locale=locale_of(lang))} ({tz})"


def format_number(number: float, lang: str | None = None) -> str:
    """A number as a reader of ``lang`` writes it: 1,234.5 or 1.234,5."""
    return numbers.format_decimal(number, locale=locale_of(supported(lang or current())))


# -- the web app ----------------------------------------------------------------------


def install(app: Any) -> None:
    """Flask-Babel for ``app``: its locale selector, its Jinja ``_``/``gettext`` reading our
    catalogs, its date and number filters."""
    from flask import g, request
    from flask_babel import Babel, Domain

    class CatalogDomain(Domain):
        """Flask-Babel's domain, reading the catalogs compiled in memory."""

        def get_translations(self) -> NullTranslations:
            return translations(current())

    def select_locale() -> Locale:
        # a locale, not its name: Flask-Babel parses a name into a new one every request
        chosen = getattr(g, "pbem_language", None)
        if chosen in LANGUAGES:
            return locale_of(chosen)
        return locale_of(supported(request.accept_languages.best_match(
            list(LANGUAGES), default=DEFAULT)))

    babel = Babel()
    babel.domain_instance = CatalogDomain()  # a cached property: set before first use
    babel.init_app(app, default_locale=DEFAULT, locale_selector=select_locale)
    app.jinja_env.globals["current_language"] = current
    # the templates' words straight from the catalog (as the domain reads them): Flask-
    # Babel's own callables ask its context for the locale at every word of a page
    _install_callables(app.jinja_env)


def reader(lang: str | None) -> None:
    """The page being made is for a player who reads ``lang``: its words follow."""
    from flask import g
    from flask_babel import refresh

    g.pbem_language = supported(lang)
    g.pop("pbem_current_language", None)
    refresh()


def install_jinja(env: Any) -> None:
    """``_``/``gettext``/``ngettext`` for a Jinja environment outside Flask (the mails')."""
    env.add_extension("jinja2.ext.i18n")
    _install_callables(env)
    env.globals["current_language"] = current


def _install_callables(env: Any) -> None:
    # newstyle: Jinja fills in the fields itself, escaping them in HTML
    env.install_gettext_callables(
        gettext=lambda s: translations(current()).ugettext(s),
        ngettext=lambda s, p, n: translations(current()).ungettext(s, p, n),
        newstyle=True,
    )
    # ``_`` and ``gettext`` (``{% trans %}`` without a plural) as Jinja's newstyle
    # gettext makes them, in one call: Jinja's ``_`` looks ``gettext`` up and calls it,
    # which calls the function above, three calls through the template's context for
    # every word of a page (a seat page has about forty)
    env.globals["_"] = env.globals["gettext"] = _template_gettext


#: what ``_template_gettext`` said for a string without fields, by language, string and
#: whether the template escapes (a catalog is read once: ``translations``); the templates'
#: strings are a few hundred, forgotten all at once at ``_SAID_MOST`` (a template that
#: one day said a string made at run time)
_said: dict[tuple[str, str, bool], str] = {}
_SAID_MOST = 4096


@pass_context  # Jinja gives it the template's context first
def _template_gettext(context: Any, string: str, /, **variables: Any) -> str:
    """Jinja's newstyle ``gettext`` of ``string`` in the language of now: its translation
    (markup-safe where the template escapes), its fields filled in (escaped there)."""
    escapes = context.eval_ctx.autoescape
    if not variables:
        key = (current(), string, escapes)
        said = _said.get(key)
        if said is None:
            if len(_said) >= _SAID_MOST:
                _said.clear()
            said = _said[key] = _template_said(key[0], string, escapes) % variables
        return said
    return _template_said(current(), string, escapes) % variables


def _template_said(lang: str, string: str, escapes: bool) -> str:
    said = translations(lang).ugettext(string)
    # always a format, fields or none (as Jinja: a "%%" reads the same either way)
    return Markup(said) if escapes else said

