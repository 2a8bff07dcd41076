"""Tallinn played by tapping its picture (issue 22, item 1): each half of a hand card
plays the card with that half active, a hand or display card builds a tower from it,
the Legat's row names its estate, "Build no tower" builds none.

The browser test plays a whole round of two people at 390 pixels, by tapping only (never
the list of moves), over a live server on loopback (``browser_support.live_server``):
both choose a card in secret, the one whose coin held a contest builds a tower from her
display, and the next round begins.  The fast tests check, without a browser, that every
place a menu names is drawn as its link in every phase, that nothing another seat hides
becomes a place, and that a German reader's help reads German.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from browser_support import confirm, live_server, needs_browser, tap, targets
from web_helpers import latest_mail, player, seat_path

from pbem.games.tallinn import GAME, rules
from pbem.lifecycle import create
from pbem.models import Game, Player, Seat
from pbem.web import create_app

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "games" / "tallinn"))
from tallinn_helpers import new_game, play_round, stack  # noqa: E402

NAMES = ["Alice", "Bob", "Carol"]
REGION = re.compile(r'<(a|g) data-region="([^"]*)"(?: href="([^"]*)")?')


def _regions(svg: str) -> dict[str, str | None]:
    """The regions of a picture: name to link (``None``: drawn, not a link)."""
    return {name: href or None for _, name, href in REGION.findall(svg)}


def _drawn_with_links(state, seat: int, lang: str = "en") -> tuple[list, dict, str]:
    menu = GAME.menu(state, seat, lang)
    links = {c.region: f"#tap-{i}" for i, c in enumerate(menu)}
    svg = GAME.picture(GAME.view(state, seat), NAMES[:state["players"]], lang, links)
    return menu, links, svg


# -- a game through the server, played by tapping -------------------------------------


def _coin_half(state, seat: int) -> str:
    """A hand card of ``seat`` with the half that holds a contest: "3b"."""
    for card in state["hand"][seat]:
        for half in rules.HALVES:
            if rules.half_of(card, half).muenze:
                return f"{card}{half}"
    raise AssertionError(f"no coin in hand {state['hand'][seat]}")


def _quiet_half(state, seat: int) -> str:
    """A hand card of ``seat`` with a half that holds no contest."""
    for card in state["hand"][seat]:
        for half in rules.HALVES:
            h = rules.half_of(card, half)
            if not h.muenze and not h.wappen:
                return f"{card}{half}"
    raise AssertionError(f"only coins in hand {state['hand'][seat]}")


def _tallinn_table(ctx, options: dict | None = None) -> tuple[Game, str, str]:
    """Alice (English) and Bob (German) at Tallinn; their seat pages' paths."""
    alice, bob = player("alice@example.org", "Alice"), player("bob@example.org", "Bob")
    Player.update(language="de").where(Player.id == bob.id).execute()
    game = create.create_game(ctx, "tallinn", alice, [bob.email], options, seed="tap")
    create.accept_invite(ctx, game, Seat.get(Seat.game == game, Seat.index == 1),
                         Player.get_by_id(bob.id))
    return (Game.get_by_id(game.id), seat_path(latest_mail("alice@example.org")),
            seat_path(latest_mail("bob@example.org")))


def _tap_and_confirm(page, region: str) -> None:
    assert region in targets(page), f"{region} is no place to tap: {targets(page)}"
    tap(page, region)
    assert "/m/" in page.url, "one move there: its confirm page"
    confirm(page)
    assert re.search(r"/s/[^/?]+$", page.url), "back on the seat page"


@needs_browser
def test_a_whole_tallinn_round_by_tapping_the_picture(ctx, sqlite_database, browser):
    game, alice_path, bob_path = _tallinn_table(ctx)
    state = game.state
    coin, quiet = _coin_half(state, 0), _quiet_half(state, 1)
    hand = list(state["hand"][0])
    with live_server(create_app(ctx)) as origin:
        alice = browser.new_page(viewport={"width": 390, "height": 844})
        alice.goto(origin + alice_path)
        # her hand, half by half: each half plays its card with that half active
        assert targets(alice) == [f"hand {c}{h}" for c in hand for h in "ab"]
        _tap_and_confirm(alice, f"hand {coin}")
        assert targets(alice) == [], "chosen in secret: she waits for Bob"

        bob = browser.new_page(viewport={"width": 390, "height": 844})
        bob.goto(origin + bob_path)
        _tap_and_confirm(bob, f"hand {quiet}")
        assert targets(bob) == [], "Bob's half held no contest: no tower for him"

        # Alice's coin held its contest: she may build a tower from her display or
        # her hand, or none
        alice.reload()
        played = coin[:-1]
        left = [c for c in hand if c != played]
        assert targets(alice) == ([f"hand {c}" for c in left] + [f"display {played}"]
                                  + ["no tower"])
        _tap_and_confirm(alice, f"display {played}")
        # the next round: her hand again, one card drawn
        assert alice.locator("figure.table-picture svg").count() == 1
        assert all(t.startswith("hand ") for t in targets(alice))
        assert alice.evaluate("document.scrollingElement.scrollWidth <= window.innerWidth")
    state = Game.get_by_id(game.id).state
    assert state["round"] == 2 and state["phase"] == "choose"
    assert [t["card"] for t in state["towers"][0]] == [played]
    assert state["display"][1] == [[quiet[:-1], quiet[-1]]]


