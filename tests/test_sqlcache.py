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


def test_a_row_inserted_once_built_is_the_row_peewee_creates(database):
    game = _game(2)
    from datetime import datetime

    from pbem.models import Move, Outbox
    from pbem.sqlcache import insert, insert_many

    values = dict(game=game, seq=1, seat=0, move="karte 3", round=1, turn_seq=1,
                  commit=True, turn_end=False, said_author="Du", said_others="Ann",
                  said_in={"de": ["Du", "Ann"]}, clock_before="",
                  created_at=datetime(2026, 3, 2, 12, 0))
    for _ in range(2):  # built the first time, reused the second
        made = insert(Move, **values)
        assert made.id is not None and not made.dirty_fields
        created = Move.create(**{**values, "seq": values["seq"] + 100})
        read, expected = Move.get_by_id(made.id).__data__, Move.get_by_id(created.id).__data__
        assert {**read, "id": 0, "seq": 0} == {**expected, "id": 0, "seq": 0}
        assert read == made.__data__  # the defaults filled as they were written
        values["seq"] += 1
    rows = [dict(game=game, player=None, kind="turn", to_address=f"{n}@example.org",
                 subject="s", text_body="", message_id=f"<{n}@pbem>", composed=False)
            for n in ("a", "b", "c")]
    insert_many(Outbox, rows)
    got = list(Outbox.select().where(Outbox.message_id.in_(["<a@pbem>", "<b@pbem>",
                                                             "<c@pbem>"]))
               .order_by(Outbox.id))
    assert [m.to_address for m in got] == ["a@example.org", "b@example.org", "c@example.org"]
    assert all(m.attempts == 0 and m.created_at is not None and not m.composed for m in got)
    with pytest.raises(ValueError):
        insert_many(Outbox, [rows[0], {**rows[1], "digest": True}])


def test_rows_updated_once_built_change_only_what_each_set(database):
    from pbem.sqlcache import update_rows

    game = _game(3)
    seats = Seat.of(game)
    before = [s.__data__.copy() for s in seats]
    seats[0].bot_level = "strong"
    seats[2].in_turn, seats[2].menu_seq = True, 9
    update_rows(seats)
    after = [s.__data__ for s in Seat.of(game)]
    assert after[0] == {**before[0], "bot_level": "strong"} and after[1] == before[1]
    assert after[2] == {**before[2], "in_turn": True, "menu_seq": 9}
    game.seq, game.state = 4, {"round": 2}
    update_rows([game])
    assert Game.get_by_id(game.id).state == {"round": 2} and not game.dirty_fields


def _bots(seats: int) -> Game:
    game = Game.create(game="visby", seed="3", rules_version="1", data_version="1")
    for index in range(seats):
        Seat.create(game=game, index=index, bot=True)
    return game


def _made_as(row: object) -> object:
    """Everything a model read from a row holds, its related models' as well."""
    assert isinstance(row, pw.Model) and not row.dirty_fields
    extra = {k: v for k, v in vars(row).items() if k not in ("__data__", "__rel__", "_dirty")}
    related = {k: (_made_as(v) if v is not None else None) for k, v in row.__rel__.items()}
    return type(row), row.__data__, related, extra


