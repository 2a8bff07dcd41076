"""The picture of a Macao table (pbem/games/macao/picture.py): an SVG drawn from a view."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from macao_helpers import at_actions, card

from pbem.games.macao import GAME, data, rules
from pbem.games.macao.picture import NAME_MAX, seat_letters
from pbem.games.macao.words import words
from pbem.games.protocol import EVERYTHING, SPECTATOR

SVG = "{http://www.w3.org/2000/svg}"
HOSTILE = "<script>alert('x')</script> & \x07bell"
NAMES = ["Heike", "Malte"]


def texts(node: ET.Element) -> list[str]:
    return [t.text or "" for t in node.iter(f"{SVG}text")]


def group(root: ET.Element, attr: str, value: object) -> ET.Element:
    found = [g for g in root.iter(f"{SVG}g") if g.get(f"data-{attr}") == str(value)]
    assert len(found) == 1, (attr, value)
    return found[0]


def table():
    """Round 1's action phase with a few things on the table."""
    s, seat = at_actions(2, "picture")
    other = 1 - seat
    s["city"]["7"] = seat
    s["tiles"].pop("7")
    s["city"]["9"] = other
    s["tiles"].pop("9")
    s["wall"] = [[], [], [other, seat]] + [[] for _ in range(13)]
    s["seats"][seat].update(ship="Lisboa", goods=["Tee"], pp=17, gold=4,
                            rose=[{"r": 2, "v": 1}, {}, {"k": 3}, {}, {}, {}, {}],
                            tableau=[card("Festung")], active=[card("Tor")])
    s["seats"][other].update(ship="N2", pp=9)
    s["harbours"]["Lisboa"] = [other, seat, None]
    return s, seat, other


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_picture_is_an_svg_document_without_script_or_outside_references(lang):
    s, _, _ = table()
    for viewer in (0, 1, SPECTATOR, EVERYTHING):
        svg = GAME.picture(GAME.view(s, viewer), NAMES, lang)
        root = ET.fromstring(svg)
        assert root.tag == f"{SVG}svg" and svg.startswith("<svg")
        assert root.get("viewBox").startswith("0 0 390 ")
        for word in ("script", "href", "<image", "url(", "http:", "https:", "@import",
                     "<style", "on"+"load", "foreignObject"):
            assert word not in svg.replace('xmlns="http://www.w3.org/2000/svg"', ""), word
        # readable on a 390-pixel phone: no text below 9 units, nothing beyond the width
        assert min(float(t.get("font-size")) for t in root.iter(f"{SVG}text")) >= 9
        for node in root.iter():
            for attr in ("x", "cx"):
                if node.get(attr) is not None:
                    assert 0 <= float(node.get(attr)) <= 390, (node.tag, node.attrib)


def test_owners_markers_and_tiles_in_their_districts():
    s, seat, other = table()
    root = ET.fromstring(GAME.picture(GAME.view(s, seat), NAMES))
    marks = seat_letters(NAMES, 2)
    assert marks == ["H", "M"]
    assert marks[seat] in texts(group(root, "district", 7))
    assert marks[other] in texts(group(root, "district", 9))
    english = {"Lackwaren": "lacquer", "Reis": "rice", "Tee": "tea", "Jade": "jade",
               "Seide": "silk", "Papier": "paper", "Porzellan": "porcelain",
               "Gewürze": "spices", "Joker": "Joker"}
    for d in (1, 2, 3, 5):
        shown = texts(group(root, "district", d))
        assert shown[:2] == [str(d), english[s["tiles"][str(d)]]]
        # the district's cost, one lettered cube per cube (never colour alone)
        assert [x for x in shown if x in words("en")["letter"].values()] == [
            words("en")["letter"][c] for c in data.DISTRICT_COST[d]]
    assert s["tiles"]["5"] == "Joker"                       # a dark district not yet taken


