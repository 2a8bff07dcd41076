"""The Visby view template (templates/games/visby/view.html) and the ``seats`` filter."""

from __future__ import annotations

from pathlib import Path

import jinja2
import pytest
from markupsafe import Markup

from pbem.games.protocol import EVERYTHING, SPECTATOR
from pbem.games.render import seat_filter
from pbem.games.visby import GAME
from pbem.games.visby.data import KARTEN

TEMPLATES = Path(__file__).resolve().parents[3] / "templates"
HOSTILE = "<script>alert('x')</script>"
NAMES = ["Heike", HOSTILE, "Anne & Bob", "Malte"]


@pytest.fixture(scope="module")
def env() -> jinja2.Environment:
    # trim_blocks and lstrip_blocks as in the web app, where words ran together once
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES)), autoescape=True,
                             undefined=jinja2.StrictUndefined, trim_blocks=True,
                             lstrip_blocks=True)
    env.filters["seats"] = seat_filter
    return env


def render(env, state, seat, names=NAMES) -> str:
    view = GAME.view(state, seat)
    return env.get_template(GAME.template).render(view=view, names=names[:state["players"]])


def mid_game(secret: str = "Zöllner"):
    """Round 2 of four players: seats 0 and 1 have chosen, seats 2 and 3 not yet."""
    state = GAME.setup(4, None, 1)
    for seat, card in enumerate(["Ritter", "Truppen", "Schmied", "Flotte"]):
        state = GAME.apply(state, seat, f"play {card}")
    assert state["round"] == 2
    state = GAME.apply(state, 0, "play Kaufmann")
    state = GAME.apply(state, 1, f"play {secret}")
    return state


def test_the_template_is_the_games_template():
    assert (TEMPLATES / GAME.template).is_file()


def test_own_hand_and_own_choice_are_shown(env):
    html = render(env, mid_game(), 0)
    hand = ", ".join(k for k in KARTEN if k != "Ritter")
    assert f"Your hand: {hand}" in html
    assert "You have chosen: <strong>Kaufmann</strong>" in html
    assert "Heike (you)" in html


def test_another_seats_choice_is_not_shown(env):
    # seat 1's secret choice changes nothing in what seat 0 or a spectator sees
    for viewer in (0, 2, SPECTATOR):
        pages = {render(env, mid_game(secret), viewer) for secret in ("Zöllner", "Schiff",
                                                                        "Bettelmönch")}
        assert len(pages) == 1, viewer
    # a spectator's page names no card that seat 1 holds but has not played
    spectator = render(env, mid_game("Zöllner"), SPECTATOR)
    assert "Zöllner" not in spectator
    assert "Your hand" not in spectator and "You have chosen" not in spectator
    # while seat 1 sees its own choice, and the archive sees everything
    assert "You have chosen: <strong>Zöllner</strong>" in render(env, mid_game(), 1)
    everything = GAME.view(mid_game(), EVERYTHING)
    assert everything["seats"][1]["chosen"] == ["Zöllner"]


def test_who_is_still_choosing(env):
    html = render(env, mid_game(), 0)
    assert "Still choosing (1 card each): Anne &amp; Bob, Malte" in html
    assert "choosing (0 of 1 chosen)" in html


def test_names_are_escaped_everywhere(env):
    html = render(env, mid_game(), 0)
    assert HOSTILE not in html
    assert "<script" not in html
    escaped = "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;"
    assert f"<th scope=\"row\">{escaped}</th>" in html
    # in the events of the last round, through the seats filter
    assert f"<li>{escaped} reveals Truppen</li>" in html
    assert "<li>Truppen: " in html and "takes 2 seals from Feldzug" in html


