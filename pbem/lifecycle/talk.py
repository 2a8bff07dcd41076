"""Table talk: short messages players write to the table from their seat page.

A message is stored once (``Talk``) after the move it followed and stands in
every history beside that move.  It reaches each other seated human once, in
mail: inside whatever mail of the game they get next (``pbem.mail.talk.take_unmailed``, which
``compose.queue`` calls), or, when none comes within ``[limits]
talk_mail_after_minutes``, in a "table talk" mail of its own that the tick
queues (``send_due``), through the outbox and so through the reader's quiet
hours and digest.  Such a mail carries every message waiting for the reader,
so a reader gets at most one of them per that many minutes however much is
written.  Bots get no mail.
"""

from __future__ import annotations

import re
import unicodedata
from datetime import datetime, timedelta
from typing import Any

from pbem.context import Context
from pbem.i18n import N_, gettext
from pbem.mail import compose, kinds
from pbem.mail.talk import unmailed
from pbem.models import (
    Game,
    Outbox,
    Player,
    Seat,
    Talk,
    lock_row,
    talk_waiting_from_log,
    utcnow,
    write_transaction,
)
from pbem.sqlcache import Prepared
from pbem.time import steps

#: the longest message, in characters (after control characters are removed)
MAX_LENGTH = 500

class TalkError(Exception):
    """A message the table will not take: ``reason`` is a ``Refusal`` reason."""

    def __init__(self, reason: str, message: str, retry_at: datetime | None = None):
        super().__init__(message)
        self.reason = reason
        self.retry_at = retry_at


def clean(text: str) -> str:
    """``text`` without control or format characters (line breaks become spaces), trimmed.

    A message is one paragraph: no line break can forge a mail header or a new line
    of a history, no bidi override can turn the rest of a page around.
    """
    out = []
    for char in text:
        if char in "\r\n\t\v\f\x85\u2028\u2029":
            out.append(" ")
        elif unicodedata.category(char) not in ("Cc", "Cf", "Cs", "Co", "Cn"):
            out.append(char)
    return re.sub(r" {2,}", " ", "".join(out)).strip()


def post(ctx: Context, game: Game, seat: Seat, raw: str, now: datetime | None = None) -> Talk:
    """Store the message ``raw`` of ``seat``, or raise ``TalkError`` and store nothing."""
    now = now or utcnow()
    if game.status == Game.OPEN:
        raise TalkError("not-started", gettext("The game has not started yet: the table "
                                               "takes messages once every seat is taken."))
    if game.status != Game.ACTIVE:
        # a finished table is history: what it says is final, like its moves
        raise TalkError("not-active", gettext("This game has ended: its table takes no more "
                                              "messages. What was said stays in its history "
                                              "and archive."))
    text = clean(raw)
    if not text:
        raise TalkError("bad-form", gettext("The message was empty: please write something."))
    if len(text) > MAX_LENGTH:
        raise TalkError("too-long", gettext(
            "The message has %(length)s characters; the table takes at most %(most)s. "
            "Nothing was kept: please shorten it and send it again.", length=len(text),
            most=MAX_LENGTH))
    _check_rate(ctx, game, seat, now)
    row = Talk.create(game=game, seat=seat.index, text=text, after_move_seq=game.seq,
                      created_at=now)
    game.aside_after(game.seq)
    # its readers wait from now, unless an older message waits for them already
    (Seat.update(talk_waiting_since=now)
     .where(Seat.game == game, Seat.index != seat.index, Seat.player.is_null(False),
            Seat.player != seat.player_id, Seat.bot == False,  # noqa: E712
            Seat.talk_waiting_since.is_null())
     .execute())
    return row


