"""Accessibility, as axe-core finds it in a real browser: the seat page (English and
German), the confirm page, the public page, all-your-games, the invitation and the
archive's game page and index, for every game.  Any serious or critical violation
fails, named with the elements it was found on.

axe-core is the vendored single file ``tests/vendor/axe-core/axe.min.js`` (MPL-2.0,
licence header kept), injected through playwright into Debian's chromium; pages come
from the Flask test client (the archive from its build) with their stylesheets
inlined.  Skips, saying why, where chromium or playwright is missing.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from browser_support import axe_violations, inline_app_css, inline_site_css, needs_browser
from web_helpers import finish, mid_game, paths_in, player

from pbem.archive import build
from pbem.games import get_game
from pbem.lifecycle import create, follow, join
from pbem.mail.compose import move_url
from pbem.models import Follower, Game, Outbox, Seat

pytestmark = needs_browser

GAMES = ("riga", "visby", "tallinn", "macao")


def _link(address: str, prefix: str, kind: str | None = None) -> str:
    mails = Outbox.select().where(Outbox.to_address == address)
    if kind:
        mails = mails.where(Outbox.kind == kind)
    for mail in mails.order_by(Outbox.id.desc()):
        found = [p for p in paths_in(mail.text_body) if p.startswith(prefix)]
        if found:
            return found[0]
    raise AssertionError(f"no {prefix} link mailed to {address}")


def _app_pages(ctx, client, name: str) -> tuple[Game, dict[str, str]]:
    game = mid_game(ctx, name)
    pages = {f"{name} seat page in English": _link("alice@example.org", "/s/"),
             f"{name} seat page in German": _link("bob@example.org", "/s/"),
             f"{name} public page": f"/g/{game.id}",
             "all your games": _link("alice@example.org", "/me/")}
    # the confirm page of a move of a person to move (a mailed link may be stale)
    rules = get_game(name)
    seat = next(Seat.get(Seat.game == game, Seat.index == i) for i in rules.to_move(game.state)
                if not Seat.get(Seat.game == game, Seat.index == i).bot)
    url = move_url(ctx, game, seat, rules.legal_moves(game.state, seat.index)[0])
    pages[f"{name} confirm page"] = url[url.index("/m/"):]
    carol = "carol@example.org"
    create.create_game(ctx, name, player("alice@example.org", "Alice"), [carol])
    pages[f"{name} invitation"] = _link(carol, "/i/", "invite")
    if name == "visby":  # the pages of issue 26 once: mail kinds, following, open games
        alice = player("alice@example.org", "Alice")
        pages["settings with a switch per kind of mail"] = \
            _link("alice@example.org", "/s/") + "/settings"
        fan = Follower.create(game=game, email="fan@example.net")
        pages["follow: confirm"] = paths_in(follow.link(ctx, fan))[0]
        pages["follow: stop"] = paths_in(follow.link(ctx, fan, "stop"))[0]
        open_game = create.create_game(ctx, name, alice, [create.OPEN_SEAT], seed=9)
        pages["open games"] = "/open"
        pages["join an open game"] = paths_in(join.link(ctx, open_game, "dora@example.net"))[0]
    htmls = {}
    for what, path in pages.items():
        response = client.get(path)
        assert response.status_code == 200, (what, path, response.status_code)
        htmls[what] = inline_app_css(response.text)
    return game, htmls


@pytest.mark.parametrize("name", GAMES)
def test_no_serious_violation_on_the_pages_of(ctx, sqlite_client, tab, name):
    game, pages = _app_pages(ctx, sqlite_client, name)
    finish(ctx, game)
    site = Path(ctx.config.get("archive", "site_dir"))
    build(site, full=True)
    pages[f"{name} archive game page"] = inline_site_css(
        (site / "games" / f"{game.id}.html").read_text())
    pages["archive index"] = inline_site_css((site / "index.html").read_text())
    found = {what: axe_violations(tab, html) for what, html in pages.items()}
    found = {what: v for what, v in found.items() if v}
    assert not found, "\n".join(f"{what}: {line}" for what, lines in found.items()
                                for line in lines)
