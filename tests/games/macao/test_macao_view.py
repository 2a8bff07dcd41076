"""Macao's plain-text view and its page template, in English and German."""

from __future__ import annotations

from pathlib import Path

import jinja2
import pytest
from macao_helpers import at_actions, card

from pbem.games.macao import GAME
from pbem.games.protocol import SPECTATOR

TEMPLATES = Path(__file__).resolve().parents[3] / "templates"
HOSTILE = "<script>alert('x')</script>"
NAMES = ["Heike", HOSTILE]


@pytest.fixture(scope="module")
def env() -> jinja2.Environment:
    # trim_blocks and lstrip_blocks as in the web app; strict, so a missing word shows
    return jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES)), autoescape=True,
                              undefined=jinja2.StrictUndefined, trim_blocks=True,
                              lstrip_blocks=True)


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
    assert "Festung (fortress) [2 red, 1 black]" in english
    assert "cargo: Reis (rice)" in english
    assert f"Lisboa – Reis (rice): 4 {NAMES[1 - seat]}, 3 free, 2 free" in english
    german = GAME.render_text(view, NAMES, lang="de")
    assert german.startswith("Macao, Runde 1 von 12, Phase Aktionen")
    assert "Festung [2 rot, 1 schwarz]" in german and "(fortress)" not in german
    assert "Diplomat: Immer wenn du Prestige" in german
    assert f"Lisboa – Reis: 4 {NAMES[1 - seat]}, 3 frei, 2 frei" in german
    assert "Ladung: Reis" in german and "GM" in german


def test_template_reads_english_on_pages_and_german_where_lang_is_de(env):
    s, seat = table()
    view = GAME.view(s, seat)
    template = env.get_template(GAME.template)
    page = template.render(view=view, names=NAMES)
    assert "round 1 of 12, phase actions" in page and "Wall order" in page
    assert "Festung (fortress)" in page and "ship at Lisboa" in page
    assert "Lisboa (Reis (rice)): 4 PP" in page
    mail = template.render(view=view, names=NAMES, lang="de")
    assert "Runde 1 von 12, Phase Aktionen" in mail and "Mauerreihenfolge" in mail
    assert "Festung [2 rot, 1 schwarz]" in mail and "(fortress)" not in mail
    assert "Schiff auf Lisboa" in mail and "Ladung: Reis" in mail
    assert "Immer wenn du Prestige" in mail           # the Diplomat's German text
    assert "Wall order" not in mail and "Stadtteil 7" in mail
    for text in (page, mail):
        assert "<script>" not in text and "&lt;script&gt;" in text


def test_template_for_spectators_and_the_end(env):
    s, _ = table()
    page = env.get_template(GAME.template).render(view=GAME.view(s, SPECTATOR), names=NAMES)
    assert "(you)" not in page
