"""Whole games against the clock: Tokyo, Berlin and Los Angeles, driven by tick under freezegun.

The game starts on Monday 2 March 2026 at 09:00 UTC: 18:00 in Tokyo, 10:00 in
Berlin and 01:00 in Los Angeles.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from time_helpers import (
    VISBY,
    fresh,
    is_quiet_for,
    move_first,
    player,
    seat,
    table,
    three_zones,
    utc,
)

from pbem.lifecycle import moves
from pbem.models import Move, Notice, Outbox, Player, Seat
from pbem.time import clock, timeouts, vacation


def _never_at_night(sim) -> None:
    for mail in sim.mail.sent:
        p = Player.get_or_none(Player.email == mail.to)
        assert p is not None
        assert not is_quiet_for(p, mail.at), f"{mail.subject!r} reached {p.name} at night"


def _log(game) -> list[str]:
    return [n.text for n in Notice.select().where(Notice.game == game).order_by(Notice.id)]


def test_reminders_land_at_the_configured_points_and_never_at_night(ctx, sim):
    aiko, bernd, lucy = three_zones()
    game = table(ctx, [aiko, bernd, lucy], {"days": 3})
    for i in range(3):
        assert seat(game, i).deadline == utc("2026-03-05 09:00")
    sim.run_until(utc("2026-03-05 08:59"))

    turn = {p.email: [m.at for m in sim.mail.to(p.email, "turn")] for p in (aiko, bernd, lucy)}
    assert turn[aiko.email] == [utc("2026-03-02 09:00")]   # 18:00 in Tokyo
    assert turn[bernd.email] == [utc("2026-03-02 09:00")]  # 10:00 in Berlin
    assert turn[lucy.email] == [utc("2026-03-02 16:00")]   # 01:00 in LA: waits for 08:00

    reminded = {p.name: [m.at for m in sim.mail.to(p.email, "reminder")]
                for p in (aiko, bernd, lucy)}
    # halfway (Tue 21:00 UTC) and 24 hours before (Wed 09:00 UTC), each moved out of the
    # player's night to an hour before it begins
    assert reminded == {
        "Aiko": [utc("2026-03-03 12:00"), utc("2026-03-04 09:00")],   # 21:00 JST; 18:00 JST
        "Bernd": [utc("2026-03-03 20:00"), utc("2026-03-04 09:00")],  # 21:00 CET; 10:00 CET
        "Lucy": [utc("2026-03-03 21:00"), utc("2026-03-04 05:00")],   # 13:00 PST; 21:00 PST
    }
    first = sim.mail.to(lucy.email, "reminder")[0]
    assert "Thu 05 Mar 2026, 01:00 (America/Los_Angeles)" in first.text  # her own clock
    assert "1 day 12 hours left" in first.text
    assert "default move would be" in first.text and "/m/" in first.text
    _never_at_night(sim)
    assert all(s.reminders_sent == 2 and s.remind_at is None for s in fresh(game).seats)


def test_a_timeout_gives_grace_then_plays_the_default_move_and_the_log_says_so(ctx, sim):
    aiko = player("aiko@example.jp", "Aiko", "Asia/Tokyo")
    bernd = player("bernd@example.de", "Bernd", "Europe/Berlin")
    game = table(ctx, [aiko, bernd], {"days": 1, "grace_hours": 12})
    move_first(ctx, game, 1)
    move_first(ctx, game, 1)  # Bernd has chosen his two cards; Aiko has not
    expected = VISBY.default_move(fresh(game).state, 0)
    # the mails say it as the seat's menu does, in words ("Play Bettelmönch")
    label = next(c.label for c in VISBY.menu(fresh(game).state, 0, "en") if c.move == expected)

    sim.run_until(utc("2026-03-03 09:00"))  # the deadline
    s = seat(game, 0)
    assert s.in_grace and s.deadline == utc("2026-03-03 21:00")
    assert "a grace period of 12 hours began" in _log(game)[-1]
    assert Move.select().where(Move.kind == Move.TIMEOUT).count() == 0
    grace_mail = sim.mail.to(aiko.email, "notice")[-1]
    assert "your time is up" in grace_mail.says
    assert "Wed 04 Mar 2026, 06:00 (Asia/Tokyo)" in grace_mail.text and "/m/" in grace_mail.text
    assert "ran out of time" in sim.mail.to(bernd.email, "notice")[-1].says

    sim.run_until(utc("2026-03-04 09:00"))
    timed_out = list(Move.select().where(Move.kind == Move.TIMEOUT).order_by(Move.seq))
    assert [(m.seat, m.move) for m in timed_out][0] == (0, expected)
    assert {m.seat for m in timed_out} == {0} and len(timed_out) == 2  # both cards of the turn
    log = _log(game)
    assert any("did not move in time: the default move was played for them (timeout 1 in a row)"
               in line for line in log)
    assert seat(game, 0).timeouts_in_row == 1
    # the table hears of it, each in their morning: 21:00 UTC is night in Tokyo and Berlin
    told_bernd = [m for m in sim.mail.to(bernd.email, "notice") if "default move" in m.says]
    assert [m.at for m in told_bernd] == [utc("2026-03-04 07:00")]  # 08:00 CET
    told_aiko = [m for m in sim.mail.to(aiko.email, "notice") if "default move" in m.says]
    assert [m.at for m in told_aiko] == [utc("2026-03-03 23:00")]  # 08:00 JST
    assert label in told_aiko[0].text and "timeout 1 of 3" in told_aiko[0].text
    _never_at_night(sim)


def _bernd_plays(ctx, game):
    """Bernd plays what he owes at once, one round's steps at a time."""
    def on_tick(sim):
        for _ in range(2):
            g = fresh(game)
            if g.status != "active" or 1 not in VISBY.to_move(g.state):
                return
            move_first(ctx, g, 1)
    return on_tick


