"""A game's clock as its creator chooses it and as its players live with it: the limits
of every setting, games created before a setting existed, the clock in words, and what
a turn's time does when a vacation, a grace period or a bot comes in between."""

from __future__ import annotations

from datetime import timedelta
from types import SimpleNamespace

import pytest
from time_helpers import BERLIN, utc

from pbem import i18n
from pbem.games.protocol import OptionError
from pbem.time import clock

T0 = utc("2026-03-02 09:00")  # Monday 10:00 in Berlin


def _seat(player=None, **fields):
    values = dict(bot=False, deadline=None, deadline_started=None, bank_seconds=None,
                  player_id=None if player is None else 1, player=player,
                  reminders_sent=0, in_grace=False, remind_at=None)
    values.update(fields)
    return SimpleNamespace(**values)


def _away_until(until):
    return SimpleNamespace(timezone="UTC", quiet_start="00:00", quiet_end="00:00",
                           vacation_until=until)


# -- what a creator may choose ------------------------------------------------------------


@pytest.mark.parametrize("given, fine", [
    ({"days": 1}, True), ({"days": 60}, True), ({"days": 0.9}, False), ({"days": 61}, False),
    ({"kind": "bank", "initial_days": 1}, True), ({"kind": "bank", "initial_days": 0.9}, False),
    ({"kind": "bank", "initial_days": 90}, True), ({"kind": "bank", "initial_days": 91}, False),
    ({"kind": "bank", "bonus_days": 0}, True), ({"kind": "bank", "bonus_days": -0.1}, False),
    ({"kind": "bank", "bonus_days": 30}, True), ({"kind": "bank", "bonus_days": 30.5}, False),
    ({"grace_hours": 0}, True), ({"grace_hours": 168}, True), ({"grace_hours": 169}, False),
    ({"grace_hours": -1}, False),
    ({"timeouts_before_bot": 1}, True), ({"timeouts_before_bot": 50}, True),
    ({"timeouts_before_bot": 0}, False), ({"timeouts_before_bot": 51}, False),
    ({"timeouts_before_bot": 2.5}, False),
    ({"after_timeouts": "drop"}, True), ({"after_timeouts": "bot"}, True),
    ({"after_timeouts": "nothing"}, False), ({"kind": "sundial"}, False),
    ({"reminders": ["1%", "99%"]}, True), ({"reminders": ["0%"]}, False),
    ({"reminders": ["100%"]}, False), ({"reminders": ["1440h"]}, True),
    ({"reminders": ["1441h"]}, False), ({"reminders": ["0h"]}, False),
    ({"reminders": ["0.5h"]}, True), ({"reminders": ["an hour"]}, False),
    ({"reminders": []}, True),
])
def test_a_creator_may_choose_a_clock_within_its_limits(ctx, given, fine):
    """The new-game form's limits: 1 to 60 days per move; a bank of 1 to 90 days and a
    bonus of 0 to 30; a grace period of 0 to 168 hours; 1 to 50 timeouts before a bot;
    reminders between 1% and 99% of a turn or up to 60 days before its end."""
    if fine:
        policy = clock.resolve_policy(ctx, given)
        assert {k: policy[k] for k in given} == given
    else:
        with pytest.raises(OptionError):
            clock.resolve_policy(ctx, given)


def test_without_a_choice_a_game_gets_the_operators_clock(tmp_path):
    from pbem.context import make_context

    ctx = make_context(server={"instance": str(tmp_path)}, clock={
        "days_per_move": "5", "reminders": "12h,  2h ,", "grace_hours": "6",
        "timeouts_before_bot": "2", "after_timeouts": "drop"})
    assert clock.resolve_policy(ctx, None) == {
        "kind": "per_move", "days": 5, "reminders": ["12h", "2h"], "grace_hours": 6.0,
        "timeouts_before_bot": 2, "after_timeouts": "drop"}
    # what the creator chose wins; reminders typed into the form are split there
    assert clock.resolve_policy(ctx, {"days": 2, "reminders": "50%,1h"})["reminders"] == [
        "50%", "1h"]
    with pytest.raises(OptionError, match="'soon'"):
        clock.resolve_policy(ctx, {"reminders": "soon"})


