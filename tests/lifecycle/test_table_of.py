"""A game and its seats come in one statement (``models.table_of``), as a page and a move
read them; the seats a change touched are written in one (``moves.save_changed``)."""

from __future__ import annotations

from datetime import datetime

from pbem.lifecycle import create, moves, notes
from pbem.models import Game, Seat, db, table_of, write_transaction


def _three(ctx) -> Game:
    people = [create.get_or_create_player(f"{n}@example.org", n.title())
              for n in ("alice", "bob", "carol")]
    game = create.create_game(ctx, "visby", people[0], [p.email for p in people[1:]],
                              seed="table")
    for index, person in enumerate(people[1:], start=1):
        create.accept_invite(ctx, game, Seat.get(Seat.game == game, Seat.index == index),
                             person)
    return Game.get_by_id(game.id)


class _Counted:
    """The statements sent while it is open."""

    def __enter__(self) -> list[str]:
        self.sent: list[str] = []
        self.real = db.obj.execute_sql
        db.obj.execute_sql = lambda sql, *a, **k: (self.sent.append(sql),
                                                   self.real(sql, *a, **k))[1]
        return self.sent

    def __exit__(self, *_exc) -> None:
        db.obj.execute_sql = self.real


def test_the_table_is_the_game_and_its_seats_as_read_apart(ctx, database):
    game = _three(ctx)
    with _Counted() as sent:
        read, seats = table_of(game.id)
    assert len(sent) == 1
    assert read.__data__ == Game.get_by_id(game.id).__data__  # the state decoded too
    assert [s.__data__ for s in seats] == [s.__data__ for s in Seat.of(game)]
    assert [s.player.email for s in seats] == [s.player.email for s in Seat.of(game)]
    assert all(s.game is read for s in seats)
    assert read.dirty_fields == [] and not any(s.dirty_fields for s in seats)
    assert table_of(game.id + 1000) == (None, [])


def test_only_the_asking_seats_note_comes_along(ctx, database):
    game = _three(ctx)
    seats = Seat.of(game)
    notes.save(seats[0], "Alice: Bob hoards Tuch")
    notes.save(seats[2], "Carol's plan")
    _, read = table_of(game.id, note_of=0)
    assert [s.note_text for s in read] == ["Alice: Bob hoards Tuch", None, None]
    assert notes.read(read[0]) == "Alice: Bob hoards Tuch"
    _, read = table_of(game.id, note_of=1)
    assert [s.note_text for s in read] == [None, None, None] and notes.read(read[1]) == ""
    _, read = table_of(game.id)
    assert "note_text" not in vars(read[2]) and notes.read(read[2]) == "Carol's plan"


def test_a_locked_table_is_read_in_the_write_transaction(ctx, database):
    game = _three(ctx)
    with write_transaction():
        read, seats = table_of(game.id, lock=True)
        read.seq += 1
        read.save(only=[Game.seq])
    assert Game.get_by_id(game.id).seq == game.seq + 1 and len(seats) == 3


def test_the_seats_a_change_touched_are_written_in_one_statement(ctx, database):
    game = _three(ctx)
    _, seats = table_of(game.id)
    before = [s.__data__.copy() for s in Seat.of(game)]
    when = datetime(2026, 3, 2, 12, 0, 0)
    seats[0].menu_seq += 5
    seats[0].deadline = when
    seats[2].in_turn = not seats[2].in_turn
    seats[2].deadline = None
    seats[2].bank_seconds = 77
    with _Counted() as sent:
        moves.save_changed(*seats)
    assert len(sent) == 1 and not any(s.dirty_fields for s in seats)
    after = [s.__data__ for s in Seat.of(game)]
    assert after[1] == before[1]  # untouched
    assert {k for k in after[0] if after[0][k] != before[0][k]} == {"menu_seq", "deadline"}
    assert after[0]["deadline"] == when and after[0]["menu_seq"] == before[0]["menu_seq"] + 5
    assert after[2]["in_turn"] == (not before[2]["in_turn"]) and after[2]["deadline"] is None
    assert after[2]["bank_seconds"] == 77
    changed = {k for k in after[2] if after[2][k] != before[2][k]}
    assert changed <= {"in_turn", "deadline", "bank_seconds"}