def _check_rate(ctx: Context, game: Game, seat: Seat, now: datetime) -> None:
    limits = ((Talk.seat == seat.index, timedelta(hours=1),
               ctx.config.getint("limits", "talk_per_seat_hour"),
               N_("That is %(most)s messages in an hour from this seat, as many as the "
                  "table takes. Nothing was kept.")),
              (True, timedelta(days=1), ctx.config.getint("limits", "talk_per_game_day"),
               N_("That is %(most)s messages in a day at this table, as many as the table "
                  "takes. Nothing was kept.")))
    for where, span, most, what in limits:
        recent = (Talk.select(Talk.created_at)
                  .where(Talk.game == game, where, Talk.created_at > now - span)
                  .order_by(Talk.created_at.desc()).limit(most))
        times = [row.created_at for row in recent]
        if len(times) >= most:
            retry_at = times[-1] + span  # when the oldest of them falls out of the window
            raise TalkError("talk-limit", gettext(what, most=most), retry_at=retry_at)


# -- in mail ---------------------------------------------------------------------------


def _delay(ctx: Context) -> timedelta:
    return timedelta(minutes=ctx.config.getint("limits", "talk_mail_after_minutes"))


def due(ctx: Context, now: datetime, limit: int = 500) -> list[tuple[int, int]]:
    """(game, player) pairs with a message waiting longer than the mail delay, oldest
    first: found by ``Seat.talk_waiting_since`` alone, so the cost follows the waiting
    readers, not the seats."""
    return list(dict.fromkeys((row.game_id, row.player_id)
                              for row in _DUE.rows(now - _delay(ctx), limit)))


#: the seats with a message waiting since before a moment (built once, as the tick's
#: other "due" queries)
_DUE = Prepared(Seat, lambda since, limit: (
    Seat.select(Seat.game, Seat.player)
    .where(Seat.talk_waiting_since <= since)
    .order_by(Seat.talk_waiting_since, Seat.id).limit(limit)), 2, dates=(0,))


def send_due(ctx: Context, now: datetime) -> int:
    """Queue a "table talk" mail for each reader a message has waited for too long."""
    return steps.each("talk", due(ctx, now, steps.BATCH),
                      lambda pair: mail_waiting(ctx, pair[0], pair[1], now))


def mail_waiting(ctx: Context, game_id: int, player_id: int, now: datetime) -> bool:
    """The "table talk" mail for one reader, if what waits for them is still due and can
    go; whether one was queued.  A reader it cannot go to now stops waiting (or waits
    for the talk mail already queued), so that no tick looks at them again for nothing."""
    with write_transaction():
        game = lock_row(Game, game_id)
        player = Player.get_or_none(Player.id == player_id)
        seats = list(Seat.select().where(Seat.game == game_id, Seat.player == player_id)
                     .order_by(Seat.index))
        since = [s.talk_waiting_since for s in seats if s.talk_waiting_since is not None]
        if game is None or player is None or not since or min(since) > now - _delay(ctx):
            return False  # another tick, or another mail, took the messages meanwhile
        ids = [s.id for s in seats]
        humans = [s for s in seats if not s.bot]
        if not humans or not player.takes(kinds.TALK) or not unmailed(game, humans).exists():
            _wait_from(ids, None)  # a bot plays, or mail is off: ``rewait`` when it changes
            return False
        # the reader's few talk mails of this game, by its index: asked for "not sent" in
        # SQL, the planner would walk every mail still to go (the index of those)
        queued = [m.not_before for m in
                  Outbox.select(Outbox.not_before, Outbox.sent_at, Outbox.failed_at)
                  .where(Outbox.game == game, Outbox.player == player, Outbox.kind == "talk")
                  if m.sent_at is None and m.failed_at is None]
        if queued:
            # a talk mail waits for the reader's morning or digest: what was written since
            # follows it then, not before it
            _wait_from(ids, max(min(queued), now) - _delay(ctx))
            return False
        # ``compose.queue`` takes the waiting messages into the mail it queues
        mail = compose.queue_talk(ctx, game, humans[0], now)
        if mail is None or mail.digest:
            _wait_from(ids, None)  # the address takes no mail, or the digest brings them
        return mail is not None


def _wait_from(seat_ids: list[int], since: datetime | None) -> None:
    Seat.update(talk_waiting_since=since).where(Seat.id.in_(seat_ids)).execute()


def rewait(*where: Any) -> int:
    """The seats ``where`` names can be mailed again (back from a bot, mail turned on):
    the talk of others they were not mailed waits for them again, from when it was
    written."""
    return talk_waiting_from_log(*where)

