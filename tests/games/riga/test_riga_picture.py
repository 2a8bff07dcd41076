"""The picture of a Riga table (pbem/games/riga/picture.py): an SVG drawn from a view.

The views are the engine's own (``GAME.view``) of tables arranged the way a tester
lays out cards: a row with last year's buildings below the separation card, sets,
displays with a used function, a building erected this turn, the faces of a Schule
and a Wechselstube, and hands.  The picture must parse as XML, hold no script and
no outside reference, show what the view says where it says it, never more, read
without colour, escape names and fit a 390-pixel phone.
"""

from __future__ import annotations

import copy
import re
import xml.etree.ElementTree as ET

import pytest
from browser_support import needs_browser, show

from pbem.games.protocol import EVERYTHING, SPECTATOR
from pbem.games.riga import GAME, data
from pbem.games.riga import picture as riga_picture
from pbem.games.riga import words as riga_words

SVG = "{http://www.w3.org/2000/svg}"
HOSTILE = "<script>alert('x')</script> & \x07bell"
NAMES = ["Heike", "Malte", "Jule"]

#: the table these tests lay out: the row oldest first, the first two from last year
ROW = ["Loge-Visby", "Bank-Tallinn", "Archiv-Visby", "Schatzkammer-Danzig",
       "Bauhof-Stockholm", "Markthalle-Visby"]
BELOW = 2
SETS = [["Tuch", "Glas"], ["Getreide", "Getreide", "Wein", "Getreide"], ["Wein", "Wein", "Wein"],
        ["Glas", "Tuch"], ["Getreide", "Tuch", "Getreide"]]


def _started(players: int = 3, riga: bool = True, seed: str = "face") -> dict:
    """A game past its setup: the chooser names seat 0, everyone keeps its first offer."""
    state = GAME.setup(players, {"riga": riga}, seed)
    chooser = GAME.to_move(state)[0]
    state = GAME.apply(state, chooser, "start 1")
    for seat in range(players):
        state = GAME.apply(state, seat, f"keep {state['keep_offer'][seat][0]}")
    assert state["phase"] == "take" and state["current"] == 0
    return state


def arranged() -> dict:
    """Seat 0 in its build phase with a varied display; the table laid out by hand.

    Laid out, not dealt: a view needs no card to be anywhere else, so the cards are
    simply put where the test wants them (the census is TESTS' business)."""
    state = _started()
    state["row"] = list(ROW)
    state["below"] = BELOW
    state["sets"] = [list(s) for s in SETS]
    turn = state["turn"]
    state["display"][0] = [
        {"id": "Festung-Danzig", "built_turn": 0, "used": False, "face": None},
        {"id": "Kontor-Visby", "built_turn": 0, "used": True, "face": None},
        {"id": "Kran-Tallinn", "built_turn": turn, "used": False, "face": None},
        {"id": "Schule", "built_turn": 0, "used": False, "face": "Ritter"},
        {"id": "Wechselstube", "built_turn": 0, "used": False, "face": 8},
    ]
    state["riga_left"][0] = ["Kloster", "Speicher"]
    state["display"][1] = [
        {"id": "Gildenhaus-Stockholm", "built_turn": 0, "used": False, "face": None},
        {"id": "Markthalle-Danzig", "built_turn": 0, "used": False, "face": None},
        {"id": "Speicher", "built_turn": 0, "used": False, "face": None},
    ]
    state["riga_left"][1] = ["Kloster", "Schule", "Wechselstube"]
    state["hand"][0] = {"waren": {"Tuch": 1, "Glas": 0, "Wein": 2, "Getreide": 1},
                        "gebaeude": ["Festung-Visby"]}
    state["hand"][1] = {"waren": {"Tuch": 0, "Glas": 3, "Wein": 0, "Getreide": 2},
                        "gebaeude": ["Loge-Danzig", "Kran-Stockholm"]}
    state["phase"] = "build"
    return state


def played_out(players: int = 2) -> dict:
    """A whole game, every seat playing its default move."""
    state = _started(players, riga=True, seed="end")
    while not GAME.is_over(state):
        seat = GAME.to_move(state)[0]
        state = GAME.apply(state, seat, GAME.default_move(state, seat))
    return state


def picture(state: dict, viewer, names=NAMES, lang: str = "en") -> str:
    return GAME.picture(GAME.view(state, viewer), names[:state["players"]], lang)


