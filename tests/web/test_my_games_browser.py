"""The my-games page in a real browser at 390 pixels: Debian's chromium, driven by playwright.

The page comes from the Flask test client; the browser gets it with the site's own
stylesheet inlined, so no server runs.  Skips, saying why, where chromium or playwright
is missing; never downloads a browser.
"""

from __future__ import annotations

from browser_support import inline_app_css, needs_browser, show
from web_helpers import finish, latest_mail, paths_in, player, table

from pbem.lifecycle import create

pytestmark = needs_browser

LONG = "Maximiliane-Wilhelmine von Hohenzollern-Sigmaringen-Lauenburg"


def test_my_games_fits_a_390_pixel_phone(ctx, sqlite_client, tab):
    client = sqlite_client
    finished = table(ctx, humans=3, bots=1)
    finish(ctx, finished)
    table(ctx, humans=3, bots=3, seed=7)  # a running game of six seats
    alice = player("alice@example.org", "Alice")
    create.create_game(ctx, "visby", alice, ["someone.with.a.very.long.address@example.org"])
    from pbem.models import Player

    Player.update(name=LONG).where(Player.email == "bob@example.org").execute()
    Player.update(timezone="America/Argentina/ComodRivadavia").where(
        Player.id == alice.id).execute()
    [path] = {p for p in paths_in(latest_mail("alice@example.org").text_body)
              if p.startswith("/me/")}
    html = client.get(path).text
    assert "Running" in html and "Finished" in html and "Waiting to start" in html
    html = inline_app_css(html)
    page = show(tab, html, 390, 800)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page scrolls sideways: {width}px"
    # every button is a readable label, not a bare symbol
    labels = page.eval_on_selector_all("button, a.button",
                                       "els => els.map(e => e.innerText.trim())")
    assert "Rematch: play again with the same players" in labels
    assert all(len(label) > 3 for label in labels), labels
    assert page.get_by_text(LONG).first.is_visible()


def _serve(page, app) -> None:
    """Every request of the browser answered by the Flask app itself, cookies and
    redirects included, as a server on pbem.test would: nothing leaves the machine."""
    from urllib.parse import urlsplit

    client = app.test_client(use_cookies=False)  # the browser keeps the cookies

    def answer(route, request) -> None:
        url = urlsplit(request.url)
        if url.hostname != "pbem.test":
            route.abort()
            return
        sent = {k: v for k, v in request.headers.items()
                if k.lower() in ("cookie", "content-type", "accept-language")}
        response = client.open(url.path + (f"?{url.query}" if url.query else ""),
                               method=request.method, data=request.post_data_buffer,
                               headers=sent)
        headers: dict[str, str] = {}
        for key, value in response.headers.items():
            headers[key] = f"{headers[key]}\n{value}" if key in headers else value
        route.fulfill(status=response.status_code, headers=headers, body=response.get_data())

    page.route("**/*", answer)


def _fits(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"{page.url} scrolls sideways: {width}px"


def test_a_game_started_from_my_games_in_a_phone(ctx, sqlite_database, browser):
    """From the all-your-games page to the new game's table, clicking as a player would
    on a 390-pixel phone: no confirmation asked, no page wider than the screen."""
    from pbem.mail import compose
    from pbem.models import Game, Outbox
    from pbem.web import create_app

    alice = player("alice@example.org", "Alice")
    mine = compose.my_games_url(ctx, alice)
    page = browser.new_page(viewport={"width": 390, "height": 800})
    _serve(page, create_app(ctx))
    page.goto(mine)
    _fits(page)
    page.get_by_role("link", name="New game of Visby").click()
    page.wait_for_url("**/new/visby")
    _fits(page)
    assert page.get_by_text("needs no confirmation").first.is_visible()
    assert page.locator("#email").count() == 0  # the link says who she is
    page.select_option("#players", "3")
    page.fill("#seat-1", "bot")
    page.get_by_role("button", name="Create the game").click()
    page.wait_for_url("**/s/**")
    _fits(page)
    assert page.get_by_text("has started").first.is_visible()
    game = Game.get()
    assert game.status == Game.ACTIVE and game.creator_id == alice.id
    assert not Outbox.select().where(Outbox.kind == "confirm").exists()
    # her move is on the page she landed on
    assert page.locator("form[action$='/play'] button").count() > 0


def test_a_newcomer_confirms_a_game_in_a_phone(ctx, sqlite_database, browser):
    """The home page's form, the page that says to confirm, the confirmation opened from
    the mail and the seat it leads to, at 390 pixels."""
    from pbem.models import Game, Outbox
    from pbem.web import create_app

    page = browser.new_page(viewport={"width": 390, "height": 800})
    _serve(page, create_app(ctx))
    page.goto("http://pbem.test/new/visby")
    _fits(page)
    page.fill("#name", LONG)
    page.fill("#email", "nora@example.org")
    page.get_by_role("button", name="Create the game").click()
    page.wait_for_url("**/created/**")
    _fits(page)
    assert page.get_by_text("Please confirm your address first.").is_visible()
    assert Game.get().status == Game.HELD
    [mail] = Outbox.select().where(Outbox.kind == "confirm")
    [confirm] = [u for u in mail.text_body.split() if "/c/" in u]
    page.goto(confirm)
    _fits(page)
    page.get_by_role("button", name="Yes, this address is mine: start Visby #1").click()
    _fits(page)
    page.get_by_role("link", name="Open your seat").click()
    page.wait_for_url("**/s/**")
    _fits(page)
    assert Game.get().status == Game.ACTIVE
    assert page.locator("form[action$='/play'] button").count() > 0
