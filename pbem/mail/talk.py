"""Which table talk a reader has been mailed: each message of others reaches each seated
human once, inside the next mail of the game they get (``compose.queue`` asks
:func:`take_unmailed`), or in the digest or the "table talk" mail the tick queues
(``pbem.lifecycle.talk.send_due``).

Mail keeps this account (``Seat.talk_mailed``, ``Seat.talk_waiting_since``), so the
lifecycle, which stores a message (``pbem.lifecycle.talk.post``), reads it from here.
"""

from __future__ import annotations

from typing import Any

import peewee as pw

from pbem.models import Game, Player, Seat, Talk


def take_unmailed(game: Game, player: Player,
                  table: list[Seat] | None = None) -> list[tuple[int, str]]:
    """The messages of others ``player`` has not been mailed yet, as (seat, text), marked
    mailed now: the caller puts them in the mail it is queuing in the same transaction.

    ``table``: the game's seats as the caller read them in this transaction (a turn
    mail's), so that they need not be read again; they are kept in step with what this
    writes, so a second mail to the same player in the transaction takes nothing twice.
    """
    if game.__data__.get("aside_seq", 0) < 0:
        return []  # nobody has said anything at this table (``Game.aside_seq``): no talk
    if table is not None:
        seats = [s for s in table if s.player_id == player.id and not s.bot]
    else:
        seats = list(Seat.select().where(Seat.game == game, Seat.player == player, ~Seat.bot))
    if not seats:
        return []
    rows = list(unmailed(game, seats))
    changes: dict[str, Any] = {}
    if rows:
        changes["talk_mailed"] = max(row.id for row in rows)
    if any(s.talk_waiting_since is not None for s in seats):
        changes["talk_waiting_since"] = None  # nothing waits for them any more
    if changes:
        Seat.update(**changes).where(Seat.id.in_([s.id for s in seats])).execute()
        for seat in seats:  # as the row now is, without making the caller write it again
            seat.__data__.update(changes)
    return [(row.seat, row.text) for row in rows]


def unmailed(game: Game | int, seats: list[Seat]) -> pw.ModelSelect:
    """The talk of others the player of ``seats`` (their seats at ``game``) has not
    been mailed yet, oldest first."""
    since = min(s.talk_mailed for s in seats)
    return (Talk.select().where(Talk.game == game, Talk.id > since,
                                Talk.seat.not_in([s.index for s in seats]))
            .order_by(Talk.id))
