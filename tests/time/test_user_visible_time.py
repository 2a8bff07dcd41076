"""Time as players see it: the time left in words, each turn's reminders, quiet hours set
to the minute, a time bank nobody configured, coming back early from a vacation, and
stored times that stay UTC whatever the machine's own zone.

The frozen clock starts on Monday 2 March 2026 at 09:00 UTC (10:00 in Berlin, 18:00 in
Tokyo).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path
from types import SimpleNamespace
from urllib.parse import urlsplit

import pytest
from time_helpers import BERLIN, TOKYO, fresh, move_first, player, seat, table, utc

from pbem.games.protocol import OptionError
from pbem.mail import compose
from pbem.models import Notice, Player
from pbem.time import clock, quiet, vacation
from pbem.web import create_app


@pytest.fixture
def client(ctx, database, frozen):
    return create_app(ctx).test_client()


def _seat_page(ctx, client, game, index: int):
    path = urlsplit(compose.seat_url(ctx, game, seat(game, index))).path
    return client.get(path)


def _pair(ctx, policy: dict):
    aiko = player("aiko@example.jp", "Aiko", TOKYO)
    bernd = player("bernd@example.de", "Bernd", BERLIN)
    return aiko, bernd, table(ctx, [aiko, bernd], policy)


# -- the time left, in words ---------------------------------------------------------


def test_time_left_reads_in_the_two_largest_units_down_to_minutes():
    words = {
        timedelta(days=2, hours=5, minutes=3): "2 days 5 hours",
        timedelta(days=1, hours=1): "1 day 1 hour",
        timedelta(days=3): "3 days",
        timedelta(days=1, minutes=59): "1 day",  # no hole: not "1 day 59 minutes"
        timedelta(hours=2, minutes=30): "2 hours 30 minutes",
        timedelta(hours=1): "1 hour",
        timedelta(minutes=59, seconds=59): "59 minutes",
        timedelta(minutes=40): "40 minutes",
        timedelta(minutes=1): "1 minute",
        timedelta(seconds=59): "less than a minute",
        timedelta(0): "less than a minute",
    }
    assert {delta: clock.format_duration(delta) for delta in words} == words


def test_the_seat_page_shows_a_last_hour_in_minutes(ctx, client, frozen):
    """With less than an hour left, the page says how many minutes, not an error."""
    _aiko, _bernd, game = _pair(ctx, {"days": 1})
    deadline = seat(game, 1).deadline
    for left, words in ((timedelta(hours=1, minutes=5), "(1 hour 5 minutes left)"),
                        (timedelta(minutes=40), "(40 minutes left)"),
                        (timedelta(minutes=1), "(1 minute left)"),
                        (timedelta(seconds=20), "(less than a minute left)")):
        frozen.move_to(deadline - left)
        page = _seat_page(ctx, client, game, 1)
        assert page.status_code == 200, left
        assert words in page.text, left
        assert "Tue 03 Mar 2026, 10:00 (Europe/Berlin)" in page.text


# -- reminders, turn after turn -------------------------------------------------------


def test_every_turn_has_its_own_reminders(ctx, sim):
    """Bernd is reminded twice in his first turn; after his move a new turn begins, and
    he is reminded twice again, at its own halfway point and a day before its end."""
    aiko, bernd, game = _pair(ctx, {"days": 3})
    move_first(ctx, game, 0)
    move_first(ctx, game, 0)  # Aiko has chosen; Bernd's first turn runs to Thu 09:00 UTC
    sim.run_until(utc("2026-03-04 10:00"))
    first = [utc("2026-03-03 20:00"), utc("2026-03-04 09:00")]  # 21:00 CET; 10:00 CET
    assert [m.at for m in sim.mail.to(bernd.email, "reminder")] == first

    move_first(ctx, game, 1)
    move_first(ctx, game, 1)  # the round is decided: the next turn runs Wed 10:00 to Sat
    s = seat(game, 1)
    assert (s.deadline_started, s.deadline) == (utc("2026-03-04 10:00"),
                                                 utc("2026-03-07 10:00"))
    sim.run_until(utc("2026-03-07 09:59"))
    # halfway is Thu 23:00 CET, in his night: an hour before it begins (21:00 CET);
    # a day before the end is Fri 11:00 CET
    second = [utc("2026-03-05 20:00"), utc("2026-03-06 10:00")]
    assert [m.at for m in sim.mail.to(bernd.email, "reminder")] == first + second
    # Aiko's second turn: halfway is Fri 07:00 JST, so Thu 21:00 JST; then Fri 19:00 JST
    assert [m.at for m in sim.mail.to(aiko.email, "reminder")] == [
        utc("2026-03-05 12:00"), utc("2026-03-06 10:00")]
    assert "You have 1 day left" in sim.mail.to(bernd.email, "reminder")[-1].text


# -- quiet hours to the minute -------------------------------------------------------------


def test_quiet_hours_may_start_and_end_at_any_minute():
    """Bernd sleeps from 22:30 to 07:45 in Berlin (UTC+1 in March)."""
    start, end = "22:30", "07:45"
    assert not quiet.is_quiet(utc("2026-03-02 21:29"), BERLIN, start, end)  # 22:29
    assert quiet.is_quiet(utc("2026-03-02 21:30"), BERLIN, start, end)  # 22:30
    assert quiet.is_quiet(utc("2026-03-03 06:44"), BERLIN, start, end)  # 07:44
    assert not quiet.is_quiet(utc("2026-03-03 06:45"), BERLIN, start, end)  # 07:45
    # a mail at 23:00 waits until 07:45; the night it lies in began at 22:30
    assert quiet.deliverable_at(utc("2026-03-02 22:00"), BERLIN, start, end) == utc(
        "2026-03-03 06:45")
    assert quiet.quiet_began_at(utc("2026-03-02 22:00"), BERLIN, start, end) == utc(
        "2026-03-02 21:30")
    # a reminder due at 22:45 goes out at 21:30, an hour before his night
    sleeper = SimpleNamespace(timezone=BERLIN, quiet_start=start, quiet_end=end)
    policy = {"reminders": ["50%"]}
    begun = utc("2026-03-02 09:45")
    assert clock.reminder_times(policy, begun, begun + timedelta(days=3), sleeper) == [
        utc("2026-03-03 20:30")]
    # at 22:00 he is still awake: a reminder then stays where it is
    early = utc("2026-03-02 09:00")
    assert clock.reminder_times(policy, early, early + timedelta(days=3), sleeper) == [
        utc("2026-03-03 21:00")]


def test_quiet_hours_within_one_day_begin_at_their_first_minute():
    """A siesta from 12:00 to 14:00 in Berlin: quiet from 12:00 sharp to 13:59."""
    for when, asleep in (("10:59", False), ("11:00", True), ("12:59", True), ("13:00", False)):
        assert quiet.is_quiet(utc(f"2026-03-02 {when}"), BERLIN, "12:00", "14:00") is asleep
    assert quiet.deliverable_at(utc("2026-03-02 11:00"), BERLIN, "12:00", "14:00") == utc(
        "2026-03-02 13:00")
    # whole hours without minutes are on the hour
    assert quiet.is_quiet(utc("2026-03-02 11:00"), BERLIN, "12", "14")
    assert quiet.deliverable_at(utc("2026-03-02 11:00"), BERLIN, "12", "14") == utc(
        "2026-03-02 13:00")


def test_mail_held_for_the_morning_waits_for_the_next_morning_still_to_come():
    """A digest is made at the end of the player's night; at that very minute the next
    one is a day later, never the moment that has just come."""
    eight = utc("2026-03-03 07:00")  # 08:00 in Berlin
    assert quiet.next_local_time(eight - timedelta(seconds=1), BERLIN, "08:00") == eight
    assert quiet.next_local_time(eight, BERLIN, "08:00") == eight + timedelta(days=1)


def test_quiet_hours_set_to_the_minute_on_the_page_move_the_reminders(ctx, client):
    _aiko, _bernd, game = _pair(ctx, {"days": 3})
    path = urlsplit(compose.seat_url(ctx, game, seat(game, 1))).path
    page = client.get(path + "/vacation").text
    token = page.split('name="csrf_token" value="', 1)[1].split('"', 1)[0]
    assert seat(game, 1).remind_at == utc("2026-03-03 20:00")  # 21:00 CET: before 22:00
    done = client.post(path + "/quiet", data={"quiet_start": "22:30", "quiet_end": "07:45",
                                              "csrf_token": token})
    assert done.status_code == 303
    bernd = Player.get(Player.email == "bernd@example.de")
    assert (bernd.quiet_start, bernd.quiet_end) == ("22:30", "07:45")
    # halfway, 22:00 CET, is before his night now: it stays where it falls
    assert seat(game, 1).remind_at == utc("2026-03-03 21:00")
    shown = client.get(path + "/vacation").text
    assert 'value="22:30"' in shown and 'value="07:45"' in shown


# -- a time bank nobody configured ----------------------------------------------------------


def test_a_time_bank_chosen_without_numbers_gives_seven_days_and_one_per_move(ctx, client,
                                                                               frozen):
    policy = clock.resolve_policy(ctx, {"kind": "bank"})
    assert (policy["initial_days"], policy["bonus_days"]) == (7, 1)
    assert clock.describe_policy(policy) == "a time bank of 7 days plus 1 per move"
    _aiko, _bernd, game = _pair(ctx, {"kind": "bank"})
    assert seat(game, 0).deadline == utc("2026-03-09 09:00")
    assert "Clock of this game: a time bank of 7 days plus 1 per move." in _seat_page(
        ctx, client, game, 0).text
    frozen.move_to(utc("2026-03-04 09:00"))  # Aiko takes two days of her seven
    move_first(ctx, game, 0)
    move_first(ctx, game, 0)
    assert seat(game, 0).bank_seconds == 5 * 86_400
    move_first(ctx, game, 1)
    move_first(ctx, game, 1)  # the next turn: five days left and a day's bonus
    assert seat(game, 0).deadline == utc("2026-03-10 09:00")
    # the numbers a creator gives are checked as given
    assert clock.resolve_policy(ctx, {"kind": "bank", "initial_days": 90,
                                      "bonus_days": 0})["initial_days"] == 90
    assert clock.resolve_policy(ctx, {"kind": "bank", "initial_days": 1,
                                      "bonus_days": 30})["bonus_days"] == 30
    for wrong in ({"initial_days": 0.5}, {"initial_days": 91}, {"bonus_days": -1},
                  {"bonus_days": 31}):
        with pytest.raises(OptionError):
            clock.resolve_policy(ctx, {"kind": "bank", **wrong})


# -- coming back early from a vacation -------------------------------------------------------


def test_coming_back_early_brings_the_remaining_reminders_of_the_turn_back_too(ctx, sim):
    """Bernd was reminded once, went away for five days and came back after one: the
    turn moved by that one day, he is not reminded of the point he had already been
    reminded of, and the other reminder comes at its place in the moved turn."""
    sim.at(utc("2026-07-06 09:00"))  # July: days enough for a vacation
    _aiko, bernd, game = _pair(ctx, {"days": 3})
    move_first(ctx, game, 0)
    move_first(ctx, game, 0)  # Bernd's turn: Mon 09:00 to Thu 09:00 UTC
    sim.run_until(utc("2026-07-07 20:00"))
    # halfway, Tue 23:00 CEST, moved to 21:00 CEST
    assert [m.at for m in sim.mail.to(bernd.email, "reminder")] == [utc("2026-07-07 19:00")]

    until = vacation.start(ctx, bernd.id, 5, sim.now)
    assert seat(game, 1).deadline == utc("2026-07-14 09:00")
    sim.run_until(utc("2026-07-08 20:00"))
    vacation.end(ctx, bernd.id, sim.now)  # a day later, four days early
    assert until - sim.now == timedelta(days=4)
    s = seat(game, 1)
    assert (s.deadline_started, s.deadline) == (utc("2026-07-07 09:00"),
                                                utc("2026-07-10 09:00"))
    assert Player.get_by_id(bernd.id).vacation_days_used == 1
    assert any("back from vacation early" in n.text for n in Notice.select())
    sim.run_until(utc("2026-07-10 08:59"))
    # the day before the moved deadline: Thu 11:00 CEST, and nothing else
    assert [m.at for m in sim.mail.to(bernd.email, "reminder")] == [
        utc("2026-07-07 19:00"), utc("2026-07-09 09:00")]
    assert fresh(game).status == "active" and not seat(game, 1).in_grace


def test_a_vacation_ended_before_any_reminder_gives_the_turns_reminders_their_new_places(
        ctx, sim):
    sim.at(utc("2026-07-06 09:00"))
    _aiko, bernd, game = _pair(ctx, {"days": 3})
    move_first(ctx, game, 0)
    move_first(ctx, game, 0)
    sim.run_until(utc("2026-07-06 12:00"))
    vacation.start(ctx, bernd.id, 5, sim.now)
    sim.run_until(utc("2026-07-08 09:00"))
    assert sim.mail.to(bernd.email, "reminder") == []  # none while he is away
    vacation.end(ctx, bernd.id, sim.now)
    # away Mon 12:00 to Wed 09:00: the turn moved by 45 hours, to Wed 06:00 - Sat 06:00
    assert seat(game, 1).deadline == utc("2026-07-11 06:00")
    sim.run_until(utc("2026-07-11 05:59"))
    # halfway Thu 20:00 CEST; a day before, Fri 08:00 CEST (his night ends at 08:00)
    assert [m.at for m in sim.mail.to(bernd.email, "reminder")] == [
        utc("2026-07-09 18:00"), utc("2026-07-10 06:00")]


# -- UTC whatever the machine's zone -----------------------------------------------------


@pytest.fixture
def machine_in_auckland():
    """This process's local time zone is Auckland (UTC+13 in March) for the test."""
    before = os.environ.get("TZ")
    os.environ["TZ"] = "Pacific/Auckland"
    time.tzset()
    try:
        yield
    finally:
        if before is None:
            del os.environ["TZ"]
        else:
            os.environ["TZ"] = before
        time.tzset()


