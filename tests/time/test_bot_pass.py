"""The tick gives bots a bounded time: each game at most ``MAX_AUTOMATIC_SECONDS`` and a
pass ``MAX_BOT_SECONDS_PER_PASS`` over all games; what is left, the next pass plays, and
no game stays stuck.  The bots' clocks are counting clocks here (each reading is a
hundredth of a second later), so the time a tick spends is counted, not waited for, and
the test repeats exactly."""

from __future__ import annotations

import pytest

from pbem.context import make_context
from pbem.lifecycle import create, moves
from pbem.models import Game, Move, Seat
from pbem.time import scheduler

STEP = 0.01


class CountingClock:
    """A clock that moves on ``STEP`` seconds whenever it is read."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        self.now += STEP
        return self.now


@pytest.fixture
def thinking_ctx(tmp_path):
    # the suite caps a search at a few iterations; here bots think by the clock alone
    return make_context(
        server={"instance": str(tmp_path / "instance"), "base_url": "http://pbem.test"},
        archive={"site_dir": str(tmp_path / "site")}, bots={"max_iterations": "0"})


def _strong_bot_games(ctx, count: int, monkeypatch) -> list[int]:
    """``count`` games of Visby, Alice against a strong bot that owes its card (the
    change that started each game stopped before the bot moved)."""
    alice = create.get_or_create_player("alice@example.org", "Alice")
    with monkeypatch.context() as m:
        m.setattr(moves, "MAX_AUTOMATIC_MOVES", 0)
        ids = [create.create_game(ctx, "visby", alice, [None], seed=f"pass-{i}",
                                  bot_levels=["strong"]).id for i in range(count)]
    assert all(Game.get_by_id(i).bots_pending for i in ids)
    return ids


def _bot_moves(ids: list[int]) -> int:
    return Move.select().where(Move.game.in_(ids), Move.kind == Move.BOT).count()


def test_a_tick_with_ten_strong_bots_due_stays_under_its_cap(thinking_ctx, database,
                                                             monkeypatch):
    ctx = thinking_ctx
    ids = _strong_bot_games(ctx, 10, monkeypatch)
    assert {Seat.get(Seat.game == i, Seat.index == 1).bot_level for i in ids} == {"strong"}
    clock = CountingClock()
    monkeypatch.setattr(moves, "wall_clock", clock)
    monkeypatch.setattr(moves, "cpu_clock", clock)
    cap = 3.0
    monkeypatch.setattr(moves, "MAX_BOT_SECONDS_PER_PASS", cap)
    passes = []
    while any(Game.get_by_id(i).bots_pending for i in ids):
        assert len(passes) < 20, "the bots' games do not get done"
        before = clock.now
        scheduler.tick(ctx)
        passes.append(clock.now - before)
    # a strong move thinks half a second, so ten games' moves need several passes, and
    # none of them took more than its cap (and one iteration's readings of the clock)
    assert len(passes) >= 2
    assert max(passes) <= cap + 10 * STEP, passes
    # each game played its bot's card choice for the first round and waits for Alice
    for i in ids:
        game = Game.get_by_id(i)
        assert not game.bots_pending and game.status == Game.ACTIVE
        assert game.state["chosen"][1] and not game.state["chosen"][0]
    assert _bot_moves(ids) >= 10


def test_one_game_of_slow_bots_gets_its_share_and_no_more(thinking_ctx, database, monkeypatch):
    ctx = thinking_ctx
    ids = _strong_bot_games(ctx, 1, monkeypatch)
    clock = CountingClock()
    monkeypatch.setattr(moves, "wall_clock", clock)
    monkeypatch.setattr(moves, "cpu_clock", clock)
    monkeypatch.setattr(moves, "MAX_AUTOMATIC_SECONDS", 0.3)  # less than a strong move
    before = clock.now
    moves.continue_bots(ctx, ids[0])
    # the bot stopped thinking at the game's cap, played what it had and left the rest
    assert clock.now - before <= 0.3 + 10 * STEP
    assert _bot_moves(ids) == 1
    assert Game.get_by_id(ids[0]).bots_pending
