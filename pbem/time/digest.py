"""The daily digest: one mail a day instead of one per turn, for players who choose it.

``compose.queue`` holds a digest player's turn and notice mails
(``Outbox.digest``) until the end of their next quiet hours, their morning.
When that time comes the tick bundles everything held for the player into
one mail: what happened, and every game where it is their move now, with its
deadline in their time zone and their seat link (the move links of a turn
mail from yesterday may be stale by then; the seat page never is).  The held
rows are claimed (marked sent) in the same transaction that queues the
digest, so a digest is made once and each held mail goes into one digest.
Reminders, invitations and results are never held.
"""

from __future__ import annotations

from datetime import datetime

import peewee as pw

from pbem.context import Context
from pbem.i18n import Phrase, phrase, say
from pbem.mail import compose
from pbem.mail.outbox import stale_turn
from pbem.mail.talk import take_unmailed
from pbem.models import Game, Outbox, Player, Seat, write_transaction
from pbem.sqlcache import Prepared
from pbem.time import steps
from pbem.time.running import running_clocks

#: players with held mail whose digest time has come (built once, as ``timeouts.due``'s);
#: held mail is never given up on (``failed_at``): said so, the index of mail still to go
#: finds it
_DUE = Prepared(Outbox, lambda now, limit: (
    Outbox.select(Outbox.player).where(Outbox.sent_at.is_null(), Outbox.failed_at.is_null(),
                                       Outbox.digest, Outbox.not_before <= now)
    .group_by(Outbox.player).order_by(pw.fn.MIN(Outbox.not_before)).limit(limit)),
    2, dates=(0,))


def due(now: datetime, limit: int = steps.BATCH) -> list[int]:
    """Players with held mail whose digest time has come."""
    return [row.player_id for row in _DUE.rows(now, limit) if row.player_id is not None]


def send_due(ctx: Context, now: datetime) -> int:
    return steps.each("digests", due(now), lambda pid: digest_one(ctx, pid, now))


def digest_one(ctx: Context, player_id: int, now: datetime) -> bool:
    """Bundle the player's held mails into one digest; False if another tick did."""
    with write_transaction():
        held = list(Outbox.select()
                    .where(Outbox.player == player_id, Outbox.digest, Outbox.sent_at.is_null(),
                           Outbox.not_before <= now)
                    .order_by(Outbox.created_at, Outbox.id))
        if not held:
            return False
        claimed = (Outbox.update(sent_at=now, claimed_until=None)
                   .where(Outbox.id.in_([m.id for m in held]), Outbox.sent_at.is_null())
                   .execute())
        if claimed != len(held):
            raise steps.Lost(player_id)  # another tick bundles them: roll back
        # a held "your move" whose turn is over is not told: it is no longer true
        stale = {m.id: why for m in held if (why := stale_turn(m)) is not None}
        for mail_id, why in stale.items():
            (Outbox.update(sent_at=None, failed_at=now, last_error=why)
             .where(Outbox.id == mail_id).execute())
        player = Player.get_by_id(player_id)
        _queue_digest(ctx, player, [m for m in held if m.id not in stale], now)
        return True


def _queue_digest(ctx: Context, player: Player, held: list[Outbox], now: datetime) -> None:
    lang = compose.language_of(player)
    # what each held mail said, in the player's language: a game's mail says it in its
    # body's first line (its subject is the game's thread), any other in its subject
    happened = [(compose.format_local(m.created_at, player.timezone, lang),
                 m.text_body.partition("\n")[0] if m.game_id is not None else m.subject)
                for m in held]
    happened += _talk_of(player, held, lang)
    turns = [dict(title=c.title, left=c.left, url=compose.seat_url(ctx, c.game, c.seat),
                  deadline_local=compose.format_local(c.seat.deadline, player.timezone, lang))
             for c in running_clocks(player, now)]
    text, html = compose.render_mail(
        ctx, "digest", lang, player=player, happened=happened, turns=turns,
        title=say(phrase("pbem: your day ({n} to move)", n=len(turns)), lang))
    compose.queue(ctx, kind="digest", to=player, subject=say(_digest_subject(len(turns)), lang),
                  text=text, html=html, now=now)


def _talk_of(player: Player, held: list[Outbox], lang: str) -> list[tuple[str, str]]:
    """The table talk of the held mails' games the player has not been mailed yet (and
    now has): a digest reader gets the messages here, once."""
    lines = []
    for game_id in dict.fromkeys(m.game_id for m in held if m.game_id is not None):
        game = Game.get_by_id(game_id)
        names = compose.names_of(Seat.of(game))
        for seat, text in take_unmailed(game, player):
            name = names[seat] if seat < len(names) else f"seat {seat + 1}"
            lines.append((compose.game_title(game), f"{name}: {text}"))
    return lines


def _digest_subject(turns: int) -> str | Phrase:
    if not turns:
        return phrase("Your daily digest")
    if turns == 1:
        return phrase("Your daily digest: your move in 1 game")
    return phrase("Your daily digest: your move in {n} games", n=turns)
