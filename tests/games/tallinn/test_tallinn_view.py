"""How a view reads: plain text for mails, the same words as the table in words of pages
and HTML mails (``templates/games/_text.html``), and the picture (SVG)."""

from __future__ import annotations

import json
import random
import re
from xml.etree import ElementTree

import pytest
from table_words import table_in_words, words_read
from tallinn_helpers import NAMES, new_game, play_round, stack

from pbem.games.datafile import note_lines
from pbem.games.protocol import EVERYTHING, SPECTATOR
from pbem.games.tallinn import GAME

HOSTILE = NAMES[3]
ESCAPED = "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;"


def round_two():
    """Round 2 of four players with the Legat: nobody has chosen yet."""
    state = new_game(4, legat=True)
    for seat, start in enumerate(["S1", "S2", "S3", "S4"]):
        stack(state, seat, start, ["1", "7", "2", "3", "4", "5", "6", "8", "9", "10"])
    return play_round(state, {0: "1b", 1: "7a", 2: "2a", 3: "La"}, {0: ("hand", "7")})


def mid_game():
    """Round 2 of four players with the Legat: seat 0 has chosen, the others not yet."""
    return GAME.apply(round_two(), 0, "play 2b")


def finished(options=None, players=2, seed=1):
    rng = random.Random(seed)
    state = GAME.setup(players, options, seed)
    while not GAME.is_over(state):
        seat = GAME.to_move(state)[0]
        moves = GAME.legal_moves(state, seat)
        state = GAME.apply(state, seat, "tower display" if "tower display" in moves
                           else rng.choice(moves))
    return state


def render(state, seat) -> str:
    """The table in words of ``seat`` as a page or an HTML mail shows it (HTML)."""
    return table_in_words(GAME, GAME.view(state, seat), NAMES[:state["players"]])


# -- plain text ----------------------------------------------------------------------


def test_the_text_shows_hand_displays_towers_scores_and_who_is_choosing():
    text = GAME.render_text(GAME.view(mid_game(), 0), NAMES)
    assert text.startswith("Tallinn, round 2 of at most 11. With Der Legat des Kaisers.")
    assert "Malte (you): 8 points; 3 in hand, 6 on the pile; has chosen" in text
    assert "  display: 1 Ritter, 2 Mönche (start); 1: 1 Ritter + coin" in text
    assert "  1 tower: card 7◇: 1 Ritter, 2 Mönche | 1 Kaufmann, 2 Mönche (from the hand)" in text
    assert "Heike: 4 points; 4 in hand, 6 on the pile; choosing" in text
    assert "  persons: Kaufleute 1, Ritter 3, Mönche 2" in text
    assert "Your hand:\n  card 2◇: 2 Kaufleute | 1 Mönch + coin\n  card 3◇: 2 Ritter" in text
    assert "  Legat des Kaisers (emperor's legate): 1 Kaufmann, 1 Ritter, 1 Mönch | Wappen" in text
    assert ("You have chosen card 2◇ with 1 Mönch + coin active (secret until all have "
            "chosen)." in text)
    note = "\n".join(note_lines("en"))
    assert text.endswith(f"\n\n{note}") and text.count(note) == 1
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
    assert "  chosen: card 2◇, 1 Mönch + coin" in text
    assert "  hand: card 2◇: 2 Kaufleute | 1 Mönch + coin, card 3◇:" in text


def test_the_text_of_a_finished_game_has_the_final_scoring():
    state = finished()
    text = GAME.render_text(GAME.view(state, SPECTATOR), NAMES[:2])
    assert "The game is over." in text and "Final scoring:" in text
    for s in range(2):
        f = state["final"]
        assert (f"  {NAMES[s]}: {f['before'][s]} {'+' if f['gain'][s] >= 0 else ''}"
                f"{f['gain'][s]} = {state['points'][s]}; ") in text


# -- the table in words -----------------------------------------------------------------


def test_the_table_in_words_shows_own_hand_and_choice_but_no_other():
    words = words_read(render(mid_game(), 0))
    assert "Malte (you): 8 points;" in words
    assert "\n  card 3◇: 2 Ritter | 1 Kaufmann + coin\n" in words
    assert "You have chosen card 2◇ with 1 Mönch + coin active" in words
    for viewer in (1, SPECTATOR):
        other = words_read(render(mid_game(), viewer))
        assert "You have chosen" not in other and "card 2 with" not in other
        assert "1 tower: face down (from the hand)" in other
        assert "Malte: 8 points; 3 in hand, 6 on the pile; has chosen" in other
    # which card seat 0 chose changes nothing that seat 1 or a spectator see
    before = round_two()
    for viewer in (1, SPECTATOR):
        pages = {render(GAME.apply(before, 0, move), viewer)
                 for move in GAME.legal_moves(before, 0)}
        assert len(pages) == 1, viewer


def test_names_are_escaped_in_the_table_in_words_and_the_picture():
    for seat in (0, 3, SPECTATOR, EVERYTHING):
        html = render(mid_game(), seat)
        assert HOSTILE not in html and "<script" not in html
        assert re.search(rf"\n{re.escape(ESCAPED)}( \(you\))?: 4 points;", html)
        assert "Anne &amp; Bob" in html
        svg = GAME.picture(GAME.view(mid_game(), seat), NAMES)
        assert HOSTILE not in svg and "&lt;script&gt;" in svg


@pytest.mark.parametrize("options", [{}, {"legat": True, "tower_order": True}])
def test_every_state_of_a_game_reads(options):
    rng = random.Random(3)
    state = GAME.setup(3, options, 3)
    while True:
        for seat in (0, SPECTATOR, EVERYTHING):
            assert words_read(render(state, seat)).startswith("Tallinn, ")
        if GAME.is_over(state):
            break
        seat = rng.choice(GAME.to_move(state))
        state = GAME.apply(state, seat, rng.choice(GAME.legal_moves(state, seat)))
    words = words_read(render(state, SPECTATOR))
    final = words[words.index("\nFinal scoring:\n"):].splitlines()[2:]
    note = note_lines("en")
    if final[-len(note):] == note:  # the sign's note, when a marked card was shown
        final = final[:-len(note) - 1]
    assert len(final) == 3 and all(line.endswith(" persons)") for line in final), final


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
