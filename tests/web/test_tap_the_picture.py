"""The picture is the board one plays on: on the seat page, each place a legal move of
the reader acts on is a link inside the SVG (no script needed), framed as a place to
tap; one move there opens its confirm page, several a short list of them.

Played in Debian's chromium at 390 pixels, by tapping the picture only (never the list
of moves), served over HTTP on loopback (``browser_support.live_server``).  Ziehen,
the example game, shows the shape: its deck draws, its own row steps or ends the turn.
"""

from __future__ import annotations

import re

import pytest
from browser_support import confirm, live_server, needs_browser, tap, targets
from web_helpers import latest_mail, player, seat_path

from pbem.games import registered
from pbem.games.ziehen import GAME as ZIEHEN
from pbem.lifecycle import create
from pbem.mail import compose
from pbem.models import Game, Seat
from pbem.web import create_app
from pbem.web.play import path_of


@pytest.fixture
def ziehen():
    with registered(ZIEHEN):
        yield ZIEHEN


def _ziehen_table(ctx) -> tuple[Game, str]:
    """A Ziehen game of Alice and Bob; Alice's seat page path (her turn first)."""
    alice, bob = player("alice@example.org", "Alice"), player("bob@example.org", "Bob")
    game = create.create_game(ctx, "ziehen", alice, [bob.email], seed="tap")
    create.accept_invite(ctx, game, Seat.get(Seat.game == game, Seat.index == 1), bob)
    return Game.get_by_id(game.id), seat_path(latest_mail("alice@example.org"))


@needs_browser
def test_a_whole_ziehen_turn_by_tapping_the_picture(ctx, sqlite_database, ziehen,
                                                    browser):
    game, path = _ziehen_table(ctx)
    with live_server(create_app(ctx)) as origin:
        _play_a_turn(browser, origin + path)
    assert Game.get_by_id(game.id).seq == 4
    assert Seat.get(Seat.game == game, Seat.index == 0).in_turn is False


def _play_a_turn(browser, url: str) -> None:
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(url)
    # the one thing to do is a step on her own row; the deck is no target yet
    assert targets(page) == ["you"]
    for region in ("you", "deck", "you", "you"):   # step, draw, step, end
        assert region in targets(page)
        tap(page, region)
        assert "/m/" in page.url, "one move there: its confirm page"
        confirm(page)
        assert re.search(r"/s/[^/?]+$", page.url), "back on the seat page"
    assert targets(page) == [], "Bob's turn now: nothing to tap for Alice"
    # a card is no move now, but tapping it tells what it is (its help, as on hover)
    card = page.locator('figure.table-picture g[data-region]:has(> title)').first
    help_text = card.locator("title").text_content()
    assert page.locator(".card-help").is_hidden()
    card.click()
    assert page.locator(".card-help").inner_text() == help_text and ": " in help_text
    # the page still scrolls only downwards on a phone
    assert page.evaluate("document.scrollingElement.scrollWidth <= window.innerWidth")


@needs_browser
def test_a_place_for_several_moves_lists_them(ctx, sqlite_database, ziehen, browser,
                                             monkeypatch):
    """A region two moves act on opens a short list of both; choosing one plays it."""
    from pbem.games.protocol import Choice
    from pbem.games.ziehen import menu as ziehen_menu

    def both(state, seat, lang="en"):  # "step" and a second move on the same row
        choices = ziehen_menu.menu(state, seat, lang)
        if [c.move for c in choices] == ["step"]:
            choices.append(Choice("end", "End your turn", "turn", region="you"))
        return choices

    monkeypatch.setattr(ZIEHEN, "menu", both)
    game, path = _ziehen_table(ctx)
    with live_server(create_app(ctx)) as origin:
        page = browser.new_page(viewport={"width": 390, "height": 844})
        page.goto(origin + path)
        _choose_from_the_list(page)
    assert Game.get_by_id(game.id).seq == 1


def _choose_from_the_list(page) -> None:
    tap(page, "you")
    assert "/at?r=you" in page.url
    buttons = page.locator("section.menu button.move").all_inner_texts()
    assert buttons == ["Take a step", "End your turn"]
    with page.expect_navigation():
        page.locator("section.menu button.move", has_text="Take a step").click()
    assert re.search(r"/s/[^/?]+$", page.url)


def test_a_place_with_nothing_to_play_leads_back(ctx, sqlite_database, ziehen):
    game, path = _ziehen_table(ctx)
    client = create_app(ctx).test_client()
    gone = client.get(path + "/at?r=deck")
    assert gone.status_code == 303 and gone.headers["Location"].endswith(path)
    assert "Nothing to play there now" in client.get(path).text


def test_the_picture_frames_only_what_the_reader_may_play(ctx, sqlite_database, ziehen):
    game, path = _ziehen_table(ctx)
    client = create_app(ctx).test_client()
    alice = client.get(path).text
    svg = alice[alice.index("<svg"):alice.index("</svg>")]
    assert svg.count('class="target"') == 1 and 'role="img"' not in svg
    assert re.search(r'<a data-region="you" href="/m/[^"]+" class="target"><title>', svg)
    bob = Seat.get(Seat.game == game, Seat.index == 1)
    bob_page = client.get(path_of(compose.seat_url(ctx, game, bob))).text
    assert "<svg" in bob_page and 'class="target"' not in bob_page  # he waits
