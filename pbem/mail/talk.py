"""Which table talk a reader has been mailed: each message of others reaches each seated
human once, inside the next mail of the game they get (``compose.queue`` asks
:func:`take_unmailed`), or in the digest or the "table talk" mail the tick queues
(``pbem.lifecycle.talk.send_due``).

Mail keeps this account (``Seat.talk_mailed``, ``Seat.talk_waiting_since``), so the
lifecycle, which stores a message (``pbem.lifecycle.talk.post``), reads it from here.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import peewee as pw

from pbem.models import Game, Outbox, Player, Seat, Talk


@dataclass
class Taken:
    """The talk a mail takes to its reader: (seat, text) oldest first, and the reader's
    ``talk_mailed`` before and after (``Outbox.talk_from``, ``Outbox.talk_to``)."""

    said: list[tuple[int, str]]
    before: int = 0
    after: int = 0

    def __bool__(self) -> bool:
        return bool(self.said)

    def __iter__(self) -> Iterator[tuple[int, str]]:
        return iter(self.said)


def take_unmailed(game: Game, player: Player, table: list[Seat] | None = None) -> Taken:
    """The messages of others ``player`` has not been mailed yet, as (seat, text), marked
    mailed now: the caller puts them in the mail it is queuing in the same transaction.

    ``table``: the game's seats as the caller read them in this transaction (a turn
    mail's), so that they need not be read again; they are kept in step with what this
    writes, so a second mail to the same player in the transaction takes nothing twice.
    """
    if game.__data__.get("aside_seq", 0) < 0:
        return Taken([])  # nobody has said anything at this table (``Game.aside_seq``)
    if table is not None:
        seats = [s for s in table if s.player_id == player.id and not s.bot]
    else:
        seats = list(Seat.select().where(Seat.game == game, Seat.player == player, ~Seat.bot))
    if not seats:
        return Taken([])
    before = min(s.talk_mailed for s in seats)
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
    return Taken([(row.seat, row.text) for row in rows], before,
                 changes.get("talk_mailed", before))


def give_back(mail: Outbox, now: datetime) -> bool:
    """The talk ``mail`` took, for its reader to be mailed again, now that the mail will
    never go (a "your move" mail whose turn ended first): their seats' account goes back
    to before the mail, and the talk waits for the tick's "table talk" mail from when it
    was written.  Only where no later mail took newer talk meanwhile (that mail told
    the reader the talk after this, and the account keeps one mark per reader); whether
    it gave the talk back."""
    if mail.talk_to is None or mail.talk_from is None or mail.game_id is None:
        return False
    seats = list(Seat.select().where(Seat.game == mail.game_id, Seat.player == mail.player_id,
                                     ~Seat.bot))
    if not seats or any(s.talk_mailed != mail.talk_to for s in seats):
        return False
    oldest = (Talk.select(pw.fn.MIN(Talk.created_at))
              .where(Talk.game == mail.game_id, Talk.id > mail.talk_from,
                     Talk.id <= mail.talk_to, Talk.seat.not_in([s.index for s in seats]))
              .scalar())
    (Seat.update(talk_mailed=mail.talk_from, talk_waiting_since=oldest or now)
     .where(Seat.id.in_([s.id for s in seats])).execute())
    return True


def unmailed(game: Game | int, seats: list[Seat]) -> pw.ModelSelect:
    """The talk of others the player of ``seats`` (their seats at ``game``) has not
    been mailed yet, oldest first."""
    since = min(s.talk_mailed for s in seats)
    return (Talk.select().where(Talk.game == game, Talk.id > since,
                                Talk.seat.not_in([s.index for s in seats]))
            .order_by(Talk.id))
