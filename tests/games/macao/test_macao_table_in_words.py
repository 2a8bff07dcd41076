"""Macao's plain-text view, in English and German, and the table in words that pages
and HTML mails make of it (``templates/games/_text.html``)."""

from __future__ import annotations

from macao_helpers import at_actions, card
from table_words import table_in_words, words_read
from test_macao_german import playout

from pbem.games.macao import GAME
from pbem.games.protocol import EVERYTHING, SPECTATOR

HOSTILE = "<script>alert('x')</script>"
ESCAPED = "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;"
NAMES = ["Heike", HOSTILE]


def table():
    s, seat = at_actions(2, "view")
    s["seats"][seat].update(tableau=[card("Festung")], active=[card("Diplomat")],
                            goods=["Reis"], ship="Lisboa")
    s["harbours"]["Lisboa"] = [1 - seat, None, None]
    s["city"]["7"] = 1 - seat
    s["tiles"].pop("7")
    return s, seat


def test_text_view_in_english_by_default_and_german_on_request():
    s, seat = table()
    view = GAME.view(s, seat)
    english = GAME.render_text(view, NAMES)
    assert english.startswith("Macao, round 1 of 12, phase actions")
    assert "Festung (fortress)◇ [2 red, 1 black]" in english
    assert "cargo: Reis (rice)" in english
    assert f"Lisboa – Reis (rice): 4 {NAMES[1 - seat]}, 3 free, 2 free" in english
    german = GAME.render_text(view, NAMES, lang="de")
    assert german.startswith("Macao, Runde 1 von 12, Phase Aktionen")
    assert "Festung◇ [2 rot, 1 schwarz]" in german and "(fortress)" not in german
    assert "Diplomat◇: Immer wenn du Prestige" in german
    assert f"Lisboa – Reis: 4 {NAMES[1 - seat]}, 3 frei, 2 frei" in german
    assert "Ladung: Reis" in german and "GM" in german


def test_the_table_in_words_reads_english_on_pages_and_german_where_lang_is_de():
    s, seat = table()
    view = GAME.view(s, seat)
    page = table_in_words(GAME, view, NAMES)
    english = words_read(page)
    assert english == GAME.render_text(view, NAMES)
    assert english.startswith("Macao, round 1 of 12, phase actions\nWall order: Heike, ")
    assert "Festung (fortress)" in english and "ship at Lisboa" in english
    assert f"Lisboa – Reis (rice): 4 {HOSTILE}, 3 free, 2 free" in english
    mail = table_in_words(GAME, view, NAMES, "de")
    german = words_read(mail)
    assert german.startswith("Macao, Runde 1 von 12, Phase Aktionen\n")
    assert "Festung◇ [2 rot, 1 schwarz]" in german and "(fortress)" not in german
    assert "Schiff auf Lisboa" in german and "Ladung: Reis" in german
    assert "Immer wenn du Prestige" in german           # the Diplomat's German text
    assert "Wall order" not in german and f"7: {HOSTILE}" in german
    for html in (page, mail):
        assert "<script>" not in html and f"7: {ESCAPED}" in html


def test_the_table_in_words_for_spectators_and_at_the_end():
    s, seat = table()
    spectator = words_read(table_in_words(GAME, GAME.view(s, SPECTATOR), NAMES))
    assert spectator.startswith("Macao, round 1 of 12, phase actions\n")
    assert f"Lisboa – Reis (rice): 4 {HOSTILE}, 3 free, 2 free" in spectator
    *_, (_, _, _, end) = playout(2, 3)
    assert GAME.is_over(end)
    for viewer in (0, SPECTATOR, EVERYTHING):
        words = words_read(table_in_words(GAME, GAME.view(end, viewer), NAMES))
        assert words.startswith("Macao, game over\n")
        finals = [line for line in words.splitlines() if line.startswith("  Final: ")]
        assert len(finals) == 2, words
        assert "To move" not in words