def texts(node) -> list[str]:
    return [t.text or "" for t in node.iter(f"{SVG}text")]


def group(svg: str, cls: str, **attrs: str):
    """The ``<g>`` of the picture with class ``cls`` (and the given data attributes)."""
    for g in ET.fromstring(svg).iter(f"{SVG}g"):
        if cls in (g.get("class") or "").split() and all(
                g.get(f"data-{k}") == v for k, v in attrs.items()):
            return g
    return None


def buildings_in(node) -> list[dict]:
    """Each building line under ``node``: its badge letter, name, id, cost, points and
    the four values, in the order drawn (text elements in document order)."""
    found: list[dict] = []
    elements = list(node.iter())
    for i, el in enumerate(elements):
        if el.tag != f"{SVG}text" or el.get("data-id") is None:
            continue
        # the badge: the rect with class "stadt" just before, and its letter
        badge = next(e for e in reversed(elements[:i]) if e.get("class") == "stadt")
        letter = elements[elements.index(badge) + 1].text
        after = [e.text for e in elements[i + 1:] if e.tag == f"{SVG}text"]
        if data.gebaeude(el.get("data-id")).ware:
            after = after[1:]  # the letters of the commodity a Manufactur/Markthalle shows
        found.append({"id": el.get("data-id"), "name": el.text, "stadt": badge.get("data-stadt"),
                      "letter": letter, "cost": after[0], "points": after[1],
                      "values": after[2:6]})
    return found


# -- a document, safe and small enough to read -------------------------------------------


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_picture_is_an_svg_document_without_script_or_outside_references(lang):
    states = [GAME.setup(3, {"riga": True}, "face"), arranged(), played_out()]
    for state in states:
        for viewer in (0, 1, SPECTATOR, EVERYTHING):
            svg = picture(state, viewer, lang=lang)
            root = ET.fromstring(svg)
            assert root.tag == f"{SVG}svg" and svg.startswith("<svg")
            assert root.get("viewBox").startswith("0 0 390 ") and root.get("width") == "390"
            assert root.find(f"{SVG}title").text.startswith("Riga")
            bare = svg.replace('xmlns="http://www.w3.org/2000/svg"', "")
            for word in ("script", "href", "<image", "url(", "http:", "https:", "@import",
                         "foreignObject", "<style"):
                assert word not in bare, (word, state["phase"], viewer)
            assert not any(name.lower().startswith("on") for el in root.iter()
                           for name in el.attrib)  # no event handlers
            # readable on a 390-pixel phone: no text below 9 pixels
            assert min(int(t.get("font-size")) for t in root.iter(f"{SVG}text")) >= 9


def test_the_picture_is_a_pure_function_of_the_view():
    state = arranged()
    view = GAME.view(state, 0)
    before = copy.deepcopy(view)
    assert GAME.picture(view, NAMES) == GAME.picture(copy.deepcopy(view), list(NAMES))
    assert view == before  # the view is read, never changed


# -- what the view says, where it says it -----------------------------------------------


def test_the_row_newest_first_with_city_cost_points_and_values_and_the_separation_card():
    state = arranged()
    svg = picture(state, 0)
    row = group(svg, "row")
    lines = buildings_in(row)
    assert [b["id"] for b in lines] == list(reversed(ROW))
    for b in lines:
        card = data.gebaeude(b["id"])
        assert b["name"] == card.art and b["stadt"] == card.stadt
        assert b["letter"] == card.stadt[0]  # V, T, S, D: the city without its colour
        assert (b["cost"], b["points"]) == (str(card.kosten), str(card.punkte))
        assert b["values"] == ["–" if data.STADTWERT[card.stadt][w] is None
                               else str(data.STADTWERT[card.stadt][w]) for w in data.WAREN]
    # the separation card lies between this year's buildings and last year's two
    order = [t.get("data-id") or ("SEPARATION" if t.get("class") == "separation" else None)
             for t in row.iter(f"{SVG}text")]
    order = [x for x in order if x]
    assert order == list(reversed(ROW[BELOW:])) + ["SEPARATION"] + list(reversed(ROW[:BELOW]))


