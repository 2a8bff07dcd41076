"""Playing a game on the database: moves, turns, bots, formalities, take-back.

Every change of a game happens inside one transaction that appends to the
move log, stores the new snapshot, moves the deadlines and queues the mails
(the transactional outbox): a crash loses nothing.  Nothing here knows a
game's rules; it talks to games only through the protocol.

Turns and commit points are two things (``pbem.games.protocol``).  A seat's
**turn** begins when it comes to move and ends with a move the game calls
``turn_over`` (or when it is no longer to move): deadlines, "your move" mails,
time-bank bonuses and the timeout ladder follow turns.  A **commit point**
only ends "take back".  A move link names the seat's turn (``Seat.turn_seq``)
and is good while its move is legal in that turn; the menu version it was
made at (``Seat.menu_seq``) tells a second click on the same link from
another link of the same mail.
"""

from __future__ import annotations

import json
import logging
import random
import time
from collections.abc import Callable, Container, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import peewee as pw

from pbem import sqlcache
from pbem.context import Context
from pbem.gamelog import history
from pbem.gamelog.rows import begin_turn, settle
from pbem.games import get_game, search
from pbem.games.protocol import MoveError, OptionError, Rules, State, facts_of
from pbem.i18n import gettext, phrase
from pbem.lifecycle import ratings
from pbem.mail import compose
from pbem.models import (
    Game,
    Move,
    Notice,
    Seat,
    lock_row,
    table_of,
    utcnow,
    write_transaction,
)
from pbem.time import clock

log = logging.getLogger("pbem.moves")

#: moves that bots and formalities may make in one change at most, and the seconds
#: they may take: a slow or endless bot must not hold a web request (or the write
#: lock); what is left over, the next tick plays (``continue_bots``)
MAX_AUTOMATIC_MOVES = 2_000
MAX_AUTOMATIC_SECONDS = 2.0
#: the seconds one pass of the tick gives all the bots that owe moves, over all their
#: games (each game at most ``MAX_AUTOMATIC_SECONDS``); the next pass goes on with the rest
MAX_BOT_SECONDS_PER_PASS = 20.0

#: the clocks bots think by: the wall clock for the caps of a change and of a pass, the
#: thread's CPU time for one move (a level's seconds are seconds of one core).  Tests
#: put counting clocks here, to measure a tick's time without waiting for it
wall_clock: Callable[[], float] = time.monotonic
cpu_clock: Callable[[], float] = time.thread_time


class PlayError(Exception):
    """A move or request the service refuses; ``reason`` is a stable keyword for pages."""

    def __init__(self, reason: str, message: str, row: Move | None = None):
        super().__init__(message)
        self.reason = reason
        #: the move that was played already from the same link (reason "used")
        self.row = row


@dataclass
class Outcome:
    """What a played move led to, for the page that confirms it."""

    game: Game
    seat: Seat
    moves: list[Move] = field(default_factory=list)
    still_to_move: bool = False


# -- playing -------------------------------------------------------------------


def save_changed(*rows: Seat) -> None:
    """Write only the seats' fields that this change set (a move touches few of them,
    and every seat of the table passes through ``after_change``): the seats a change
    touched in one statement (a move mostly ends one turn and begins another)."""
    sqlcache.update_rows(list(rows))


def lock_game(game_id: int) -> Game:
    """The game row, locked against concurrent moves and ticks; ``PlayError`` if there is none."""
    return _locked(lambda: (lock_row(Game, game_id), []))[0]


def lock_table(game_id: int) -> tuple[Game, list[Seat]]:
    """``lock_game`` with the game's seats and players read in the same statement."""
    return _locked(lambda: table_of(game_id, lock=True))


def _locked(read: Callable[[], tuple[Game | None, list[Seat]]]) -> tuple[Game, list[Seat]]:
    try:
        game, seats = read()
    except pw.OperationalError as exc:  # another change held the game too long
        raise PlayError("busy", gettext("The game is busy with another move just now; "
                                        "please try again in a moment.")) from exc
    if game is None:
        raise PlayError("no-game", gettext("There is no such game."))
    return game, seats


