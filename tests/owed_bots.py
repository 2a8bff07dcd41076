"""What a test's random play through the service owes the tick: on a busy machine a
change's bots stop at their cap (``moves.MAX_AUTOMATIC_SECONDS``) and leave the rest to
the next tick (``Game.bots_pending``), and the turns of people who come after the bots
begin only then."""

from __future__ import annotations

from pbem.lifecycle import moves
from pbem.models import Game, Seat, table_of


def owed_bots_played(ctx, game: Game) -> Game:
    """``game`` read anew, after the moves its bots still owed were played as the tick
    plays them (``table_after_owed_bots``)."""
    return table_after_owed_bots(ctx, game.id)[0]


def table_after_owed_bots(ctx, game_id: int) -> tuple[Game, list[Seat]]:
    """The game and its seats read anew, in the pages' one statement (``table_of``; a
    game and a seat read on their own were a fifth of the web tests' ``finish``), after
    the moves its bots still owed were played as the tick plays them
    (``moves.continue_bots``)."""
    game, seats = table_of(game_id)
    while game.bots_pending:
        moves.continue_bots(ctx, game_id)
        game, seats = table_of(game_id)
    return game, seats
