"""The timeout ladder: what happens when a seat does not move in time.

1. The deadline passes: everyone is told, and a grace period begins
   (``grace_hours`` of the game's clock; none when it is 0).
2. The grace period ends: the game's documented default move is played for
   the seat (``Move.TIMEOUT`` in the log, with a notice saying so), through
   ``moves.play`` like any move.  A turn of several steps gets a default move
   for each step it still owes.
3. The ``timeouts_before_bot``-th timeout in a row: a bot takes the seat.  With
   ``after_timeouts = "bot"`` its owner can take it back from their seat link
   (``reclaim``); with ``"drop"`` the player has left and the bot plays the
   seat to the end.

A move of the player's own resets the count (``moves._record``).  In a
simultaneous decision only the seats that have not chosen have a deadline,
so only they time out.  Every step is recorded in the game's log and mailed
to the table.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from pbem.context import Context
from pbem.games import get_game, search
from pbem.i18n import gettext, in_language, phrase
from pbem.lifecycle import moves, talk
from pbem.mail import compose
from pbem.models import Game, Move, Seat, lock_row, write_transaction
from pbem.sqlcache import Prepared
from pbem.time import clock, steps

#: default moves one timed-out turn may take at most (a turn of many steps)
MAX_STEPS = 50

GRACE, DEFAULT, BOT, DROP = "grace", "default", "bot", "drop"


#: the seats whose deadline has passed: every tick asks, mostly for none (its SQL built
#: once: peewee building it again was most of an idle tick's CPU)
_DUE = Prepared(Seat, lambda now, limit: (
    Seat.select(Seat.id).join(Game)
    .where(Seat.deadline <= now, Game.parked_at.is_null())
    .order_by(Seat.deadline, Seat.id).limit(limit)), 2, dates=(0,))


def due(now: datetime, limit: int = steps.BATCH) -> list[int]:
    """Seats whose deadline (or grace period) has passed, oldest first."""
    return [row.id for row in _DUE.rows(now, limit)]


def apply_due(ctx: Context, now: datetime) -> int:
    return steps.each("timeouts", due(now), lambda seat_id: timeout_one(ctx, seat_id, now),
                      game_of=steps.game_of_seat)


def _claim(seat: Seat, **changes) -> None:
    """Take the seat's timeout for this tick, or raise ``Lost`` when another tick has."""
    claimed = (Seat.update(**changes)
               .where(Seat.id == seat.id, Seat.deadline == seat.deadline,
                      Seat.menu_seq == seat.menu_seq, Seat.in_grace == seat.in_grace)
               .execute())
    if claimed != 1:
        raise steps.Lost(seat.id)


def timeout_one(ctx: Context, seat_id: int, now: datetime) -> str | None:
    """Take the next step of the ladder for one seat; which step it took, or None."""
    with write_transaction():
        row = Seat.select(Seat.id, Seat.game).where(Seat.id == seat_id).first()
        if row is None:
            return None
        game = lock_row(Game, row.game_id)
        seat = Seat.get_by_id(seat_id)  # read again under the lock
        if seat.deadline is None or seat.deadline > now or game is None:
            return None
        rules = get_game(game.game)
        if (game.status != Game.ACTIVE or seat.bot or seat.player_id is None
                or seat.index not in rules.to_move(game.state)):
            # nothing to time out any more (the game ended, a bot plays): clear the clock
            _claim(seat, deadline=None, deadline_started=None, remind_at=None, in_grace=False)
            return None
        policy = game.clock
        if not seat.in_grace and clock.grace(policy) > timedelta(0):
            return _start_grace(ctx, game, seat, now)
        return _time_out(ctx, game, seat, now)


def _start_grace(ctx: Context, game: Game, seat: Seat, now: datetime) -> str:
    period = clock.grace(game.clock)
    until = now + period
    _claim(seat, deadline=until, in_grace=True, remind_at=None)
    seat.deadline, seat.in_grace = until, True
    hours = f"{period.total_seconds() / 3600:g}"
    i = seat.index
    who = f"{{{i}}}"
    steps.note(game, i, phrase("{seat} did not move by the deadline: a grace period of "
                               "{hours} hours began, then the default move is played for them",
                               seat=who, hours=hours))
    seats = Seat.of(game)
    steps.tell_table(ctx, game, seats,
                     phrase("{seat} did not move by the deadline; after a grace period of "
                            "{hours} hours the default move is played for them.",
                            seat=who, hours=hours),
                     phrase("{name} ran out of time", name=seat.display), now, skip=[i])
    rules = get_game(game.game)
    moves = compose.menu_links(ctx, game, seat, game.state, compose.language_of(seat.player))
    steps.personal_mail(ctx, game, seat, seats, "timeout", phrase("your time is up"), now,
                        stage=GRACE, hours=hours, moves=moves,
                        default=compose.move_label(rules, game.state, i,
                                                   rules.default_move(game.state, i),
                                                   compose.language_of(seat.player),
                                                   compose.names_of(seats)),
                        until_local=compose.format_local(until, seat.player.timezone,
                                                         compose.language_of(seat.player)),
                        count=seat.timeouts_in_row, limit=clock.timeouts_before_bot(game.clock),
                        ladder=_ladder(game.clock, seat))
    return GRACE


