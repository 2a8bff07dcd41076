"""A tick keeps its own time: ``pbem tick --at T`` plays a timeout as at T, so the
turns it starts get deadlines from T, not from the wall clock."""

from __future__ import annotations

from datetime import datetime, timedelta

from freezegun import freeze_time

from pbem.lifecycle import create
from pbem.models import Game, Move, Seat
from pbem.time import scheduler


def test_tick_at_a_time_sets_the_next_deadlines_from_that_time(ctx, database):
    with freeze_time("2026-05-01 09:00:00"):
        alice = create.get_or_create_player("alice@example.org", "Alice",
                                            quiet_start="00:00", quiet_end="00:00")
        game = create.create_game(ctx, "visby", alice, [None], seed=4,
                                  clock_policy={"days": 1, "grace_hours": 0})
        assert Seat.get(Seat.game == game, Seat.index == 0).deadline == datetime(2026, 5, 2, 9)
        at = datetime(2026, 5, 9, 18, 30)
        # the wall clock says 1 May; the operator replays the tick of 9 May
        report = scheduler.tick(ctx, at)
    assert report["timeouts"] == 1
    assert Move.select().where(Move.game == game, Move.kind == Move.TIMEOUT).count() >= 1
    seat = Seat.get(Seat.game == game, Seat.index == 0)
    assert Game.get_by_id(game.id).state["round"] == 2 or seat.in_turn
    assert seat.deadline == at + timedelta(days=1)
    assert seat.deadline_started == at
