"""What the scheduled steps (timeouts, reminders, vacations, digests) share.

Each step is shaped like healthchecks' ``sendalerts``: a query lists the ids
of due rows (an indexed column compared with ``now``), and a small function
takes one of them inside a write transaction, checks it is still due, claims
it with a conditional UPDATE and does its work, returning whether it did.  A
second tick, or a tick that runs again after a crash, finds nothing left to
do, and work that failed half-way was rolled back with its claim.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from datetime import datetime
from typing import Any

from pbem.context import Context
from pbem.gamelog import history
from pbem.i18n import Phrase, say
from pbem.mail import compose
from pbem.models import Game, Notice, Seat, utcnow, write_transaction

log = logging.getLogger("pbem.time.scheduler")

#: rows one step takes per tick at most; the rest waits for the next tick
BATCH = 500


class Lost(Exception):
    """Another tick claimed the row first: roll back and move on."""


#: a game whose scheduled work failed this many ticks in a row is parked
PARK_AFTER = 3


def each(name: str, ids: Iterable[int], one: Callable[[int], Any],
         game_of: Callable[[int], int | None] | None = None) -> int:
    """Run ``one`` for every due id; count the ones that did work.

    A row whose work raises is logged and left for the next tick, so one bad
    game cannot stop the others (or the mail).  With ``game_of`` (the game a row
    belongs to), a game that fails ``PARK_AFTER`` times in a row is parked: the
    due queries pass it over until an operator releases it (``pbem parked``).  A move
    recorded in the game sets the count back (``moves.after_change``).
    """
    done = 0
    for row_id in ids:
        try:
            if one(row_id):
                done += 1
        except Lost:
            continue
        except Exception as exc:
            log.exception("%s: row %s failed; it stays due for the next tick", name, row_id)
            game_id = game_of(row_id) if game_of is not None else None
            if game_id is not None:
                _failed(game_id, f"{name}: {type(exc).__name__}: {exc}"[:500])
    return done


def _failed(game_id: int, reason: str) -> None:
    with write_transaction():
        game = Game.get_or_none(Game.id == game_id)
        if game is None:
            return
        game.failures += 1
        if game.failures >= PARK_AFTER and game.parked_at is None:
            game.parked_at = utcnow()
            game.parked_reason = reason
            log.error("game %s parked after %s failed ticks: %s", game_id, game.failures,
                      reason)
        game.save()


def game_of_seat(seat_id: int) -> int | None:
    row = Seat.select(Seat.game).where(Seat.id == seat_id).first()
    return row.game_id if row is not None else None


def release(game_id: int) -> bool:
    """An operator lets a parked game be ticked again; whether it was parked."""
    return bool(Game.update(failures=0, parked_at=None, parked_reason=None)
                .where(Game.id == game_id, Game.parked_at.is_null(False)).execute())


def note(game: Game, seat: int | None, text: str | Phrase, seq: int | None = None) -> Notice:
    """A line in the game's log (``{0}``-style seat placeholders); a ``Phrase`` is written
    in every language pbem speaks, and each reader reads it in theirs."""
    row = Notice.create(game=game, seq=game.seq if seq is None else seq, seat=seat,
                        **history.notice_columns(text))
    game.aside_after(row.seq)
    return row


def tell_table(ctx: Context, game: Game, seats: list[Seat], line: str | Phrase,
               subject: str | Phrase, now: datetime, skip: Iterable[int] = (),
               end: str = "") -> None:
    """Mail ``line`` to every human at the table but the seats in ``skip``.

    ``subject`` and a ``line`` given as a ``Phrase`` are said in each player's language
    (``pbem.i18n``); ``line`` is a line of the game's log (``{0}``-style seat
    placeholders), and a plain string reads as written; ``end`` follows it (a full stop
    after a line that is a notice too).
    """
    skip = set(skip)
    names = compose.names_of(seats)
    title = compose.game_title(game)
    for seat in seats:
        if seat.player_id is None or seat.index in skip:
            continue
        lang = compose.language_of(seat.player)
        said = (say(line, lang) if isinstance(line, Phrase) else line) + end
        text, html = compose.render_mail(ctx, "notice", lang, game=game, title=title,
                                         names=names, line=said, seat=seat,
                                         seat_url=compose.seat_url(ctx, game, seat))
        compose.queue(ctx, kind="notice", to=seat.player,
                      subject=f"{title}: {say(subject, lang)}", text=text, html=html,
                      game=game, now=now)


def personal_mail(ctx: Context, game: Game, seat: Seat, seats: list[Seat], template: str,
                  subject: str | Phrase, now: datetime, kind: str = "notice",
                  **values: Any) -> None:
    """One mail to the owner of ``seat`` from ``templates/mail/<template>.{txt,html}``,
    in their language where the templates have it."""
    title = compose.game_title(game)
    lang = compose.language_of(seat.player)
    text, html = compose.render_mail(ctx, template, lang, game=game, title=title,
                                     names=compose.names_of(seats), seat=seat,
                                     seat_url=compose.seat_url(ctx, game, seat),
                                     by_reply=ctx.config.getbool("inbound", "replies"),
                                     **values)
    # a mail that lists the seat's choices can be answered by reply, like a turn mail
    menu = values.get("moves")
    reply = (dict(reply_of=seat, reply_moves=[link.choice.move for link in menu]
                  if menu.short else [])
             if isinstance(menu, compose.Menu) and menu else {})
    compose.queue(ctx, kind=kind, to=seat.player, subject=f"{title}: {say(subject, lang)}",
                  text=text, html=html, game=game, now=now, **reply)
