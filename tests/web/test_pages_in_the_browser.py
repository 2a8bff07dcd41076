"""The pages a player meets, in a real browser at 390 and 1280 pixels: Debian's chromium,
driven by playwright.

Seat, confirm, public, my-games, invitation, the game's data page and the archive's game
page and index: none scrolls sideways, the table's picture is there with Visby's markers
on the fields the view says, the table in words (opened where it is folded) breaks no
word, and every button and link reads as words.  The pages come
from the Flask test client (the archive from its build) and reach the browser with their
stylesheets inlined, so no server runs.  Skips, saying why, where chromium or playwright
is missing; never downloads a browser.
"""

from __future__ import annotations

import re
from pathlib import Path

from browser_support import (
    inline_app_css,
    inline_site_css,
    needs_browser,
    show,
    table_in_words_unbroken,
)
from owed_bots import owed_bots_played
from web_helpers import finish, latest_mail, move_paths, paths_in, seat_path, table

from pbem.archive import build
from pbem.games import get_game
from pbem.games.visby import picture as visby_picture
from pbem.lifecycle import create, moves
from pbem.models import Game, Player, Seat

WIDTHS = (390, 1280)
#: a long name, as people have them, in the players table and the lists
LONG = "Maximiliane-Wilhelmine von Hohenzollern-Sigmaringen"


pytestmark = needs_browser


def _fits(page, what: str) -> None:
    scroll, inner = page.evaluate(
        "[document.scrollingElement.scrollWidth, window.innerWidth]")
    wide = [] if scroll <= inner else page.evaluate(
        """[...document.querySelectorAll('body *')]
        .filter(e => e.getBoundingClientRect().right > window.innerWidth + 1).slice(0, 5)
        .map(e => e.tagName + '.' + e.className + ': ' + (e.innerText || '').slice(0, 40))""")
    assert scroll <= inner, f"{what} scrolls sideways: {scroll}px in {inner}px, {wide}"
    # nor does a table or the table in words hide its ends inside a scrolling box of its
    # own (the picture may: on a phone it is drawn wider, so that its words stay readable;
    # and the archive's other preformatted texts may)
    hidden = page.evaluate("""[...document.querySelectorAll('body *')]
        .filter(e => (e.tagName !== 'PRE' || e.matches('pre.view-text'))
                && !e.matches('figure.table-picture')
                && e.scrollWidth > e.clientWidth + 1
                && ['auto', 'scroll', 'hidden'].includes(getComputedStyle(e).overflowX))
        .map(e => e.tagName + '.' + e.className + ' ' + e.scrollWidth + '>' + e.clientWidth)""")
    assert not hidden, f"{what}: {hidden}"


def _words(page, what: str) -> list[str]:
    """Every button's and link's text; each must be words, not a bare symbol or number.
    A link in the picture (a place to tap) is named by its title, its help."""
    # (a move's number that links to itself in the archive is its permalink, not a way on)
    labels = page.eval_on_selector_all(
        "button, a:not([href^='#'])", "els => els.filter(e => e.offsetParent !== null)"
        ".map(e => (e.innerText || e.getAttribute('aria-label')"
        " || (e.querySelector(':scope > title') || {}).textContent || '').trim())")
    assert labels, what
    bare = [lab for lab in labels if not re.search(r"[A-Za-zÄÖÜäöüß]{2}", lab)]
    assert not bare, f"{what}: buttons or links without words: {bare}"
    return labels