@needs_browser
def test_the_legat_and_no_tower_by_tapping(ctx, sqlite_database, browser):
    """With the Legat: its Wappen half, then the estate of its contest on the Legat's
    row, then "Build no tower"; Bob reads his places' help in German."""
    game, alice_path, bob_path = _tallinn_table(ctx, {"legat": True})
    quiet = _quiet_half(game.state, 1)
    with live_server(create_app(ctx)) as origin:
        alice = browser.new_page(viewport={"width": 390, "height": 844})
        alice.goto(origin + alice_path)
        _tap_and_confirm(alice, "hand Lb")
        bob = browser.new_page(viewport={"width": 390, "height": 844})
        bob.goto(origin + bob_path)
        help = bob.eval_on_selector(f'figure.table-picture a.target[data-region="hand {quiet}"]',
                                    "a => a.querySelector('title').textContent")
        assert help.startswith("Karte ") and "Auslage" in help, help
        _tap_and_confirm(bob, f"hand {quiet}")
        alice.reload()
        assert targets(alice) == ["legat K", "legat R", "legat M"]
        _tap_and_confirm(alice, "legat R")
        assert "no tower" in targets(alice)
        _tap_and_confirm(alice, "no tower")
    state = Game.get_by_id(game.id).state
    assert state["round"] == 2 and state["phase"] == "choose"
    assert state["towers"][0] == [] and state["display"][0] == [["L", "b"]]
    assert state["points"][0] > state["points"][1]  # the Legat's contest for the Ritter


# -- without a browser -------------------------------------------------------------------


def _phases():
    """A three-player game with the Legat in each kind of decision, and who decides."""
    state = new_game(3, legat=True)
    for seat, start in enumerate(["S1", "S2", "S3"]):
        stack(state, seat, start, ["1", "7", "2", "3", "4", "5", "6", "8", "9", "10"])
    choose = state
    state = play_round(state, {0: "1b", 1: "7a", 2: "2a"}, {0: ("hand", "7")})
    state = play_round(state, {0: "2b", 1: "1b", 2: "3b"}, {})
    legat = GAME.apply(GAME.apply(GAME.apply(state, 1, "play La"), 2, "play 4a"),
                       0, "play Lb")
    tower = GAME.apply(GAME.apply(GAME.apply(state, 1, "play 2a"), 2, "play 4a"),
                       0, "play 3b")
    assert (legat["phase"], tower["phase"]) == ("legat", "tower")
    return {"choose": choose, "legat": legat, "tower": tower}


@pytest.mark.parametrize("phase", ["choose", "legat", "tower"])
def test_every_place_a_menu_names_is_drawn_as_its_link(phase):
    state = _phases()[phase]
    seat = GAME.to_move(state)[0]
    for lang in ("en", "de"):
        menu, links, svg = _drawn_with_links(state, seat, lang)
        drawn = _regions(svg)
        assert {c.region for c in menu} == set(links)
        for region, href in links.items():
            assert drawn.get(region) == href, f"{region} is not drawn as its link ({lang})"
        # each place is one move: a tap opens its confirm page
        assert len(links) == len(menu)
        assert svg.count('class="target"') == len(links) and 'role="img"' not in svg
        # no link inside a link
        depth = 0
        for tag in re.findall(r"</?a\b", svg):
            depth += 1 if tag == "<a" else -1
            assert depth <= 1
    kinds = {"choose": "hand 1a", "legat": "legat R", "tower": "no tower"}
    assert kinds[phase] in links


def test_no_hidden_card_becomes_a_place():
    """A seat's picture names its own hand's cards and halves, never another seat's hand,
    nor the card another seat chose in secret; a spectator's picture names no hand."""
    state = _phases()["choose"]
    state = GAME.apply(state, 1, "play 7b")  # Bob's secret choice
    _, links, svg = _drawn_with_links(state, 0)
    hands = {name for name in _regions(svg) if "hand" in name}
    assert hands == {f"hand {c}{h}" for c in state["hand"][0] for h in ("", "a", "b")}
    for seat in (1, 2):
        assert not any(name.startswith(f"seat {seat + 1} hand") for name in _regions(svg))
    # Bob's own picture has his hand but no place for Alice's or Carol's
    bob = GAME.picture(GAME.view(state, 1), NAMES, "en")
    assert not any(name.startswith("seat") and "hand" in name for name in _regions(bob))
    spectator = GAME.picture(GAME.view(state, None), NAMES, "en")
    assert not any("hand" in name for name in _regions(spectator))
    # which card Bob chose changes nothing Alice's picture draws; his own marks it
    other = GAME.apply(_phases()["choose"], 1, "play 1a")
    assert _drawn_with_links(other, 0)[2] == svg
    assert "chosen in secret" not in svg
    assert re.search(r'<g data-region="hand 7b"><title>[^<]*\(chosen in secret this '
                     r'round\)</title>', bob)
    assert bob.count("chosen in secret") == 1


def test_the_help_of_the_places_reads_the_readers_language():
    state = _phases()["tower"]
    _, _, english = _drawn_with_links(state, 0, "en")
    _, _, german = _drawn_with_links(state, 0, "de")
    # card 4 is pbem's reconstruction: the sign, and its line in the help
    assert ("<title>card 4◇: 2 Kaufleute | 1 Ritter + coin ◇ Persons and coin reconstructed: "
            "printed in no public source, chosen by pbem to fit the rulebook.</title>") in english
    assert ("<title>Karte 4◇: 2 Kaufleute | 1 Ritter + Münze ◇ Personen und Münze "
            "rekonstruiert: in keiner öffentlichen Quelle gedruckt, von pbem passend zur "
            "Spielregel gewählt.</title>") in german
    assert "<title>In dieser Runde keinen Turm bauen.</title>" in german
    assert ">Keinen Turm bauen</text>" in german
    # a display half: the card, the half, what it does
    assert re.search(r"<title>Karte 1: 1 Ritter \+ Münze\. Münze: Wettstreit der Ritter",
                     german)
    assert "Build no tower" not in german and "card 4" not in german
