"""The moves of one change (a player's move and the bots' and formalities' it sets off)
go into the log in one statement (``moves.record``'s ``pending``, ``insert_moves``): a
click at a Macao table that sets off three formalities wrote four inserts, over the
click's budget of statements (issue 23).  The log is as it was: every move, in order,
with its sentences."""

from __future__ import annotations

from pbem.games import get_game
from pbem.lifecycle import create, moves
from pbem.models import Game, Move, db

VISBY = get_game("visby")


def _inserts_into_move(run) -> tuple[object, int]:
    """What ``run()`` returns, and the statements it sent that insert into the log."""
    sent: list[str] = []

    def hook(event) -> None:
        sent.append(str(getattr(event, "sql", event)))

    db.obj.query_hooks.append(hook)
    try:
        result = run()
    finally:
        db.obj.query_hooks.remove(hook)
    return result, sum(1 for sql in sent if sql.lstrip().upper().startswith('INSERT INTO "MOVE"'))


def test_a_move_and_the_bots_moves_it_sets_off_are_one_insert(ctx, database):
    alice = create.get_or_create_player("alice@example.org", "Alice", quiet_start="00:00",
                                        quiet_end="00:00")
    game = create.create_game(ctx, "visby", alice, [None, None], seed=4)
    several = 0
    for _ in range(12):
        game = Game.get_by_id(game.id)
        if game.status != Game.ACTIVE or 0 not in VISBY.to_move(game.state):
            break
        before = game.seq
        outcome, inserts = _inserts_into_move(lambda g=game: moves.play(
            ctx, g.id, 0, VISBY.legal_moves(g.state, 0)[0]))
        assert inserts == 1
        assert [m.seq for m in outcome.moves] == list(range(before + 1, before + 1
                                                           + len(outcome.moves)))
        several += len(outcome.moves) > 1
        # in the log as recorded: each move with its number and its sentences
        logged = list(Move.select().where(Move.game == game.id, Move.seq > before)
                      .order_by(Move.seq))
        assert [(m.seq, m.seat, m.move) for m in logged] == [
            (m.seq, m.seat, m.move) for m in outcome.moves]
        assert all(m.said_author for m in logged)
    assert several, "no move of Alice's set off the bots' in the same change"
