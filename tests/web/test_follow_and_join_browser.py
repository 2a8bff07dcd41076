"""Following a game and joining an open game in a real browser at 390 pixels (issue 26):
Debian's chromium over a live server on loopback; the mails go by SMTP to a real
server.  Skips, saying why, where chromium or playwright is missing."""

from __future__ import annotations

from datetime import timedelta

from browser_support import live_server, needs_browser
from test_follow import _play
from web_helpers import latest_mail, paths_in, table, text_part

from pbem.models import Follower, Game, Seat, utcnow
from pbem.time.scheduler import tick
from pbem.web import create_app

pytestmark = needs_browser


def _fits(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"{page.url} scrolls sideways: {width}px"


def test_follow_a_game_and_receive_its_digest_in_a_phone(ctx, smtp_ctx, sqlite_database,
                                                         smtp_server, browser):
    game = table(ctx)
    with live_server(create_app(ctx)) as origin:
        page = browser.new_page(viewport={"width": 390, "height": 844})
        page.goto(f"{origin}/g/{game.id}")
        _fits(page)
        page.get_by_label("Your email address").fill("fan@example.net")
        page.get_by_role("button", name="Follow by mail").click()
        page.wait_for_url(f"**/g/{game.id}/follow")
        _fits(page)
        assert page.get_by_text("a mail is on its way").is_visible()
        [confirm] = [p for p in paths_in(latest_mail("fan@example.net", "follow-ask").text_body)
                     if p.startswith("/follow/")]
        page.goto(origin + confirm)
        _fits(page)
        page.get_by_role("button", name=f"Yes, follow Visby #{game.id}").click()
        # the click returns before the page it posts to has come: wait for its words
        page.get_by_text("follows this game").wait_for()
        assert page.get_by_text("follows this game").is_visible()
        _fits(page)
    assert Follower.get().confirmed_at is not None
    _play(ctx, game, 5)
    done = tick(smtp_ctx, now=utcnow() + timedelta(days=1, minutes=1))
    assert done["follow"] == 1
    [digest] = [m for m in smtp_server.messages if "fan@example.net" in str(m["To"])
                and "the day's moves" in str(m["Subject"])]
    body = text_part(digest)
    assert "What happened in" in body and "/s/" not in body and "/m/" not in body
    assert digest["List-Unsubscribe"].endswith("/stop>")
    assert Game.get_by_id(game.id).status == Game.ACTIVE
    assert Seat.select().count() == 2


def test_join_an_open_game_from_the_lobby_in_a_phone(ctx, sqlite_database, browser):
    from web_helpers import player

    from pbem.lifecycle import create, join
    from pbem.models import Player

    alice = player("alice@example.org", "Alice")
    game = create.create_game(ctx, "visby", alice, [create.OPEN_SEAT], seed=5)
    with live_server(create_app(ctx)) as origin:
        page = browser.new_page(viewport={"width": 390, "height": 844})
        page.goto(origin + "/")
        page.get_by_role("link", name="Join an open game").click()
        page.wait_for_url("**/open")
        _fits(page)
        assert page.get_by_text("2 players, 1 seat open.").is_visible()
        page.get_by_label("Your email address").fill("dora@example.net")
        page.get_by_role("button", name=f"Join Visby #{game.id}").click()
        page.wait_for_url(f"**/open/{game.id}")
        _fits(page)
        assert page.get_by_text("a mail is on its way").is_visible()
        [path] = [p for p in paths_in(latest_mail("dora@example.net",
                                                  join.REQUEST_KIND).text_body)
                  if p.startswith("/join/")]
        page.goto(origin + path)
        _fits(page)
        page.get_by_label("Your name, as the others will see it").fill("Dora")
        page.get_by_role("button", name="Take my seat").click()
        page.wait_for_url("**/s/**")
        _fits(page)
        assert page.get_by_text("You have joined; the game has started.").is_visible()
    dora = Player.get(Player.email == "dora@example.net")
    assert Seat.get(Seat.game == game, Seat.index == 1).player_id == dora.id
    assert Game.get_by_id(game.id).status == Game.ACTIVE
