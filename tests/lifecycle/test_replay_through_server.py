"""Whole games played through the server replay to what was played (issue 28).

Each kind of game is played to its end through the lifecycle with the database
between the moves, as in production (``bench/server_games.py``: people whose moves
go through ``moves.play`` from the state read back, now and then a take-back, and at
a table of three or more one bot).  Then ``pbem verify`` passes on every game, and
the archive, which replays a finished game's record and shows its stored sentences,
gets from the replay the stored snapshot and, move by move, the stored sentences.  The bench
script plays 50 games of each kind the same way.
"""

from __future__ import annotations

import pytest
from lifecycle.server_support import server_games

from pbem.archive.collect import collect, load_moves
from pbem.gamelog.history import sentences
from pbem.gamelog.records import replay_steps
from pbem.games import get_game
from pbem.lifecycle import verify
from pbem.models import Game, Move


def _cases() -> list:
    """The fewest and the most players of each kind: with more than two, a bot moves in
    the people's changes, from states that never left memory."""
    out = []
    for name in server_games.KINDS:
        configs = server_games.configurations(name)
        for players, options in (configs[0], configs[-1]):
            out.append(pytest.param(name, players, options, id=f"{name}-{players}p"))
    return out


@pytest.mark.parametrize("name, players, options", _cases())
def test_a_game_played_through_the_server_is_its_replay(name, players, options, ctx, cli):
    game = server_games.play_through_server(ctx, name, players, options,
                                            f"issue28-{name}-{players}", takeback_share=0.05)
    assert game.status == Game.FINISHED
    found = verify.check(game)
    assert found.ok and not found.notes, (found.findings, found.notes[:3])
    verified = cli("verify")
    assert verified.exit_code == 0, verified.output
    assert f"game {game.id}: ok ({game.seq} moves)" in verified.output
    _archive_replays_as_stored(game)


def _archive_replays_as_stored(game: Game) -> None:
    """The archive's replay of the record (as its pages walk it) ends in the stored
    snapshot and tells every move as the stored sentence the page shows."""
    [finished] = load_moves(collect([game.id]))
    rules = get_game(game.game)
    steps = list(replay_steps(finished.record()))
    assert len(steps) == len(finished.moves) == game.seq
    assert verify.canonical(steps[-1][4]) == verify.canonical(game.state)
    rows = list(Move.select().where(Move.game == game).order_by(Move.seq))
    for (index, seat, move, before, after), logged, row in zip(steps, finished.moves, rows,
                                                               strict=True):
        said = sentences(rules, before, seat, move, after)
        assert logged.said == said["said_author"], f"move {index + 1}"
        assert (row.said_others, row.said_in) == (said["said_others"], said["said_in"])
