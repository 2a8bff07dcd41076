"""The seat page finds what take-back would take among the rows of the seat's history it
reads anyway (``moves.takeback_candidate(told=…)``): the same move the log's own
question finds, at every step of games of every kind, in turn or not."""

from __future__ import annotations

import random

import pytest

from pbem.gamelog import history
from pbem.games import game_names, get_game
from pbem.lifecycle import create, moves
from pbem.models import Game, Seat

STEPS = 40


def _game(ctx, kind: str, players: int) -> Game:
    people = [create.get_or_create_player(f"p{i}@example.org", f"P{i}") for i in range(players)]
    game = create.create_game(ctx, kind, people[0], [p.email for p in people[1:]],
                              seed=f"takeback-{kind}")
    for index, person in enumerate(people[1:], start=1):
        create.accept_invite(ctx, game, Seat.get(Seat.game == game, Seat.index == index),
                             person)
    return Game.get_by_id(game.id)


def _seq(row) -> int | None:
    return row.seq if row is not None else None


@pytest.mark.parametrize("kind", game_names())
def test_the_history_names_the_move_take_back_would_take(ctx, database, kind):
    rules = get_game(kind)
    game = _game(ctx, kind, min(3, rules.max_players))
    rng = random.Random(kind)
    offered = 0
    for _ in range(STEPS):
        if game.status != Game.ACTIVE:
            break
        for seat in Seat.of(game):
            told = history.seat_history(game, seat.index, seat.in_turn)
            asked = moves.takeback_candidate(game, seat.index)
            assert _seq(moves.takeback_candidate(game, seat.index, told)) == _seq(asked)
            if seat.index == 0:  # a history of another seat is not taken for this one's
                other = history.seat_history(game, 1, True)
                assert _seq(moves.takeback_candidate(game, 0, other)) == _seq(asked)
            offered += asked is not None
        state = game.state
        index = rng.choice(rules.to_move(state))
        seat = Seat.get(Seat.game == game, Seat.index == index)
        moves.play(ctx, game.id, index, rng.choice(rules.legal_moves(state, index)),
                   menu_seq=seat.menu_seq, turn_seq=seat.turn_seq, mail_later=True)
        game = Game.get_by_id(game.id)
    # the comparison saw moves that take-back offers, not only "nothing to take back"
    assert offered > 0
