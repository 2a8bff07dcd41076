"""Taking back the move that ended a turn reopens that turn as it stood: the same
deadline, the same reminders, the same bank. A take-back never buys time."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from freezegun import freeze_time
from games.draw_game import TURN, Ziehen

from pbem.games import registered
from pbem.lifecycle import create, moves
from pbem.models import Game, Move, Seat


class ZiehenOhneSchluss(Ziehen):
    """Ziehen whose "end" can be taken back: only the draw is final."""

    name = "ziehen-tb"

    def is_commit_point(self, before, seat, move, after):
        return move == "draw"


@pytest.fixture
def game_rules():
    rules = ZiehenOhneSchluss()
    with registered(rules):
        yield rules


def _seat(game, index) -> Seat:
    return Seat.get(Seat.game == game, Seat.index == index)


def _two_humans(ctx, clock) -> Game:
    alice = create.get_or_create_player("alice@example.org", "Alice")
    bob = create.get_or_create_player("bob@example.org", "Bob")
    game = create.create_game(ctx, "ziehen-tb", alice, ["bob@example.org"], seed="tide",
                              clock_policy=clock)
    create.accept_invite(ctx, game, _seat(game, 1), bob)
    return Game.get_by_id(game.id)


def _play(ctx, game, seat, move):
    s = _seat(game, seat)
    return moves.play(ctx, game.id, seat, move, menu_seq=s.menu_seq, turn_seq=s.turn_seq)


def _clock(seat: Seat):
    return (seat.deadline, seat.deadline_started, seat.remind_at, seat.reminders_sent,
            seat.bank_seconds)


@pytest.mark.parametrize("clock", [
    {"kind": "per_move", "days": 3},
    {"kind": "bank", "initial_days": 2, "bonus_days": 1},
], ids=["days-per-move", "time-bank"])
def test_a_turn_taken_back_goes_on_with_the_deadline_it_had(ctx, database, game_rules, clock):
    with freeze_time("2026-05-04 09:00:00") as frozen:
        game = _two_humans(ctx, clock)
        for move in TURN[:-1]:
            frozen.tick(600)
            _play(ctx, game, 0, move)
        before_end = _clock(_seat(game, 0))
        assert before_end[0] is not None
        frozen.tick(600)
        _play(ctx, game, 0, "end")
        assert _seat(game, 0).deadline is None and _seat(game, 1).in_turn

        frozen.tick(timedelta(hours=20))  # Alice thinks better of it the next morning
        moves.take_back(ctx, game.id, 0)
        alice, bob = _seat(game, 0), _seat(game, 1)
        assert alice.in_turn and _clock(alice) == before_end
        assert not bob.in_turn and bob.deadline is None

        frozen.tick(600)
        _play(ctx, game, 0, "end")
        if clock["kind"] == "bank":
            # the bank pays for the whole turn: 30 minutes of steps, 10 to the first
            # "end", 20 hours, 10 minutes to the second: nothing was given back
            spent = 30 * 60 + 600 + 20 * 3600 + 600
            assert _seat(game, 0).bank_seconds == 2 * 86_400 - spent


def test_a_move_from_an_older_pbem_without_a_clock_note_still_reopens_the_turn(
        ctx, database, game_rules):
    with freeze_time("2026-05-04 09:00:00") as frozen:
        game = _two_humans(ctx, {"kind": "per_move", "days": 3})
        for move in TURN:
            _play(ctx, game, 0, move)
        Move.update(clock_before="").where(Move.game == game).execute()
        frozen.tick(3600)
        moves.take_back(ctx, game.id, 0)
        alice = _seat(game, 0)
        # nothing to restore: the turn starts again from now, as pbem did before
        assert alice.in_turn and alice.deadline == alice.deadline_started + timedelta(days=3)
        assert alice.deadline_started.replace(tzinfo=None) == datetime(2026, 5, 4, 10, 0)
