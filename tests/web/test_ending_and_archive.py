"""The end of a game as players read it (standing, headline, tie-breakers, the link to
the archive), the archive served by ``pbem serve`` under ``/archive/``, its feed's
absolute links and the calendar's links to the game."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from datetime import datetime

from freezegun import freeze_time
from web_helpers import finish, latest_mail, table

from pbem.archive import build, site_dir
from pbem.gamelog.standing import headline, standing
from pbem.games.protocol import Result
from pbem.models import Game, Player
from pbem.time import calendar
from pbem.web import create_app

NOON = datetime(2026, 3, 2, 12, 0, 0)
ATOM = "{http://www.w3.org/2005/Atom}"
NAMES = ["Alex", "Bob", "Carla", "Dora"]
GOODS, HAND = "goods left over after the 3:1 conversion", "cards in hand"


def _result(scores, tiebreaks) -> Result:
    from pbem.games.protocol import rank_by

    ranks = rank_by([(score, *tb) for score, tb in zip(scores, tiebreaks, strict=True)])
    return Result(scores=scores, ranks=ranks,
                  winners=[s for s, r in enumerate(ranks) if r == 1],
                  tiebreaks=tiebreaks, tiebreak_names=[GOODS, HAND],
                  details=[f"{{{s}}}: {score}" for s, score in enumerate(scores)])


def test_the_standing_is_by_place_and_names_only_the_tie_breakers_that_decided():
    st = standing(_result([36, 39, 36, 20], [[2, 5], [0, 0], [1, 5], [9, 9]]), NAMES)
    assert [(p.rank, p.name, p.score) for p in st.places] == [
        (1, "Bob", 39), (2, "Alex", 36), (3, "Carla", 36), (4, "Dora", 20)]
    assert st.decided_by == [GOODS]  # the cards in hand were never needed
    assert [p.tiebreaks for p in st.places] == [[], [(GOODS, 2)], [(GOODS, 1)], []]
    assert [p.winner for p in st.places] == [True, False, False, False]
    assert headline(st, "en") == "Bob wins with 39"
    assert headline(st, "de") == "Bob gewinnt mit 39"
    assert st.details[0] == "{0}: 36"

    # equal on the score and on the first tie-breaker: the second one decided
    st = standing(_result([30, 30, 12], [[1, 4], [1, 2], [0, 0]]), NAMES[:3])
    assert st.decided_by == [HAND]
    assert [(p.name, p.tiebreaks) for p in st.places] == [
        ("Alex", [(HAND, 4)]), ("Bob", [(HAND, 2)]), ("Carla", [])]


def test_a_shared_win_says_so_in_each_language():
    st = standing(_result([30, 12, 30], [[1, 2], [0, 0], [1, 2]]).to_json(), NAMES[:3])
    assert st.shared and [p.rank for p in st.places] == [1, 1, 3]
    assert st.decided_by == []  # the tie-breakers did not separate them
    assert headline(st, "en") == "Alex and Carla share the win with 30"
    assert headline(st, "de") == "Alex und Carla teilen sich den Sieg mit 30"


def _finished(ctx) -> Game:
    with freeze_time(NOON):
        return finish(ctx, table(ctx, humans=2, bots=1, seed=3))


def test_the_result_mail_and_the_pages_lead_with_the_winner_and_link_the_archive(ctx, client):
    game = _finished(ctx)
    st = standing(game.result, ["Alice", "Bob", "Bot 3"])
    first = st.places[0]
    mail = latest_mail("alice@example.org", "result")
    said = f"{first.name} wins with {first.score}" if not st.shared else headline(st, "en")
    assert mail.text_body.splitlines()[0] == f"Visby #{game.id}: {said}"
    assert mail.subject == f"Visby #{game.id} — Alice, Bob, Bot 3"
    body = mail.text_body
    places = [body.index(f"  {p.rank}. {p.name}: {p.score}") for p in st.places]
    assert places == sorted(places)  # by place, not by seat
    assert "How the final values came about:" in body and "at 3:1 = " in body
    archive = f"http://pbem.test/archive/games/{game.id}.html"
    assert archive in body and f'href="{archive}"' in mail.html_body

    page = client.get(f"/g/{game.id}").text
    section = page.split('id="result-h"', 1)[1].split("</section>", 1)[0]
    assert f"<strong>{said}</strong>" in section
    rows = [section.index(f'<th scope="row">{p.name}') for p in st.places]
    assert rows == sorted(rows)
    assert f'href="{archive}"' in section and "being written" in section
    assert "at 3:1 = " in section


def test_pbem_serve_serves_the_archive(ctx, client):
    game = _finished(ctx)
    assert 'href="/archive/"' in client.get("/").text  # the home page links it
    assert client.get("/archive/").status_code == 404  # not built yet: a page, no crash
    build(site_dir(ctx), site_key=ctx.base_url)

    index = client.get("/archive/")
    assert index.status_code == 200 and f"games/{game.id}.html" in index.text
    page = client.get(f"/archive/games/{game.id}.html")
    assert page.status_code == 200 and page.mimetype == "text/html"
    assert client.get("/archive").status_code == 308
    assert client.get("/archive/by-game").headers["Location"].endswith("/archive/by-game/")
    assert client.get("/archive/style.css").mimetype == "text/css"
    for bad in ("/archive/games/999.html", "/archive/../config.ini",
                "/archive/%2e%2e/instance/pbem.db", "/archive/.manifest.json",
                "/archive/games/..%2f..%2fsecret"):
        missing = client.get(bad)
        assert missing.status_code == 404, bad
        assert "<html" in missing.text and "Traceback" not in missing.text

    # the game's page now says its archive page is there
    section = client.get(f"/g/{game.id}").text.split('id="result-h"', 1)[1]
    assert "being written" not in section.split("</section>", 1)[0]

    # the feed's links are absolute: feed readers resolve a relative one against nothing
    feed = ET.parse(site_dir(ctx) / "feed.xml").getroot()
    hrefs = [link.get("href") for link in feed.iter(f"{ATOM}link")]
    assert f"http://pbem.test/archive/games/{game.id}.html" in hrefs
    assert "http://pbem.test/archive/feed.xml" in hrefs
    assert all(h.startswith("http://pbem.test/archive/") for h in hrefs)
    for href in hrefs:
        assert client.get(href.removeprefix("http://pbem.test")).status_code == 200


def test_a_site_built_without_a_base_url_keeps_relative_feed_links(ctx, tmp_path, database):
    _finished(ctx)
    build(tmp_path / "elsewhere")
    feed = ET.parse(tmp_path / "elsewhere" / "feed.xml").getroot()
    assert "games/1.html" in [link.get("href") for link in feed.iter(f"{ATOM}link")]


def test_calendar_events_link_the_game_but_hand_out_no_seat(ctx, app, database):
    with freeze_time(NOON):
        game = table(ctx, humans=2)
        alice = Player.get(Player.email == "alice@example.org")
        feed = calendar.build(ctx, alice, NOON)
    unfolded = feed.replace("\r\n ", "")
    assert f"URL:http://pbem.test/g/{game.id}\r\n" in unfolded
    assert f"The game: http://pbem.test/g/{game.id}" in unfolded
    assert "/s/" not in unfolded and "/m/" not in unfolded
    assert create_app(ctx).test_client().get(f"/g/{game.id}").status_code == 200
