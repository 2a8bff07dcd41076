"""Reminders before a deadline, at the points the game's clock names.

``clock.start_turn`` puts the first reminder of a turn into ``Seat.remind_at``,
already moved out of the player's quiet hours (to an hour before they begin).
A tick sends every reminder that is due, claims it by moving ``remind_at`` on
to the next point with a conditional UPDATE, and queues the mail in the same
transaction.  A tick that comes late sends one reminder for all the points it
missed.  During a vacation the clock stands still and so do the reminders.
"""

from __future__ import annotations

from datetime import datetime

from pbem.context import Context
from pbem.games import get_game
from pbem.i18n import in_language, phrase
from pbem.mail import compose
from pbem.models import Game, Seat, lock_row, write_transaction
from pbem.sqlcache import Prepared
from pbem.time import clock, steps

#: the seats a reminder is due for (built once, as ``timeouts.due``'s)
_DUE = Prepared(Seat, lambda now, limit: (
    Seat.select(Seat.id).join(Game)
    .where(Seat.remind_at <= now, Game.parked_at.is_null())
    .order_by(Seat.remind_at, Seat.id).limit(limit)), 2, dates=(0,))


def due(now: datetime, limit: int = steps.BATCH) -> list[int]:
    return [row.id for row in _DUE.rows(now, limit)]


def send_due(ctx: Context, now: datetime) -> int:
    return steps.each("reminders", due(now), lambda seat_id: remind_one(ctx, seat_id, now),
                      game_of=steps.game_of_seat)


def remind_one(ctx: Context, seat_id: int, now: datetime) -> bool:
    """Send the seat its due reminder; False when there was none (any more)."""
    with write_transaction():
        row = Seat.select(Seat.id, Seat.game).where(Seat.id == seat_id).first()
        if row is None:
            return False
        game = lock_row(Game, row.game_id)
        seat = Seat.get_by_id(seat_id)
        if seat.remind_at is None or seat.remind_at > now or game is None:
            return False
        rules = get_game(game.game)
        live = (game.status == Game.ACTIVE and not seat.bot and seat.player_id is not None
                and seat.deadline is not None and seat.deadline > now and not seat.in_grace
                and seat.index in rules.to_move(game.state))
        player = clock.player_of(seat)
        away_until = clock.stopped_until(player, now)
        if not live or away_until is not None:
            # the turn is over, or its owner is away: no reminder now, maybe a later one
            nxt = clock.next_reminder(game.clock, seat, player) if live else None
            if nxt is not None and nxt <= now:
                # the point fell inside the vacation (moved before a night, a DST
                # change, new quiet hours): it waits for the return, not dropped
                nxt = away_until
            _claim(seat, remind_at=nxt)
            return False
        sent = max(seat.reminders_sent + 1, clock.reminders_due(game.clock, seat, player, now))
        nxt = clock.next_reminder(game.clock, seat, player, sent)
        _claim(seat, remind_at=nxt, reminders_sent=sent)
        seat.reminders_sent = sent
        _queue_reminder(ctx, game, seat, now)
        return True


def _claim(seat: Seat, **changes) -> None:
    claimed = (Seat.update(**changes)
               .where(Seat.id == seat.id, Seat.remind_at == seat.remind_at).execute())
    if claimed != 1:
        raise steps.Lost(seat.id)


def _queue_reminder(ctx: Context, game: Game, seat: Seat, now: datetime) -> None:
    rules = get_game(game.game)
    seats = Seat.of(game)
    player = seat.player
    lang = compose.language_of(player)
    left = clock.remaining(seat, now)
    moves = compose.menu_links(ctx, game, seat, game.state, lang)
    with in_language(lang):  # the clock's words, in the reader's language
        said_left = clock.format_duration(left)
        ladder, policy = clock.describe_ladder(game.clock), clock.describe_policy(game.clock)
    steps.personal_mail(
        ctx, game, seat, seats, "reminder",
        phrase("{left} left for your move", left=said_left),
        now, kind="reminder", moves=moves, left=said_left,
        deadline_local=compose.format_local(seat.deadline, player.timezone, lang),
        default=compose.move_label(rules, game.state, seat.index,
                                   rules.default_move(game.state, seat.index), lang,
                                   compose.names_of(seats)),
        ladder=ladder, policy=policy, bank=clock.ClockPolicy.of(game.clock).bank,
    )


def reschedule_player(player_id: int) -> int:
    """Place a player's pending reminders again (their time zone or quiet hours changed)."""
    moved = 0
    seats = (Seat.select(Seat, Game).join(Game)
             .where(Seat.player == player_id, Seat.remind_at.is_null(False)))
    for seat in seats:
        moved += (Seat.update(remind_at=clock.next_reminder(seat.game.clock, seat, seat.player))
                  .where(Seat.id == seat.id, Seat.remind_at == seat.remind_at).execute())
    return moved
