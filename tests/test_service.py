"""The move service on a real database: a whole game, refusals, take-back."""

from __future__ import annotations

import random
import threading
import time

import peewee as pw
import pytest

from pbem import models
from pbem.gamelog.records import replay
from pbem.games import get_game
from pbem.lifecycle import create, moves, records
from pbem.models import Game, Move, Outbox, Seat, db, utcnow

VISBY = get_game("visby")


def _table(ctx, bots=1):
    alice = create.get_or_create_player("alice@example.org", "Alice", confirmed_at=utcnow())
    bob = create.get_or_create_player("bob@example.org", "Bob")
    game = create.create_game(ctx, "visby", alice, ["bob@example.org"] + [None] * bots, seed=11)
    create.accept_invite(ctx, game, Seat.get(Seat.game == game, Seat.index == 1), bob)
    return Game.get_by_id(game.id)


def _menu_seq(game, seat):
    return Seat.get(Seat.game == game, Seat.index == seat).menu_seq


def test_whole_game_through_the_service_replays_from_the_log(ctx, database):
    game = _table(ctx)
    rng = random.Random(3)
    while game.status == Game.ACTIVE:
        seat = rng.choice(VISBY.to_move(game.state))
        move = rng.choice(VISBY.legal_moves(game.state, seat))
        moves.play(ctx, game.id, seat, move, menu_seq=_menu_seq(game, seat))
        game = Game.get_by_id(game.id)
    assert game.status == Game.FINISHED
    assert Move.select().where(Move.game == game).count() == game.seq
    assert replay(records.game_record(game)) == game.state
    assert game.result["scores"] == VISBY.result(game.state).scores
    kinds = {m.kind for m in Outbox.select()}
    assert {"invite", "turn", "result"} <= kinds


def _seat(game, index):
    return Seat.get(Seat.game == game, Seat.index == index)


def test_one_link_plays_once_and_a_link_of_a_finished_turn_is_stale(ctx, database):
    game = _table(ctx, bots=2)  # 4 players: one card each per round
    seat = _seat(game, 0)
    turn, seq = seat.turn_seq, seat.menu_seq
    moves.play(ctx, game.id, 0, "play Ritter", menu_seq=seq, turn_seq=turn)
    with pytest.raises(moves.PlayError) as used:
        moves.play(ctx, game.id, 0, "play Ritter", menu_seq=seq, turn_seq=turn)
    assert used.value.reason == "used"
    assert used.value.row is not None and used.value.row.move == "play Ritter"
    # the choice is made: another link of the same mail finds the decision over
    with pytest.raises(moves.PlayError) as stale:
        moves.play(ctx, game.id, 0, "play Schiff", menu_seq=seq, turn_seq=turn)
    assert stale.value.reason == "stale"
    assert Move.select().where(Move.kind == Move.PLAYER).count() == 1


def test_two_links_of_one_mail_both_play_in_a_two_card_round(ctx, database):
    """Two players choose two cards a round: both links of the one turn mail play."""
    game = _table(ctx, bots=0)
    seat = _seat(game, 0)
    turn, seq = seat.turn_seq, seat.menu_seq
    moves.play(ctx, game.id, 0, "play Ritter", menu_seq=seq, turn_seq=turn)
    assert _seat(game, 0).turn_seq == turn  # the first card ends no turn
    moves.play(ctx, game.id, 0, "play Schiff", menu_seq=seq, turn_seq=turn)
    game = Game.get_by_id(game.id)
    assert sorted(game.state["chosen"][0]) == ["Ritter", "Schiff"]
    # the second link again is "used", and so is the first
    for card in ("Schiff", "Ritter"):
        with pytest.raises(moves.PlayError) as again:
            moves.play(ctx, game.id, 0, f"play {card}", menu_seq=seq, turn_seq=turn)
        assert again.value.reason == "used"
    # one turn mail for seat 0 so far, not a second one after the first card
    turn_mails = Outbox.select().where(Outbox.kind == "turn",
                                       Outbox.to_address == "alice@example.org")
    assert turn_mails.count() == 1


