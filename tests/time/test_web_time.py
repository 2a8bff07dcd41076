"""The vacation form, taking a seat back from the bot and the ICS feed, through the web app."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
from time_helpers import player, seat, table, utc

from pbem.mail import compose
from pbem.models import Notice, Outbox, Player, Seat
from pbem.time import calendar
from pbem.web import create_app


@pytest.fixture
def client(ctx, database, frozen):
    return create_app(ctx).test_client()


@pytest.fixture
def game(ctx, database, frozen):
    anna = player("anna@example.de", "Anna", "Europe/Berlin")
    kenji = player("kenji@example.jp", "Kenji", "Asia/Tokyo")
    return table(ctx, [anna, kenji], {"days": 3})


def _seat_path(ctx, game, index) -> str:
    return urlsplit(compose.seat_url(ctx, game, seat(game, index))).path


def _csrf(html: str) -> str:
    return re.search(r'name="csrf_token" value="([^"]+)"', html).group(1)


def test_the_seat_page_shows_the_clock_and_links_vacation(ctx, client, game):
    html = client.get(_seat_path(ctx, game, 0)).get_data(as_text=True)
    assert "Thu 05 Mar 2026, 10:00 (Europe/Berlin)" in html and "</strong> (3 days left)." in html
    assert "Clock of this game: 3 days per move." in html
    assert f'href="{_seat_path(ctx, game, 0)}/vacation"' in html
    assert "/reclaim" not in html


def test_a_player_takes_vacation_from_their_page_and_comes_back(ctx, client, game):
    path = _seat_path(ctx, game, 0) + "/vacation"
    page = client.get(path)
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "3 so far this year" in html and "<strong>3</strong> left" in html  # March
    # her running clock, in her time
    assert "move by <strong>Thu 05 Mar 2026, 10:00 (Europe/Berlin)</strong>" in html
    assert "/calendar/" in html
    token = _csrf(html)

    refused = client.post(path, data={"action": "start", "days": "2"})
    assert refused.status_code == 400  # no CSRF token: nothing happens
    assert Player.get(Player.email == "anna@example.de").vacation_until is None

    done = client.post(path, data={"action": "start", "days": "2", "csrf_token": token})
    assert done.status_code == 303
    anna = Player.get(Player.email == "anna@example.de")
    assert anna.vacation_until == utc("2026-03-04 09:00") and anna.vacation_days_used == 2
    assert seat(game, 0).deadline == utc("2026-03-07 09:00")
    assert Notice.select().where(Notice.text.contains("on vacation for 2 days")).exists()
    told = f"Visby #{game.id}: Anna is on vacation"  # a thread mail's first line
    assert Outbox.select().where(Outbox.to_address == "kenji@example.jp",
                                 Outbox.text_body.startswith(told)).exists()
    html = client.get(path).get_data(as_text=True)
    assert "You are on vacation until" in html and "Wed 04 Mar 2026, 10:00" in html

    too_many = client.post(path, data={"action": "start", "days": "5", "csrf_token": token})
    assert too_many.status_code == 400
    back = client.post(path, data={"action": "end", "csrf_token": token})
    assert back.status_code == 303
    assert Player.get(Player.email == "anna@example.de").vacation_until is None
    assert seat(game, 0).deadline == utc("2026-03-05 09:00")


def test_the_owner_takes_the_seat_back_from_the_bot(ctx, client, game):
    Seat.update(bot=True, bot_replaced=True, timeouts_in_row=3, deadline=None,
                deadline_started=None).where(Seat.id == seat(game, 1).id).execute()
    path = _seat_path(ctx, game, 1) + "/reclaim"
    seat_page = client.get(_seat_path(ctx, game, 1)).get_data(as_text=True)
    assert "A bot plays your seat" in seat_page and f'href="{path}"' in seat_page
    page = client.get(path)
    assert page.status_code == 200 and "Take my seat back" in page.get_data(as_text=True)
    token = _csrf(page.get_data(as_text=True))
    assert client.post(path, data={}).status_code == 400
    done = client.post(path, data={"csrf_token": token})
    assert done.status_code == 303 and urlsplit(done.location).path == _seat_path(ctx, game, 1)
    s = seat(game, 1)
    assert not s.bot and not s.bot_replaced and s.timeouts_in_row == 0
    assert s.deadline == utc("2026-03-05 09:00")  # to move at once: a fresh clock
    again = client.get(path)
    assert again.status_code == 303  # nothing to take back any more


def test_the_calendar_feed_lists_current_deadlines(ctx, client, game):
    anna = Player.get(Player.email == "anna@example.de")
    url = compose.calendar_url(ctx, anna)
    feed = client.get(urlsplit(url).path)
    assert feed.status_code == 200 and feed.mimetype == "text/calendar"
    body = feed.get_data(as_text=True)
    assert body.startswith("BEGIN:VCALENDAR\r\n") and body.endswith("END:VCALENDAR\r\n")
    assert body.count("BEGIN:VEVENT") == 1
    assert "DTSTART:20260305T090000Z" in body
    assert f"UID:pbem-game{game.id}-seat0@pbem.test" in body
    assert "/s/" not in body and "/m/" not in body  # no seat or move links in a calendar
    assert all(len(line.encode()) <= 75 for line in body.split("\r\n"))
    forged = client.get(urlsplit(url).path.replace(".ics", "x.ics"))
    assert forged.status_code == 400
    # after her move the deadline leaves the feed
    from time_helpers import move_first

    move_first(ctx, game, 0)
    move_first(ctx, game, 0)
    assert "BEGIN:VEVENT" not in client.get(urlsplit(url).path).get_data(as_text=True)


def test_ics_text_is_escaped_and_folded():
    assert calendar.escape("a,b;c\\d\ne") == "a\\,b\\;c\\\\d\\ne"
    folded = calendar.fold("X:" + "é" * 60)
    assert all(len(part.encode()) <= 75 for part in folded.split("\r\n"))
    assert folded.replace("\r\n ", "") == "X:" + "é" * 60


def test_quiet_hours_and_the_digest_are_set_from_the_page_and_reminders_follow(ctx, client,
                                                                               game):
    path = _seat_path(ctx, game, 1)  # Kenji in Tokyo
    token = _csrf(client.get(path + "/vacation").get_data(as_text=True))
    before = seat(game, 1).remind_at
    assert before == utc("2026-03-03 12:00")  # 21:00 JST, an hour before his night
    bad = client.post(path + "/quiet", data={"quiet_start": "late", "quiet_end": "08:00",
                                             "csrf_token": token})
    assert bad.status_code == 400
    done = client.post(path + "/quiet", data={"quiet_start": "20:00", "quiet_end": "07:00",
                                              "digest": "on", "csrf_token": token})
    assert done.status_code == 303
    kenji = Player.get(Player.email == "kenji@example.jp")
    assert (kenji.quiet_start, kenji.quiet_end, kenji.digest) == ("20:00", "07:00", True)
    assert seat(game, 1).remind_at == utc("2026-03-03 10:00")  # 19:00 JST now


def test_the_calendar_feed_is_valid_icalendar(ctx, game):
    """RFC 5545: CRLF everywhere, folded lines, one DTSTAMP and UID per event, and no
    DTEND that is not later than DTSTART (3.8.2.2): a deadline is an instant, so the
    event has a DTSTART only (3.6.1: it then ends when it starts)."""
    Player.update(name="Anna; the, \\quick\nbrown " + "ü" * 40).where(
        Player.email == "anna@example.de").execute()
    anna = Player.get(Player.email == "anna@example.de")
    body = calendar.build(ctx, anna, utc("2026-03-02 09:00"))
    assert "\n" not in body.replace("\r\n", "") and "\r" not in body.replace("\r\n", "")
    assert all(len(line.encode()) <= 75 for line in body.split("\r\n"))
    unfolded = body.replace("\r\n ", "").split("\r\n")[:-1]
    assert "X-WR-CALNAME:pbem: deadlines of Anna\\; the\\, \\\\quick\\nbrown " + "ü" * 40 \
        in unfolded
    event = unfolded[unfolded.index("BEGIN:VEVENT"):unfolded.index("END:VEVENT")]
    props = {line.split(":", 1)[0].split(";")[0]: line.split(":", 1)[1] for line in event[1:]}
    assert props["DTSTAMP"] == "20260302T090000Z" and props["DTSTART"] == "20260305T090000Z"
    assert "DTEND" not in props or props["DTEND"] > props["DTSTART"]
    assert sum(line.startswith(("UID:", "DTSTAMP:")) for line in event) == 2
    # the same event (UID) tomorrow: a calendar updates it rather than adding another
    later = calendar.build(ctx, anna, utc("2026-03-03 09:00"))
    assert f"UID:pbem-game{game.id}-seat0@pbem.test" in later.replace("\r\n ", "")