def test_wall_stacks_top_first_ships_harbour_spaces_and_scores():
    s, seat, other = table()
    root = ET.fromstring(GAME.picture(GAME.view(s, seat), NAMES))
    marks = seat_letters(NAMES, 2)
    stack = texts(group(root, "wall", 3))
    assert stack == ["3", marks[seat], marks[other]]          # the later disc lies on top
    assert texts(group(root, "wall", 1)) == ["1"]
    assert marks[seat] in texts(group(root, "field", "Lisboa"))
    assert marks[other] in texts(group(root, "field", "N2"))
    assert marks[seat] not in texts(group(root, "field", "Anker"))
    lisboa = texts(group(root, "harbour", "Lisboa"))
    assert lisboa[:2] == ["Lisboa", "rice"]
    assert [x for x in lisboa if x in marks] == [marks[other], marks[seat]]
    assert lisboa.count("free") == 1
    assert texts(group(root, "harbour", "London")).count("free") == 3
    assert "17 PP" in texts(group(root, "score", seat))
    assert "Heike (you)" in texts(group(root, "score", seat)) or seat == 1


def test_the_viewers_wind_rose_by_die_field_and_tableau():
    s, seat, _ = table()
    root = ET.fromstring(GAME.picture(GAME.view(s, seat), NAMES))
    panel = texts(group(root, "panel", seat))
    assert "supply" in panel and "×2" in panel and "×3" in panel
    assert {"R", "V", "K"} <= set(panel)
    assert "Festung (fortress)" in panel and "Tor (gate)" in panel
    german = ET.fromstring(GAME.picture(GAME.view(s, seat), NAMES, "de"))
    panel = texts(group(german, "panel", seat))
    assert "Vorrat" in panel and "Festung" in panel and "S" in panel   # S for schwarz
    assert "Macao · Runde 1/12 · Aktionen" in texts(german)


def test_the_round_tribute_dice_and_legends():
    s, seat, _ = table()
    s["tribute"] = [3, 6]
    root = ET.fromstring(GAME.picture(GAME.view(s, seat), NAMES))
    lines = texts(root)
    assert "Macao · Round 1/12 · actions" in lines
    assert any(x.startswith("Tribute: 3 gold → 6 PP") for x in lines)
    # the cube legend: each colour a lettered cube and its name
    assert texts(group(root, "region", "cubes r")) == ["R", "red"]
    assert texts(group(root, "region", "cubes y")) == ["Gy", "grey"]
    assert any(x.startswith("Players: H = Heike (") for x in lines)


def test_seats_with_one_initial_get_numbers():
    assert seat_letters(["Anna", "anton", "Bea"], 3) == ["1", "2", "3"]
    assert seat_letters(["Anna", "Bea"], 2) == ["A", "B"]
    assert seat_letters(["&x", "Bea"], 2) == ["1", "2"]


@pytest.mark.parametrize("lang", ["en", "de"])
def test_names_are_escaped_shortened_and_stripped_of_what_xml_forbids(lang):
    s, seat, other = table()
    names = [HOSTILE, "Maximiliane Friederike von und zu Hohenlohe"]
    svg = GAME.picture(GAME.view(s, SPECTATOR), names, lang)
    assert "<script" not in svg and "&lt;script&gt;" in svg
    lines = texts(ET.fromstring(svg))   # parses: the bell is gone, the ampersand escaped
    assert "<script>alert('x')</script> & bell"[:NAME_MAX - 1] + "…" in lines
    assert "Maximiliane Fried…" in lines


def test_the_end_shows_final_scores():
    s, _, _ = table()
    s["round"] = data.ROUNDS
    s["queue"] = rules.wall_order(s)
    while not GAME.is_over(s):
        s = GAME.apply(s, GAME.to_move(s)[0], "end")
    lines = texts(ET.fromstring(GAME.picture(GAME.view(s, EVERYTHING), NAMES)))
    assert "Macao · Round 12/12 · game over" in lines
    for seat in (0, 1):
        assert any(x.endswith(f"final {s['final'][seat]['total']}") for x in lines)


def test_the_title_is_the_alt_text_in_the_readers_language():
    from pbem.mail.picture import alt_text
    s, seat, _ = table()
    assert alt_text(GAME.picture(GAME.view(s, seat), NAMES, "de"), "x") == (
        "Macao · Runde 1/12 · Aktionen")
    assert alt_text(GAME.picture(GAME.view(s, seat), NAMES), "x") == (
        "Macao · Round 1/12 · actions")
