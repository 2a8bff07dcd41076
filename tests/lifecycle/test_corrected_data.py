"""An operator's corrected data file ([games] data_dir): new games start on it, running
games keep the data they started with, also after a restart and a take-back."""

from __future__ import annotations

import pytest
from freezegun import freeze_time
from games.draw_game import Ziehen

from pbem.context import make_context
from pbem.games import registered
from pbem.games.ziehen import data
from pbem.lifecycle import create, moves
from pbem.models import Game, Seat

GAME = Ziehen()


@pytest.fixture
def ziehen():
    with registered(GAME):
        yield GAME


def _seat(game, index) -> Seat:
    return Seat.get(Seat.game == game, Seat.index == index)


def _new_game(ctx, seed) -> Game:
    alice = create.get_or_create_player("alice@example.org", "Alice")
    bob = create.get_or_create_player("bob@example.org", "Bob")
    game = create.create_game(ctx, "ziehen", alice, ["bob@example.org"], seed=seed)
    create.accept_invite(ctx, game, _seat(game, 1), bob)
    return Game.get_by_id(game.id)


def _play(ctx, game, seat, move) -> Game:
    s = _seat(game, seat)
    moves.play(ctx, game.id, seat, move, menu_seq=s.menu_seq, turn_seq=s.turn_seq)
    return Game.get_by_id(game.id)


def _corrected(plus: int) -> str:
    """The shipped file with every card worth ``plus`` more (all of Ziehen's values are
    pbem's own, so all may change) and a version of its own."""
    text = data.SETS.shipped.text.replace('version = "1"', 'version = "1-korrigiert"')
    for name, value in data.SETS.shipped.derived["CARDS"].items():
        text = text.replace(f"{name} = {value}\n", f"{name} = {value + plus}\n")
    return text


def test_a_corrected_file_changes_a_new_game_and_not_a_running_one(ctx, database, ziehen,
                                                                   tmp_path):
    folder = tmp_path / "corrections"
    folder.mkdir()
    ctx = make_context(server={"instance": str(ctx.config.instance_path),
                               "base_url": "http://pbem.test"},
                       games={"data_dir": str(folder)})
    with freeze_time("2026-05-04 09:00:00"):
        running = _new_game(ctx, "tide")
        running = _play(ctx, _play(ctx, running, 0, "step"), 0, "draw")
        assert running.data_version == "1" and GAME.scores(running.state)[0] <= 10

        (folder / "ziehen.toml").write_text(_corrected(100), encoding="utf-8")
        new = _new_game(ctx, "ebb")
        assert new.data_version.startswith("1-korrigiert+")
        assert new.state["data_version"] == new.data_version
        new = _play(ctx, _play(ctx, new, 0, "step"), 0, "draw")
        assert GAME.scores(new.state)[0] > 100

        running = _play(ctx, _play(ctx, running, 0, "step"), 0, "end")
        assert running.data_version == "1" and GAME.scores(running.state)[0] <= 10

        # the operator removes the file and the server restarts: the new game still
        # plays, and a take-back deals it again on the values it started with
        (folder / "ziehen.toml").unlink()
        data.SETS.versions.pop(new.data_version)
        ctx = make_context(server={"instance": str(ctx.config.instance_path),
                                   "base_url": "http://pbem.test"},
                           games={"data_dir": str(folder)})
        new = _play(ctx, new, 0, "step")
        moves.take_back(ctx, new.id, 0)
        new = Game.get_by_id(new.id)
        assert new.state["data_version"].startswith("1-korrigiert+")
        assert GAME.scores(new.state)[0] > 100
        assert _new_game(ctx, "flood").data_version == "1"


def test_a_file_that_fails_the_check_is_not_used_for_a_new_game(ctx, database, ziehen,
                                                                tmp_path):
    folder = tmp_path / "corrections"
    folder.mkdir()
    (folder / "ziehen.toml").write_text(_corrected(0).replace("Fass = 2", "Fass = -2"),
                                        encoding="utf-8")
    ctx = make_context(server={"instance": str(ctx.config.instance_path),
                               "base_url": "http://pbem.test"},
                       games={"data_dir": str(folder)})
    with freeze_time("2026-05-04 09:00:00"):
        assert _new_game(ctx, "tide").data_version == "1"