def _markers_where_the_view_says(page, view: dict, what: str) -> None:
    """Each Visby track's marker stands over the field the view gives, and that field's
    number is the one drawn bold; the captions say the same numbers."""
    fields = {"Feldzug": view["tracks"]["Feldzug"],
              "Handelsfahrt": view["tracks"]["Handelsfahrt"], "Markt": view["kurs_feld"]}
    assert page.locator("figure.table-picture svg").count() == 1, what
    for track, field in fields.items():
        colour = visby_picture.TRACK_COLOUR[track]
        found = page.evaluate("""colour => {
            const svg = document.querySelector('figure.table-picture svg');
            const marker = [...svg.querySelectorAll('path')]
                .find(p => (p.getAttribute('fill') || '').toLowerCase() === colour.toLowerCase());
            if (!marker) return null;
            const m = marker.getBoundingClientRect();
            const x = m.left + m.width / 2, below = m.bottom;
            // the number written in the field right under the marker's tip
            const numbers = [...svg.querySelectorAll('text')].filter(t => {
                const r = t.getBoundingClientRect();
                return /^\\d+$/.test(t.textContent) && r.top >= below - 1 && r.top < below + 40;
            });
            numbers.sort((a, b) => {
                const ra = a.getBoundingClientRect(), rb = b.getBoundingClientRect();
                return Math.abs(ra.left + ra.width / 2 - x) - Math.abs(rb.left + rb.width / 2 - x);
            });
            const n = numbers[0];
            return n ? [n.textContent, n.getAttribute('font-weight')] : null;
        }""", colour)
        assert found == [str(field), "700"], f"{what}: {track} marker on {found}, view {field}"
    captions = page.evaluate("""[...document.querySelectorAll('figure.table-picture svg text')]
        .map(t => t.textContent)""")
    assert f"Feldzug: {fields['Feldzug']} seal" in " | ".join(captions), what
    assert f"Markt: purse on field {fields['Markt']}," in " | ".join(captions), what


def _a_game_in_play(ctx) -> Game:
    """Three people and a bot, some rounds in, Bob with a long name."""
    game = table(ctx, humans=3, bots=1, seed=11)
    Player.update(name=LONG).where(Player.email == "bob@example.org").execute()
    import random

    rules, rng = get_game("visby"), random.Random(4)
    for _ in range(12):  # a few moves, so the markers have left their start fields
        game = owed_bots_played(ctx, game)
        seat = min(rules.to_move(game.state))
        menu = Seat.get(Seat.game == game, Seat.index == seat).menu_seq
        moves.play(ctx, game.id, seat, rng.choice(rules.legal_moves(game.state, seat)),
                   menu_seq=menu)
    return Game.get_by_id(game.id)


def test_the_game_pages_at_390_and_1280_pixels(ctx, sqlite_client, tab):
    client = sqlite_client
    game = _a_game_in_play(ctx)
    rules = get_game("visby")
    to_move = rules.to_move(game.state)
    assert to_move, "the game is over too soon for the test"
    mover = Seat.get(Seat.game == game, Seat.index == to_move[0]).player
    mail = latest_mail(mover.email)
    seat_html = client.get(seat_path(mail)).text
    confirm_html = client.get(move_paths(mail)[0]).text
    public_html = client.get(f"/g/{game.id}").text
    data_html = client.get("/games/visby/data").text
    # a seat that waits sees its own last turn in the history, marked as its own
    waiting = next(s for s in Seat.select().where(Seat.game == game, Seat.bot == False)  # noqa: E712
                   .order_by(Seat.index) if s.index not in to_move)
    waiting_html = client.get(seat_path(latest_mail(waiting.player.email))).text
    pages = {"seat page": (seat_html, rules.view(game.state, to_move[0])),
             "confirm page": (confirm_html, rules.view(game.state, to_move[0])),
             "public page": (public_html, rules.view(game.state, None)),
             "data page": (data_html, None)}
    for what in ("seat page", "public page"):  # the game's pages link its data note
        assert "/games/visby/data" in pages[what][0], what
    for width in WIDTHS:
        # the HTML mail has no stylesheet at all: its table in words must fit as it is
        page = show(tab, mail.html_body, width)
        assert page.locator("pre.view-text").count() == 1
        table_in_words_unbroken(page, f"the turn mail at {width}px")
        _fits(page, f"the turn mail at {width}px")
        assert page.get_by_text(LONG).first.is_visible()
        page = show(tab, inline_app_css(waiting_html), width)
        _fits(page, f"a waiting seat's page at {width}px")
        mine = page.eval_on_selector_all("ul.recent li.mine", "els => els.map(e => "
                                         "[e.innerText, getComputedStyle(e).backgroundColor])")
        others = page.eval_on_selector_all("ul.recent li:not(.mine)",
                                           "els => els.map(e => e.innerText)")
        assert mine and others, (mine, others)
        assert all(text.endswith("(you)") and colour != "rgba(0, 0, 0, 0)"
                   for text, colour in mine), mine
        assert not any("(you)" in text for text in others), others
        for what, (html, view) in pages.items():
            page = show(tab, inline_app_css(html), width)
            if view is not None:  # measured open, then the page must fit
                table_in_words_unbroken(page, f"{what} at {width}px")
            _fits(page, f"{what} at {width}px")
            labels = _words(page, f"{what} at {width}px")
            if view is not None:
                _markers_where_the_view_says(page, view, f"{what} at {width}px")
                assert page.get_by_text(LONG).first.is_visible()
            if what in ("seat page", "public page"):
                assert "About the data of Visby" in labels
            if what == "seat page":
                assert any(lab.startswith("Play ") or lab.startswith("Choose ")
                           or len(lab.split()) >= 2 for lab in labels)
                assert "All your games" in labels
            if what == "confirm page":
                assert page.locator("button[type=submit]").count() >= 1
                assert all(len(b.split()) >= 2 for b in page.eval_on_selector_all(
                    "button", "els => els.map(e => e.innerText.trim())")), what
            if what == "data page":
                assert page.get_by_text("data version 1-reconstructed").count() or \
                    page.get_by_text("Data version").count()


