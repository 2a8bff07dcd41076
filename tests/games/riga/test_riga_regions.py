"""Riga's picture is the board one plays on (issue 22): every choice of the menu names a
place of the picture (``menu.region_of``), and the picture, given the seat page's links,
draws each such place as a link framed as a place to tap; every building carries its
card's help, in the reader's language; another seat's hidden cards never become places.

Without a browser: the pictures are parsed as XML.  ``tests/web/test_tap_riga.py``
plays a turn by tapping them in chromium.
"""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET
from collections import Counter

import pytest

from pbem.games.protocol import EVERYTHING
from pbem.games.riga import GAME, data
from pbem.games.riga.menu import STRIP

SVG = "{http://www.w3.org/2000/svg}"
NAMES = ["Heike", "Malte", "Jule", "Ole"]


def links_of(state: dict, seat: int, lang: str = "en") -> dict[str, str]:
    """The links the seat page gives the picture: one per place the menu names."""
    regions = sorted({c.region for c in GAME.menu(state, seat, lang)})
    return {region: f"/tap/{i}" for i, region in enumerate(regions)}


def drawn(state: dict, seat, links: dict[str, str] | None = None, lang: str = "en"):
    svg = GAME.picture(GAME.view(state, seat), NAMES[:state["players"]], lang, links)
    return svg, ET.fromstring(svg)


def linked(root) -> list[ET.Element]:
    return [a for a in root.iter(f"{SVG}a") if "target" in (a.get("class") or "").split()]


def regions(root) -> set[str]:
    return {e.get("data-region") for e in root.iter() if e.get("data-region")}


def kind(region: str) -> str:
    """``set 2 Tuch`` → "set ware", ``hand Tuch`` → "hand", ``menu row`` → "menu"."""
    words = region.split()
    return "set ware" if words[0] == "set" and len(words) == 3 else words[0]


def check(state: dict, seat: int) -> list[str]:
    """The places of ``seat``'s menu are all drawn as their links, framed, never one
    link inside another; returns the places."""
    menu = GAME.menu(state, seat)
    assert all(c.region for c in menu), [c.move for c in menu if not c.region]
    assert [c.region for c in GAME.menu(state, seat, "de")] == [c.region for c in menu]
    links = links_of(state, seat)
    svg, root = drawn(state, seat, links)
    anchors = linked(root)
    assert {a.get("href") for a in anchors} == set(links.values()), \
        sorted(set(links) - {a.get("data-region") for a in anchors})
    for a in anchors:
        assert links[a.get("data-region")] == a.get("href")
        assert not list(a.iter(f"{SVG}a"))[1:], f"a link inside {a.get('data-region')}"
        [frame] = [r for r in a.iter(f"{SVG}rect") if r.get("class") == "target-mark"]
        assert float(frame.get("height")) >= 22, a.get("data-region")  # a finger's room
    assert 'role="img"' not in svg[:300]  # its links are read, not hidden as one image
    return [c.region for c in menu]


def random_states(seed: int, players: int, riga: bool):
    """The states of one game of seeded random moves, with the seat to move."""
    rng = random.Random(seed)
    state = GAME.setup(players, {"riga": riga}, f"regions {seed}")
    while not GAME.is_over(state):
        seat = rng.choice(GAME.to_move(state))
        yield state, seat
        state = GAME.apply(state, seat, rng.choice(GAME.legal_moves(state, seat)))


def test_every_place_a_move_acts_on_is_a_framed_link_in_the_picture():
    """Checked at every 20th step and wherever a kind of place shows for the first time
    (drawing every state of three games would take a minute)."""
    kinds: Counter[str] = Counter()
    for seed, players, riga in ((0, 2, True), (1, 3, False), (2, 4, True)):
        for step, (state, seat) in enumerate(random_states(seed, players, riga)):
            here = {kind(c.region) for c in GAME.menu(state, seat)}
            if step % 20 == 0 or here - set(kinds):
                kinds.update(kind(r) for r in check(state, seat))
    # each kind of place was tapped at least once: a set and a card of it (the Kloster),
    # a building of the row, the keep offer, the hand, the display, the Riga buildings,
    # the project, a draw, a seat, and the strip of steps (end, cancel, keep none, back)
    assert {"seat", "keep", "row", "set", "set ware", "hand", "own", "riga", "project",
            "draw", "end", "cancel", "none", "back"} <= set(kinds), kinds


def test_the_strip_of_steps_is_drawn_only_on_the_seat_page():
    """End, cancel, a menu page: the places of steps that act on no card are drawn where
    the page links them, and a mail's picture (no links) stays as it was."""
    state = _build_phase()
    assert "end" in {c.region for c in GAME.menu(state, 0)}
    with_links, root = drawn(state, 0, links_of(state, 0))
    assert "end" in regions(root)
    end = next(a for a in linked(root) if a.get("data-region") == "end")
    assert end.find(f"{SVG}title").text == "End turn"
    plain, root = drawn(state, 0)
    assert "end" not in regions(root) and not linked(root)
    assert 'role="img"' in plain


