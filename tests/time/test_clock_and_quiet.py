"""Quiet hours, reminder points and deadlines as pure functions, across time zones and DST."""

from __future__ import annotations

from datetime import timedelta
from types import SimpleNamespace

import pytest
from time_helpers import BERLIN, LA, TOKYO, utc

from pbem.games.protocol import OptionError
from pbem.time import clock, quiet

POLICY = {"kind": "per_move", "days": 3, "reminders": ["50%", "24h"], "grace_hours": 12,
          "timeouts_before_bot": 3, "after_timeouts": "bot"}


def who(tz: str, start: str = "22:00", end: str = "08:00", until=None):
    return SimpleNamespace(timezone=tz, quiet_start=start, quiet_end=end, vacation_until=until)


def test_quiet_hours_are_the_players_local_night():
    monday_9_utc = utc("2026-03-02 09:00")
    assert not quiet.is_quiet(monday_9_utc, TOKYO, "22:00", "08:00")   # 18:00 in Tokyo
    assert not quiet.is_quiet(monday_9_utc, BERLIN, "22:00", "08:00")  # 10:00 in Berlin
    assert quiet.is_quiet(monday_9_utc, LA, "22:00", "08:00")          # 01:00 in LA
    assert quiet.deliverable_at(monday_9_utc, LA, "22:00", "08:00") == utc("2026-03-02 16:00")
    assert quiet.quiet_began_at(monday_9_utc, LA, "22:00", "08:00") == utc("2026-03-02 06:00")
    assert quiet.quiet_began_at(monday_9_utc, TOKYO, "22:00", "08:00") is None


def test_quiet_hours_end_at_the_local_hour_across_a_dst_change():
    # Los Angeles springs forward on Sunday 8 March 2026: 08:00 PDT is 15:00 UTC, not 16:00
    saturday_night = utc("2026-03-08 07:00")  # 23:00 PST on Saturday
    assert quiet.deliverable_at(saturday_night, LA, "22:00", "08:00") == utc("2026-03-08 15:00")
    # Berlin on Sunday 29 March 2026: the night starts at 22:00 CET and ends at 08:00 CEST
    night = utc("2026-03-28 23:00")  # 00:00 CET
    assert quiet.quiet_began_at(night, BERLIN, "22:00", "08:00") == utc("2026-03-28 21:00")
    assert quiet.deliverable_at(night, BERLIN, "22:00", "08:00") == utc("2026-03-29 06:00")


def test_a_quiet_window_inside_one_day_and_an_empty_one():
    assert quiet.is_quiet(utc("2026-03-02 13:00"), "UTC", "12:00", "14:00")
    assert not quiet.is_quiet(utc("2026-03-02 14:00"), "UTC", "12:00", "14:00")
    assert not quiet.is_quiet(utc("2026-03-02 03:00"), "UTC", "00:00", "00:00")


def test_reminders_at_halfway_and_a_day_before_move_out_of_each_players_night():
    start = utc("2026-03-02 09:00")
    deadline = start + timedelta(days=3)  # Thu 5 March 09:00 UTC
    # plain points: halfway Tue 3 March 21:00 UTC, 24 hours before: Wed 4 March 09:00 UTC
    assert clock.reminder_times(POLICY, start, deadline, None) == [
        utc("2026-03-03 21:00"), utc("2026-03-04 09:00")]
    # Tokyo: halfway is 06:00 JST, inside the night: an hour before it began (21:00 JST)
    assert clock.reminder_times(POLICY, start, deadline, who(TOKYO)) == [
        utc("2026-03-03 12:00"), utc("2026-03-04 09:00")]
    # Berlin: halfway is 22:00 CET, the night's first minute: 21:00 CET instead
    assert clock.reminder_times(POLICY, start, deadline, who(BERLIN)) == [
        utc("2026-03-03 20:00"), utc("2026-03-04 09:00")]
    # Los Angeles: a day before is 01:00 PST: 21:00 PST the evening before
    assert clock.reminder_times(POLICY, start, deadline, who(LA)) == [
        utc("2026-03-03 21:00"), utc("2026-03-04 05:00")]
    for tz in (TOKYO, BERLIN, LA):
        for at in clock.reminder_times(POLICY, start, deadline, who(tz)):
            assert not quiet.is_quiet(at, tz, "22:00", "08:00")


