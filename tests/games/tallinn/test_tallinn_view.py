"""How a view reads: plain text for mails, the page template, the picture (SVG)."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from xml.etree import ElementTree

import jinja2
import pytest
from markupsafe import Markup
from tallinn_helpers import NAMES, new_game, play_round, stack

from pbem.games.protocol import EVERYTHING, SPECTATOR
from pbem.games.render import seat_filter
from pbem.games.tallinn import GAME

TEMPLATES = Path(__file__).resolve().parents[3] / "templates"
HOSTILE = NAMES[3]


@pytest.fixture(scope="module")
def env() -> jinja2.Environment:
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES)), autoescape=True,
                             undefined=jinja2.StrictUndefined, trim_blocks=True,
                             lstrip_blocks=True)
    env.filters["seats"] = seat_filter
    return env


def mid_game():
    """Round 2 of four players with the Legat: seat 0 has chosen, the others not yet."""
    state = new_game(4, legat=True)
    for seat, start in enumerate(["S1", "S2", "S3", "S4"]):
        stack(state, seat, start, ["1", "7", "2", "3", "4", "5", "6", "8", "9", "10"])
    state = play_round(state, {0: "1b", 1: "7a", 2: "2a", 3: "La"}, {0: ("hand", "7")})
    return GAME.apply(state, 0, "play 2b")


def finished(options=None, players=2, seed=1):
    rng = random.Random(seed)
    state = GAME.setup(players, options, seed)
    while not GAME.is_over(state):
        seat = GAME.to_move(state)[0]
        moves = GAME.legal_moves(state, seat)
        state = GAME.apply(state, seat, "tower display" if "tower display" in moves
                           else rng.choice(moves))
    return state


def render(env, state, seat, picture=True):
    view = GAME.view(state, seat)
    names = NAMES[:state["players"]]
    extra = {"picture": Markup(GAME.picture(view, names))} if picture else {}
    return env.get_template(GAME.template).render(view=view, names=names, **extra)


# -- plain text ----------------------------------------------------------------------


def test_the_text_shows_hand_displays_towers_scores_and_who_is_choosing():
    text = GAME.render_text(GAME.view(mid_game(), 0), NAMES)
    assert text.startswith("Tallinn, round 2 of at most 11. With Der Legat des Kaisers.")
    assert "Malte (you): 8 points; 3 in hand, 6 on the pile; has chosen" in text
    assert "  display: 1 Ritter, 2 Mönche (start); 1: 1 Ritter + coin" in text
    assert "  1 tower: card 7: 1 Ritter, 2 Mönche | 1 Kaufmann, 2 Mönche (from the hand)" in text
    assert "Heike: 4 points; 4 in hand, 6 on the pile; choosing" in text
    assert "  persons: Kaufleute 1, Ritter 3, Mönche 2" in text
    assert "Your hand:\n  card 2: 2 Kaufleute | 1 Mönch + coin\n  card 3: 2 Ritter" in text
    assert "  Legat des Kaisers (emperor's legate): 1 Kaufmann, 1 Ritter, 1 Mönch | Wappen" in text
    assert ("You have chosen card 2 with 1 Mönch + coin active (secret until all have chosen)."
            in text)
    assert "Still choosing a card: Heike, Anne & Bob, " in text
    assert "Round 1:\n  Malte plays card 1: 1 Ritter + coin" in text
    assert "Malte builds a tower from a hand card" in text


def test_the_text_of_another_seat_hides_hand_choice_and_tower_faces():
    text = GAME.render_text(GAME.view(mid_game(), 1), NAMES)
    assert "You have chosen" not in text and "card 2 with" not in text
    assert "1 tower: face down (from the hand)" in text
    assert "Malte: 8 points; 3 in hand, 6 on the pile; has chosen" in text
    spectator = GAME.render_text(GAME.view(mid_game(), SPECTATOR), NAMES)
    assert "Your hand" not in spectator and "face down" in spectator


def test_the_archive_text_shows_everything():
    text = GAME.render_text(GAME.view(mid_game(), EVERYTHING), NAMES)
    assert "  chosen: card 2, 1 Mönch + coin" in text
    assert "  hand: card 2: 2 Kaufleute | 1 Mönch + coin, card 3:" in text


def test_the_text_of_a_finished_game_has_the_final_scoring():
    state = finished()
    text = GAME.render_text(GAME.view(state, SPECTATOR), NAMES[:2])
    assert "The game is over." in text and "Final scoring:" in text
    for s in range(2):
        f = state["final"]
        assert (f"  {NAMES[s]}: {f['before'][s]} {'+' if f['gain'][s] >= 0 else ''}"
                f"{f['gain'][s]} = {state['points'][s]}; ") in text


# -- the template --------------------------------------------------------------------


def test_the_template_and_stylesheet_are_the_games():
    assert (TEMPLATES / GAME.template).is_file()
    assert (TEMPLATES / GAME.stylesheet).is_file()


def test_the_page_shows_own_hand_and_choice_but_no_other(env):
    html = render(env, mid_game(), 0)
    assert "Malte (you)" in html
    assert "<li>card 3: 2 Ritter | 1 Kaufmann + coin</li>" in html
    assert "You have chosen card 2 with <strong>1 Mönch + coin</strong> active" in html
    other = render(env, mid_game(), 1)
    assert "You have chosen card 2" not in other and "face down (from the hand" in other


def test_names_are_escaped_in_page_text_and_picture(env):
    for seat in (0, 3, SPECTATOR, EVERYTHING):
        html = render(env, mid_game(), seat)
        assert HOSTILE not in html
        assert "&lt;script&gt;" in html
        assert "Anne &amp; Bob" in html


def test_the_page_reads_without_the_picture(env):
    """The picture stands above the template on pages (``pages/_table.html``), never in it
    twice; the template alone reads fully."""
    html = render(env, mid_game(), 0, picture=False)
    assert "<svg" not in html and "Displays" in html and "Your hand" in html
    assert "<svg" not in render(env, mid_game(), 0)


@pytest.mark.parametrize("options", [{}, {"legat": True, "tower_order": True}])
def test_every_state_of_a_game_renders(env, options):
    rng = random.Random(3)
    state = GAME.setup(3, options, 3)
    while True:
        for seat in (0, SPECTATOR, EVERYTHING):
            render(env, state, seat)
        if GAME.is_over(state):
            break
        seat = rng.choice(GAME.to_move(state))
        state = GAME.apply(state, seat, rng.choice(GAME.legal_moves(state, seat)))
    html = render(env, state, SPECTATOR)
    assert "Final scoring" in html and "persons)" in html


# -- the picture -----------------------------------------------------------------------


def test_the_picture_is_svg_for_a_phone_with_no_script():
    for state in (mid_game(), finished({"legat": True}, 4)):
        for seat in (0, SPECTATOR):
            for lang in ("en", "de"):
                svg = GAME.picture(GAME.view(state, seat), NAMES[:state["players"]], lang)
                root = ElementTree.fromstring(svg)  # well-formed XML
                assert root.tag == "{http://www.w3.org/2000/svg}svg"
                assert root.get("width") == "100%"
                assert root.get("viewBox").startswith("0 0 390 ")
                assert "<script" not in svg.lower() and "onload" not in svg.lower()
                assert HOSTILE not in svg


def test_the_picture_marks_estates_by_shape_and_letter_not_colour_alone():
    svg = GAME.picture(GAME.view(mid_game(), 0), NAMES)
    assert "<circle" in svg and "<rect" in svg and "<polygon" in svg
    for letter in "KRM":
        assert re.search(rf">{letter}</text>", svg)
    assert ">W</text>" in svg  # the Legat in the viewer's hand: its Wappen half
    # but nobody's display shows a Wappen yet
    assert ">W</text>" not in GAME.picture(GAME.view(mid_game(), SPECTATOR), NAMES)
    assert "Runde 2" in GAME.picture(GAME.view(mid_game(), 0), NAMES, "de")


def test_the_picture_hides_what_the_view_hides():
    state = mid_game()
    mine = GAME.picture(GAME.view(state, 0), NAMES)
    other = GAME.picture(GAME.view(state, 1), NAMES)
    assert mine != other  # the own tower's face is drawn only for its owner
    views = {json.dumps(GAME.view(GAME.apply(state, 1, m), 2), sort_keys=True)
             for m in GAME.legal_moves(state, 1)}
    assert len(views) == 1