def _build_phase(seed: str = "tap") -> dict:
    """Seat 0 after taking set 1, in its build phase (a Manufactur to build)."""
    state = GAME.setup(2, {}, seed)
    state = GAME.apply(state, GAME.to_move(state)[0], "start 1")
    for seat in range(2):
        state = GAME.apply(state, seat, f"keep {state['keep_offer'][seat][0]}")
    return GAME.apply(state, 0, "take set 1")


def test_a_payment_is_tapped_step_by_step_on_the_hand_and_the_project():
    """Build: the hand's building; pay: the hand's commodity; erect: the project."""
    state = _build_phase()
    [build] = [c for c in GAME.menu(state, 0) if c.move.startswith("build")]
    assert build.region == "hand " + build.move.split()[1]
    state = GAME.apply(state, 0, build.move)
    while not any(c.move == "finish" for c in GAME.menu(state, 0)):
        pays = [c for c in GAME.menu(state, 0) if c.move.startswith("pay")]
        assert pays and all(c.region == "hand " + c.move.split()[1] for c in pays)
        assert "cancel" in check(state, 0)
        state = GAME.apply(state, 0, pays[0].move)
    [finish] = [c for c in GAME.menu(state, 0) if c.move == "finish"]
    assert finish.region == "project" and "project" in check(state, 0)


def test_another_seats_hidden_cards_never_become_places():
    """The keep offer, a hand and a draw are the viewer's own places only: a seat's
    picture, given every link its rival's menu names, draws none of the rival's cards."""
    state = GAME.setup(3, {"riga": True}, "secret")
    state = GAME.apply(state, GAME.to_move(state)[0], "start 1")
    assert state["phase"] == "keep"
    rival_links = links_of(state, 0)
    assert any(r.startswith("keep ") for r in rival_links)
    _, root = drawn(state, 1, rival_links)
    own = {f"keep {b}" for b in state["keep_offer"][1]}
    assert {r for r in regions(root) if r.startswith("keep ")} <= own
    assert not linked(root) or all(a.get("data-region") in own for a in linked(root))
    # later: seat 0's hand and a Bauhof draw are places in seat 0's picture alone
    state = _build_phase("secret hand")
    state["display"][0].append({"id": "Bauhof-Visby", "built_turn": -1, "used": False,
                                "face": None})
    state = GAME.apply(state, 0, "use Bauhof")
    assert state["pending_draw"]["kind"] == "Bauhof"
    rival_links = links_of(state, 0)
    assert any(r.startswith("draw ") for r in rival_links)
    for viewer in (1, None):
        _, root = drawn(state, viewer, rival_links)
        # only the strip's steps (keep none) could show: they name no card
        assert {a.get("data-region") for a in linked(root)} <= set(STRIP), viewer
        assert not {r for r in regions(root) if r.startswith("draw ")}, viewer
        own = set() if viewer is None else {f"hand {c}" for c in state["hand"][viewer][
            "gebaeude"]} | {f"hand {w}" for w, k in state["hand"][viewer]["waren"].items() if k}
        assert {r for r in regions(root) if r.startswith("hand ")} == own, viewer
    # the archive sees every hand and draw, each under its seat's number, never as the
    # viewer's own
    _, root = drawn(state, EVERYTHING, rival_links)
    assert {a.get("data-region") for a in linked(root)} <= set(STRIP)
    for place in ("hand ", "draw "):
        found = {r for r in regions(root) if r.startswith(place)}
        assert found and all(r.split()[1].isdigit() for r in found), found


@pytest.mark.parametrize("lang", ["en", "de"])
def test_every_building_and_commodity_carries_its_help_in_the_readers_language(lang):
    state = _build_phase()
    _, root = drawn(state, 0, links_of(state, 0, lang), lang)
    titles = {e.get("data-region"): e.find(f"{SVG}title").text for e in root.iter()
              if e.get("data-region") and e.find(f"{SVG}title") is not None}
    for b in state["row"]:
        assert titles[f"row {b}"].endswith(data.help_line(b, lang)), titles[f"row {b}"]
    for b in state["hand"][0]["gebaeude"]:
        assert titles[f"hand {b}"].endswith(data.help_line(b, lang))
    tuch = [r for r in titles if r.startswith("set ") and r.endswith(" Tuch")]
    assert tuch, titles
    assert titles[tuch[0]] == {"en": "Tuch: regular value 5",
                               "de": "Tuch: Grundwert 5"}[lang]
    assert titles["end"] == {"en": "End turn", "de": "Zug beenden"}[lang]
    if lang == "de":
        help_de, help_en = (data.help_line(state["row"][0], code) for code in ("de", "en"))
        assert help_de != help_en and help_en not in " ".join(titles.values())
