"""Queries whose SQL is built once (``pbem.sqlcache``, issue 23) answer what peewee's own
query answers, on SQLite and PostgreSQL, with joins and with a value used twice."""

from __future__ import annotations

import peewee as pw
import pytest

from pbem.models import Game, Player, Seat, lock_row, write_transaction
from pbem.sqlcache import Prepared


def _game(seats: int) -> Game:
    ann = Player.create(email="ann@example.org", name="Ann")
    game = Game.create(game="visby", seed="1", rules_version="1", data_version="1",
                       creator=ann)
    Seat.create(game=game, index=0, player=ann)
    for index in range(1, seats):
        Seat.create(game=game, index=index, bot=True)
    return game


def test_a_table_read_once_built_is_the_table_peewee_reads(database):
    game = _game(3)
    other = Game.create(game="visby", seed="2", rules_version="1", data_version="1")
    Seat.create(game=other, index=0, bot=True)
    plain = list(Seat.select(Seat, Player).join(Player, pw.JOIN.LEFT_OUTER)
                 .where(Seat.game == game).order_by(Seat.index))
    for _ in range(2):  # built the first time, reused the second
        seats = Seat.of(game)
        assert [s.__data__ for s in seats] == [s.__data__ for s in plain]
        assert [s.display for s in seats] == ["Ann", "Bot 2", "Bot 3"]
        assert seats[0].player.email == "ann@example.org"
    assert [s.display for s in Seat.of(other.id)] == ["Bot 1"]
    with write_transaction():
        assert lock_row(Game, game.id).seed == "1"
        assert lock_row(Game, game.id + 1000) is None


def test_a_value_may_stand_in_two_places_and_a_constant_stays(database):
    game = _game(4)
    query = Prepared(Seat, lambda g, i: (
        Seat.select().where((Seat.game == g) & ((Seat.index == i) | (Seat.index > i + 0)))
        .order_by(Seat.index).limit(2)), 2)
    assert [s.index for s in query.rows(game.id, 1)] == [1, 2]
    assert [s.index for s in query.rows(game.id, 2)] == [2, 3]
    assert query.first(game.id, 9) is None


def test_only_whole_numbers_and_every_value_used(database):
    unused = Prepared(Seat, lambda g, i: Seat.select().where(Seat.game == g), 2)
    with pytest.raises(TypeError):
        unused.rows(1, "2")
    with pytest.raises(ValueError):
        unused.rows(1, 2)
