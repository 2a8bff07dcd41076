"""A newcomer's whole way, from the home page to the archive, through the mails alone.

Alice has never used pbem: she starts a game of Visby for three from the home page,
confirms her address from the mail that asks her to, and invites Bob and Carol, who
have never used it either.  They take their seats from their invitation mails (which
name the game, the clock and the table); every move then starts at a link of the
player's latest turn mail; the result mail's archive link opens the game's page in the
archive, which links the game's data page.  The web app is the real one, the mail goes
through a real SMTP server, and the scheduler's tick delivers it (and builds the
archive).  The clock is frozen at noon: nobody's quiet hours hold the mail back.
"""

from __future__ import annotations

import random
from datetime import datetime

from freezegun import freeze_time
from test_mail_e2e import PEOPLE, Inbox, _follow
from web_helpers import forms_in, hrefs, move_forms, paths_in, post_form, text_part

from pbem.gamelog.records import replay
from pbem.lifecycle.records import game_record
from pbem.models import Game, Move, Player
from pbem.time.scheduler import tick
from pbem.web import create_app

NOON = datetime(2026, 3, 2, 12, 0, 0)


def _only_link(mail, prefix: str) -> str:
    [path] = {p for p in paths_in(text_part(mail)) if p.startswith(prefix)}
    return path


def test_a_newcomer_plays_a_game_of_three_from_the_mails_into_the_archive(
        smtp_ctx, smtp_server, database):
    with freeze_time(NOON, ignore=["asyncio", "aiosmtpd"]):
        _play(smtp_ctx, smtp_server)


def _play(ctx, smtp_server) -> None:
    assert not Player.select().exists()  # nobody has been here before
    app = create_app(ctx)
    browsers = {address: app.test_client() for address in PEOPLE}
    alice = browsers["alice@example.org"]

    # the home page leads to the new-game form, which links the game's data note; both say
    # in one sentence how much of the data is reconstructed, the note's paragraphs stay on
    # its own page
    home = alice.get("/")
    assert "/new" in hrefs(home.text) and "Reconstructed by pbem" not in home.text
    assert "which pbem reconstructed." in home.text
    form_page = alice.get("/new/visby")
    assert "/games/visby/data" in hrefs(form_page.text)
    assert "Reconstructed by pbem" not in form_page.text
    form = next(f for f in forms_in(form_page.text) if f.action == "/new/visby")
    created = post_form(alice, form, name="Alice", email="alice@example.org", players="3",
                        timezone="UTC",
                        **{"seat-1": "bob@example.org", "seat-2": "carol@example.org"})
    assert _follow(alice, created).status_code == 200
    tick(ctx)

    # a newcomer's first mail asks her to confirm her address; the invitations wait
    [confirm] = smtp_server.to("alice@example.org")
    assert smtp_server.to("bob@example.org") == smtp_server.to("carol@example.org") == []
    path = _only_link(confirm, "/c/")
    [form] = [f for f in forms_in(alice.get(path).text) if f.action == path]
    assert post_form(alice, form).status_code == 200
    tick(ctx)

    # Bob and Carol take their seats from their invitation mails
    for address in ("bob@example.org", "carol@example.org"):
        [invite] = smtp_server.to(address)
        text = text_part(invite)
        assert "Alice invites you to play Visby" in text
        assert "Clock: " in text and " days per move" in text
        assert "At the table: Alice, " in text and "reconstructed" not in text
        path = _only_link(invite, "/i/")
        page = browsers[address].get(path)
        assert page.status_code == 200
        assert "At the table: Alice, " in page.text and "Clock: " in page.text
        assert "reconstructed" not in page.text
        [form] = [f for f in forms_in(page.text) if f.action == path]
        joined = post_form(browsers[address], form, name=PEOPLE[address], timezone="UTC")
        assert _follow(browsers[address], joined).status_code == 200
    tick(ctx)
    game = Game.get()
    assert game.status == Game.ACTIVE

    # every move from a link of the latest turn mail (and a turn's later steps on the
    # page its confirmation leads to, while no new mail comes)
    inbox, rng = Inbox(smtp_server), random.Random(14)
    handled: set[str] = set()
    posts = 0
    while not all(inbox.of(a, " wins with ") or inbox.of(a, " share the win ")
                  for a in PEOPLE):
        waiting = [(a, m) for a in PEOPLE if (m := inbox.last_turn(a, handled)) is not None]
        assert waiting, "nobody has a turn mail to answer, but the game is not over"
        address, mail = rng.choice(waiting)
        handled.add(mail["Message-ID"])
        browser = browsers[address]
        link = rng.choice([p for p in paths_in(text_part(mail)) if p.startswith("/m/")])
        confirm_page = browser.get(link)
        assert confirm_page.status_code == 200, confirm_page.text
        [form] = [f for f in forms_in(confirm_page.text) if f.action == link]
        page = _follow(browser, post_form(browser, form))
        posts += 1
        tick(ctx)
        while inbox.last_turn(address, handled) is None and (forms := move_forms(page.text)):
            page = _follow(browser, post_form(browser, rng.choice(forms)))
            posts += 1
            tick(ctx)
        assert posts < 400, "the game does not end"
    tick(ctx)  # the archive is built by the tick after the end, if not by the last one

    game = Game.get_by_id(game.id)
    assert game.status == Game.FINISHED and game.archived_at is not None
    assert replay(game_record(game)) == game.state
    assert Move.select().where(Move.game == game, Move.kind == Move.PLAYER).count() == posts

    # the result mail's archive link opens the game's page in the archive
    for address in PEOPLE:
        [(_id, _first, result)] = [m for m in inbox.mails[address]
                                   if " wins with " in m[1] or " share the win " in m[1]]
        archive = _only_link(result, "/archive/")
        assert archive == f"/archive/games/{game.id}.html"
        page = browsers[address].get(archive)
        assert page.status_code == 200
        assert f"Visby #{game.id}" in page.text and "Carol" in page.text
        assert "visby-data.html" in hrefs(page.text)
        # and the personal list of games links it too
        mine = browsers[address].get(_only_link(result, "/me/"))
        assert archive in hrefs(mine.text)
    data = browsers["alice@example.org"].get("/archive/games/visby-data.html")
    assert data.status_code == 200 and "reconstructed" in data.text
    assert "Data version 1-reconstructed" in data.text or "data version 1-reconstructed" \
        in data.text
