"""The bodies of "your move" mails a player's click only addressed: the tick writes them.

A move played from a page begins the next seat's turn, whose mail costs more than the
move itself (the table drawn for its reader, what happened since their last turn, the
menu as links, the talk waiting).  Nobody waits for that mail in the click: it leaves
with the next tick anyway.  So the click queues the row addressed and threaded, in the
move's own transaction (``compose.queue_turn(later=True)``: nothing is lost if the
server stops after it), and the tick's step here writes its body just before the
delivery step, from the game as it is then.

A row whose turn ended meanwhile (its player moved on the seat page) is given up as
delivery would give it up (``outbox.stale_turn``), never composed.  Whether the address
asked never to be mailed again, and whether the row is the first of its thread (its
root), are asked when it is written (``compose.finish``), not in the click.  A body that cannot
be written (a defect) is retried by the next ticks and given up after the mail's
``max_attempts``, with the reason kept: the move it followed stands.
"""

from __future__ import annotations

import logging
from datetime import datetime

import peewee as pw

from pbem.context import Context
from pbem.mail import compose
from pbem.mail.outbox import stale_turn
from pbem.models import Outbox, table_of, utcnow, write_transaction
from pbem.sqlcache import Prepared, Written

log = logging.getLogger("pbem.mail.later")

#: rows one tick writes at most; the rest waits for the next tick
BATCH = 500
#: times a row's body is drawn again when its game moved while it was drawn
ATTEMPTS = 3
#: a row by its id, its SQL built once (``pbem.sqlcache``): building a wide row's query
#: cost more than the database's answer
_MAIL = Prepared(Outbox, lambda mail_id: Outbox.select().where(Outbox.id == mail_id), 1)
#: the rows still to be written (``due``), with ``composed`` a constant
_DUE = Written(Outbox, lambda database: (
    f'SELECT "{Outbox.id.column_name}" FROM "{Outbox._meta.table_name}" '
    f'WHERE "{Outbox.composed.column_name}" = '
    f'{"0" if isinstance(database, pw.SqliteDatabase) else "false"} '
    f'AND "{Outbox.failed_at.column_name}" IS NULL '
    f'ORDER BY "{Outbox.id.column_name}" LIMIT {database.param}'))


def due(limit: int = BATCH) -> list[int]:
    """The rows still to be written, oldest first (index ``outbox_to_compose``).

    Its SQL is written once (the step asks after every row it wrote and every time it
    looks), with ``composed`` a constant: SQLite takes a partial index only for a
    constant, and a bound value made it plan the statement anew at every run (peewee
    binds every value)."""
    return [row[0] for row in _DUE.all([limit])]


def finish_due(ctx: Context, now: datetime | None = None) -> int:
    """Write every row due; how many were written."""
    now = now or utcnow()
    done = 0
    for mail_id in due():
        try:
            done += finish_one(ctx, mail_id, now)
        except Exception as exc:  # noqa: BLE001 - one bad mail must not stop the others
            log.exception("mail %s: its body could not be written", mail_id)
            _failed(ctx, mail_id, now, f"cannot compose: {type(exc).__name__}: {exc}")
    return done


def finish_one(ctx: Context, mail_id: int, now: datetime) -> bool:
    """Write one row's body; whether it was written.

    The body is drawn outside any transaction (on SQLite a write transaction holds every
    writer, the players' clicks too, and drawing is the dear part), then stored under
    the game's lock if the game has not moved meanwhile; where it has, it is drawn again
    from the new state (``ATTEMPTS`` times, then the next tick tries)."""
    for _ in range(ATTEMPTS):
        mail = _MAIL.first(mail_id)
        if mail is None or mail.composed or mail.failed_at is not None:
            return False  # another tick wrote it
        game, seats = table_of(mail.game_id) if type(mail.game_id) is int else (None, [])
        if game is None or stale_turn(mail, seats) is not None:
            return _give_up_stale(mail_id, now)
        seat = seats[mail.seat_index]
        body = compose.turn_body(ctx, game, seat, seats, game.state)
        with write_transaction():
            # the table again, fresh under the lock; not its state, which is drawn from
            # the first read and compared by its move number and status
            locked, seats = table_of(game.id, lock=True, state=False)
            # the row as read above, if no other tick wrote it or gave it up meanwhile
            asked = compose.still_pending(mail)
            if asked is None:
                return False
            if locked is None or locked.seq != game.seq or locked.status != game.status:
                continue  # a move came between: draw it again from the new state
            if (stale_turn(mail, seats) is not None
                    or seats[mail.seat_index].menu_seq != seat.menu_seq):
                continue
            written = compose.finish(ctx, mail, locked, seats, body.subject, body.text,
                                     body.html, asked, reply_of=seats[mail.seat_index],
                                     reply_moves=compose.reply_moves(body.menu))
            if written:
                body.keep(locked, seats[mail.seat_index])
            return written
    return False


def _give_up_stale(mail_id: int, now: datetime) -> bool:
    """Give a row up whose turn ended before it was written, as delivery would."""
    with write_transaction():
        mail = Outbox.get_or_none(Outbox.id == mail_id)
        if mail is None or mail.composed or mail.failed_at is not None:
            return False
        stale = (stale_turn(mail) if mail.game_id is not None
                 else "not sent: the game is gone")
        if stale is not None:
            (Outbox.update(failed_at=now, last_error=stale)
             .where(Outbox.id == mail_id).execute())
    return False


def _failed(ctx: Context, mail_id: int, now: datetime, error: str) -> None:
    """Count a failed attempt; give the row up after ``[mail] max_attempts``."""
    with write_transaction():
        mail = Outbox.get_or_none(Outbox.id == mail_id)
        if mail is None:
            return
        attempts = mail.attempts + 1
        gave_up = attempts >= ctx.config.getint("mail", "max_attempts")
        (Outbox.update(attempts=attempts, last_error=error[:2000],
                       failed_at=now if gave_up else None)
         .where(Outbox.id == mail_id).execute())