def _time_out(ctx: Context, game: Game, seat: Seat, now: datetime) -> str:
    policy = game.clock
    count = seat.timeouts_in_row + 1
    limit = clock.timeouts_before_bot(policy)
    takeover = count >= limit
    stage = (DROP if clock.drops(policy) else BOT) if takeover else DEFAULT
    changes: dict = {"timeouts_in_row": count, "in_grace": False}
    if takeover:
        changes.update(bot=True, bot_replaced=stage == BOT,
                       bot_level=search.default_level(get_game(game.game)))
    _claim(seat, **changes)
    i = seat.index
    # the notices belong after the first default move; written first, so that the turn
    # mails the move sends out already tell it
    at = game.seq + 1
    who = f"{{{i}}}"
    steps.note(game, i, phrase("{seat} did not move in time: the default move was played "
                               "for them (timeout {count} in a row)", seat=who, count=count),
               seq=at)
    if stage == BOT:
        steps.note(game, i, phrase("After {count} timeouts in a row a bot plays for {seat}; "
                                   "{seat} can take the seat back with their link",
                                   seat=who, count=count), seq=at)
    elif stage == DROP:
        steps.note(game, i, phrase("After {count} timeouts in a row {seat} leaves the game; "
                                   "a bot plays the seat to the end", seat=who, count=count),
                   seq=at)
    rules = get_game(game.game)
    names = compose.names_of(Seat.of(game))
    played = []
    turn = seat.turn_seq
    for _ in range(MAX_STEPS):
        game = Game.get_by_id(game.id)
        seat = Seat.get_by_id(seat.id)
        if game.status != Game.ACTIVE or i not in rules.to_move(game.state):
            break
        if not takeover and (seat.turn_seq != turn or not seat.in_turn):
            break  # its turn ended and a new one began, with a clock of its own
        move = rules.default_move(game.state, i)
        # said as the seat's own menu says it, in its player's language
        label = compose.move_label(rules, game.state, i, move,
                                   compose.language_of(seat.player), names)
        moves.play(ctx, game.id, i, move, kind=Move.TIMEOUT, now=now)
        played.append(label)
        if takeover:
            break  # the bot played whatever the turn still owed
    game = Game.get_by_id(game.id)
    seats = Seat.of(game)
    seat = seats[i]
    name = seat.player.name
    if stage == DEFAULT:
        line = phrase("{seat} did not move in time: the default move was played for them "
                      "(timeout {count} of {limit} in a row before a bot takes the seat).",
                      seat=who, count=count, limit=limit)
        subject = phrase("default move for {name}", name=name)
    elif stage == BOT:
        line = phrase("{seat} did not move in time {count} times in a row: a bot plays the "
                      "seat now, until {seat} takes it back.", seat=who, count=count)
        subject = phrase("a bot plays for {name}", name=name)
    else:
        line = phrase("{seat} did not move in time {count} times in a row and leaves the "
                      "game: a bot plays the seat to the end.", seat=who, count=count)
        subject = phrase("{name} leaves the game", name=name)
    steps.tell_table(ctx, game, seats, line, subject, now, skip=[i])
    seat_url = compose.seat_url(ctx, game, seat)
    steps.personal_mail(ctx, game, seat, seats, "timeout",
                        phrase("a bot plays your seat") if takeover
                        else phrase("a default move for you"), now,
                        stage=stage, played=played, count=count, limit=limit,
                        reclaim_url=f"{seat_url}/reclaim", ladder=_ladder(policy, seat))
    return stage


def _ladder(policy: dict, seat: Seat) -> str:
    """The timeout ladder in the words of the seat's player."""
    with in_language(compose.language_of(seat.player)):
        return clock.describe_ladder(policy)


def reclaim(ctx: Context, game_id: int, seat_index: int, player_id: int,
            now: datetime) -> Seat:
    """The owner takes back a seat a bot took after timeouts; their clock starts afresh."""
    with write_transaction():
        game = lock_row(Game, game_id)
        if game is None:
            raise moves.PlayError("no-game", gettext("There is no such game."))
        seat = Seat.get_or_none(Seat.game == game, Seat.index == seat_index)
        if seat is None or seat.player_id != player_id:
            raise moves.PlayError("no-seat", gettext("This is not your seat."))
        if game.status != Game.ACTIVE:
            raise moves.PlayError("not-active", gettext("This game is not running any more."))
        if not seat.bot_replaced:
            raise moves.PlayError("not-bot", gettext("Nobody else plays this seat: it is "
                                                     "yours."))
        claimed = (Seat.update(bot=False, bot_replaced=False, timeouts_in_row=0)
                   .where(Seat.id == seat.id, Seat.bot_replaced == True)  # noqa: E712
                   .execute())
        if claimed != 1:
            raise moves.PlayError("not-bot", gettext("Nobody else plays this seat: it is "
                                                     "yours."))
        talk.rewait(Seat.id == seat.id)  # the table talk the bot was not mailed
        seat = Seat.get_by_id(seat.id)
        rules = get_game(game.game)
        i = seat.index
        steps.note(game, i, phrase("{seat} took their seat back from the bot", seat=f"{{{i}}}"))
        seats = Seat.of(game)
        seats[i] = seat
        if i in rules.to_move(game.state):
            # the owner's own turn begins, with a clock and links of its own
            seat.turn_seq += 1
            seat.menu_seq += 1
            seat.in_turn = True
            clock.stop(seat)
            clock.start_turn(game, seat, now)
            seat.save()
            compose.queue_turn(ctx, game, seat, seats, game.state)
        steps.tell_table(ctx, game, seats,
                         phrase("{seat} took their seat back from the bot.", seat=f"{{{i}}}"),
                         phrase("{name} is back", name=seat.display), now, skip=[i])
        return seat