def test_three_timeouts_in_a_row_hand_the_seat_to_a_bot_and_the_owner_can_reclaim_it(ctx, sim):
    aiko = player("aiko@example.jp", "Aiko", "Asia/Tokyo")
    bernd = player("bernd@example.de", "Bernd", "Europe/Berlin")
    game = table(ctx, [aiko, bernd], {"days": 1, "grace_hours": 6})
    # a level left on the seat from before does not decide: a bot taking over plays normal
    Seat.update(bot_level="easy").where(Seat.game == game).execute()
    on_tick = _bernd_plays(ctx, game)
    on_tick(sim)
    for _ in range(40):
        sim.run_until(sim.now + timedelta(hours=12), on_tick)
        if seat(game, 0).bot:
            break
    s = seat(game, 0)
    assert s.bot and s.bot_replaced and s.timeouts_in_row == 3 and s.deadline is None
    assert s.bot_level == "normal"  # the searching bot, at the level the server seats
    log = _log(game)
    assert sum("did not move in time: the default move" in line for line in log) == 3
    assert any("After 3 timeouts in a row a bot plays for {0}" in line for line in log)
    mail = sim.mail.to(aiko.email, "notice")[-1]
    assert "a bot plays your seat" in mail.says
    reclaim_path = next(w for w in mail.text.split() if w.endswith("/reclaim"))
    assert reclaim_path.startswith("http://pbem.test/s/")
    assert any("a bot plays for Aiko" in m.says for m in sim.mail.to(bernd.email))

    # the bot plays Aiko's seat at once whenever it is to move: the game goes on
    on_tick(sim)
    g = fresh(game)
    assert 0 not in VISBY.to_move(g.state)
    bot_moves = Move.select().where(Move.seat == 0, Move.kind == Move.BOT).count()
    assert bot_moves > 0

    with pytest.raises(moves.PlayError) as not_his:
        timeouts.reclaim(ctx, game.id, 0, bernd.id, sim.now)  # only the owner takes it back
    assert not_his.value.reason == "no-seat" and seat(game, 0).bot
    timeouts.reclaim(ctx, game.id, 0, aiko.id, sim.now)
    s = seat(game, 0)
    assert not s.bot and not s.bot_replaced and s.timeouts_in_row == 0
    assert "{0} took their seat back from the bot" in _log(game)
    with pytest.raises(moves.PlayError) as again:
        timeouts.reclaim(ctx, game.id, 0, aiko.id, sim.now)
    assert again.value.reason == "not-bot"
    with pytest.raises(moves.PlayError):
        timeouts.reclaim(ctx, game.id, 1, aiko.id, sim.now)  # not her seat
    # her next turn comes with a mail and a fresh clock of its own
    turns_before = len(sim.mail.to(aiko.email, "turn"))
    sim.run_until(sim.now + timedelta(hours=1), on_tick)
    s = seat(game, 0)
    assert 0 in VISBY.to_move(fresh(game).state)
    assert s.deadline == s.deadline_started + timedelta(days=1)
    assert s.deadline_started >= sim.now - timedelta(hours=1)
    assert len(sim.mail.to(aiko.email, "turn")) == turns_before + 1 or Outbox.select().where(
        Outbox.to_address == aiko.email, Outbox.kind == "turn", Outbox.sent_at.is_null()).exists()