def test_my_games_and_the_invitation_at_390_and_1280_pixels(ctx, sqlite_client, tab):
    client = sqlite_client
    done = finish(ctx, table(ctx, humans=3, bots=1))
    _a_game_in_play(ctx)
    alice = Player.get(Player.email == "alice@example.org")
    create.create_game(ctx, "visby", alice,
                       ["someone.with.a.very.long.address@example.org", "bob@example.org"],
                       clock_policy={"kind": "per_move", "days": 3})
    [mine] = {p for p in paths_in(latest_mail("alice@example.org").text_body)
              if p.startswith("/me/")}
    mine_html = client.get(mine).text
    assert f"/archive/games/{done.id}.html" in mine_html  # a finished game links its page
    invite = latest_mail("someone.with.a.very.long.address@example.org", "invite")
    [invite_path] = [p for p in paths_in(invite.text_body) if p.startswith("/i/")]
    invite_html = client.get(invite_path).text
    ended_html = client.get(f"/g/{done.id}").text  # the result, its table and the links
    assert "Final result" in ended_html
    for width in WIDTHS:
        page = show(tab, inline_app_css(ended_html), width)
        table_in_words_unbroken(page, f"a finished game's page at {width}px")
        _fits(page, f"a finished game's page at {width}px")
        labels = _words(page, f"a finished game's page at {width}px")
        assert "This game in the archive" in labels and "About the data of Visby" in labels
        page = show(tab, inline_app_css(mine_html), width)
        _fits(page, f"my games at {width}px")
        labels = _words(page, f"my games at {width}px")
        assert "Rematch: play again with the same players" in labels
        assert any(lab.startswith("This game in the archive") for lab in labels), labels
        page = show(tab, inline_app_css(invite_html), width)
        _fits(page, f"invitation at {width}px")
        labels = _words(page, f"invitation at {width}px")
        assert "Take my seat" in labels and "No thanks, I decline" in labels
        text = page.inner_text("main")
        assert "Alice invites you to Visby" in text
        assert "3 days per move" in text  # the clock
        # the other players: Alice, and the seats still to answer (no address shown)
        assert "At the table: Alice, (invited: seat 2), (invited: seat 3)." in text
        assert "example.org" not in text.replace(
            "You join as someone.with.a.very.long.address@example.org", "")
        assert "reconstructed" not in text  # the data note is on its own page