def test_reminder_points_that_coincide_are_one_and_points_before_the_start_are_dropped():
    one_day = dict(POLICY, days=1)
    start = utc("2026-03-02 09:00")
    # 24h before a one-day deadline is the start itself: only the halfway reminder is left
    assert clock.reminder_times(one_day, start, start + timedelta(days=1), None) == [
        utc("2026-03-02 21:00")]
    # a short turn (a time bank running low) from 21:30 to midnight in Berlin: both points
    # fall in the night, and an hour before it began (21:00) is before the turn started:
    # no reminder then, rather than one at once beside the turn mail
    late = utc("2026-03-02 20:30")
    short = dict(POLICY, reminders=["50%", "2h"])
    assert clock.reminder_times(short, late, late + timedelta(hours=2, minutes=30),
                                who(BERLIN)) == []
    same = dict(POLICY, reminders=["50%", "36h"])
    assert len(clock.reminder_times(same, start, start + timedelta(days=3), None)) == 1


def test_a_deadline_across_a_dst_change_is_exact_in_utc():
    game = SimpleNamespace(clock=POLICY)
    seat = SimpleNamespace(bot=False, deadline=None, deadline_started=None, bank_seconds=None,
                           player_id=1, player=who(BERLIN), reminders_sent=0, in_grace=False,
                           remind_at=None)
    start = utc("2026-03-27 12:00")  # Friday 13:00 CET; Berlin changes to CEST on Sunday
    clock.start_turn(game, seat, start)
    assert seat.deadline == utc("2026-03-30 12:00")  # exactly 72 hours later
    assert seat.deadline - seat.deadline_started == timedelta(hours=72)
    # ...which is 14:00 on Berlin's clock now that summer time has begun
    assert quiet.to_local(seat.deadline, BERLIN).strftime("%a %H:%M %Z") == "Mon 14:00 CEST"
    assert quiet.to_local(start, BERLIN).strftime("%H:%M %Z") == "13:00 CET"


def test_a_time_bank_spends_what_a_turn_used_and_adds_the_bonus():
    policy = {"kind": "bank", "initial_days": 2, "bonus_days": 1}
    game = SimpleNamespace(clock=policy)
    seat = SimpleNamespace(bot=False, deadline=None, deadline_started=None, bank_seconds=None,
                           player_id=None, reminders_sent=0, in_grace=False, remind_at=None)
    t = utc("2026-03-02 09:00")
    clock.start_turn(game, seat, t)
    assert seat.deadline == t + timedelta(days=2)
    clock.end_turn(game, seat, t + timedelta(hours=30))
    assert seat.bank_seconds == 18 * 3600
    clock.start_turn(game, seat, t + timedelta(days=2))
    assert seat.deadline == t + timedelta(days=2, hours=42)  # 18 hours left + 1 day bonus


def test_policies_are_checked_when_a_game_is_created(ctx):
    assert clock.resolve_policy(ctx, None)["reminders"] == ["50%", "24h"]
    assert clock.resolve_policy(ctx, {"reminders": "12h, 2h"})["reminders"] == ["12h", "2h"]
    for bad in ({"kind": "hourglass"}, {"days": 0}, {"reminders": ["soon"]},
                {"after_timeouts": "explode"}, {"grace_hours": -1}):
        with pytest.raises(OptionError):
            clock.resolve_policy(ctx, bad)


def test_the_ladder_and_durations_in_words():
    assert clock.format_duration(timedelta(days=2, hours=5, minutes=3)) == "2 days 5 hours"
    assert clock.format_duration(timedelta(hours=1, minutes=1)) == "1 hour 1 minute"
    assert clock.format_duration(timedelta(days=1, minutes=5)) == "1 day"
    assert clock.format_duration(timedelta(seconds=10)) == "less than a minute"
    text = clock.describe_ladder(POLICY)
    assert "grace period of 12 hours" in text and "3 timeouts in a row" in text
    assert "takes it back" in text
    assert "to the end" in clock.describe_ladder(dict(POLICY, after_timeouts="drop"))