def test_drop_instead_of_a_bot_cannot_be_reclaimed(ctx, sim):
    aiko = player("aiko@example.jp", "Aiko", "Asia/Tokyo")
    bernd = player("bernd@example.de", "Bernd", "Europe/Berlin")
    game = table(ctx, [aiko, bernd], {"days": 1, "grace_hours": 0, "timeouts_before_bot": 1,
                                      "after_timeouts": "drop"})
    move_first(ctx, game, 1)
    move_first(ctx, game, 1)
    sim.run_until(utc("2026-03-03 09:00"))
    s = seat(game, 0)
    assert s.bot and not s.bot_replaced
    assert any("{0} leaves the game; a bot plays the seat to the end" in line
               for line in _log(game))
    with pytest.raises(moves.PlayError):
        timeouts.reclaim(ctx, game.id, 0, aiko.id, sim.now)


def test_in_a_simultaneous_choice_only_the_seats_that_have_not_chosen_time_out(ctx, sim):
    aiko, bernd, lucy = three_zones()
    game = table(ctx, [aiko, bernd, lucy], {"days": 2, "grace_hours": 0})
    for _ in range(2):
        move_first(ctx, game, 0)
        move_first(ctx, game, 1)
    assert seat(game, 0).deadline is None and seat(game, 1).deadline is None
    sim.run_until(utc("2026-03-04 09:00"))
    timed_out = Move.select().where(Move.kind == Move.TIMEOUT)
    assert {m.seat for m in timed_out} == {2}
    assert seat(game, 2).timeouts_in_row == 1
    assert seat(game, 0).timeouts_in_row == 0 and seat(game, 1).timeouts_in_row == 0
    _never_at_night(sim)


def test_vacation_stops_the_clock_and_the_reminders_and_the_table_is_told(ctx, sim):
    sim.at(utc("2026-07-06 09:00"))  # July: 14 * 7 // 12 = 8 days accrued
    aiko = player("aiko@example.jp", "Aiko", "Asia/Tokyo")
    bernd = player("bernd@example.de", "Bernd", "Europe/Berlin")
    game = table(ctx, [aiko, bernd], {"days": 3})
    move_first(ctx, game, 0)
    move_first(ctx, game, 0)  # only Bernd's clock runs now: until Thu 9 July 09:00 UTC
    assert seat(game, 1).deadline == utc("2026-07-09 09:00")
    sim.run_until(utc("2026-07-06 12:00"))

    until = vacation.start(ctx, bernd.id, 5, sim.now)
    assert until == utc("2026-07-11 12:00")
    s = seat(game, 1)
    assert s.deadline == utc("2026-07-14 09:00")  # the clock stands still for five days
    have = vacation.allowance(ctx, Player.get_by_id(bernd.id), sim.now)
    assert (have.accrued, have.used, have.available) == (8, 5, 3)
    with pytest.raises(moves.PlayError) as too_many:
        vacation.start(ctx, aiko.id, 9, sim.now)
    assert too_many.value.reason == "no-days"
    with pytest.raises(moves.PlayError):
        vacation.start(ctx, bernd.id, 1, sim.now)  # already away

    sim.run_until(utc("2026-07-14 08:59"))
    assert any("{1} is on vacation for 5 days" in line for line in _log(game))
    assert any("is on vacation" in m.says for m in sim.mail.to(aiko.email, "notice"))
    # no reminder while he is away; after it, the points of the moved turn
    # (halfway Sun 12 July 21:00 UTC = 23:00 CEST, so 21:00 CEST; a day before, 11:00 CEST)
    assert [m.at for m in sim.mail.to(bernd.email, "reminder")] == [
        utc("2026-07-12 19:00"), utc("2026-07-13 09:00")]
    assert Move.select().where(Move.kind == Move.TIMEOUT).count() == 0
    assert Player.get_by_id(bernd.id).vacation_until is None  # the tick saw him back
    assert any("{1} is back from vacation" in line for line in _log(game))
    sim.run_until(utc("2026-07-14 09:00"))
    assert seat(game, 1).in_grace  # and now the ladder runs as ever
    _never_at_night(sim)