def link_refusal(game: Game, seat: Seat, turn_seq: int, menu_seq: int, move: str,
                 legal: Container[str] | None = None) -> PlayError | None:
    """Why a link (or a form) for ``move`` of ``seat`` cannot be played now, or None.

    The same link twice finds its move in the log ("used"); a link of a turn that
    is over is "stale"; in the same turn, a move that is no longer legal (the
    other card of a two-card round was this one) is "gone" (``gone``: asked here of
    ``legal`` where given; else the caller asks the game: the confirm page by the move's
    menu entry, which it shows).  Read-only: the confirm page asks it too, and ``play``
    asks again under the lock.
    """
    row = None
    # every move of the seat was recorded with a menu version below the seat's (``record``):
    # a link of the seat's current version has played nothing yet, no need to look
    if menu_seq < seat.menu_seq:
        row = (Move.select().where(Move.game == game, Move.seat == seat.index,
                                   Move.turn_seq == turn_seq, Move.menu_seq == menu_seq,
                                   Move.move == move).first())
    if row is not None:
        return PlayError("used", gettext("This move has already been played; a link plays "
                                         "once."), row=row)
    if turn_seq != seat.turn_seq or not seat.in_turn:
        return PlayError("stale", gettext("The decision this link was made for is over: the "
                                          "game has moved on since."))
    if legal is not None and move not in legal:
        return gone()
    return None


def gone() -> PlayError:
    """A link's move that is no longer legal in the decision it was made for."""
    return PlayError("gone", gettext("This choice is no longer open: the table has "
                                     "changed since the link was made."))


def play(
    ctx: Context,
    game_id: int,
    seat_index: int,
    move: str,
    menu_seq: int | None = None,
    kind: str = Move.PLAYER,
    turn_seq: int | None = None,
    now: datetime | None = None,
    check: Callable[[Game, list[Seat]], None] | None = None,
    mail_later: bool = False,
) -> Outcome:
    """Apply one move of ``seat_index`` and everything that follows from it.

    ``turn_seq`` and ``menu_seq`` come from the link or form the player used
    (see ``link_refusal``); without them (the server's own moves) only
    legality counts.  ``now`` is the time the move happens (a tick passes its
    own, so that ``pbem tick --at`` sets deadlines from that time).  ``check``
    sees the locked game and its seats first, and may refuse by raising: a
    page checks its link on the rows the move reads anyway.  ``mail_later``: the "your
    move" mails of the turns it begins are written by the next tick (a page's click,
    which waits for nobody's mail: ``pbem.mail.later``).
    """
    with write_transaction():
        game, seats = lock_table(game_id)
        if check is not None:
            check(game, seats)
        if game.status != Game.ACTIVE:
            raise PlayError("not-active", gettext("This game is not running any more: it has "
                                                  "ended.") if game.status == Game.FINISHED
                            else gettext("This game is not running."))
        if not 0 <= seat_index < len(seats):
            raise PlayError("no-seat", gettext("There is no such seat in this game."))
        seat = seats[seat_index]
        rules = get_game(game.game)
        state = game.state
        # the listed moves, not what ``apply`` accepts: it completes a move said in
        # part (Macao's payment), which a link made for another step must not play
        legal = rules.legal_moves(state, seat_index) if menu_seq is not None else None
        if legal is None or move not in legal:
            # a listed move is written as its notation already (the contract test checks
            # every one): only another text is read, or refused as no move
            try:
                move = rules.parse(move)
            except MoveError as exc:
                raise PlayError("illegal", str(exc)) from exc
        apply = rules.apply
        if legal is not None:
            refusal = link_refusal(game, seat, seat.turn_seq if turn_seq is None else turn_seq,
                                   menu_seq, move, legal)
            if refusal is not None:
                raise refusal
            # a listed move is one ``apply`` accepts (the contract test plays every one):
            # not checked again, which cost a game as much as listing them (Riga, Macao)
            apply = rules.apply_played
        try:
            after = apply(state, seat_index, move)
        except MoveError as exc:
            raise PlayError("illegal", str(exc)) from exc
        # the move's row, and those of the moves it sets off (bots', formalities), go in
        # together, in one statement (``record``'s ``pending``)
        pending: list[dict[str, Any]] = []
        moves = [record(game, seat, rules, state, move, after, kind, menu_seq,
                        pending=pending)]
        played, to_move = _after_change(ctx, game, rules, seats, after, moves, now,
                                        mail_later=mail_later, pending=pending)
        return Outcome(game=game, seat=seat, moves=moves + played,
                       still_to_move=seat_index in to_move)


