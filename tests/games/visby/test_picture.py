"""The picture of a Visby table (pbem/games/visby/picture.py): an SVG drawn from a view."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from pbem.games.protocol import EVERYTHING, SPECTATOR
from pbem.games.svg import Canvas
from pbem.games.visby import GAME, picture
from pbem.games.visby.rules import amount

SVG = "{http://www.w3.org/2000/svg}"
HOSTILE = "<script>alert('x')</script> & \x07bell"


def texts(svg: str) -> list[str]:
    return [t.text or "" for t in ET.fromstring(svg).iter(f"{SVG}text")]


def trade_state():
    state = GAME.setup(3, None, "picture")
    state["tracks"]["Markt"] = 11
    for seat, cards in enumerate([["Kaufmann", "Schiff"], ["Kaufmann", "Ritter"],
                                  ["Flotte", "Zöllner"]]):
        for card in cards:
            state = GAME.apply(state, seat, f"play {card}")
    assert state["phase"] == "trade"
    return state


def test_a_picture_is_an_svg_document_without_script_or_outside_references():
    state = trade_state()
    for viewer in (0, 2, SPECTATOR, EVERYTHING):
        svg = GAME.picture(GAME.view(state, viewer), ["Heike", "Malte", "Jule"])
        root = ET.fromstring(svg)
        assert root.tag == f"{SVG}svg" and svg.startswith("<svg")
        assert root.get("viewBox").startswith("0 0 390 ")
        for word in ("script", "href", "<image", "url(", "http:", "https:", "@import"):
            assert word not in svg.replace('xmlns="http://www.w3.org/2000/svg"', ""), word
        # readable on a 390-pixel phone: no text below 9 pixels
        assert min(int(t.get("font-size")) for t in root.iter(f"{SVG}text")) >= 9


def test_the_picture_shows_tracks_rates_seats_revealed_cards_and_who_is_pending():
    state = trade_state()
    view = GAME.view(state, 0)
    lines = texts(GAME.picture(view, ["Heike", "Malte", "Jule"]))
    t = view["tracks"]
    assert f"Feldzug: {amount(t['Feldzug'], 'seal')} for Truppen, Ritter" in lines
    assert f"Handelsfahrt: {amount(t['Handelsfahrt'], 'goods')} for Flotte, Schiff" in lines
    assert f"Markt: purse on field {view['kurs_feld']}, rate {view['kurs']} goods:seals" in lines
    assert ["–", "4:1", "4:1", "3:1"] == [x for x in lines if ":" in x or x == "–"][3:7]
    for entry in view["seats"]:
        assert amount(entry["seals"], "seal") in lines
        assert amount(entry["goods"], "goods") in lines
    assert "revealed in round 1: Schiff, Kaufmann" in lines
    assert "revealed in round 1: Flotte, Zöllner" in lines
    assert "Heike (you)" in lines
    assert lines.count("trading") == 2
    assert "Still trading: Heike, Malte" in lines


def test_the_picture_in_german():
    state = GAME.apply(GAME.setup(2, None, "picture"), 1, "play Ritter")
    lines = texts(GAME.picture(GAME.view(state, 1), ["Heike", "Malte"], "de"))
    assert "Visby · Durchgang 1 · bis 30 Siegel" in lines
    assert "wählt (0 von 2)" in lines and "wählt (1 von 2)" in lines
    assert "Malte (du)" in lines
    assert "Wählen noch: Heike, Malte" in lines
    assert "2 Waren" in lines and "0 Siegel" in lines


def test_a_pending_choice_does_not_show_in_the_picture():
    base = GAME.setup(4, None, "picture")
    for viewer in (0, 2, SPECTATOR):
        pictures = {GAME.picture(GAME.view(GAME.apply(base, 1, f"play {card}"), viewer),
                                 ["A", "B", "C", "D"])
                    for card in ("Kaufmann", "Zöllner", "Bettelmönch")}
        assert len(pictures) == 1
        lines = texts(pictures.pop())
        if viewer == SPECTATOR:  # a seated viewer sees the cards of their own hand
            seen = "".join(lines)
            assert not any(card in seen for card in ("Kaufmann", "Zöllner", "Bettelmönch"))
        assert "chosen" not in lines, "no card is marked as chosen"


def test_the_viewer_sees_their_own_hand_and_their_own_choice_marked():
    state = GAME.apply(GAME.setup(4, None, "picture"), 1, "play Zöllner")
    own = GAME.picture(GAME.view(state, 1), ["A", "B", "C", "D"])
    lines = texts(own)
    assert lines.count("chosen") == 1 and lines[lines.index("chosen") - 1] == "Zöllner"
    assert '<g data-region="Zöllner"><title>chosen: Zöllner: ' in own
    assert '<g data-region="Ritter"><title>Ritter: ' in own


@pytest.mark.parametrize("lang", ["en", "de"])
def test_names_are_escaped_shortened_and_stripped_of_what_xml_forbids(lang):
    state = GAME.setup(2, None, "picture")
    names = [HOSTILE, "Maximiliane Friederike von und zu Hohenlohe"]
    svg = GAME.picture(GAME.view(state, SPECTATOR), names, lang)
    assert "<script" not in svg and "&lt;script&gt;" in svg
    lines = texts(svg)  # parses: the bell character is gone, the ampersand escaped
    assert "<script>alert('x')</script> & bell"[:21] + "…" in lines
    assert "Maximiliane Friederik…" in lines


def test_the_end_shows_final_seals():
    state = GAME.setup(2, None, "picture")
    state["seals"] = [29, 1]
    state["goods"] = [7, 2]
    for seat in (0, 1):
        state = GAME.apply(state, seat, "play Truppen")
        state = GAME.apply(state, seat, "play Zöllner")
    assert GAME.is_over(state)
    lines = texts(GAME.picture(GAME.view(state, EVERYTHING), ["Heike", "Malte"]))
    assert "Visby · round 1 · game over" in lines
    assert "final 33 seals" in lines  # 31 seals + 7 goods // 3
    assert not any(line.startswith("Still") for line in lines)


@pytest.mark.parametrize(("x", "y", "content"), [(12, 20, "Visby · round 3"),
                                                 (23.0, 71, HOSTILE), (55.5, -4, "")])
def test_labels_and_boxes_are_written_as_the_canvas_writes_them(x, y, content):
    # the picture writes its texts and boxes in styles written once (``picture._label``,
    # ``_box``): as the canvas writes them from their attributes
    ours, canvas = Canvas(numbers="str"), Canvas(numbers="str")
    picture._label(ours, x, y, content, size=11, weight="700", fill=picture.MUTED,
                   anchor="end")
    canvas.text(x, y, content, font_size=11, font_weight="700", fill=picture.MUTED,
                text_anchor="end")
    picture._box(ours, x, y, 22, 8.5, "#ffffff", picture.LINE, 2)
    canvas.rect(x, y, 22, 8.5, fill="#ffffff", stroke=picture.LINE, stroke_width=2)
    assert ours.markup() == canvas.markup()