def test_a_value_above_the_regular_one_is_boxed_and_bold_not_only_coloured():
    svg = picture(arranged(), 0)
    row = group(svg, "row")
    line = next(b for b in buildings_in(row) if b["id"] == "Markthalle-Visby")
    assert line["values"] == ["–", "4", "5", "2"]  # Wein 5 in Visby, Tuch refused
    bold = [t.text for t in row.iter(f"{SVG}text") if t.get("font-weight") == "bold"
            and t.text and t.text.isdigit() and t.get("font-size") == "12"]
    assert "5" in bold and "4" not in bold[:1]
    # a box drawn for each higher value: Wein 5 in Visby, Korn 4 in Tallinn, ...
    boxes = [r for r in row.iter(f"{SVG}rect") if r.get("width") == "22"]
    higher = sum(1 for b in ROW for w in data.WAREN
                 if (data.STADTWERT[data.gebaeude(b).stadt][w] or 0) > data.WERT[w])
    assert len(boxes) == higher


def test_the_sets_are_numbered_as_the_notation_counts_them_with_their_ducats():
    svg = picture(arranged(), 0)
    sets = group(svg, "sets")
    words = texts(sets)
    for k, cards in enumerate(SETS, start=1):
        assert f"{k}." in words
        value = sum(data.WERT[w] for w in cards)
        assert f"= {value}" in words
    assert words[0] == "Commodity sets (in ducats)"
    drawn = [el.get("data-ware") for el in sets.iter() if el.get("class") == "ware"]
    assert drawn == [w for s in SETS for w in s]


def test_each_seat_shows_points_counts_knights_merchants_and_its_display():
    state = arranged()
    view = GAME.view(state, 0)
    svg = GAME.picture(view, NAMES)
    for entry in view["seats"]:
        seat = group(svg, "seat", seat=str(entry["seat"]))
        words = texts(seat)
        assert f"{entry['points']} pts" in words
        status = " ".join(words)
        assert f"hand {entry['hand_count']}:" in status
        assert f"knights {entry['ritter']} · merchants {entry['kaufleute']}" in status
    me = group(svg, "seat", seat="0")
    words = texts(me)
    assert "Heike (you)" in words and "◀ to move" in words
    assert "Festung" in words and "Schule (Ritter)" in words and "Wechselstube 8" in words
    # a used function: struck through and said in words; a building of this turn: "new"
    kontor = next(t for t in me.iter(f"{SVG}text") if t.text == "Kontor")
    assert kontor.get("text-decoration") == "line-through"
    assert "· used" in words and "· new" in words
    assert "Riga, face down: Kloster, Speicher" in words
    other = texts(group(svg, "seat", seat="1"))
    assert "Malte" in other and "Start" not in other  # seat 0 is the start player
    assert "Start" in words
    assert any("hand limit 8" in w for w in other)  # Malte's Speicher


def test_only_the_viewers_own_hand_is_drawn():
    state = arranged()
    mine = picture(state, 0)
    own = group(mine, "hand")
    assert own is not None and "own" in own.get("class")
    assert [el.get("data-ware") for el in own.iter() if el.get("class") == "ware"][:3] == \
        ["Tuch", "Wein", "Getreide"]
    assert "× 2" in texts(own) and [b["id"] for b in buildings_in(own)] == ["Festung-Visby"]
    for viewer in (1, SPECTATOR):
        svg = picture(state, viewer)
        assert "Festung-Visby" not in svg
    assert "Your hand" not in texts(ET.fromstring(picture(state, SPECTATOR)))
    theirs = group(picture(state, 1), "hand")  # seat 1 sees its own hand, and only that
    assert [b["id"] for b in buildings_in(theirs)] == ["Kran-Stockholm", "Loge-Danzig"]
    # what seat 0 holds changes nothing in what seat 1 or a spectator sees
    other = copy.deepcopy(state)
    other["hand"][0] = {"waren": {"Tuch": 0, "Glas": 4, "Wein": 0, "Getreide": 0},
                        "gebaeude": ["Bank-Danzig"]}
    for viewer in (1, 2, SPECTATOR):
        assert picture(state, viewer) == picture(other, viewer)
    # the archive sees every hand
    everything = picture(state, EVERYTHING)
    assert group(everything, "hand") is not None
    assert "Hand of Malte" in texts(ET.fromstring(everything))


