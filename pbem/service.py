"""Game lifecycle on the database: create, invite, start, play, take back.

Every change of a game happens inside one transaction that appends to the
move log, stores the new snapshot, moves the deadlines and queues the mails
(the transactional outbox): a crash loses nothing and sends nothing twice.
Nothing here knows a game's rules; it talks to games only through the
protocol.
"""

from __future__ import annotations

import email.errors as email_errors
import random
import secrets
from dataclasses import dataclass, field
from email.headerregistry import Address
from typing import Any

import peewee as pw

from pbem import clock
from pbem.context import Context
from pbem.games import get_game
from pbem.games.protocol import Game as GameRules
from pbem.games.protocol import MoveError, OptionError, State
from pbem.mail import compose
from pbem.models import Game, Move, Notice, Player, Seat, db, utcnow, write_transaction
from pbem.record import GameRecord

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


# -- players and games ---------------------------------------------------------


def normalise_email(email: str) -> str:
    email = email.strip()
    if "@" not in email or any(c.isspace() for c in email) or len(email) > 254:
        raise ValueError(f"{email!r} is not an email address")
    local, _, domain = email.rpartition("@")
    if not local or "." not in domain:
        raise ValueError(f"{email!r} is not an email address")
    email = f"{local}@{domain.lower()}"
    # what the mail's To header cannot carry as typed would never be delivered
    # ("<a@b.org>", "a@b..org", a comment, a non-ASCII local part): refuse it here
    try:
        parsed = Address(addr_spec=email).addr_spec
    except (ValueError, IndexError, email_errors.MessageError):
        parsed = None
    if parsed != email or not local.isascii():
        raise ValueError(f"{email!r} is not an email address")
    return email


def clean_name(name: str) -> str:
    """A display name on one line: control characters (CR/LF…) become spaces."""
    cleaned = "".join(" " if not c.isprintable() else c for c in name)
    return " ".join(cleaned.split())[:80] or "Anonymous"


def get_or_create_player(email: str, name: str | None = None, **fields: Any) -> Player:
    email = normalise_email(email)
    player = Player.get_or_none(Player.email == email)
    if player is None:
        try:
            with db.atomic():  # a savepoint inside a caller's transaction
                player = Player.create(email=email,
                                       name=clean_name(name or email.split("@")[0]), **fields)
        except pw.IntegrityError:
            # another request added the address meanwhile (a double click on "Join")
            player = Player.get(Player.email == email)
    return player


def create_game(
    ctx: Context,
    game_name: str,
    creator: Player,
    seats: list[str | None],
    options: dict[str, Any] | None = None,
    clock_policy: dict[str, Any] | None = None,
    seed: int | None = None,
) -> Game:
    """A new game with ``creator`` on seat 0.

    ``seats`` lists the other seats: an email address (invited) or ``None`` (a
    bot).  The game starts as soon as every seat is taken.
    """
    rules = get_game(game_name)
    players = 1 + len(seats)
    resolved = rules.resolve_options(options, players)  # raises OptionError
    policy = clock.resolve_policy(ctx, clock_policy)
    invited = []
    for address in seats:
        if address is not None:
            invited.append(normalise_email(address))
    if creator.email in invited or len(set(invited)) != len(invited):
        raise OptionError("each player can take only one seat")
    with write_transaction():
        game = Game.create(
            game=game_name, options=resolved, seed=seed if seed is not None
            else secrets.randbelow(2**31), rules_version=rules.rules_version,
            data_version=rules.data_version, clock=policy, creator=creator,
        )
        Seat.create(game=game, index=0, player=creator)
        for index, address in enumerate(seats, start=1):
            seat = Seat.create(game=game, index=index, bot=address is None, invite_email=address)
            if address is not None:
                compose.queue_invite(ctx, game, seat, creator)
        _start_if_full(ctx, game)
    return game


def accept_invite(ctx: Context, game: Game, seat: Seat, player: Player) -> None:
    with write_transaction():
        # locked first: two invitees accepting at once must each see the other's seat,
        # or neither starts the game (PostgreSQL reads committed rows only)
        game = _lock_game(game.id)
        seat = Seat.get_by_id(seat.id)
        if seat.player_id is not None:
            if seat.player_id == player.id:
                return
            raise PlayError("taken", "This seat has been taken already.")
        if Seat.select().where(Seat.game == game, Seat.player == player).exists():
            raise PlayError("taken", "You already have a seat in this game.")
        seat.player = player
        seat.save()
        _start_if_full(ctx, game)


def _start_if_full(ctx: Context, game: Game) -> None:
    seats = list(game.seats.order_by(Seat.index))
    if game.status != Game.OPEN or any(s.player_id is None and not s.bot for s in seats):
        return
    rules = get_game(game.game)
    state = rules.setup(len(seats), game.options, game.seed)
    game.status = Game.ACTIVE
    game.started_at = utcnow()
    game.state = state
    game.save()
    compose.queue_started(ctx, game, seats)
    _after_change(ctx, game, rules, seats, state, before_menus=None, mover=None)


# -- playing -------------------------------------------------------------------


def _menus(rules: GameRules, state: State, seats: list[Seat]) -> list[tuple[str, ...]]:
    return [tuple(rules.legal_moves(state, s.index)) for s in seats]


def _lock_game(game_id: int) -> Game:
    """Load the game row, locked against concurrent moves where the database can."""
    query = Game.select().where(Game.id == game_id)
    if not isinstance(db.obj, pw.SqliteDatabase):
        query = query.for_update()
    game = query.get_or_none()
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
        game = _lock_game(game_id)
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
        moves += _after_change(ctx, game, rules, seats, state, before_menus, mover=seat_index,
                               mover_done=moves[0].commit)
        return Outcome(game=game, seat=seat, moves=moves,
                       still_to_move=seat_index in rules.to_move(game.state))


def _record(game: Game, seat: Seat, rules: GameRules, before: State, move: str,
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


def _after_change(ctx: Context, game: Game, rules: GameRules, seats: list[Seat], state: State,
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
        game = _lock_game(game_id)
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
        _after_change(ctx, game, rules, seats, state, before_menus, mover=seat_index)
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
