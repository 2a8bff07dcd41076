"""A link of the seat's current menu version has played nothing yet (issue 23): the page
and the move skip looking it up in the log, so every move must leave the seat's version
above the one it was played with, even a version a form made up."""

from __future__ import annotations

import pytest
from games.draw_game import Ziehen

from pbem.games import registered
from pbem.lifecycle import create, moves
from pbem.models import Game, Seat


@pytest.fixture
def ziehen():
    with registered(Ziehen()):
        yield


def _table(ctx) -> Game:
    alice = create.get_or_create_player("alice@example.org", "Alice")
    bob = create.get_or_create_player("bob@example.org", "Bob")
    game = create.create_game(ctx, "ziehen", alice, ["bob@example.org"], seed="menu")
    create.accept_invite(ctx, game, Seat.get(Seat.game == game, Seat.index == 1), bob)
    return Game.get_by_id(game.id)


def _alice(game: Game) -> Seat:
    return Seat.get(Seat.game == game, Seat.index == 0)


def test_a_made_up_menu_version_plays_once(ctx, database, ziehen):
    game = _table(ctx)
    alice = _alice(game)
    made_up = alice.menu_seq + 7
    # a step leaves Alice in her turn: only the log can tell the form was used
    moves.play(ctx, game.id, 0, "step", menu_seq=made_up, turn_seq=alice.turn_seq)
    alice = _alice(game)
    assert alice.in_turn and alice.menu_seq > made_up
    refused = moves.link_refusal(game, alice, alice.turn_seq, made_up, "step", ["step"])
    assert refused is not None and refused.reason == "used"


def test_the_current_version_is_free_and_an_older_one_is_looked_up(ctx, database, ziehen):
    game = _table(ctx)
    alice = _alice(game)
    first = alice.menu_seq
    assert moves.link_refusal(game, alice, alice.turn_seq, first, "step", ["step"]) is None
    moves.play(ctx, game.id, 0, "step", menu_seq=first, turn_seq=alice.turn_seq)
    alice = _alice(game)
    assert alice.menu_seq == first + 1
    again = moves.link_refusal(game, alice, alice.turn_seq, first, "step", ["step"])
    assert again is not None and again.reason == "used"