def record(game: Game, seat: Seat, rules: Rules, before: State, move: str, after: State,
           kind: str, menu_seq: int | None = None, *,
           pending: list[dict[str, Any]]) -> Move:
    """Append ``move`` to the log with its sentences, written now, once: its row's values
    go to ``pending``, which the change inserts with its other moves (``insert_moves``),
    and the row returned has no id (the service names a move by its game and number)."""
    game.seq += 1
    i = seat.index
    facts = facts_of(rules, before, i, move, after)
    turn_end = facts.turn_over
    values = dict(
        game=game, seq=game.seq, seat=i, move=move, kind=kind,
        menu_seq=seat.menu_seq if menu_seq is None else menu_seq,
        turn_seq=seat.turn_seq, round=facts.round, commit=facts.commit,
        turn_end=turn_end,
        **history.sentences(rules, before, i, move, after),
        clock_before=(json.dumps(clock.snapshot(seat))
                      if turn_end and seat.deadline is not None else ""),
    )
    pending.append(values)
    row = Move(**values)
    # above the version the move was recorded with, even a form's made-up one, so that
    # ``link_refusal`` may trust that no move carries the seat's current version
    seat.menu_seq = max(seat.menu_seq, row.menu_seq) + 1
    if kind == Move.PLAYER:
        seat.timeouts_in_row = 0
    # saved by ``after_change``, which follows every record and saves each seat once
    return row


def insert_moves(pending: list[dict[str, Any]]) -> None:
    """The rows ``record`` left in ``pending``, inserted in one statement (every row names
    the same columns; a click that sets off a bot's or a formality's moves wrote a
    statement for each), and ``pending`` emptied."""
    if pending:
        sqlcache.insert_many(Move, pending)
    pending.clear()


def level_of(seat: Seat, rules: Rules) -> search.Level:
    """The level the seat's bot plays at (an unknown name: the game's default level)."""
    return search.LEVELS.get(seat.bot_level) or search.LEVELS[search.default_level(rules)]


@dataclass(frozen=True)
class Thinking:
    """How long bots may think in one change: never past ``until`` on ``wall_clock`` (the
    cap of the change or of the tick's pass), and at most ``iterations`` per move where
    the configuration caps them (``[bots] max_iterations``; None: no cap)."""

    until: float
    iterations: int | None = None


def _thought(rules: Rules, state: State, seat: int, rng: random.Random, level: search.Level,
             thinking: Thinking) -> str:
    """A searching bot's move: it thinks for its level's seconds of CPU (and within
    ``thinking``)."""
    begun = cpu_clock()

    def stop() -> bool:
        return cpu_clock() - begun >= level.seconds or wall_clock() >= thinking.until

    budget = search.Budget(iterations=thinking.iterations, stop=stop)
    return search.choose(rules, state, seat, rng, budget)


def _candidates(rules: Rules, state: State, seat: Seat, rng: random.Random,
                thinking: Thinking) -> Iterator[str]:
    """What a bot seat plays, best first: a search at the seat's level, else the game's
    bot, else its default, else any."""
    i, level = seat.index, level_of(seat, rules)
    if level.searches:
        try:
            yield _thought(rules, state, i, rng, level, thinking)
        except Exception:  # noqa: BLE001 - a broken search must not stop the game
            log.exception("the search of %s failed for seat %s", rules.name, i)
    yield from _own(rules, state, i, rng)


def _own(rules: Rules, state: State, seat: int, rng: random.Random) -> Iterator[str]:
    """The game's bot, else its default, else any legal move."""
    try:
        yield rules.bot_move(state, seat, rng)
    except Exception:  # noqa: BLE001 - a broken bot must not stop the game
        log.exception("bot_move of %s failed for seat %s", rules.name, seat)
    try:
        yield rules.default_move(state, seat)
    except Exception:  # noqa: BLE001
        log.exception("default_move of %s failed for seat %s", rules.name, seat)
    yield from rules.legal_moves(state, seat)


