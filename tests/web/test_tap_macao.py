"""Macao's picture is the board one plays on (issue 22): on the seat page each place a
legal move acts on is a link in the SVG, framed as a place to tap.

The browser test plays Alice's moves of a whole game start, at 390 pixels, by tapping
the picture only (never the list of moves): a card on offer in the draft, the wind
rose's 1- and 2-field for the start cubes (a place of six moves: tap, then choose from
the short list), a card in the card phase, two dice, and a whole turn of the action
phase: a sea field to sail to, a cube place of the action supply to pay with, the place
that ends the turn.  Bob's moves go through the service.  The fast tests check that every
place a menu names is drawn as its link, that nothing of another seat becomes the
reader's place, and that the places' help reads German for a German reader.
"""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET

from browser_support import (
    axe_violations,
    confirm,
    inline_app_css,
    live_server,
    needs_browser,
    tap,
    targets,
)
from web_helpers import player

from pbem.games.macao import GAME, data
from pbem.games.macao.words import card_help, card_name
from pbem.lifecycle import create, moves
from pbem.mail import compose
from pbem.models import Game, Seat
from pbem.web import create_app
from pbem.web.play import path_of

SVG = "{http://www.w3.org/2000/svg}"
NAMES = ["Alice", "Bob"]
ALICE, BOB = 0, 1


def _macao_table(ctx) -> tuple[Game, str]:
    """A Macao game of Alice (seat 0) and Bob (seat 1); Alice's seat page path."""
    alice, bob = player("alice@example.org", "Alice"), player("bob@example.org", "Bob")
    game = create.create_game(ctx, "macao", alice, [bob.email], seed="tap")
    create.accept_invite(ctx, game, Seat.get(Seat.game == game, Seat.index == BOB), bob)
    game = Game.get_by_id(game.id)
    alice_seat = Seat.get(Seat.game == game, Seat.index == ALICE)
    return game, path_of(compose.seat_url(ctx, game, alice_seat))


def _bob_plays(ctx, game: Game) -> Game:
    """Bob plays the first move of his menu for as long as he is to move."""
    game = Game.get_by_id(game.id)
    while GAME.to_move(game.state) == [BOB]:
        menu = Seat.get(Seat.game == game, Seat.index == BOB).menu_seq
        moves.play(ctx, game.id, BOB, GAME.legal_moves(game.state, BOB)[0], menu_seq=menu)
        game = Game.get_by_id(game.id)
    return game


def _state(game: Game) -> dict:
    return Game.get_by_id(game.id).state


def _tap_and_confirm(page, region: str) -> None:
    tap(page, region)
    assert "/m/" in page.url, f"one move at {region}: its confirm page"
    confirm(page)
    assert re.search(r"/s/[^/?]+$", page.url), "back on the seat page"


def _tap_and_choose(page, region: str, label: str) -> None:
    tap(page, region)
    assert "/at?r=" in page.url, f"several moves at {region}: their list"
    with page.expect_navigation():
        page.locator("section.menu button.move", has_text=label).click()
    assert re.search(r"/s/[^/?]+$", page.url), "back on the seat page"