def test_a_player_whose_zone_this_server_does_not_know_lives_on_utc(machine_in_auckland):
    """A zone name that the machine's time zone data lacks (renamed, or typed by an older
    version) is read as UTC, never as the zone the server happens to run in."""
    assert quiet.zone("Mars/Olympus") == quiet.UTC
    late = utc("2026-03-02 23:00")
    assert quiet.to_local(late, "Mars/Olympus").strftime("%H:%M") == "23:00"
    assert quiet.is_quiet(late, "Mars/Olympus", "22:00", "08:00")
    assert quiet.deliverable_at(late, "Mars/Olympus", "22:00", "08:00") == utc(
        "2026-03-03 08:00")
    assert quiet.from_local(late.date(), late.time(), "Mars/Olympus") == late
    assert "23:00" in compose.format_local(late, "Mars/Olympus")


def test_stored_times_are_utc_on_a_machine_in_another_time_zone():
    """The server's clock and the quiet hours do not depend on the machine's zone: on a
    machine set to Auckland (UTC+13 in March) now is still UTC, and Berlin is Berlin."""
    script = (
        "import time, datetime\n"
        "from pbem.models import utcnow\n"
        "from pbem.time import quiet\n"
        "now = utcnow()\n"
        "real = datetime.datetime.fromtimestamp(time.time(), datetime.UTC)\n"
        "assert now.tzinfo is None and abs((real.replace(tzinfo=None) - now).total_seconds())"
        " < 60, (now, real)\n"
        "assert time.localtime().tm_gmtoff != 0\n"
        "t = datetime.datetime(2026, 3, 2, 21, 30)\n"
        "assert quiet.to_local(t, 'Europe/Berlin').strftime('%H:%M') == '22:30'\n"
        "assert quiet.from_local(t.date(), datetime.time(22, 30), 'Europe/Berlin') == t\n"
        "print('ok')\n")
    env = dict(os.environ, TZ="Pacific/Auckland")
    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                          text=True, timeout=60, cwd=Path(__file__).resolve().parents[2])
    assert done.returncode == 0 and done.stdout == "ok\n", done.stderr