def test_coming_back_early_gives_back_whole_days_and_moves_the_clock_back(ctx, sim):
    sim.at(utc("2026-07-06 09:00"))
    aiko = player("aiko@example.jp", "Aiko", "Asia/Tokyo")
    bernd = player("bernd@example.de", "Bernd", "Europe/Berlin")
    game = table(ctx, [aiko, bernd], {"days": 3})
    move_first(ctx, game, 0)
    move_first(ctx, game, 0)
    sim.at(utc("2026-07-06 12:00"))
    vacation.start(ctx, bernd.id, 5, sim.now)
    sim.run_until(utc("2026-07-08 09:00"))
    vacation.end(ctx, bernd.id, sim.now)
    b = Player.get_by_id(bernd.id)
    assert b.vacation_until is None and b.vacation_days_used == 2  # 3 whole days unused
    # away from Mon 12:00 to Wed 09:00: the deadline moved by those 45 hours only
    assert seat(game, 1).deadline == utc("2026-07-09 09:00") + timedelta(hours=45)
    assert any("back from vacation early" in line for line in _log(game))


def test_a_turn_that_starts_during_a_vacation_starts_when_the_player_is_back():
    from types import SimpleNamespace

    back = utc("2026-07-10 12:00")
    away = SimpleNamespace(timezone="Europe/Berlin", quiet_start="22:00", quiet_end="08:00",
                           vacation_until=back)
    game = SimpleNamespace(clock={"kind": "per_move", "days": 2, "reminders": ["50%"]})
    s = SimpleNamespace(bot=False, deadline=None, deadline_started=None, bank_seconds=None,
                        player_id=1, player=away, reminders_sent=0, in_grace=False,
                        remind_at=None)
    clock.start_turn(game, s, utc("2026-07-07 09:00"))
    assert s.deadline_started == back and s.deadline == back + timedelta(days=2)
    assert s.remind_at == back + timedelta(days=1)
    assert clock.remaining(s, utc("2026-07-08 00:00")) == timedelta(days=2)


def test_a_digest_player_gets_one_mail_in_their_morning_instead_of_turn_mails(ctx, sim):
    aiko = player("aiko@example.jp", "Aiko", "Asia/Tokyo", digest=True)
    bernd = player("bernd@example.de", "Bernd", "Europe/Berlin")
    game = table(ctx, [bernd, aiko], {"days": 3})
    sim.run_until(utc("2026-03-03 08:00"))
    assert sim.mail.to(aiko.email, "turn") == []
    digests = sim.mail.to(aiko.email, "digest")
    assert [m.at for m in digests] == [utc("2026-03-02 23:00")]  # 08:00 in Tokyo
    text = digests[0].text
    assert f"Visby #{game.id}: by Thu 05 Mar 2026, 18:00 (Asia/Tokyo)" in text
    assert "http://pbem.test/s/" in text and "your move" in text
    held = Outbox.select().where(Outbox.digest, Outbox.to_address == aiko.email)
    assert held.count() >= 1 and all(m.sent_at is not None for m in held)
    assert len(sim.mail.to(bernd.email, "turn")) == 1  # others are not affected
    _never_at_night(sim)
    sim.run_until(utc("2026-03-04 08:00"))
    assert len(sim.mail.to(aiko.email, "digest")) == 1  # nothing new, no second digest
    assert len(sim.mail.to(aiko.email, "reminder")) >= 1  # reminders still come on their own


def test_a_time_bank_game_charges_the_time_used(ctx, sim):
    aiko = player("aiko@example.jp", "Aiko", "Asia/Tokyo")
    bernd = player("bernd@example.de", "Bernd", "Europe/Berlin")
    game = table(ctx, [aiko, bernd], {"kind": "bank", "initial_days": 2, "bonus_days": 1})
    assert seat(game, 0).deadline == utc("2026-03-04 09:00")
    sim.at(utc("2026-03-02 15:00"))
    move_first(ctx, game, 0)
    move_first(ctx, game, 0)
    s = seat(game, 0)
    assert s.deadline is None and s.bank_seconds == (48 - 6) * 3600
    reminders = Seat.select().where(Seat.remind_at.is_null(False)).count()
    assert reminders == 1  # only Bernd's clock runs