def test_reminder_points_read_as_a_share_of_the_turn_or_hours_before_its_end():
    assert clock.parse_point("50%") == ("elapsed", 0.5)
    assert clock.parse_point(" 12.5 % ") == ("elapsed", 0.125)
    assert clock.parse_point("24h") == ("left", 24 * 3600)
    assert clock.parse_point(2) == ("left", 2 * 3600)  # a bare number is hours
    assert clock.parse_point(1.5) == ("left", 1.5 * 3600)


def test_a_game_created_before_these_settings_existed_keeps_its_old_clock():
    """Games created by an older pbem have no grace, ladder or reminder points stored:
    they get what those versions did (12 hours' grace, a bot after 3 timeouts, one
    reminder a day before, or the hours they stored)."""
    old = {"kind": "per_move", "days": 3}
    assert clock.grace(old) == timedelta(hours=12)
    assert clock.timeouts_before_bot(old) == 3 and not clock.drops(old)
    assert clock.reminder_times(old, T0, T0 + timedelta(days=3), None) == [
        T0 + timedelta(days=2)]
    hours = dict(old, reminders_hours=[48, 6])
    assert clock.reminder_times(hours, T0, T0 + timedelta(days=3), None) == [
        T0 + timedelta(days=1), T0 + timedelta(days=2, hours=18)]
    assert clock.drops(dict(old, after_timeouts="drop"))
    assert clock.grace(dict(old, grace_hours=0)) == timedelta(0)


# -- the clock in words ----------------------------------------------------------------------


def test_the_clock_and_the_timeout_ladder_in_words():
    assert clock.describe_policy({"kind": "per_move", "days": 3}) == "3 days per move"
    assert clock.describe_policy({"kind": "per_move", "days": 1.5}) == "1.5 days per move"
    assert clock.describe_policy({"kind": "per_move", "days": 1}) == "1 day per move"
    assert clock.describe_policy({"kind": "bank", "initial_days": 1, "bonus_days": 1}) \
        == "a time bank of 1 day plus 1 per move"
    with i18n.in_language("de"):
        assert clock.describe_policy({"kind": "per_move", "days": 1}) == "1 Tag pro Zug"
        assert clock.describe_policy({"kind": "per_move", "days": 2}) == "2 Tage pro Zug"
    assert clock.describe_policy({"kind": "bank", "initial_days": 10, "bonus_days": 0.5}) \
        == "a time bank of 10 days plus 0.5 per move"
    assert clock.describe_ladder({"grace_hours": 6, "timeouts_before_bot": 2}) == (
        "When the time is up, everyone is told and a grace period of 6 hours begins, then "
        "the game's default move is played for the seat; after 2 timeouts in a row, a bot "
        "takes the seat until its owner takes it back with their link.")
    assert clock.describe_ladder({"grace_hours": 0, "timeouts_before_bot": 1,
                                  "after_timeouts": "drop"}) == (
        "When the time is up, the game's default move is played for the seat; after "
        "timeout, a bot plays the seat to the end.")


# -- a turn's time ---------------------------------------------------------------------------


def test_a_turn_gets_the_days_of_its_clock_and_a_step_of_it_does_not_restart_it():
    game = SimpleNamespace(clock={"kind": "per_move", "days": 2, "reminders": ["50%"]})
    s = _seat()
    clock.start_turn(game, s, T0)
    assert (s.deadline_started, s.deadline, s.remind_at) == (
        T0, T0 + timedelta(days=2), T0 + timedelta(days=1))
    s.reminders_sent, s.in_grace = 0, False
    clock.start_turn(game, s, T0 + timedelta(hours=5))  # a second step of the same turn
    assert (s.deadline_started, s.deadline) == (T0, T0 + timedelta(days=2))
    clock.end_turn(game, s, T0 + timedelta(hours=6))
    assert (s.deadline, s.deadline_started, s.remind_at, s.in_grace) == (None, None, None, False)
    clock.start_turn(game, s, T0 + timedelta(days=1))  # the next turn: a fresh clock
    assert s.deadline == T0 + timedelta(days=3) and s.reminders_sent == 0