def test_the_setup_shows_what_each_revealed_and_only_the_viewers_own_offer():
    state = GAME.setup(3, {"riga": True}, "face")
    chooser = GAME.to_move(state)[0]
    state = GAME.apply(state, chooser, "start 1")
    assert state["phase"] == "keep"
    svg = picture(state, 1)
    root = ET.fromstring(svg)
    assert texts(root)[0] == "Riga · setting up · 9 years to play"
    for seat in range(3):
        drawn = [el.get("data-ware") for el in group(svg, "seat", seat=str(seat)).iter()
                 if el.get("class") == "ware"]
        assert drawn == state["revealed"][seat]
    keep = group(svg, "keep")
    assert [b["id"] for b in buildings_in(keep)] == state["keep_offer"][1]
    assert group(picture(state, SPECTATOR), "keep") is None
    for ident in state["keep_offer"][0]:
        if ident not in state["keep_offer"][1]:
            assert f'data-id="{ident}"' not in svg


def test_the_end_shows_the_final_scoring():
    state = played_out()
    svg = picture(state, SPECTATOR)
    words = texts(ET.fromstring(svg))
    assert words[0] == "Riga · game over after 8 years"
    final = group(svg, "final")
    assert final is not None
    lines = texts(final)
    assert lines[0] == "Final scoring"
    for seat, f in enumerate(state["final"]):
        assert NAMES[seat] in lines and f"{f['total']} pts" in lines
        assert any(line.startswith(f"buildings {f['seals']}") for line in lines)
    assert "◀ to move" not in words


def test_the_picture_in_german():
    state = arranged()
    state["season"] = "autumn"
    svg = picture(state, 0, lang="de")
    words = texts(ET.fromstring(svg))
    assert words[0] == f"Riga · Jahr {state['year']} von 9 · Herbst"
    assert "Heike (du)" in words and "◀ am Zug" in words
    assert "Ko" in words  # Getreide by its printed name, Korn
    assert "Tu Tuch 5 · Gl Glas 4 · We Wein 3 · Ko Korn 2 (Grundwert)" in words
    assert "V Visby · T Tallinn · S Stockholm · D Danzig · R Riga-Gebäude" in words
    assert "Gebäude zur Auswahl" in words and "Deine Hand" in words
    assert "Warenreihen (in Dukaten)" in words and "= 9" in words
    assert "· genutzt" in words


# -- read without colour ---------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "de"])
def test_every_commodity_and_city_carries_letters_and_a_shape_not_only_a_colour(lang):
    svg = picture(arranged(), EVERYTHING, lang=lang)
    elements = list(ET.fromstring(svg).iter())
    letters = riga_picture.WARE_LETTERS[lang]
    assert len(set(letters.values())) == 4 and len(set(riga_picture.WARE_SHAPE.values())) == 4
    wares = [i for i, el in enumerate(elements) if el.get("class") == "ware"]
    assert len(wares) > 20
    for i in wares:
        ware = elements[i].get("data-ware")
        assert elements[i + 1].tag == f"{SVG}text" and elements[i + 1].text == letters[ware]
    badges = [i for i, el in enumerate(elements) if el.get("class") == "stadt"]
    for i in badges:
        stadt = elements[i].get("data-stadt")
        assert elements[i + 1].text == riga_picture.STADT_LETTER[stadt]
    assert len({riga_picture.STADT_LETTER[s] for s in (*data.STAEDTE, data.RIGA)}) == 5


# -- names ---------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "de"])
def test_names_are_escaped_shortened_and_stripped_of_what_xml_forbids(lang):
    state = arranged()
    names = [HOSTILE, "Maximiliane-Wilhelmine von Hohenzollern-Sigmaringen", "{0} & {1}"]
    for viewer in (0, 1, SPECTATOR, EVERYTHING):
        svg = picture(state, viewer, names, lang)
        assert "<script" not in svg and "&lt;script&gt;" in svg
        words = texts(ET.fromstring(svg))  # parses: the bell is gone, the ampersand escaped
        assert "\x07" not in "".join(words)
        assert not any("Maximiliane-Wilhelmine von Hohenzollern-Sigmaringen" in w
                       for w in words)
        assert any(w.startswith("Maximiliane-Wilhelmine") and "…" in w for w in words)
        assert any(w.startswith("{0} & {1}") for w in words)  # a name is never a template


# -- in a browser: it fits a phone and nothing is drawn over anything else -------------------