def test_the_archive_at_390_and_1280_pixels(ctx, sqlite_database, tab):
    games = [finish(ctx, table(ctx, humans=3, bots=bots, seed=seed), seed=seed)
             for bots, seed in ((1, 2), (3, 3))]
    Player.update(name=LONG).where(Player.email == "bob@example.org").execute()
    site = Path(ctx.config.get("archive", "site_dir"))
    build(site, full=True)
    pages = {"archive index": site / "index.html",
             "archive game page": site / "games" / f"{games[0].id}.html",
             "archive data page": site / "games" / "visby-data.html",
             "archive game list": site / "by-game" / "visby.html"}
    for what, path in pages.items():
        html = inline_site_css(path.read_text())
        if what == "archive game page":
            assert 'href="visby-data.html"' in html
        if what == "archive game list":
            assert 'href="../games/visby-data.html"' in html
        for width in WIDTHS:
            page = show(tab, html, width)
            _fits(page, f"{what} at {width}px")
            _words(page, f"{what} at {width}px")
            if what == "archive index":
                moves_header = page.get_by_text("Moves", exact=True).first
                box = moves_header.bounding_box()
                assert box is not None and box["x"] + box["width"] <= width, (
                    f"the Moves column is cut off at {width}px: {box}")
            if what == "archive game page":
                assert page.locator("svg, img").count() >= 1  # the pictures of the rounds
            if what == "archive data page":
                assert "reconstructed" in page.inner_text("main")


def test_a_tallinn_table_fits_too(ctx, sqlite_client, tab):
    """The pages work for any game: Tallinn's seat and public pages and its turn mail."""
    people = [create.get_or_create_player(e, n, quiet_start="00:00", quiet_end="00:00")
              for e, n in (("alice@example.org", "Alice"), ("bob@example.org", LONG),
                           ("carol@example.org", "Carol"))]
    game = create.create_game(ctx, "tallinn", people[0], [people[1].email, None],
                              options={"legat": True}, seed=3)
    create.accept_invite(ctx, game, Seat.get(Seat.game == game, Seat.index == 1), people[1])
    mail = latest_mail("bob@example.org")
    pages = {"Tallinn seat page": inline_app_css(sqlite_client.get(seat_path(mail)).text),
             "Tallinn public page": inline_app_css(sqlite_client.get(f"/g/{game.id}").text),
             "Tallinn turn mail": mail.html_body}
    finish(ctx, game)  # and the final scoring, in the table in words, at the end
    pages["Tallinn's end"] = inline_app_css(sqlite_client.get(f"/g/{game.id}").text)
    assert "\nFinal scoring:\n" in pages["Tallinn's end"]
    for width in WIDTHS:
        for what, html in pages.items():
            page = show(tab, html, width)
            assert page.locator("pre.view-text").count() == 1, what
            table_in_words_unbroken(page, f"{what} at {width}px")
            _fits(page, f"{what} at {width}px")
            _words(page, f"{what} at {width}px")
            if what in ("Tallinn seat page", "Tallinn public page"):
                assert page.locator("figure.table-picture svg").count() == 1, what
                assert "About the data of Tallinn" in page.inner_text("main")


def test_a_german_players_seat_and_confirm_pages_at_390_pixels(ctx, sqlite_client, tab):
    """German words run longer than English ones: the pages still fit a phone."""
    game = _a_game_in_play(ctx)
    Player.update(language="de").where(Player.email == "bob@example.org").execute()
    mail = latest_mail("bob@example.org")
    pages = {"seat": seat_path(mail)}
    links = move_paths(mail)
    if links and get_game("visby").to_move(game.state):
        pages["confirm"] = links[0]
    for what, path in pages.items():
        response = sqlite_client.get(path)
        if response.status_code != 200:  # a move link of an earlier decision
            continue
        page = show(tab, inline_app_css(response.text), 390)
        assert page.evaluate("document.documentElement.lang") == "de", what
        table_in_words_unbroken(page, f"German {what} page at 390px")
        _fits(page, f"German {what} page at 390px")
        labels = _words(page, f"German {what} page")
        assert "Alle deine Spiele" in labels or what == "confirm", labels
        body = page.inner_text("main")
        assert ("Tischgespräch" in body) if what == "seat" else ("Bestätige" in body)
