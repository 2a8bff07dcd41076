"""Visby's picture is the board one plays on: the cards of the reader's hand, the Markt
track and the reader's own row are the places to tap (``menu.region_of``).

A whole round of a two-player game is played by Alice at 390 pixels by tapping the
picture only: two cards from her hand in secret (tap, confirm), then, as a merchant, a
trade on the Markt (tap, the short list of trades, choose) and the end of her trading
on her own row (tap, confirm).  Bob's moves go through the service.
"""

from __future__ import annotations

import re

from browser_support import confirm, live_server, needs_browser, tap, targets
from web_helpers import latest_mail, player, seat_path

from pbem.games.visby.data import KARTEN
from pbem.lifecycle import create, moves
from pbem.mail import compose
from pbem.models import Game, Player, Seat
from pbem.web import create_app
from pbem.web.play import path_of

REGION = re.compile(r'<(a|g) data-region="([^"]*)"')


def _visby_table(ctx) -> tuple[Game, str, str]:
    """Alice (English) and Bob (German) at Visby; their seat page paths."""
    alice, bob = player("alice@example.org", "Alice"), player("bob@example.org", "Bob")
    Player.update(language="de").where(Player.id == bob.id).execute()
    game = create.create_game(ctx, "visby", alice, [bob.email], seed="tap")
    create.accept_invite(ctx, game, Seat.get(Seat.game == game, Seat.index == 1),
                         Player.get_by_id(bob.id))
    game = Game.get_by_id(game.id)
    bob_seat = Seat.get(Seat.game == game, Seat.index == 1)
    return (game, seat_path(latest_mail("alice@example.org")),
            path_of(compose.seat_url(ctx, game, bob_seat)))


def _bob_plays(ctx, game: Game, move: str) -> None:
    seat = Seat.get(Seat.game == game, Seat.index == 1)
    moves.play(ctx, game.id, 1, move, menu_seq=seat.menu_seq)


def _svg(page: str) -> str:
    return page[page.index("<svg"):page.index("</svg>")]


def _regions(svg: str) -> dict[str, str]:
    """Each region the picture draws, by name: "a" for a link, "g" for none."""
    return {name: tag for tag, name in REGION.findall(svg)}


@needs_browser
def test_a_whole_visby_round_by_tapping_the_picture(ctx, sqlite_database, browser):
    game, alice, _ = _visby_table(ctx)
    with live_server(create_app(ctx)) as origin:
        page = browser.new_page(viewport={"width": 390, "height": 844})
        page.goto(origin + alice)
        assert targets(page) == list(KARTEN), "her eight cards, nothing else yet"
        for card in ("Kaufmann", "Schiff"):
            tap(page, card)
            assert "/m/" in page.url, "one move on a card: its confirm page"
            confirm(page)
            assert re.search(r"/s/[^/?]+$", page.url), "back on the seat page"
        assert targets(page) == [], "both cards chosen: she waits for Bob"
        assert Game.get_by_id(game.id).state["chosen"][0] == ["Schiff", "Kaufmann"]

        _bob_plays(ctx, game, "play Ritter")
        _bob_plays(ctx, game, "play Truppen")
        state = Game.get_by_id(game.id).state
        assert state["phase"] == "trade" and state["trading"] == [0]
        goods, seals = state["goods"][0], state["seals"][0]

        page.goto(origin + alice)
        assert targets(page) == ["Markt", "you"]
        tap(page, "Markt")
        assert "/at?r=Markt" in page.url, "several trades there: their short list"
        trades = page.locator("section.menu button.move").all_inner_texts()
        assert trades and all(t.startswith("Trade ") for t in trades)
        with page.expect_navigation():
            page.locator("section.menu button.move").first.click()
        assert re.search(r"/s/[^/?]+$", page.url)
        traded = Game.get_by_id(game.id).state
        assert traded["goods"][0] < goods and traded["seals"][0] > seals

        assert targets(page) == ["Markt", "you"], "she could trade on, and stops instead"
        tap(page, "you")
        assert "/m/" in page.url, "stopping is the one move on her row"
        confirm(page)
        assert targets(page) == Game.get_by_id(game.id).state["hand"][0], \
            "round 2: the cards left in her hand"
        assert "Kaufmann" not in targets(page) and len(targets(page)) == 6
        assert page.evaluate("document.scrollingElement.scrollWidth <= window.innerWidth")
    state = Game.get_by_id(game.id).state
    assert state["round"] == 2 and state["phase"] == "choose"


def test_the_picture_draws_every_place_of_the_menu_and_no_secret(ctx, sqlite_database):
    game, alice, bob = _visby_table(ctx)
    client = create_app(ctx).test_client()
    _bob_plays(ctx, game, "play Ritter")  # Bob's secret
    regions = _regions(_svg(client.get(alice).text))
    assert regions == {**{card: "a" for card in KARTEN}, "you": "g", "Markt": "g"}
    alice_svg = _svg(client.get(alice).text)
    # (the Markt's help says its rates were "chosen by pbem": not a card)
    assert "chosen" not in alice_svg.replace("chosen by pbem", ""), \
        "Bob's chosen card does not show in Alice's picture"
    # Bob sees his own choice, marked in words, and may play only the other seven
    bob_regions = _regions(_svg(client.get(bob).text))
    assert bob_regions["Ritter"] == "g"
    assert [c for c, tag in bob_regions.items() if tag == "a"] == \
        [c for c in KARTEN if c != "Ritter"]
    assert ">gewählt</text>" in client.get(bob).text


def test_help_titles_read_german_for_a_german_reader(ctx, sqlite_database):
    game, alice, bob = _visby_table(ctx)
    client = create_app(ctx).test_client()
    bob_svg = _svg(client.get(bob).text)
    assert "<title>Ritter: Je ein Siegel von der Leiste „Feldzug“, höchstens 5.</title>" \
        in bob_svg
    assert "<title>Deine Zeile: deine Siegel und Waren</title>" in bob_svg
    assert "<title>Ritter: Seals one at a time from the Feldzug track, at most 5.</title>" \
        in _svg(client.get(alice).text)