def test_trading_shows_rates_and_the_merchants(env):
    state = GAME.setup(2, None, 1)
    state["tracks"]["Markt"] = 9
    for seat in (0, 1):
        state = GAME.apply(state, seat, "play Kaufmann")
        state = GAME.apply(state, seat, "play Schmied")
    html = render(env, state, 1)
    assert "Still trading:" in html
    assert "field 7" in html and "rate 3:2" in html
    assert "Rates at or below the purse (goods : seals): 3:2, 2:1" in html


def test_the_end_shows_final_seals(env):
    state = GAME.setup(2, None, 1)
    state["seals"] = [30, 20]
    state["goods"] = [5, 7]
    for seat in (0, 1):
        state = GAME.apply(state, seat, "play Schmied")
        state = GAME.apply(state, seat, "play Zöllner")
    assert GAME.is_over(state)
    html = render(env, state, EVERYTHING)
    assert "The game is over." in html
    assert "<caption>Final seals</caption>" in html
    assert "<tr><th scope=\"row\">Heike</th><td>31</td><td>2</td></tr>" in html
    assert "Still choosing" not in html


def test_no_fixed_widths(env):
    html = render(env, mid_game(), 0)
    assert "width" not in html
    assert "<thead>" in html and "<th scope=\"col\">" in html


# -- the seats filter ----------------------------------------------------------------


def test_seat_filter_escapes_text_and_names():
    out = seat_filter("{0} <b>beats</b> {1} & {0}", ["<i>A</i>", "B&B"])
    assert isinstance(out, Markup)
    assert str(out) == ("&lt;i&gt;A&lt;/i&gt; &lt;b&gt;beats&lt;/b&gt; B&amp;B &amp; "
                        "&lt;i&gt;A&lt;/i&gt;")


def test_seat_filter_leaves_other_braces_and_unknown_seats_readable():
    assert str(seat_filter("{x} {} {7}", ["A"])) == "{x} {} seat 8"
    assert str(seat_filter("no seats", [])) == "no seats"


def test_seat_filter_does_not_fill_placeholders_inside_names():
    assert str(seat_filter("{0} and {1}", ["{1}", "B"])) == "{1} and B"


def test_plain_text_shows_every_hand_only_to_the_all_seeing_view():
    state = GAME.apply(GAME.setup(3, {}, seed=5), 0, "play Ritter")
    names = ["Heike", "Malte", "Jule"]
    archive = GAME.render_text(GAME.view(state, EVERYTHING), names)
    assert archive.count("hand: ") == 3 and "chosen: Ritter" in archive
    for viewer in (SPECTATOR, 1):
        text = GAME.render_text(GAME.view(state, viewer), names)
        assert "chosen: Ritter" not in text and "You have chosen" not in text
    assert "You have chosen: Ritter" in GAME.render_text(GAME.view(state, 0), names)


def test_one_seal_and_one_good_read_in_the_singular(env):
    state = GAME.setup(4, None, 1)
    state["tracks"].update(Feldzug=1, Handelsfahrt=1)
    html = render(env, state, 0)
    assert "<td>1 seal</td>" in html and "<td>1 good</td>" in html
    text = GAME.render_text(GAME.view(state, 0), NAMES)
    assert "Feldzug 1 seal, Handelsfahrt 1 good," in text
    state["tracks"].update(Feldzug=2, Handelsfahrt=0)
    assert "<td>2 seals</td>" in render(env, state, 0)
    assert "Feldzug 2 seals, Handelsfahrt 0 goods," in GAME.render_text(GAME.view(state, 0), NAMES)


def test_visby_styles_live_with_the_game():
    own = (TEMPLATES / GAME.stylesheet).read_text(encoding="utf-8")
    assert GAME.stylesheet == "games/visby/style.css"
    assert "tr.visby-you" in own
    shared = TEMPLATES.parent / "pbem" / "web" / "static" / "style.css"
    assert "visby" not in shared.read_text(encoding="utf-8")
    # every class the template uses is styled by the game's sheet or needs none
    html = (TEMPLATES / GAME.template).read_text(encoding="utf-8")
    assert "visby-you" in html and "visby-scroll" in html