def _automatic(rules: Rules, state: State, to_move: list[int], seats: list[Seat],
               rng: random.Random, thinking: Thinking
               ) -> tuple[Seat, State, str, State, str] | None:
    """The next move nobody has to think about: a bot's, or a formality; None if none.
    ``to_move``: ``rules.to_move(state)``, asked once by the caller."""
    for i in to_move:
        if seats[i].bot:
            for move in _candidates(rules, state, seats[i], rng, thinking):
                try:
                    return seats[i], state, move, rules.apply(state, i, move), Move.BOT
                except MoveError:
                    log.error("%s: bot move %r of seat %s is illegal", rules.name, move, i)
            raise RuntimeError(f"{rules.name}: seat {i} is to move but has no legal move")
    for i in to_move:
        move = rules.formality(state, i)
        if move is not None:
            # the seat's only listed move (the contract test holds a formality to be
            # that), which ``apply`` accepts unchecked as a menu's move: checking it
            # again cost Macao, whose turns end in formalities, as much as playing it
            return seats[i], state, move, rules.apply_played(state, i, move), Move.FORMALITY
    return None


def _owed_automatic(rules: Rules, state: State, to_move: list[int],
                    seats: list[Seat]) -> set[int]:
    """The seats to move whose move nobody has to think about (a bot's, a formality:
    ``_automatic`` would find one), without working out a bot's move.  ``to_move``: as
    ``_automatic`` says."""
    return {i for i in to_move
            if seats[i].bot or rules.formality(state, i) is not None}


def _begin_turns(ctx: Context, game: Game, seats: list[Seat], fresh: set[int], state: State,
                 now: datetime, mail_later: bool = False) -> None:
    """The clocks of the turns that began in a change start, each seated person is mailed
    "your move", and every seat is saved as the change left it."""
    # the turn mails' blocked addresses and thread roots, asked once for all of them
    # (those written later ask when they are written)
    mailed = [s.player for s in seats
              if s.index in fresh and s.in_turn and not s.bot and s.player_id is not None
              and (not mail_later or s.player.digest)]
    known = compose.known_for(ctx, game, mailed) if len(mailed) > 1 else None
    later: list[dict[str, Any]] = []  # the rows written later, inserted together
    for seat in seats:
        if seat.index in fresh and seat.in_turn:
            clock.start_turn(game, seat, now)
            if not seat.bot and seat.player_id is not None:
                compose.queue_turn(ctx, game, seat, seats, state, now, known,
                                   later=mail_later, batch=later)
    compose.insert_batch(later)
    save_changed(*seats)


def after_change(ctx: Context, game: Game, rules: Rules, seats: list[Seat], state: State,
                 moves: list[Move], now: datetime | None = None,
                 until: float | None = None, mail_later: bool = False) -> list[Move]:
    """Bots and formalities move, turns end and begin, mails are queued, the end is noted.

    ``moves`` are the moves of this change so far (none when a game starts).  A
    seat's turn ends with a move that ends it, or when it is no longer to move;
    a seat to move with no turn open begins one: a new deadline, and a mail.  A
    bot's or a formality's move belongs to a turn of its own too, begun when it is
    played, so that every move names the turn it was played in.  The game row is
    saved here, once, with the final state of this change.

    Bots play for ``MAX_AUTOMATIC_SECONDS`` at most (and never past ``until`` on
    ``wall_clock``, the end of the tick's pass for bots); what they still owe then, the
    next tick plays (``Game.bots_pending``).  The moves of people in ``moves`` are
    recorded before and stay, whatever a bot does.  ``mail_later``: as ``play`` says.
    """
    return _after_change(ctx, game, rules, seats, state, moves, now, until, mail_later)[0]