@needs_browser
@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_picture_fits_390_pixels_and_no_text_overlaps_another(lang, tab):
    long_names = ["Maximiliane-Wilhelmine von Hohenzollern-Sigmaringen",
                  "Bartholomäus Friedrichsen", "Jo"]
    svgs = [picture(arranged(), viewer, long_names, lang) for viewer in (0, 1, EVERYTHING)]
    svgs.append(picture(played_out(), SPECTATOR, long_names, lang))
    svgs.append(picture(GAME.setup(4, {"riga": True}, "four"), 2, long_names + ["Ann"], lang))
    page = show(tab, "", 390, 800)  # a new document, 390 pixels wide
    for svg in svgs:
        page.set_content(f"<body style='margin:0'>{svg}</body>")
        found = page.evaluate("""() => {
            const boxes = [...document.querySelectorAll('svg text')].map(t => {
                const r = t.getBoundingClientRect();
                return [t.textContent, r.left, r.top, r.right, r.bottom];
            });
            const outside = boxes.filter(b => b[1] < 0 || b[3] > 390);
            const over = [];
            for (let i = 0; i < boxes.length; i++)
                for (let j = i + 1; j < boxes.length; j++) {
                    const a = boxes[i], b = boxes[j];
                    const w = Math.min(a[3], b[3]) - Math.max(a[1], b[1]);
                    const h = Math.min(a[4], b[4]) - Math.max(a[2], b[2]);
                    if (w > 1.5 && h > 3) over.push([a[0], b[0]]);
                }
            return {outside, over, width: document.querySelector('svg')
                .getBoundingClientRect().width};
        }""")
        assert found["width"] <= 390
        assert not found["outside"], found["outside"]
        assert not found["over"], found["over"]


def test_no_text_in_the_picture_is_wider_than_a_line_allows():
    """Without a browser: each text's characters at its size fit in 390 units."""
    for lang in ("en", "de"):
        svg = picture(arranged(), EVERYTHING,
                      ["Maximiliane-Wilhelmine von Hohenzollern-Sigmaringen"] * 3, lang)
        for t in ET.fromstring(svg).iter(f"{SVG}text"):
            size = int(t.get("font-size"))
            x = float(t.get("x"))
            if t.get("text-anchor") == "start":
                # an average character of DejaVu Sans, the widest of the fonts named
                assert x + riga_picture.EM * size * len(t.text or "") <= 390, t.text
            assert re.fullmatch(r"\d+", t.get("font-size"))


def drawing(kind: str = "Bauhof") -> dict:
    """Seat 0 in the middle of its Bauhof or Schatzkammer draw."""
    state = arranged()
    state["display"][0].append({"id": f"{kind}-Visby", "built_turn": 0, "used": False,
                                "face": None})
    state = GAME.apply(state, 0, f"use {kind}")
    assert state["pending_draw"]["kind"] == kind
    return state


def test_a_private_draw_is_drawn_for_its_drawer_alone():
    state = drawing("Bauhof")
    cards = state["pending_draw"]["cards"]
    svg = picture(state, 0)
    assert [b["id"] for b in buildings_in(group(svg, "draw"))] == cards
    for viewer in (1, SPECTATOR):
        other = picture(state, viewer)
        assert group(other, "draw") is None
        assert "Heike is drawing with the Bauhof" in texts(ET.fromstring(other))
        for ident in cards:
            if ident not in ROW:
                assert f'data-id="{ident}"' not in other
    state = drawing("Schatzkammer")
    drawn = [el.get("data-ware") for el in group(picture(state, 0), "draw").iter()
             if el.get("class") == "ware"]
    assert drawn == state["pending_draw"]["cards"]
    assert group(picture(state, 2), "draw") is None


def test_the_project_in_progress_is_public_with_its_paid_cards():
    state = arranged()
    state = GAME.apply(state, 0, "build Festung-Visby")
    state = GAME.apply(state, 0, "pay Wein")
    for viewer, who in ((0, "You are"), (1, "Heike is"), (SPECTATOR, "Heike is")):
        project = group(picture(state, viewer), "project")
        words = texts(project)
        assert words[0] == f"{who} building Festung (Visby) · cost 9, paid 5"
        assert [el.get("data-ware") for el in project.iter() if el.get("class") == "ware"] \
            == ["Wein"]


def test_both_languages_have_every_label():
    assert set(riga_words.EN["picture"]) == set(riga_words.DE["picture"])
