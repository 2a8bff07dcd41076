"""The my-games page in a real browser at 390 pixels: Debian's chromium, driven by playwright.

The page comes from the Flask test client; the browser gets it with the site's own
stylesheet inlined, so no server runs.  Skips, saying why, where chromium or playwright
is missing; never downloads a browser.
"""

from __future__ import annotations

from browser_support import ARGS, CHROMIUM, needs_browser
from web_helpers import finish, latest_mail, paths_in, player, table

from pbem.lifecycle import create
from pbem.web import STATIC_DIR

pytestmark = needs_browser

LONG = "Maximiliane-Wilhelmine von Hohenzollern-Sigmaringen-Lauenburg"


def test_my_games_fits_a_390_pixel_phone(ctx, sqlite_client):
    from playwright.sync_api import sync_playwright

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
    css = (STATIC_DIR / "style.css").read_text()
    html = html.replace('<link rel="stylesheet" href="/static/style.css">',
                        f"<style>{css}</style>")
    assert "<style>" in html
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            page = browser.new_page(viewport={"width": 390, "height": 800})
            page.set_content(html)
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= 390, f"the page scrolls sideways: {width}px"
            # every button is a readable label, not a bare symbol
            labels = page.eval_on_selector_all("button, a.button",
                                               "els => els.map(e => e.innerText.trim())")
            assert "Rematch: play again with the same players" in labels
            assert all(len(label) > 3 for label in labels), labels
            assert page.get_by_text(LONG).first.is_visible()
        finally:
            browser.close()