def test_a_seat_from_an_older_database_gets_a_whole_turn_with_its_reminders():
    """pbem before turn starts were stored kept only the deadline: such a seat's next
    turn starts afresh, with its reminders, rather than running on without any."""
    game = SimpleNamespace(clock={"kind": "per_move", "days": 2, "reminders": ["50%"]})
    s = _seat(deadline=T0, deadline_started=None)
    clock.start_turn(game, s, T0)
    assert (s.deadline_started, s.deadline, s.remind_at) == (
        T0, T0 + timedelta(days=2), T0 + timedelta(days=1))


def test_a_turn_after_a_grace_period_starts_afresh():
    game = SimpleNamespace(clock={"kind": "per_move", "days": 1, "reminders": ["50%"]})
    s = _seat(in_grace=True, reminders_sent=1)
    clock.start_turn(game, s, T0)
    assert not s.in_grace and s.reminders_sent == 0 and s.remind_at == T0 + timedelta(hours=12)


def test_a_bot_has_no_clock():
    game = SimpleNamespace(clock={"kind": "per_move", "days": 2})
    s = _seat(bot=True, deadline=T0, deadline_started=T0, remind_at=T0, in_grace=True)
    clock.start_turn(game, s, T0)
    assert (s.deadline, s.deadline_started, s.remind_at, s.in_grace) == (None, None, None, False)


def test_a_time_bank_keeps_what_a_turn_left_and_loses_it_in_the_grace_period():
    game = SimpleNamespace(clock={"kind": "bank", "initial_days": 3, "bonus_days": 1,
                                  "reminders": []})
    s = _seat()
    clock.start_turn(game, s, T0)
    assert s.deadline == T0 + timedelta(days=3)
    clock.end_turn(game, s, T0 + timedelta(days=1))
    assert s.bank_seconds == 2 * 86_400  # two days kept
    clock.start_turn(game, s, T0 + timedelta(days=2))
    assert s.deadline == T0 + timedelta(days=5)  # two days and the bonus
    s.in_grace = True  # ran out of time: nothing left, whatever the deadline says
    clock.end_turn(game, s, T0 + timedelta(days=5, hours=1))
    assert s.bank_seconds == 0 and s.deadline is None
    clock.start_turn(game, s, T0 + timedelta(days=6))
    assert s.deadline == T0 + timedelta(days=7)  # the bonus only


def test_a_time_bank_is_not_charged_for_a_vacation():
    game = SimpleNamespace(clock={"kind": "bank", "initial_days": 4, "bonus_days": 0,
                                  "reminders": []})
    away = _away_until(None)
    s = _seat(away)
    clock.start_turn(game, s, T0)
    clock.shift(game.clock, s, timedelta(days=2))  # a two-day vacation from T0
    away.vacation_until = T0 + timedelta(days=2)
    clock.end_turn(game, s, T0 + timedelta(days=1))  # played while away
    assert s.bank_seconds == 4 * 86_400


def test_the_time_left_stands_still_during_a_vacation_and_never_goes_below_zero():
    back = T0 + timedelta(days=2)
    s = _seat(_away_until(back), deadline=T0 + timedelta(days=5), deadline_started=T0)
    assert clock.remaining(s, T0 + timedelta(days=1)) == timedelta(days=3)
    assert clock.stopped_until(s.player, back) is None  # back at that very moment
    assert clock.stopped_until(s.player, back - timedelta(seconds=1)) == back
    assert clock.remaining(s, back + timedelta(days=1)) == timedelta(days=2)
    assert clock.remaining(s, T0 + timedelta(days=9)) == timedelta(0)
    assert clock.remaining(_seat(), T0) is None


