"""Riga's picture is the board one plays on (issue 22): at 390 pixels, in Debian's
chromium over a live server, Alice plays her setup and a whole first turn by tapping
the picture only, never the list of moves: she names the start player (her seat's
name), keeps a building (the keep offer), takes a commodity set (the set), builds the
building of her hand (the hand's building), pays it card by card (the hand's
commodities), erects it (the project) and ends her turn (the strip's "End turn").

The places and their names are ``pbem.games.riga.menu.region_of``'s; the fast checks of
every place, of secrets and of the help's language are tests/games/riga/
test_riga_regions.py.  Here: the seat page's links, the short list a place of several
moves opens, and German help on a German reader's page.
"""

from __future__ import annotations

import html
import re

from browser_support import confirm, live_server, needs_browser, tap, targets
from web_helpers import latest_mail, player, seat_path

from pbem.games import get_game
from pbem.lifecycle import create, moves
from pbem.mail import compose
from pbem.models import Game, Player, Seat
from pbem.web import create_app
from pbem.web.play import path_of

RIGA = get_game("riga")


def _riga_table(ctx, bob_speaks: str = "en") -> tuple[Game, str]:
    """A Riga game of Alice and Bob (seed "tap": Alice names the start player, and
    after taking a set she can build the building she keeps); Alice's seat page."""
    alice, bob = player("alice@example.org", "Alice"), player("bob@example.org", "Bob")
    Player.update(language=bob_speaks).where(Player.id == bob.id).execute()
    game = create.create_game(ctx, "riga", alice, [bob.email], seed="tap")
    create.accept_invite(ctx, game, Seat.get(Seat.game == game, Seat.index == 1),
                         Player.get_by_id(bob.id))
    return Game.get_by_id(game.id), seat_path(latest_mail("alice@example.org"))


def _bob_plays(ctx, game: Game, move: str) -> None:
    seat = Seat.get(Seat.game == game, Seat.index == 1)
    moves.play(ctx, game.id, 1, move, menu_seq=seat.menu_seq)


def _tap_and_confirm(page, region: str) -> None:
    """Tap ``region``: one move there opens its confirm page; several a short list,
    whose first move is chosen."""
    assert region in targets(page), (region, targets(page))
    tap(page, region)
    if "/at?r=" in page.url:
        with page.expect_navigation():
            page.locator("section.menu button.move").first.click()
    else:
        assert "/m/" in page.url, page.url
        confirm(page)
    assert re.search(r"/s/[^/?]+$", page.url), "back on the seat page"


@needs_browser
def test_a_whole_riga_turn_by_tapping_the_picture(ctx, sqlite_database, browser):
    game, path = _riga_table(ctx)
    assert RIGA.to_move(game.state) == [0], "seed 'tap': Alice names the start player"
    offer = game.state["keep_offer"][0]
    with live_server(create_app(ctx)) as origin:
        page = browser.new_page(viewport={"width": 390, "height": 844})
        page.goto(origin + path)
        assert targets(page) == ["seat 1", "seat 2"]
        _tap_and_confirm(page, "seat 1")                 # Alice starts
        assert sorted(targets(page)) == sorted(f"keep {b}" for b in offer)
        _tap_and_confirm(page, f"keep {offer[0]}")       # she keeps her first building
        # Bob keeps his first building by mail: Alice's summer turn begins
        _bob_plays(ctx, Game.get_by_id(game.id),
                   f"keep {Game.get_by_id(game.id).state['keep_offer'][1][0]}")
        page.reload()
        state = Game.get_by_id(game.id).state
        assert state["phase"] == "take" and state["current"] == 0
        sets = len(state["sets"])
        _tap_and_confirm(page, "set 1")                  # take phase: the first set
        _tap_and_confirm(page, f"hand {offer[0]}")       # build phase: build it
        paid = 0
        while "project" not in targets(page):            # pay, card by card
            pay = next(t for t in targets(page) if t.startswith("hand ")
                       and t.split()[1] in ("Tuch", "Glas", "Wein", "Getreide"))
            _tap_and_confirm(page, pay)
            paid += 1
            assert paid < 10, targets(page)
        _tap_and_confirm(page, "project")                # erect it
        if 0 in RIGA.to_move(Game.get_by_id(game.id).state):
            _tap_and_confirm(page, "end")                # and end the turn
        assert targets(page) == [], "Bob's turn now: nothing to tap for Alice"
        assert page.evaluate("document.scrollingElement.scrollWidth <= window.innerWidth")
    state = Game.get_by_id(game.id).state
    assert state["current"] == 1 and state["phase"] == "take"
    assert [e["id"] for e in state["display"][0]] == [offer[0]], "built and erected"
    assert offer[0] not in state["hand"][0]["gebaeude"]
    assert len(state["sets"]) == sets - 1 and paid >= 1


def test_the_seat_page_links_each_place_and_a_place_of_several_moves_lists_them(
        ctx, sqlite_database):
    """Without a browser: the picture on Alice's page links her places (one move: its
    confirm page; several: the short list) and the list names the moves."""
    game, path = _riga_table(ctx)
    client = create_app(ctx).test_client()
    page = client.get(path).text
    svg = page[page.index("<svg"):page.index("</svg>")]
    assert 'role="img"' not in svg
    links = dict(re.findall(r'<a data-region="([^"]+)" href="([^"]+)" class="target">', svg))
    assert set(links) == {"seat 1", "seat 2"}
    assert all(href.startswith("/m/") for href in links.values())
    # Bob's page: he waits while Alice chooses; nothing to tap
    bob = Seat.get(Seat.game == game, Seat.index == 1)
    bob_page = client.get(path_of(compose.seat_url(ctx, game, bob))).text
    assert "<svg" in bob_page and 'class="target"' not in bob_page


def test_a_german_reader_reads_german_help_in_the_picture(ctx, sqlite_database):
    """Bob reads German: the help of the buildings in his picture is the German card
    text, the places of his steps say German words."""
    from pbem.games.riga import data

    game, _ = _riga_table(ctx, bob_speaks="de")
    state = game.state
    bob = Seat.get(Seat.game == game, Seat.index == 1)
    client = create_app(ctx).test_client()
    page = client.get(path_of(compose.seat_url(ctx, game, bob))).text
    svg = page[page.index("<svg"):page.index("</svg>")]
    titles = [html.unescape(t) for t in re.findall(r"<title>([^<]*)</title>", svg)]
    own = state["keep_offer"][1][0]
    assert any(t.endswith(data.help_line(own, "de")) for t in titles), titles
    assert not any(data.help_line(own, "en") in t for t in titles)
