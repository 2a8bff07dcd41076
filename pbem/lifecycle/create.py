"""Players and new games on the database: addresses, names, create, invite, start.

A game starts as soon as every seat is taken; starting it is one transaction with
its first mails, like every other change of a game (see ``moves``).
"""

from __future__ import annotations

import email.errors as email_errors
from email.headerregistry import Address
from typing import Any

import peewee as pw

from pbem.context import Context
from pbem.games import get_game
from pbem.games.protocol import OptionError, new_seed
from pbem.lifecycle.moves import PlayError, after_change, lock_game
from pbem.mail import compose
from pbem.models import Game, Player, Seat, db, lock_row, utcnow, write_transaction
from pbem.time import clock

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
    seed: str | int | None = None,
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
            game=game_name, options=resolved, seed=str(seed) if seed is not None
            else new_seed(), rules_version=rules.rules_version,
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
        game = lock_game(game.id)
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
    after_change(ctx, game, rules, seats, state, [])


def renew_links(ctx: Context, player_id: int) -> None:
    """Revoke every seat, move and calendar link mailed to the player before, and mail
    them the new ones (their links leaked, or they fear so)."""
    from pbem.mail.language import phrase, say
    from pbem.time import calendar

    with write_transaction():
        player = lock_row(Player, player_id)
        if player is None:
            raise PlayError("no-player", "There is no such player.")
        player.link_version += 1
        player.save()
        seats = (Seat.select(Seat, Game).join(Game)
                 .where(Seat.player == player, Game.status.in_((Game.OPEN, Game.ACTIVE)))
                 .order_by(Game.id))
        lang = compose.language_of(player)
        text, html = compose.render_mail(
            ctx, "links", lang, player=player, title="pbem",
            seats=[(compose.game_title(s.game), compose.seat_url(ctx, s.game, s)) for s in seats],
            calendar_url=calendar.calendar_url(ctx, player))
        compose.queue(ctx, kind="notice", to=player, text=text, html=html,
                      subject=say(phrase("pbem: your new links"), lang))