def test_a_running_turn_moves_with_a_vacation_but_a_grace_period_keeps_no_reminder():
    policy = {"kind": "per_move", "days": 2, "reminders": ["50%"]}
    s = _seat(deadline=T0 + timedelta(days=2), deadline_started=T0,
              remind_at=T0 + timedelta(days=1))
    clock.shift(policy, s, timedelta(days=3))
    assert (s.deadline_started, s.deadline, s.remind_at) == (
        T0 + timedelta(days=3), T0 + timedelta(days=5), T0 + timedelta(days=4))
    clock.shift(policy, s, -timedelta(days=1))  # back early
    assert (s.deadline_started, s.deadline, s.remind_at) == (
        T0 + timedelta(days=2), T0 + timedelta(days=4), T0 + timedelta(days=3))
    grace = _seat(deadline=T0 + timedelta(hours=12), deadline_started=None, in_grace=True)
    clock.shift(policy, grace, timedelta(days=1))
    assert grace.deadline == T0 + timedelta(days=1, hours=12) and grace.remind_at is None
    idle = _seat()
    clock.shift(policy, idle, timedelta(days=1))
    assert idle.deadline is None and idle.deadline_started is None


# -- reminder points --------------------------------------------------------------------------


def test_reminders_fall_strictly_inside_the_turn_and_points_an_hour_apart_are_two():
    day = T0 + timedelta(days=1)
    at = clock.reminder_times
    # a point at the very start or the very end is no reminder
    assert at({"reminders": ["24h"]}, T0, day, None) == []
    assert at({"reminders": ["0.5h", "23.5h"]}, T0, day, None) == [
        T0 + timedelta(minutes=30), day - timedelta(minutes=30)]
    # an hour apart: two reminders; less than that: one, the earlier
    assert at({"reminders": ["50%", "11h"]}, T0, day, None) == [
        T0 + timedelta(hours=12), T0 + timedelta(hours=13)]
    assert at({"reminders": ["11.5h", "50%"]}, T0, day, None) == [T0 + timedelta(hours=12)]
    # two points less than an hour after the last reminder are one; the next an hour on
    assert at({"reminders": ["12h", "11h", "10.5h", "10h"]}, T0, day, None) == [
        T0 + timedelta(hours=12), T0 + timedelta(hours=13), T0 + timedelta(hours=14)]
    # a point that does not fit a short turn drops out, the others stay
    assert at({"reminders": ["24h", "50%"]}, T0, day, None) == [T0 + timedelta(hours=12)]
    # a point moved out of the night to the turn's very start is dropped, not sent at once
    berliner = SimpleNamespace(timezone=BERLIN, quiet_start="22:00", quiet_end="08:00")
    start = utc("2026-03-02 20:00")  # 21:00 in Berlin
    assert at({"reminders": ["50%"]}, start, start + timedelta(hours=6), berliner) == []
    assert at({"reminders": ["50%"]}, start - timedelta(minutes=1),
              start + timedelta(hours=6), berliner) == [start]
    # ...and the points after it still come: 1% of three days from 21:30 is 22:13, in
    # the night and moved before the start; 24 hours before the end is Wednesday 21:30
    late = utc("2026-03-02 20:30")
    assert at({"reminders": ["1%", "24h"]}, late, late + timedelta(days=3), berliner) == [
        late + timedelta(days=2)]


def test_a_late_tick_counts_the_reminder_points_already_due():
    policy = {"reminders": ["50%", "24h"]}
    s = _seat(deadline=T0 + timedelta(days=3), deadline_started=T0)
    due = [T0 + timedelta(hours=36), T0 + timedelta(days=2)]
    assert clock.reminders_due(policy, s, None, due[0] - timedelta(seconds=1)) == 0
    assert clock.reminders_due(policy, s, None, due[0]) == 1
    assert clock.reminders_due(policy, s, None, due[1]) == 2
    s.reminders_sent = 1
    clock.schedule_reminder(policy, s, None)
    assert s.remind_at == due[1]
    s.reminders_sent = 2
    clock.schedule_reminder(policy, s, None)
    assert s.remind_at is None
    s.reminders_sent, s.in_grace, s.remind_at = 0, True, due[0]
    clock.schedule_reminder(policy, s, None)
    assert s.remind_at is None  # no reminders in a grace period
