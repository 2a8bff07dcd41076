"""Game lifecycle on the database: create, invite, start, play, take back.

Every change of a game happens inside one transaction that appends to the
move log, stores the new snapshot, moves the deadlines and queues the mails
(the transactional outbox): a crash loses nothing and sends nothing twice.
Nothing here knows a game's rules; it talks to games only through the
protocol.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import peewee as pw

from pbem.context import Context
from pbem.games import get_game
from pbem.games.protocol import MoveError, Rules, State
from pbem.lifecycle.records import GameRecord
from pbem.mail import compose
from pbem.models import Game, Move, Notice, Seat, lock_row, utcnow, write_transaction
from pbem.time import clock

#: bots playing each other to the end in one request is fine for card games,
#: but a rules bug must not hang a web worker
MAX_BOT_MOVES_PER_REQUEST = 5_000


class PlayError(Exception):
    """A move or request the service refuses; ``reason`` is a stable keyword for pages."""

    def __init__(self, reason: str, message: str):
        super().__init__(message)
        self.reason = reason


@dataclass
class Outcome:
    """What a played move led to, for the page that confirms it."""

    game: Game
    seat: Seat
    moves: list[Move] = field(default_factory=list)
    still_to_move: bool = False


# -- playing -------------------------------------------------------------------


def _menus(rules: Rules, state: State, seats: list[Seat]) -> list[tuple[str, ...]]:
    return [tuple(rules.legal_moves(state, s.index)) for s in seats]


def lock_game(game_id: int) -> Game:
    """The game row, locked against concurrent moves and ticks; ``PlayError`` if there is none."""
    game = lock_row(Game, game_id)
    if game is None:
        raise PlayError("no-game", "There is no such game.")
    return game


def play(
    ctx: Context,
    game_id: int,
    seat_index: int,
    move: str,
    menu_seq: int | None = None,
    kind: str = Move.PLAYER,
) -> Outcome:
    """Apply one move of ``seat_index`` and everything that follows from it.

    ``menu_seq`` is the seat's menu version the player saw (from a link or a
    form): if the seat has moved on since, the move is refused as already
    played or stale, so two clicks on one link apply one move, once.
    """
    with write_transaction():
        game = lock_game(game_id)
        if game.status != Game.ACTIVE:
            raise PlayError("not-active", "This game is not running" + (
                " any more: it has ended." if game.status == Game.FINISHED else "."))
        seats = list(game.seats.order_by(Seat.index))
        if not 0 <= seat_index < len(seats):
            raise PlayError("no-seat", "There is no such seat in this game.")
        seat = seats[seat_index]
        if menu_seq is not None and menu_seq != seat.menu_seq:
            used = Move.select().where(Move.game == game, Move.seat == seat_index,
                                       Move.menu_seq == menu_seq).exists()
            if used:
                raise PlayError("used", "This move has already been played.")
            raise PlayError("stale", "The game has moved on since this link was made.")
        rules = get_game(game.game)
        state = game.state
        before_menus = _menus(rules, state, seats)
        try:
            move = rules.parse(move)
            new_state = rules.apply(state, seat_index, move)
        except MoveError as exc:
            raise PlayError("illegal", str(exc)) from exc
        moves = [_record(game, seat, rules, state, move, new_state, kind)]
        state = new_state
        game.state = state
        moves += after_change(ctx, game, rules, seats, state, before_menus, mover=seat_index,
                               mover_done=moves[0].commit)
        return Outcome(game=game, seat=seat, moves=moves,
                       still_to_move=seat_index in rules.to_move(game.state))


def _record(game: Game, seat: Seat, rules: Rules, before: State, move: str,
            after: State, kind: str) -> Move:
    game.seq += 1
    row = Move.create(game=game, seq=game.seq, seat=seat.index, move=move, kind=kind,
                      menu_seq=seat.menu_seq,
                      commit=rules.is_commit_point(before, seat.index, move, after))
    seat.menu_seq += 1
    if kind == Move.PLAYER:
        seat.timeouts_in_row = 0
    seat.save()
    return row


def after_change(ctx: Context, game: Game, rules: Rules, seats: list[Seat], state: State,
                  before_menus: list[tuple[str, ...]] | None, mover: int | None,
                  mover_done: bool = False) -> list[Move]:
    """Bots move, menus and deadlines follow the new state, mails are queued, the end is noted.

    The seat that just moved is mailed only when its turn ended (``mover_done``)
    or a later move of this change passed a commit point (a reveal, a new
    round): while its turn goes on, the page it is on shows the next step.
    The game row is saved here, once, with the final state of this change.
    """
    now = utcnow()
    played: list[Move] = []
    bot_rng = random.Random(f"{game.seed}:bots:{game.seq}")
    while not rules.is_over(state):
        bots = [s for s in rules.to_move(state) if seats[s].bot]
        if not bots:
            break
        if len(played) >= MAX_BOT_MOVES_PER_REQUEST:
            raise RuntimeError(f"bots made {len(played)} moves in game {game.id} without end")
        seat = seats[bots[0]]
        move = bot_rng.choice(rules.legal_moves(state, seat.index))
        after = rules.apply(state, seat.index, move)
        played.append(_record(game, seat, rules, state, move, after, Move.BOT))
        state = after
    game.state = state
    mover_continues = not mover_done and not any(m.commit for m in played)
    after_menus = _menus(rules, state, seats)
    to_move = set(rules.to_move(state))
    steps: list[compose.Step] | None = None
    for seat in seats:
        changed = before_menus is None or before_menus[seat.index] != after_menus[seat.index]
        if seat.index in to_move and changed:
            if seat.index != mover:
                # the mover's own menu version moved already when its move was recorded
                seat.menu_seq += 1
            new_turn = seat.index != mover or not mover_continues
            if new_turn and seat.deadline is not None:
                clock.end_turn(game, seat, now)  # a fresh turn gets a fresh deadline
            clock.start_turn(game, seat, now)
            if not seat.bot and new_turn:
                if steps is None:
                    steps = compose.recent_steps(game)
                compose.queue_turn(ctx, game, seat, seats, state, steps)
        elif seat.index not in to_move and seat.deadline is not None:
            clock.end_turn(game, seat, now)
        seat.save()
    if rules.is_over(state):
        game.status = Game.FINISHED
        game.finished_at = now
        game.result = rules.result(state).to_json()
        for seat in seats:
            seat.deadline = None
            seat.save()
        compose.queue_result(ctx, game, seats, state)
    game.save()
    return played


def take_back(ctx: Context, game_id: int, seat_index: int,
              menu_seq: int | None = None) -> Move:
    """Undo the seat's last move if no commit point has passed since; the removed move.

    ``menu_seq`` is the seat's menu version the player saw, as in :func:`play`:
    a second click on the same button does not take back a second step.
    """
    with write_transaction():
        game = lock_game(game_id)
        if game.status != Game.ACTIVE:
            raise PlayError("not-active", "This game is not running.")
        if menu_seq is not None and menu_seq != Seat.get(
                Seat.game == game, Seat.index == seat_index).menu_seq:
            raise PlayError("stale", "The game has moved on since this page was shown.")
        last = takeback_candidate(game, seat_index)
        if last is None:
            raise PlayError("final", "There is nothing to take back: your last step is final.")
        rules = get_game(game.game)
        seats = list(game.seats.order_by(Seat.index))
        record = game_record(game)
        position = last.seq - 1
        del record.moves[position]
        state = rules.setup(len(seats), game.options, game.seed)
        try:
            for seat, move in record.moves:
                state = rules.apply(state, seat, move)
        except MoveError as exc:
            # a later move of another seat relied on this step: it stays
            raise PlayError("final", "This step cannot be taken back any more: a later "
                                     "move depends on it.") from exc
        Move.delete().where(Move.id == last.id).execute()
        # keep seq dense: later moves of other seats shift down by one
        for later in Move.select().where(Move.game == game, Move.seq > last.seq).order_by(
                Move.seq):
            Move.update(seq=later.seq - 1).where(Move.id == later.id).execute()
        before_menus = _menus(rules, game.state, seats)
        game.seq -= 1
        game.state = state
        seat = seats[seat_index]
        seat.menu_seq += 1
        seat.save()
        Notice.create(game=game, seq=game.seq, seat=seat_index,
                      text=f"{{{seat_index}}} took back a step")
        after_change(ctx, game, rules, seats, state, before_menus, mover=seat_index)
        return last


def takeback_candidate(game: Game, seat_index: int) -> Move | None:
    """The seat's last move, if it is not a commit point and none has been passed since."""
    last_commit = (Move.select(pw.fn.MAX(Move.seq)).where(Move.game == game, Move.commit)
                   .scalar() or 0)
    last = (Move.select().where(Move.game == game, Move.seat == seat_index,
                                Move.seq > last_commit, Move.kind == Move.PLAYER)
            .order_by(Move.seq.desc()).first())
    return last


def game_record(game: Game) -> GameRecord:
    seats = list(game.seats.order_by(Seat.index))
    return GameRecord(
        game=game.game,
        players=[s.display for s in seats],
        seed=game.seed,
        options=dict(game.options),
        rules_version=game.rules_version,
        moves=[(m.seat, m.move) for m in game.moves.order_by(Move.seq)],
    )