def test_a_link_whose_choice_is_gone_is_refused_politely(ctx, database):
    game = _table(ctx, bots=0)
    seat = _seat(game, 0)
    turn, seq = seat.turn_seq, seat.menu_seq
    moves.play(ctx, game.id, 0, "play Ritter", menu_seq=seq + 1000, turn_seq=turn)
    with pytest.raises(moves.PlayError) as gone:
        moves.play(ctx, game.id, 0, "play Ritter", menu_seq=seq, turn_seq=turn)
    assert gone.value.reason == "gone"


def test_illegal_move_is_refused_and_changes_nothing(ctx, database):
    game = _table(ctx)
    before = Game.get_by_id(game.id).state
    moves_before = Move.select().count()  # the bot's cards are in already
    with pytest.raises(moves.PlayError) as err:
        moves.play(ctx, game.id, 0, "play Drache", menu_seq=_menu_seq(game, 0))
    assert err.value.reason == "illegal" and "Drache" in str(err.value)
    assert Game.get_by_id(game.id).state == before
    assert Move.select().count() == moves_before
    assert not Move.select().where(Move.kind == Move.PLAYER).exists()


def test_take_back_a_secret_choice_before_the_reveal(ctx, database):
    game = _table(ctx)
    moves.play(ctx, game.id, 0, "play Ritter", menu_seq=_menu_seq(game, 0))
    moves.play(ctx, game.id, 1, "play Schiff", menu_seq=_menu_seq(game, 1))
    assert moves.takeback_candidate(game, 0) is not None
    moves.take_back(ctx, game.id, 0)
    game = Game.get_by_id(game.id)
    assert game.state["chosen"][0] == []
    assert game.state["chosen"][1] == ["Schiff"]
    assert [m.move for m in game.moves.order_by(Move.seq)] == ["play Schiff"] or all(
        m.kind == Move.BOT for m in game.moves if m.move != "play Schiff")
    assert replay(records.game_record(game)) == game.state


def test_no_take_back_after_the_reveal(ctx, database):
    game = _table(ctx, bots=0)
    for seat, card in ((0, "Ritter"), (0, "Schiff"), (1, "Flotte"), (1, "Truppen")):
        moves.play(ctx, game.id, seat, f"play {card}", menu_seq=_menu_seq(game, seat))
    game = Game.get_by_id(game.id)
    assert game.state["round"] == 2
    with pytest.raises(moves.PlayError) as err:
        moves.take_back(ctx, game.id, 0)
    assert err.value.reason == "final"


def test_mover_is_mailed_when_its_turn_ends_not_while_it_goes_on(ctx, database):
    alice = create.get_or_create_player("alice@example.org", "Alice")
    game = create.create_game(ctx, "visby", alice, [None], seed=2)  # 2 players: 2 cards
    turn_mails = Outbox.select().where(Outbox.kind == "turn")
    assert turn_mails.count() == 1
    first_deadline = Seat.get(Seat.game == game, Seat.index == 0).deadline
    moves.play(ctx, game.id, 0, "play Ritter", menu_seq=_menu_seq(game, 0))
    assert turn_mails.count() == 1  # the turn goes on: the page shows the second card
    moves.play(ctx, game.id, 0, "play Schiff", menu_seq=_menu_seq(game, 0))
    # the bot chose too, cards were revealed, round 2 asks Alice again: a new mail
    assert Game.get_by_id(game.id).state["round"] == 2
    assert turn_mails.count() == 2
    assert "Round 1:" in turn_mails.order_by(Outbox.id.desc()).first().text_body
    assert Seat.get(Seat.game == game, Seat.index == 0).deadline >= first_deadline