@needs_browser
def test_alices_first_round_by_tapping_the_picture(ctx, sqlite_database, browser, tab):
    game, path = _macao_table(ctx)
    game = _bob_plays(ctx, game)                       # Bob drafts first
    with live_server(create_app(ctx)) as origin:
        page = browser.new_page(viewport={"width": 390, "height": 844})
        page.goto(origin + path)
        # the draft: the cards on offer, nothing else
        offer = _state(game)["display"]
        assert targets(page) == [f"offer {c}" for c in offer]
        _tap_and_confirm(page, f"offer {offer[0]}")
        assert offer[0] in _state(game)["seats"][ALICE]["tableau"]
        # the start cubes: the rose's 1-field, then its 2-field, six colours each
        assert targets(page) == ["rose 1"]
        _tap_and_choose(page, "rose 1", "1 cube to the 1-field: red")
        assert targets(page) == ["rose 2"]
        _tap_and_choose(page, "rose 2", "2 cubes to the 2-field: blue")
        assert _state(game)["seats"][ALICE]["rose"][1:3] == [{"r": 1}, {"b": 2}]
        assert targets(page) == [], "Bob's start cubes now"
        game = _bob_plays(ctx, game)
        # round 1's card phase (Alice is first on the wall), then two dice
        page.reload()
        card = _state(game)["display"][0]
        _tap_and_confirm(page, f"offer {card}")
        assert card in _state(game)["seats"][ALICE]["tableau"]
        game = _bob_plays(ctx, game)
        page.reload()
        dice = [colour for colour, _ in _state(game)["dice"]]
        assert targets(page) == [f"die {c}" for c in dice]
        _tap_and_confirm(page, f"die {dice[0]}")
        assert f"die {dice[0]}" not in targets(page)
        _tap_and_confirm(page, f"die {dice[1]}")
        game = _bob_plays(ctx, game)
        page.reload()
        _a_whole_action_turn(page, game, tab)
        # the page still scrolls only downwards on a phone
        assert page.evaluate("document.scrollingElement.scrollWidth <= window.innerWidth")
    state = _state(game)
    assert GAME.to_move(state) == [BOB] and state["phase"] == "actions"


def _a_whole_action_turn(page, game: Game, tab) -> None:
    before = _state(game)
    assert before["phase"] == "actions" and GAME.to_move(before) == [ALICE]
    supply = sum(before["seats"][ALICE]["rose"][0].values())
    assert supply >= 1 and before["seats"][ALICE]["ship"] == data.START_FIELD
    assert {"sea S1", "sea N1", "end"} <= set(targets(page))
    assert axe_violations(tab, inline_app_css(page.content())) == [], \
        "the seat page with its places to tap"
    _tap_and_confirm(page, "sea S1")
    # sailing costs a cube; where the colour makes no difference the sail pays it at
    # once (one move), else the cubes of the action supply are the places to pay with
    paying = targets(page)
    if any(t.startswith("supply ") for t in paying):
        assert all(t.startswith("supply ") for t in paying), paying
        _tap_and_confirm(page, paying[0])
    after = _state(game)["seats"][ALICE]
    assert after["ship"] == "S1" and sum(after["rose"][0].values()) == supply - 1
    assert "end" in targets(page)
    _tap_and_confirm(page, "end")
    assert targets(page) == [], "Bob's turn now: nothing to tap for Alice"


# -- without a browser --------------------------------------------------------------


def _regions(svg: str) -> dict[str, list[ET.Element]]:
    """The picture's regions by name: each drawn element (``g`` or ``a``)."""
    out: dict[str, list[ET.Element]] = {}
    for node in ET.fromstring(svg).iter():
        if node.get("data-region"):
            out.setdefault(node.get("data-region"), []).append(node)
    return out


def _links(svg: str) -> dict[str, str]:
    return {node.get("data-region"): node.get("href")
            for node in ET.fromstring(svg).iter(f"{SVG}a")}


#: the kinds of places a game's first rounds reach: a card on offer, the rose's fields,
#: a die, a card of the tableau, a cube of the supply, a sea field, a wall field, a
#: district, the end of the turn
#: the kinds of place a random game reaches soon; a payment step's cube places
#: ("supply") are rare since a payment is mostly one move with its action, and the
#: contract test checks every place a menu names in every game it plays
KINDS = {"offer", "rose", "die", "card", "sea", "wall", "district", "end"}