@pytest.mark.parametrize("by", ["groups", "columns"])
def test_rows_made_without_peewees_setattr_are_the_rows_peewee_makes(database, monkeypatch,
                                                                      by):
    """``Prepared.rows`` makes a row's models itself, a model's columns at once
    (``sqlcache._Group``) or, where a plan has no groups, column by column
    (``_made_joined``, ``_made_single``): joined tables (an outer join that finds
    nothing too), an alias column, a model read alone."""
    from pbem import sqlcache
    from pbem.gamelog.history import _TALK

    if by == "columns":
        monkeypatch.setattr(sqlcache, "_groups", lambda columns, models: None)
    monkeypatch.setattr(_TALK, "_resolved", {})  # planned here, as the others
    from pbem.models import Drawn, Move, Note, Talk, _table_query, table_of

    game = _game(3)
    Seat.update(player=None).where(Seat.game == game, Seat.index == 2).execute()
    Note.create(seat=Seat.get(Seat.game == game, Seat.index == 1), text="mine")
    Drawn.create(game=game, viewer=1, key="k1", svg="<svg/>", text="the table")
    Drawn.create(game=game, viewer=2, key="k2", svg="<svg/>", text="not asked for")
    Talk.create(game=game, seat=0, text="hello", after_move_seq=0)
    Move.create(game=game, seq=1, seat=0, move="karte 3", round=1, turn_seq=1, commit=True,
                turn_end=False, said_author="Du", said_others="Ann")
    queries = [
        (Prepared(Seat, lambda g, s: _table_query(g, s, with_note=True, with_drawn=False), 2),
         (game.id, 1)),
        (Prepared(Seat, lambda g: _table_query(g, with_note=False, with_drawn=False), 1),
         (game.id,)),
        # a seat's kept table, and its note and kept table: the seat's values, not models
        (Prepared(Seat, lambda g, s: _table_query(g, s, with_note=False, with_drawn=True), 2),
         (game.id, 1)),
        (Prepared(Seat, lambda g, s, t: _table_query(g, s, t, with_note=True,
                                                     with_drawn=True), 3), (game.id, 1, 1)),
        (Prepared(Seat, lambda g: (Seat.select(Seat, Player).join(Player, pw.JOIN.LEFT_OUTER)
                                   .where(Seat.game == g).order_by(Seat.index)), 1),
         (game.id,)),
        (_TALK, (game.id, 0)),
        (Prepared(Move, lambda g: Move.select(Move.seq, Move.said_in, Move.game)
                  .where(Move.game == g), 1), (game.id,)),
    ]
    # a model every row names the same one of is made once; a row naming none (the seat
    # without a player, an outer join) or another makes its own
    Seat.update(player=Player.create(email="bo@example.org", name="Bo")).where(
        Seat.game == game, Seat.index == 1).execute()
    shared = [
        (Prepared(Seat, lambda g: _table_query(g, with_note=False, with_drawn=False), 1,
                  shared=(Game,)),
         (game.id,)),
        (Prepared(Seat, lambda g: (Seat.select(Seat, Player, Game).join(
            Player, pw.JOIN.LEFT_OUTER).switch(Seat).join(Game).where(Seat.game == g)
            .order_by(Seat.index)), 1, shared=(Game, Player)), (game.id,)),
        # two rows whose outer join found nothing: neither is given the other's nothing
        (Prepared(Seat, lambda g: (Seat.select(Seat, Player).join(Player, pw.JOIN.LEFT_OUTER)
                                   .where(Seat.game == g).order_by(Seat.index.desc())), 1,
                  shared=(Player,)), (_bots(3).id,)),
    ]
    for query, values in queries + shared:
        for _ in range(2):  # planned the first time, the plan reused the second
            made = query.rows(*values)
            assert all(r["_pbem_plan"] is not None and (r["_pbem_plan"][3] is None) == (
                by == "columns") for r in query._resolved.values())
            assert made and [_made_as(r) for r in made] == [
                _made_as(r) for r in query.build(*values)]
    assert [s.__rel__.get("player") for s in made[:2]] == [None, None]
    game_rows = shared[0][0].rows(game.id)
    assert game_rows[0].game is game_rows[1].game is game_rows[2].game
    # the kept table of the seat asked for, and no other seat's
    _, seats = table_of(game.id, note_of=1, drawn_of=1)
    assert [(s.drawn_key, s.drawn_text, s.note_text) for s in seats] == [
        (None, None, None), ("k1", "the table", "mine"), (None, None, None)]
    assert [s.player.name if s.player else None for s in shared[1][0].rows(game.id)] == [
        "Ann", "Bo", None]
    # without the state (the compose step's read under the lock): the same game and
    # seats, the state neither read nor changed by saving the game
    Game.update(state={"round": 2, "hands": [[1, 2], [3]]}).where(Game.id == game.id).execute()
    whole, seats = table_of(game.id)
    bare, bare_seats = table_of(game.id, state=False)
    assert bare.state is None and whole.state == {"round": 2, "hands": [[1, 2], [3]]}
    assert {k: v for k, v in bare.__data__.items()} == {
        k: v for k, v in whole.__data__.items() if k != "state"}
    assert [(s.__data__, s.player and _made_as(s.player)) for s in bare_seats] == [
        (s.__data__, s.player and _made_as(s.player)) for s in seats]
    assert all(s.game is bare for s in bare_seats)
    bare.seq += 1
    bare.save()
    assert Game.get_by_id(game.id).state == whole.state


