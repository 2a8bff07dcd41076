"""A game whose rules raise on every tick is parked after a few tries, with a message for
the operator, and the other games go on; ``pbem parked`` lists it and releases it."""

from __future__ import annotations

from datetime import datetime

from click.testing import CliRunner
from freezegun import freeze_time

from pbem.cli import main
from pbem.games import get_game
from pbem.lifecycle import create
from pbem.models import Game, Move
from pbem.time import scheduler, steps


def test_a_game_that_fails_every_tick_is_parked_and_the_others_go_on(ctx, database,
                                                                     monkeypatch):
    with freeze_time("2026-05-01 09:00:00"):
        alice = create.get_or_create_player("alice@example.org", "Alice",
                                            quiet_start="00:00", quiet_end="00:00")
        broken = create.create_game(ctx, "visby", alice, [None], seed=1,
                                    clock_policy={"days": 1, "grace_hours": 0})
        fine = create.create_game(ctx, "visby", alice, [None], seed=2,
                                  clock_policy={"days": 1, "grace_hours": 0})
    visby = get_game("visby")
    real = visby.default_move

    def default_move(state, seat):
        if state["seed"] == "1":
            raise RuntimeError("a rules bug in this game's state")
        return real(state, seat)

    monkeypatch.setattr(visby, "default_move", default_move)
    for day in range(3, 3 + steps.PARK_AFTER):
        scheduler.tick(ctx, datetime(2026, 5, day, 12))
    broken, fine = Game.get_by_id(broken.id), Game.get_by_id(fine.id)
    assert broken.parked_at is not None and "a rules bug" in broken.parked_reason
    assert fine.parked_at is None
    assert Move.select().where(Move.game == fine, Move.kind == Move.TIMEOUT).exists()
    assert not Move.select().where(Move.game == broken, Move.kind == Move.TIMEOUT).exists()
    # parked, it is passed over: no more failures are counted
    scheduler.tick(ctx, datetime(2026, 5, 20, 12))
    assert Game.get_by_id(broken.id).failures == steps.PARK_AFTER


def test_pbem_parked_lists_and_releases(ctx, sqlite_database, monkeypatch, tmp_path):
    alice = create.get_or_create_player("alice@example.org", "Alice")
    game = create.create_game(ctx, "visby", alice, [None], seed=1)
    Game.update(parked_at=datetime(2026, 5, 1), failures=3,
                parked_reason="timeouts: RuntimeError: boom").execute()
    monkeypatch.setenv("PBEM_DATABASE_URL", ctx.config.database_url)
    runner = CliRunner()
    listed = runner.invoke(main, ["parked"])
    assert listed.exit_code == 0 and f"game {game.id} (visby)" in listed.output
    assert "boom" in listed.output
    released = runner.invoke(main, ["parked", "--release", str(game.id)])
    assert released.exit_code == 0
    assert Game.get_by_id(game.id).parked_at is None
    assert runner.invoke(main, ["parked", "--release", str(game.id)]).exit_code == 1
