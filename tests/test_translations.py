"""The gettext catalogs: every string we mark is translated, and the catalog is fresh.

A string marked in our Python or templates (``_``, ``gettext``, ``ngettext``,
``lazy_gettext``, ``N_``, ``phrase``, ``{% trans %}``) is extracted here the way
README.md's ``pybabel extract`` does it; each must have a German translation that is
not fuzzy and that keeps its fields.  Adding a string without translating it fails
here, with the command that brings the catalog up to date.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po

from pbem import i18n

ROOT = Path(__file__).resolve().parent.parent
#: the keywords of README.md's ``pybabel extract -k …``, besides Babel's own
KEYWORDS = ("phrase", "lazy_gettext", "N_")
REFRESH = ("pybabel extract -F babel.cfg -k phrase -k lazy_gettext -k N_ --no-location "
           "--sort-output --width 100 -o pbem/translations/messages.pot . && pybabel update "
           "-i pbem/translations/messages.pot -d pbem/translations --width 100")


def _keywords() -> dict:
    from babel.messages.extract import DEFAULT_KEYWORDS

    return {**DEFAULT_KEYWORDS, **{k: None for k in KEYWORDS}}


def _marked_now() -> set:
    """Every message id marked in the sources as they are now."""
    with open(ROOT / "babel.cfg") as f:
        method_map, options_map = parse_mapping_cfg(f)
    ids = set()
    for _file, _line, message, _comments, context in extract_from_dir(
            str(ROOT), method_map, options_map, keywords=_keywords()):
        ids.add((message if isinstance(message, str) else tuple(message), context))
    return ids


def _catalog(path: Path):
    with path.open("rb") as f:
        return read_po(f)


def _key(message) -> tuple:
    mid = message.id if isinstance(message.id, str) else tuple(message.id)
    return (mid, message.context)


def _fields(text: str) -> set[str]:
    return set(re.findall(r"%\(\w+\)[sd]|\{\w+\}", text))


@pytest.fixture(scope="module")
def marked() -> set:
    return _marked_now()


def test_the_template_lists_every_marked_string(marked):
    pot = {_key(m) for m in _catalog(i18n.TRANSLATIONS_DIR / "messages.pot") if m.id}
    missing = sorted(str(k[0]) for k in marked - pot)
    assert not missing, f"not in messages.pot: {missing[:5]}; run: {REFRESH}"


@pytest.mark.parametrize("lang", sorted(set(i18n.LANGUAGES) - {i18n.DEFAULT}))
def test_every_marked_string_is_translated_and_keeps_its_fields(marked, lang):
    po = _catalog(i18n.catalog_path(lang))
    by_key = {_key(m): m for m in po if m.id}
    pot = {_key(m) for m in _catalog(i18n.TRANSLATIONS_DIR / "messages.pot") if m.id}
    assert pot <= set(by_key), f"run: {REFRESH}"
    untranslated = []
    for key in marked | pot:
        message = by_key.get(key)
        strings = (message.string if isinstance(message.string, tuple)
                   else (message.string,)) if message is not None else ("",)
        if message is None or message.fuzzy or not all(strings):
            untranslated.append(str(key[0]))
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        for said in strings:
            # a plural's singular may say "one" instead of its number
            assert _fields(said) <= _fields(" ".join(ids)), (key, said)
            assert _fields(said) >= _fields(ids[-1]) - {"%(num)d", "%(count)s"}, (key, said)
    assert not untranslated, (f"{len(untranslated)} strings without {lang}: "
                              f"{sorted(untranslated)[:5]}; translate them in "
                              f"{i18n.catalog_path(lang).relative_to(ROOT)}")


def test_the_catalogs_are_compiled_from_the_po_files_not_committed():
    assert not list(i18n.TRANSLATIONS_DIR.rglob("*.mo"))
    words = i18n.translations("de")
    assert words.ugettext("Your move") == "Du bist am Zug"
    assert i18n.translations("en").ugettext("Your move") == "Your move"
    assert i18n.translations("xx").ugettext("Your move") == "Your move"


def test_in_language_says_dates_and_numbers_in_the_readers_way():
    from datetime import datetime

    when = datetime(2026, 3, 5, 12, 0)
    assert i18n.format_local_time(when, "UTC", "en") == "Thu 05 Mar 2026, 12:00 (UTC)"
    assert i18n.format_local_time(when, "UTC", "de") == "Do 05.03.2026, 12:00 (UTC)"
    assert i18n.format_number(1234.5, "en") == "1,234.5"
    assert i18n.format_number(1234.5, "de") == "1.234,5"
    with i18n.in_language("de"):
        assert i18n.gettext("Seat %(number)s", number=2) == "Platz 2"
        assert i18n.ngettext("Winner: %(names)s", "Winners: %(names)s", 2,
                             names="A, B") == "Sieg: A, B"
    assert i18n.gettext("Seat %(number)s", number=2) == "Seat 2"


@pytest.mark.parametrize("flask_names", ["context variables", "public g"])
def test_a_page_speaks_its_readers_language_and_nothing_else_does(flask_names, monkeypatch,
                                                                 tmp_path):
    """``current`` reads the request's ``g`` straight from Flask's context variable, or
    through the public ``g`` where a Flask names them otherwise: the same answers."""
    from flask import Flask

    if flask_names == "public g":
        monkeypatch.setattr(i18n, "_flask_contexts", False)
    app = Flask(__name__)
    i18n.install(app)
    assert i18n.current() == "en"  # no request
    with app.app_context():
        assert i18n.current() == "en"  # an app, but no page
    with app.test_request_context("/", headers={"Accept-Language": "de-DE,de;q=0.9"}):
        assert i18n.current() == "de"
        assert i18n.gettext("Seat %(number)s", number=2) == "Platz 2"
        i18n.reader("en")
        assert i18n.current() == "en"
        with i18n.in_language("de"):
            assert i18n.current() == "de"
    with app.test_request_context("/"):
        assert i18n.current() == "en"