def test_a_reminder_that_falls_due_during_a_vacation_waits_for_the_return(ctx, sim):
    """Berlin moves to summer time during Bernd's vacation: his moved halfway reminder
    (an hour before 22:00 CEST) comes half an hour before he is back.  It is not lost,
    and nor is the next one: both reach him after the vacation."""
    sim.at(utc("2026-03-26 09:30"))  # Thursday, 10:30 CET
    aiko = player("aiko@example.jp", "Aiko", "Asia/Tokyo")
    bernd = player("bernd@example.de", "Bernd", "Europe/Berlin")
    game = table(ctx, [aiko, bernd], {"days": 3})
    move_first(ctx, game, 0)
    move_first(ctx, game, 0)  # only Bernd's clock runs: until Sun 29 March 09:30 UTC
    assert seat(game, 1).remind_at == utc("2026-03-27 20:00")  # 21:00 CET, before his night
    sim.run_until(utc("2026-03-27 19:30"))  # Friday 20:30 CET

    until = vacation.start(ctx, bernd.id, 3, sim.now)
    assert until == utc("2026-03-30 19:30")  # Monday 21:30 CEST
    assert seat(game, 1).deadline == utc("2026-04-01 09:30")
    sim.run_until(utc("2026-04-01 09:29"))
    assert sim.mail.to(bernd.email, "reminder") != []
    reminded = [m.at for m in sim.mail.to(bernd.email, "reminder")]
    # halfway (Mon 30 March 23:30 CEST) moved to 21:00 CEST is inside the vacation: it
    # goes out on his return; a day before the deadline, Tue 31 March 11:30 CEST
    assert reminded == [until, utc("2026-03-31 09:30")]
    assert all(at >= until for at in reminded)
    _never_at_night(sim)


def test_a_move_of_her_own_breaks_the_row_of_timeouts(ctx, sim):
    aiko = player("aiko@example.jp", "Aiko", "Asia/Tokyo")
    bernd = player("bernd@example.de", "Bernd", "Europe/Berlin")
    game = table(ctx, [aiko, bernd], {"days": 1, "grace_hours": 0, "timeouts_before_bot": 2})
    on_tick = _bernd_plays(ctx, game)
    on_tick(sim)
    sim.run_until(utc("2026-03-03 09:00"), on_tick)  # her first turn times out
    assert seat(game, 0).timeouts_in_row == 1
    on_tick(sim)
    assert 0 in VISBY.to_move(fresh(game).state)
    while 0 in VISBY.to_move(fresh(game).state) and seat(game, 0).deadline is not None:
        started = seat(game, 0).deadline_started
        move_first(ctx, game, 0)  # she plays this turn herself
        if seat(game, 0).deadline_started != started:
            break
    assert seat(game, 0).timeouts_in_row == 0
    on_tick(sim)
    sim.run_until(sim.now + timedelta(days=1, minutes=1), on_tick)  # and then times out again
    s = seat(game, 0)
    assert s.timeouts_in_row == 1 and not s.bot  # one in a row, not two: no bot yet
    assert sum("(timeout 1 in a row)" in line for line in _log(game)) == 2


def test_a_tick_that_comes_late_sends_one_reminder_for_the_points_it_missed(ctx, sim):
    aiko, bernd = (player("aiko@example.jp", "Aiko", "Asia/Tokyo"),
                   player("bernd@example.de", "Bernd", "Europe/Berlin"))
    game = table(ctx, [aiko, bernd], {"days": 3})
    sim.tick()
    # the scheduler was down from Monday until Wednesday 10:00 UTC (11:00 CET): both of
    # Bernd's points (Tue 20:00, Wed 09:00 UTC) have passed
    sim.at(utc("2026-03-04 10:00"))
    sim.tick()
    assert [m.at for m in sim.mail.to(bernd.email, "reminder")] == [utc("2026-03-04 10:00")]
    s = seat(game, 1)
    assert s.reminders_sent == 2 and s.remind_at is None


def test_a_deadline_across_the_dst_change_in_los_angeles_is_72_hours_in_utc(ctx, sim):
    """Los Angeles springs forward on Sunday 8 March 2026: a three-day turn from Friday
    09:00 PST ends on Monday at 10:00 PDT, 72 hours later, and that is when it times out."""
    sim.at(utc("2026-03-06 17:00"))  # Friday 09:00 PST
    aiko, bernd, lucy = three_zones()
    game = table(ctx, [aiko, bernd, lucy], {"days": 3, "grace_hours": 0})
    for _ in range(2):
        move_first(ctx, game, 0)
        move_first(ctx, game, 1)
    assert seat(game, 2).deadline == utc("2026-03-09 17:00")
    sim.run_until(utc("2026-03-09 16:59"))
    assert Move.select().where(Move.kind == Move.TIMEOUT).count() == 0
    reminders = sim.mail.to(lucy.email, "reminder")
    # halfway: Sat 21:00 PST; a day before: Sun 10:00 PDT (17:00 UTC, not 18:00)
    assert [m.at for m in reminders] == [utc("2026-03-08 05:00"), utc("2026-03-08 17:00")]
    assert "Mon 09 Mar 2026, 10:00 (America/Los_Angeles)" in reminders[-1].text
    sim.run_until(utc("2026-03-09 17:00"))
    assert {m.seat for m in Move.select().where(Move.kind == Move.TIMEOUT)} == {2}
    _never_at_night(sim)