def _after_change(ctx: Context, game: Game, rules: Rules, seats: list[Seat], state: State,
                  moves: list[Move], now: datetime | None = None,
                  until: float | None = None, mail_later: bool = False,
                  pending: list[dict[str, Any]] | None = None
                  ) -> tuple[list[Move], list[int]]:
    """``after_change``, and who is to move in the state it leaves (``play`` asks).
    ``pending``: rows of ``moves`` still to insert (``record``), inserted with those of
    the moves played here, before anything reads the log (a mail, the result).

    Each question to the engine is asked once of each state it reaches: every call
    costs the more for being made among the server's other work (issue 23)."""
    now = now or utcnow()
    pending = [] if pending is None else pending
    played: list[Move] = []
    fresh: set[int] = set()  # seats whose turn began in this change

    def begin(seat: Seat) -> None:
        begin_turn(seat)
        fresh.add(seat.index)

    def end(seat: Seat) -> None:
        if seat.in_turn:
            clock.end_turn(game, seat, now)
            seat.in_turn = False
        fresh.discard(seat.index)

    for row in moves:
        if row.turn_end:
            end(seats[row.seat])
    rng = random.Random(f"{game.seed}:bots:{game.seq}")
    limit = wall_clock() + MAX_AUTOMATIC_SECONDS
    if until is not None:
        limit = min(limit, until)
    thinking = Thinking(limit, ctx.config.getint("bots", "max_iterations") or None)
    game.bots_pending = False
    owed: set[int] = set()  # seats whose automatic move the next tick plays
    # a seat to move says the game is not over (the contract test holds ``is_over`` to
    # be "nobody to move"): ``is_over`` is asked only of a state with nobody to move
    to_move = rules.to_move(state)
    over = not to_move and rules.is_over(state)
    while not over:
        if len(played) >= MAX_AUTOMATIC_MOVES or wall_clock() >= limit:
            # the next tick plays on (``continue_bots``), if a bot or a formality is owed
            owed = _owed_automatic(rules, state, to_move, seats)
            game.bots_pending = bool(owed)
            break
        auto = _automatic(rules, state, to_move, seats, rng, thinking)
        if auto is None:
            break
        seat, before, move, after, kind = auto
        if not seat.in_turn:
            begin(seat)
        row = record(game, seat, rules, before, move, after, kind, pending=pending)
        played.append(row)
        if row.turn_end:
            end(seat)
        state = after
        to_move = rules.to_move(state)
        over = not to_move and rules.is_over(state)
    insert_moves(pending)
    game.state = state
    if moves or played:
        game.failures = 0  # the game moves: what failed before was not for good
    # a person to move beside the bots owed (a choice made at once, as Visby's cards)
    # begins now: their choice does not wait for the bots', whose turns begin as the
    # tick plays them; a person after them is not to move yet
    settle(seats, set(to_move), begin, end, held=owed)
    _begin_turns(ctx, game, seats, fresh, state, now, mail_later)
    if over:
        _game_over(ctx, game, rules, seats, state, now)
    # only what this change set (the state, the counters): the options, clock and result
    # are not written again unchanged
    sqlcache.update_rows([game])
    return played, to_move


def _game_over(ctx: Context, game: Game, rules: Rules, seats: list[Seat], state: State,
               now: datetime) -> None:
    """The game ended in this change: its result, every clock stopped, the result mail
    queued, the players rated."""
    game.status = Game.FINISHED
    game.finished_at = now
    game.result = rules.result(state).to_json()
    for seat in seats:
        clock.stop(seat)
        seat.in_turn = False
    save_changed(*seats)
    compose.queue_result(ctx, game, seats, state, now)
    ratings.rate(game, seats)


def continue_bots(ctx: Context, game_id: int, now: datetime | None = None,
                  until: float | None = None) -> int:
    """Play on where a change stopped at the cap (``Game.bots_pending``), until ``until``
    on ``wall_clock`` at the latest; moves made."""
    with write_transaction():
        game = lock_game(game_id)
        if game.status != Game.ACTIVE or not game.bots_pending:
            return 0
        seats = Seat.of(game)
        return len(after_change(ctx, game, get_game(game.game), seats, game.state, [], now,
                                until))


def bot_pass_end() -> float:
    """When a pass of the tick that begins now stops giving bots time (``wall_clock``)."""
    return wall_clock() + MAX_BOT_SECONDS_PER_PASS


def due_bots(until: float) -> Iterator[int]:
    """The games whose bots owe moves (``pending_bots``), for the tick, as long as its
    pass for bots lasts: each plays on until ``until`` at the latest
    (``continue_bots``), and the games left over wait for the next pass."""
    for game_id in pending_bots():
        if wall_clock() >= until:
            return
        yield game_id


def pending_bots() -> list[int]:
    """Games whose bots still owe moves, for the tick."""
    return [g.id for g in _BOTS_PENDING.rows()]