def test_values_left_unconverted_are_those_their_field_gives_back_as_they_are():
    """``_unconverted``: a column is read without its converter only for a value of the
    type its field's converter returns unchanged; every other field is converted."""
    from pbem.models import MODELS
    from pbem.sqlcache import _unconverted

    samples = {int: [0, -3, 2**40], str: ["", "ä x", "12"], bool: [True, False]}
    kinds: dict[type, int] = {}
    for model in MODELS:
        for field in model._meta.sorted_fields:
            same = _unconverted(field.python_value)
            if same is None:
                continue
            kinds[same] = kinds.get(same, 0) + 1
            for value in samples[same]:
                assert field.python_value(value) is value, (model, field.name)
    assert set(kinds) == {int, str, bool}
    assert _unconverted(Game.state.python_value) is None  # JSON: parsed
    assert _unconverted(Game.parked_at.python_value) is None  # a date: parsed
    assert _unconverted(len) is None


def test_values_written_as_they_are_are_those_their_field_writes_as_they_are():
    """``_stored_as_is``: ``update_rows`` sends a value without its field's ``db_value``
    only where that would return it unchanged."""
    from pbem.models import MODELS
    from pbem.sqlcache import _stored_as_is

    samples = {int: [0, -3, 2**40], str: ["", "ä x", "12"], bool: [True, False]}
    kinds: set[type] = set()
    for model in MODELS:
        for field in model._meta.sorted_fields:
            same = _stored_as_is(field)
            if same is not None:
                kinds.add(same)
                for value in samples[same]:
                    assert field.db_value(value) is value, (model, field.name)
    assert kinds == {int, str, bool}
    assert _stored_as_is(Game.state) is None and _stored_as_is(Game.parked_at) is None


def test_a_moment_may_be_a_value_in_two_places_and_freezegun_s_too(database):
    """``dates``: the tick's "due by now" queries, built once, find what peewee finds."""
    from datetime import datetime, timedelta

    from freezegun import freeze_time

    from pbem.models import utcnow
    from pbem.time import reminders

    game = _game(3)
    start = datetime(2026, 3, 2, 12, 0)
    for seat in Seat.select().where(Seat.game == game):
        Seat.update(remind_at=start + timedelta(hours=seat.index)).where(
            Seat.id == seat.id).execute()
    query = Prepared(Seat, lambda now, limit: (
        Seat.select().where((Seat.remind_at <= now) | (Seat.deadline <= now))
        .order_by(Seat.remind_at).limit(limit)), 2, dates=(0,))
    for now in (start - timedelta(seconds=1), start, start + timedelta(hours=1, minutes=1)):
        peewees = list(Seat.select().where((Seat.remind_at <= now) | (Seat.deadline <= now))
                       .order_by(Seat.remind_at).limit(5))
        assert [s.id for s in query.rows(now, 5)] == [s.id for s in peewees]
    with freeze_time(start + timedelta(hours=5)):
        assert len(reminders.due(utcnow())) == 3  # a frozen clock's moment, as it is
    with pytest.raises(TypeError):
        query.rows(5, 5)
    with pytest.raises(TypeError):
        query.rows(start, start)


def test_a_statement_first_made_under_a_frozen_clock(database):
    """A process that imports the tick's modules under freezegun (a test of ``pbem demo``,
    run alone) makes their statements there: freezegun has put its own class in place of
    ``datetime`` in every module, which must not make a moment's place look like a whole
    number's (every step of that tick failed with "every value must reach the SQL")."""
    from datetime import datetime, timedelta

    from freezegun import freeze_time

    game = _game(3)
    start = datetime(2026, 3, 2, 12, 0)
    for seat in Seat.select().where(Seat.game == game):
        Seat.update(remind_at=start + timedelta(hours=seat.index)).where(
            Seat.id == seat.id).execute()
    with freeze_time(start + timedelta(hours=1, minutes=1)):
        from pbem.models import utcnow

        # made as a tick's module imported under the frozen clock makes it
        query = Prepared(Seat, lambda now, limit: (
            Seat.select().where(Seat.remind_at <= now).order_by(Seat.remind_at)
            .limit(limit)), 2, dates=(0,))
        assert len(query.rows(utcnow(), 5)) == 2
        assert len(query.rows(start, 5)) == 1  # a real datetime, under the frozen clock
    assert len(query.rows(start + timedelta(hours=5), 5)) == 3  # and after it
