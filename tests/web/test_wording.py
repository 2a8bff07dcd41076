"""Small slips in the words the pages say (issue 22, item 7): sentences glued together,
a sentence said twice or no longer true, and what a browser or a feed reader asks of
the server (the icon, the feed's type, the time zones, the way home from the archive)."""

from __future__ import annotations

import re
from html import unescape

from web_helpers import (
    finish,
    forms_in,
    latest_mail,
    paths_in,
    player,
    post_form,
    seat_path,
    table,
)

from pbem.archive import build, paths
from pbem.games import get_game
from pbem.games.protocol import SPECTATOR
from pbem.games.visby.words import EN, count
from pbem.lifecycle import create
from pbem.mail import compose
from pbem.models import Game, Player, Seat
from pbem.web.zones import is_zone, timezones

ALICE, BOB = "alice@example.org", "bob@example.org"


def _words(html: str) -> str:
    """A page's text as a reader sees it: tags, scripts and styles gone; a title (a
    picture's help, read on its own on hover or by a screen reader) apart from the
    words drawn beside it."""
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    html = re.sub(r"</?title>", " ", html)
    return " ".join(unescape(re.sub(r"<[^>]+>", "", html)).split())


def _glued(text: str) -> list[str]:
    """Sentences with no space between them ("mail on.Vacation")."""
    return re.findall(r"\w+[a-z][.;:][A-Z]\w+", text)


def test_the_seat_page_keeps_its_sentences_apart(ctx, client):
    table(ctx)
    text = _words(client.get(seat_path(latest_mail(ALICE))).text)
    assert "mail on. Vacation" in text
    assert not _glued(text)


def test_the_confirmation_page_keeps_its_sentences_apart(ctx, client):
    alice = player(ALICE, "Alice", confirmed=False)
    create.create_game(ctx, "visby", alice, [BOB])
    [path] = [p for p in paths_in(latest_mail(ALICE, "confirm").text_body) if p.startswith("/c/")]
    [form] = [f for f in forms_in(client.get(path).text) if f.action == path]
    text = _words(post_form(client, form).text)
    assert "on its way. The game starts" in text  # one invitation: Bob's
    assert not _glued(text)


def test_a_waiting_seat_page_says_when_the_game_starts_once(ctx, client):
    joined = create.create_game(ctx, "visby", player(ALICE, "Alice"), [BOB, "c@example.org"])
    [path] = [p for p in paths_in(latest_mail(BOB, "invite").text_body) if p.startswith("/i/")]
    [form] = [f for f in forms_in(client.get(path).text) if "/decline" not in f.action]
    form.fields.update({"name": "Bob"})
    seat = client.get(post_form(client, form).headers["Location"])
    assert Seat.get(Seat.game == joined, Seat.index == 1).player_id is not None
    text = _words(seat.text)
    assert "You have joined." in text
    assert text.count("The game starts when every seat is taken") == 1


def test_after_a_decline_nobody_is_waited_for_on_that_seat(ctx, client):
    game = create.create_game(ctx, "visby", player(ALICE, "Alice"), [BOB])
    create.decline_invite(ctx, game.id, 1, BOB)
    seat = Seat.get(Seat.game == game, Seat.index == 0)
    for page in (compose.seat_url(ctx, game, seat).removeprefix("http://pbem.test"),
                 f"/g/{game.id}"):
        text = _words(client.get(page).text)
        assert "Waiting for" not in text, page
        assert "1 seat is free: its invitation was declined." in text, page


def test_a_rematch_against_bots_says_it_has_started(ctx, client):
    old = finish(ctx, table(ctx, humans=1, bots=2))
    page = client.get(next(p for p in paths_in(latest_mail(ALICE, "result").text_body)
                           if p.startswith("/me/")))
    [form] = [f for f in forms_in(page.text) if "/rematch/" in f.action]
    done = post_form(client, form)
    new = Game.get(Game.rematch_of == old.id)
    assert new.status == Game.ACTIVE
    text = _words(client.get(done.headers["Location"]).text)
    assert f"The rematch Visby #{new.id} has started." in text
    assert "invited" not in text


def test_the_icon_is_served(client):
    icon = client.get("/favicon.ico")
    assert icon.status_code == 200 and icon.mimetype == "image/svg+xml"
    assert b"<svg" in icon.data
    assert 'rel="icon"' in client.get("/").text


def test_the_time_zones_are_the_canonical_names_and_the_browser_may_preset_one(ctx, client):
    zones = timezones()
    assert zones[0] == "UTC" and len(zones) < 450
    assert {"Europe/Berlin", "Europe/Amsterdam", "Asia/Kolkata", "America/New_York"} <= set(
        zones)
    assert not {"US/Eastern", "Asia/Calcutta", "Europe/Kiev", "GB"} & set(zones)
    assert is_zone("Asia/Calcutta") and not is_zone("Mars/Olympus")  # chosen before: kept
    page = client.get("/new/visby")
    assert "data-guess-zone" in page.text and "zone.js" in page.text
    assert "script-src 'self'" in page.headers["Content-Security-Policy"]
    assert client.get("/static/zone.js").status_code == 200
    # a player who chose an old spelling before still finds it chosen in their settings
    table(ctx)
    Player.update(timezone="Asia/Calcutta").where(Player.email == ALICE).execute()
    seat = client.get(seat_path(latest_mail(ALICE))).text
    settings = next(a for a in re.findall(r'href="([^"]+)"', seat) if "settings" in a)
    html = client.get(unescape(settings)).text
    assert '<option value="Asia/Calcutta" selected>' in html
    assert "data-guess-zone" not in html


def test_the_feed_is_atom_and_archive_pages_lead_home(ctx, client):
    finish(ctx, table(ctx))
    build(ctx.config.get("archive", "site_dir"))
    feed = client.get(f"/archive/{paths.FEED}")
    assert feed.status_code == 200 and feed.mimetype == "application/atom+xml"
    index = client.get("/archive/")
    assert '<a href="/">Home</a>' in index.text


def test_the_home_page_says_what_each_game_is_not_its_timeout_rules(client):
    text = client.get("/").text
    for name in ("visby", "tallinn"):  # riga's and macao's words: the lead's (issue 22)
        texts = get_game(name).texts("en")
        assert texts.default_move_note not in text and texts.description in text


def test_visby_says_one_good_and_no_exchange():
    w = EN
    line = w["final line"].format(name="Bot 2", seals=31, rest=1, rest_goods=count(w, "good", 1))
    assert line.strip() == "Bot 2: 31 (1 good left over)"
    rules = get_game("visby")
    state = rules.setup(3, {}, "7")
    view = rules.view(state, SPECTATOR)
    view["kurs"] = None  # the purse on a field without an exchange, as at many a game's end
    svg = rules.picture(view, ["A", "B", "C"], "en")
    assert "rate none" not in svg and "no exchange" in svg