#: every tick asks (its SQL built once); ``== True``, not the bare column: only a
#: comparison can use the index
_BOTS_PENDING = sqlcache.Prepared(Game, lambda: Game.select(Game.id).where(
    Game.bots_pending == True, Game.status == Game.ACTIVE,  # noqa: E712
    Game.parked_at.is_null()), 0)


def take_back(ctx: Context, game_id: int, seat_index: int,
              menu_seq: int | None = None) -> Move:
    """Undo the seat's last move if no commit point has passed since; the removed move.

    ``menu_seq`` is the seat's menu version the player saw, as in :func:`play`:
    a second click on the same button does not take back a second step.  The
    log stays dense: later moves and notices move down by one, and the later
    moves' sentences are written again from the replay.
    """
    with write_transaction():
        game = lock_game(game_id)
        if game.status != Game.ACTIVE:
            raise PlayError("not-active", gettext("This game is not running."))
        seats = Seat.of(game)
        if not 0 <= seat_index < len(seats):
            raise PlayError("no-seat", gettext("There is no such seat in this game."))
        seat = seats[seat_index]
        if menu_seq is not None and menu_seq != seat.menu_seq:
            raise PlayError("stale", gettext("The game has moved on since this page was shown."))
        last = takeback_candidate(game, seat_index)
        if last is None:
            raise PlayError("final", gettext("There is nothing to take back: your last step "
                                             "is final."))
        rules = get_game(game.game)
        rows = list(game.moves.order_by(Move.seq))
        try:
            state = rules.setup_version(len(seats), game.options, game.seed,
                                        game.data_version, game.rules_version)
        except OptionError as exc:  # the server no longer has the game's card data
            raise PlayError("final", gettext(
                "This step cannot be taken back: the game's card data (version "
                "%(version)s) is no longer on this server.",
                version=game.data_version)) from exc
        rewritten: list[tuple[Move, State, State]] = []
        try:
            for row in rows:
                if row.id == last.id:
                    continue
                after = rules.apply(state, row.seat, row.move)
                if row.seq > last.seq:
                    rewritten.append((row, state, after))
                state = after
        except MoveError as exc:
            # a later move of another seat relied on this step: it stays
            raise PlayError("final", gettext("This step cannot be taken back any more: a "
                                             "later move depends on it.")) from exc
        Move.delete().where(Move.id == last.id).execute()
        for row, before, after in rewritten:
            Move.update(seq=row.seq - 1,
                        **history.sentences(rules, before, row.seat, row.move, after),
                        ).where(Move.id == row.id).execute()
        Notice.update(seq=Notice.seq - 1).where(Notice.game == game,
                                                Notice.seq >= last.seq).execute()
        game.seq -= 1
        game.state = state
        seat.menu_seq += 1
        if last.turn_end and seat_index in rules.to_move(state):
            # the turn that step ended is open again, its clock where it stood: a
            # take-back must not buy a fresh turn's time (nor a bank's bonus)
            seat.in_turn = True
            if last.clock_before:
                clock.restore(seat, json.loads(last.clock_before))
            else:  # a move recorded by an older pbem, or a seat with no clock then
                clock.start_turn(game, seat, utcnow())
        save_changed(seat)
        Notice.create(game=game, seq=game.seq, seat=seat_index,
                      **history.notice_columns(phrase("{seat} took back a step",
                                                      seat=f"{{{seat_index}}}")))
        game.aside_after(game.seq)
        after_change(ctx, game, rules, seats, state, [])
        return last


def takeback_candidate(game: Game, seat_index: int,
                       told: history.History | None = None) -> Move | None:
    """The seat's last move, if it is not a commit point and none has been passed since.

    ``told``: the seat's history that its page read anyway (``history.seat_history``):
    its rows name that move (``takeback_seq``), which is mostly among them; else it is
    asked for."""
    log = told.log if told is not None and told.seat == seat_index else []
    if log and "takeback_seq" in vars(log[0]):
        wanted = log[0].takeback_seq
        if wanted is None:
            return None
        found = next((row for row in log if row.seq == wanted), None)
        if found is not None:
            return found
    return history.takeback_query(game.id, seat_index, Move).first()
