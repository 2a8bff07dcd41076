"""Table talk: short messages players write to the table from their seat page.

A message is stored once (``Talk``) after the move it followed and stands in
every history beside that move.  It reaches each other seated human once, in
mail: inside whatever mail of the game they get next (``take_unmailed``, which
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

import peewee as pw

from pbem.context import Context
from pbem.i18n import N_, gettext
from pbem.models import Game, Outbox, Player, Seat, Talk, utcnow

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
    return Talk.create(game=game, seat=seat.index, text=text, after_move_seq=game.seq,
                       created_at=now)


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


def take_unmailed(game: Game, player: Player) -> list[tuple[int, str]]:
    """The messages of others ``player`` has not been mailed yet, as (seat, text), marked
    mailed now: the caller puts them in the mail it is queuing in the same transaction."""
    seats = list(Seat.select().where(Seat.game == game, Seat.player == player, ~Seat.bot))
    if not seats:
        return []
    mine = [s.index for s in seats]
    since = min(s.talk_mailed for s in seats)
    rows = list(Talk.select().where(Talk.game == game, Talk.id > since,
                                    Talk.seat.not_in(mine)).order_by(Talk.id))
    if not rows:
        return []
    last = max(row.id for row in rows)
    Seat.update(talk_mailed=last).where(Seat.id.in_([s.id for s in seats])).execute()
    return [(row.seat, row.text) for row in rows]


def has_unmailed(game: Game, player: Player) -> bool:
    """Whether others wrote anything ``player`` has not been mailed yet."""
    return (Seat.select().join(Talk, on=(Talk.game == Seat.game) & (Talk.id > Seat.talk_mailed)
                               & (Talk.seat != Seat.index))
            .where(Seat.game == game, Seat.player == player, ~Seat.bot).exists())


def due(ctx: Context, now: datetime) -> list[tuple[int, int]]:
    """(game, player) pairs with a message waiting longer than the mail delay."""
    waited = now - timedelta(minutes=ctx.config.getint("limits", "talk_mail_after_minutes"))
    query = (Seat.select(Seat.game, Seat.player).distinct()
             .join(Talk, on=(Talk.game == Seat.game) & (Talk.id > Seat.talk_mailed)
                   & (Talk.seat != Seat.index))
             .switch(Seat).join(Player)
             .where(Seat.player.is_null(False), ~Seat.bot, Talk.created_at <= waited,
                    Player.mail_enabled,
                    # a talk mail held for the reader's digest: the digest brings it
                    ~pw.fn.EXISTS(Outbox.select().where(
                        Outbox.game == Seat.game, Outbox.player == Seat.player,
                        Outbox.kind == "talk", Outbox.sent_at.is_null(),
                        Outbox.failed_at.is_null()))))
    return [(row.game_id, row.player_id) for row in query]


def send_due(ctx: Context, now: datetime) -> int:
    """Queue a "table talk" mail for each reader a message has waited for too long."""
    from pbem.mail import compose
    from pbem.models import write_transaction
    from pbem.time import steps

    def one(pair: tuple[int, int]) -> bool:
        with write_transaction():
            game = Game.get_by_id(pair[0])
            player = Player.get_by_id(pair[1])
            if not has_unmailed(game, player):
                return False  # another mail took the messages since ``due`` looked
            seat = (Seat.select().where(Seat.game == game, Seat.player == player)
                    .order_by(Seat.index).first())
            # ``compose.queue`` takes the waiting messages into the mail it queues
            return compose.queue_talk(ctx, game, seat, now) is not None

    return steps.each("talk", due(ctx, now), one)