def test_every_place_a_menu_names_is_drawn_as_its_link():
    """A game of three seats with random moves, until its decisions have reached every
    kind of place: at every decision, each place the mover's menu names is a link in
    the mover's picture, and only those are."""
    rng = random.Random("places")
    state = GAME.setup(3, {}, "places")
    kinds: set[str] = set()
    while not KINDS <= kinds:
        assert not GAME.is_over(state), f"the game ended before reaching {KINDS - kinds}"
        seat = GAME.to_move(state)[0]
        menu = GAME.menu(state, seat)
        links = {c.region: f"#{c.region}" for c in menu}
        svg = GAME.picture(GAME.view(state, seat), NAMES + ["Carol"], "en", links)
        drawn = _links(svg)
        assert set(drawn) == set(links), (state["phase"], state["pending"])
        assert all(drawn[r] == href for r, href in links.items())
        assert 'role="img"' not in svg
        kinds |= {r.split()[0] for r in links}
        state = GAME.apply(state, seat, rng.choice(menu).move)


def test_nothing_of_another_seat_becomes_the_readers_place():
    """Another seat's cards carry their help but are never the reader's places, and the
    deck's cards (the one secret of Macao) are never drawn."""
    state = GAME.setup(2, {}, "secret")
    while state["phase"] != "actions":
        seat = GAME.to_move(state)[0]
        state = GAME.apply(state, seat, GAME.legal_moves(state, seat)[0])
    seat = GAME.to_move(state)[0]
    other = 1 - seat
    # the same card in both tableaus: the reader's is a place, the other's not
    shared = state["seats"][seat]["tableau"][0]
    state["seats"][other]["tableau"].append(shared)
    cost = data.CARDS[shared].cost                       # the reader can activate it
    state["seats"][seat]["rose"][0] = {c: cost.count(c) for c in cost}
    menu = GAME.menu(state, seat)
    links = {c.region: f"#{c.region}" for c in menu}
    assert f"card {shared}" in links
    svg = GAME.picture(GAME.view(state, seat), NAMES, "en", links)
    panels = {int(g.get("data-panel")): g for g in ET.fromstring(svg).iter()
              if g.get("data-panel") is not None}
    assert not list(panels[other].iter(f"{SVG}a")), "another seat's panel has no link"
    assert list(panels[seat].iter(f"{SVG}a"))
    regions = _regions(svg)
    assert f"seat {other} tableau" in regions
    help_ = regions[f"seat {other} tableau"][0].find(f"{SVG}title").text
    assert f"{card_name(shared)}: {card_help(shared)}" in help_
    shown = set(state["display"])
    for me in state["seats"]:
        shown |= set(me["tableau"]) | set(me["active"])
    hidden = {card_name(c) for c in state["deck"]} - {card_name(c) for c in shown}
    assert hidden and not any(name in svg for name in hidden)
    for region in regions:
        words = region.split()
        if words[0] in ("offer", "card"):
            assert words[1] in shown, region


def test_the_places_help_reads_german_for_a_german_reader():
    state = GAME.setup(2, {}, "deutsch")
    seat = GAME.to_move(state)[0]
    menu = GAME.menu(state, seat, "de")
    links = {c.region: f"#{c.region}" for c in menu}
    svg = GAME.picture(GAME.view(state, seat), NAMES, "de", links)
    regions = _regions(svg)
    card = state["display"][0]
    title = regions[f"offer {card}"][0].find(f"{SVG}title").text
    # the card's text, and the mark of what pbem reconstructed on it
    assert title == (f"{data.CARDS[card].name}: {data.CARDS[card].text} "
                     f"{data.mark_line(card, 'de')}")
    assert "◇ " in title and "rekonstruiert" in title
    assert regions["tribute"][0].find(f"{SVG}title").text.startswith("Tribut: ")
    assert regions["cubes v"][0].find(f"{SVG}title").text == "AS: violett"
    assert regions["wall 3"][0].find(f"{SVG}title").text == "Mauerfeld 3"
    assert regions["harbour Lisboa"][0].find(f"{SVG}title").text.startswith("Lisboa: nimmt Reis")
