"""How a game picks its words by language (``pbem.games.language``)."""

from __future__ import annotations

import re

from pbem.games.language import code, plural, retell, table_for

TABLES = {
    "en": {"hello": "Hello", "seal": ("{n} seal", "{n} seals")},
    "de": {"seal": ("{n} Siegel", "{n} Siegel"), "event takes": "{seat} nimmt {amount}"},
}
TAKES = [(re.compile(r"(\{\d+\}) takes (\d+) seals?"), "takes",
          lambda m, w, lang: {"seat": m[1], "amount": plural(w, "seal", int(m[2]))})]


def test_a_reader_gets_the_table_of_their_language_and_english_for_the_rest():
    assert code("de-AT") == "de" and code(None) == ""
    assert table_for(TABLES, "de-AT")["seal"] == ("{n} Siegel", "{n} Siegel")
    assert table_for(TABLES, "de")["hello"] == "Hello"  # missing in German: English
    assert table_for(TABLES, "fr") == table_for(TABLES, "en") == TABLES["en"]


def test_plural_picks_one_or_more():
    en = table_for(TABLES, "en")
    assert [plural(en, "seal", n) for n in (0, 1, 2)] == ["0 seals", "1 seal", "2 seals"]


def test_a_line_in_english_is_retold_in_another_language_and_kept_where_unknown():
    de, en = table_for(TABLES, "de"), table_for(TABLES, "en")
    assert retell("{0} takes 1 seal", TAKES, de, "event", "de") == "{0} nimmt 1 Siegel"
    assert retell("{0} takes 1 seal", TAKES, en, "event", "en") == "{0} takes 1 seal"
    assert retell("something new", TAKES, de, "event", "de") == "something new"
