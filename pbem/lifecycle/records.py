"""A game's record to and from the database: ``export`` writes one, ``import`` makes a
game of one.

The record's format and its replay are :mod:`pbem.gamelog.records`; the rows an import
writes are the rows the service would have recorded (:mod:`pbem.gamelog.rows`, which
counts turns as :func:`pbem.lifecycle.moves.after_change` does), so pages, mails and
the archive read an imported game as they read any other.
"""

from __future__ import annotations

import uuid

from pbem.context import Context
from pbem.gamelog.records import GameRecord, replay_steps
from pbem.gamelog.rows import kind_of, move_rows
from pbem.games import get_game
from pbem.models import Game, Move, Player, Seat, utcnow, write_transaction
from pbem.time import clock


def game_record(game: Game) -> GameRecord:
    """The record of ``game`` as it stands: its players, seed, options and move log."""
    seats = Seat.of(game)
    return GameRecord(
        game=game.game,
        players=[s.display for s in seats],
        seed=game.seed,
        options=dict(game.options),
        rules_version=game.rules_version,
        moves=[(m.seat, m.move) for m in game.moves.order_by(Move.seq)],
        data_version=game.data_version,
    )


def import_record(ctx: Context, record: GameRecord) -> Game:
    """A game in the database made from ``record``, replayed: finished, or active if not over.

    Each seat gets a placeholder player with the record's name and an address
    under ``.invalid`` (RFC 2606), with mail turned off, so an import never
    mails anybody.  An active import can be played from the seat links that
    ``pbem import`` prints.
    """
    rules = get_game(record.game)
    options = rules.resolve_options(record.options, len(record.players))
    steps = list(replay_steps(record))  # raises RecordError before anything is written
    data_version = record.data_version or rules.data_version
    state = steps[-1][4] if steps else rules.setup_version(len(record.players), options,
                                                           record.seed, data_version,
                                                           record.rules_version)
    over = rules.is_over(state)
    # each row with its sentences, round and turn, as the service records a move, so that
    # pages, mails and the archive read rows and never replay the import (written before
    # the transaction, which then holds the write lock only for the inserts)
    setup = rules.setup_version(len(record.players), options, record.seed, data_version,
                                record.rules_version)
    kinds = list(map(kind_of(rules, ()), steps))
    rows, turns = move_rows(rules, setup, steps, kinds, len(record.players))
    now = utcnow()
    with write_transaction():
        game = Game.create(
            game=record.game, options=options, seed=record.seed,
            rules_version=record.rules_version or rules.rules_version,
            data_version=data_version,
            clock=clock.resolve_policy(ctx, None), status=Game.FINISHED if over else Game.ACTIVE,
            seq=len(steps), state=state, started_at=now,
            finished_at=now if over else None,
            result=rules.result(state).to_json() if over else None,
        )
        tag = uuid.uuid4().hex[:12]
        seats = []
        for index, name in enumerate(record.players):
            player = Player.create(email=f"import-{game.id}-{index}-{tag}@pbem.invalid",
                                   name=name[:80] or f"Player {index + 1}",
                                   mail_enabled=False)
            seats.append(Seat.create(game=game, index=index, player=player))
        for row in rows:
            Move.create(game=game, **row)
        for seat in seats:
            # the seats' turns go on from the rows': a link names the open turn
            seat.turn_seq = turns[seat.index].turn_seq
            seat.menu_seq = turns[seat.index].menu_seq
            seat.in_turn = turns[seat.index].in_turn
            seat.save()
    return game