def test_the_last_two_invitations_accepted_at_once_start_the_game(ctx, database, monkeypatch):
    """Two invitees accept at the same moment: each transaction must see the other's seat.

    Without a lock on the game row (PostgreSQL, READ COMMITTED) each acceptance sees
    only its own seat taken, neither starts the game, and it stays open for ever.
    """
    alice = create.get_or_create_player("alice@example.org", "Alice")
    people = [create.get_or_create_player(f"{n}@example.org", n.title()) for n in ("bob", "carol")]
    game = create.create_game(ctx, "visby", alice, [p.email for p in people], seed=4)
    seats = [Seat.get(Seat.game == game, Seat.index == i) for i in (1, 2)]
    both_inside = threading.Barrier(2)
    seats_of = Seat.of
    read = threading.local()

    def read_then_wait_for_the_other(game):
        # each acceptance reads the table before it decides whether the game starts:
        # both read before either commits, or the later one would see the earlier's seat
        # committed and start the game even without the lock
        table = seats_of(game)
        if not getattr(read, "once", False):
            read.once = True
            try:  # with the game locked the second waits at the lock instead: go on alone
                both_inside.wait(timeout=2)
                waits.passed = True
            except threading.BrokenBarrierError:
                pass
        return table

    monkeypatch.setattr(Seat, "of", read_then_wait_for_the_other)
    errors: list[Exception] = []
    waits = LockWaits(monkeypatch)

    def accept(seat, person):
        try:
            waits.begin()
            create.accept_invite(ctx, game, seat, person)
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            db.close()

    threads = [threading.Thread(target=accept, args=(seat, person))
               for seat, person in zip(seats, people, strict=True)]
    for t in threads:
        t.start()
    # the one inside need not wait out the barrier's timeout once the lock holds the
    # other back: the barrier is broken for it then (the same as its timeout)
    waits.until_one_waits(both_inside, threads)
    for t in threads:
        t.join(30)
    assert errors == []
    game = Game.get_by_id(game.id)
    assert game.status == Game.ACTIVE
    assert Outbox.select().where(Outbox.kind == "turn").count() == 3


class LockWaits:
    """Whether a thread waits for the write lock another one holds, asked of the lock:
    SQLite's writers queue on ``models._writer`` (a thread that has asked for it while
    another holds it waits), PostgreSQL's sessions on row locks (``pg_blocking_pids``)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch):
        self.asked: set[int] = set()  # threads that asked for SQLite's writer lock
        self.sessions: list[int] = []  # PostgreSQL: the threads' backends
        self.passed = False  # both were inside at once
        writer = models._writer
        if writer is not None:
            hold = writer.hold

            def asking_hold():
                self.asked.add(threading.get_ident())
                return hold()

            monkeypatch.setattr(writer, "hold", asking_hold)

    def begin(self) -> None:
        """In each thread before its transaction: note its PostgreSQL session."""
        if not isinstance(db.obj, pw.SqliteDatabase):
            self.sessions.append(db.execute_sql("SELECT pg_backend_pid()").fetchone()[0])

    def one_waits(self) -> bool:
        if isinstance(db.obj, pw.SqliteDatabase):
            return len(self.asked) == 2  # and one of them holds the lock (it is inside)
        return any(db.execute_sql("SELECT cardinality(pg_blocking_pids(%s)) > 0",
                                  (pid,)).fetchone()[0] for pid in self.sessions)

    def until_one_waits(self, inside: threading.Barrier,
                        threads: list[threading.Thread]) -> None:
        """Break ``inside`` once one thread waits there and the other for its lock; ask
        no more once both passed it, so as not to slow either down on their way on."""
        while any(t.is_alive() for t in threads) and not inside.broken and not self.passed:
            if inside.n_waiting == 1 and self.one_waits():
                inside.abort()
            time.sleep(0.005)


def test_a_player_added_meanwhile_is_found_not_a_crash(database, monkeypatch):
    """Two requests for one new address (a double click on "Join"): the one that looked
    first and inserts second finds the other's row instead of failing on the unique email."""
    from pbem.models import Player

    looked = Player.get_or_none

    def first_look_misses(*args, **kwargs):
        monkeypatch.setattr(Player, "get_or_none", looked)
        Player.create(email="bob@example.org", name="Bob")  # the other request, just now
        return None

    monkeypatch.setattr(Player, "get_or_none", first_look_misses)
    bob = create.get_or_create_player("bob@example.org", "Bob")
    assert Player.select().count() == 1 and bob.email == "bob@example.org"
