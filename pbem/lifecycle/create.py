"""Players and new games on the database: addresses, names, create, invite, start.

A game starts as soon as every seat is taken; starting it is one transaction with
its first mails, like every other change of a game (see ``moves``).

Acting under an address proves control of it, every time.  A game asked for by a
request that carries no proof (the home page's open form) is *held*
(``Game.HELD``): it mails nothing but one request to confirm, at most one a day per
address, and counts against nobody's limits but the client's, until a click from
that mailbox (``confirm_game``) makes it a game like any other.  A held game nobody
confirms is deleted after ``HELD_DAYS`` (``discard_stale_held``).
"""

from __future__ import annotations

import email.errors as email_errors
from datetime import datetime, timedelta
from email.headerregistry import Address
from typing import Any

import peewee as pw

from pbem import datadir
from pbem.context import Context
from pbem.games import get_game, search
from pbem.games.protocol import OptionError, new_seed
from pbem.i18n import gettext, phrase, say
from pbem.lifecycle.moves import PlayError, after_change, lock_game
from pbem.mail import compose
from pbem.models import (
    Blocked,
    Game,
    Outbox,
    Player,
    Seat,
    db,
    lock_row,
    utcnow,
    write_transaction,
)
from pbem.sqlcache import Prepared
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


#: days a held game waits for its creator's click before it is deleted
HELD_DAYS = 7
#: what ``create_game`` takes for a seat left open to anyone (the lobby's open games)
OPEN_SEAT = "open"


class LimitError(OptionError):
    """A daily limit of the lobby is reached; the message says which and when it eases
    (``retry_at``, naive UTC: the 429's ``Retry-After``)."""

    def __init__(self, message: str, retry_at: datetime | None = None):
        super().__init__(message)
        self.retry_at = retry_at


def _eases_at(rows: pw.ModelSelect, most: int, since: datetime) -> datetime:
    """When the oldest of the ``most`` newest rows (``created_at`` after ``since``)
    leaves the day's window, so that one more fits."""
    times = [r.created_at for r in rows.order_by(Game.created_at.desc()).limit(most)]
    return (times[-1] if len(times) >= most else since) + timedelta(days=1)


def check_client(ctx: Context, client_key: str | None, now: datetime | None = None) -> None:
    """Refuse a game beyond the games one client (network) may ask for in a day, held
    ones included: they are that client's own doing whoever's address it typed."""
    if client_key is None:
        return
    most = ctx.config.getint("limits", "games_per_client")
    since = (now or utcnow()) - timedelta(days=1)
    recent = Game.select(Game.created_at).where(Game.created_at > since,
                                                Game.client_key == client_key)
    from_client = recent.count()
    if from_client >= most:
        raise LimitError(gettext("%(games)s games were started from your network in the "
                                 "last 24 hours, as many as we allow. Please try again "
                                 "tomorrow.", games=from_client),
                         retry_at=_eases_at(recent, most, since))


def check_limits(ctx: Context, creator: Player, invited: list[str],
                 client_key: str | None, now: datetime | None = None) -> None:
    """Refuse a game beyond the day's limits (``[limits]``): games and invitations per
    creator, games per client, invitations per invited address.  Nothing is queued
    then, so nobody can use the server to mail strangers at will.  Held games count
    for the client only: nobody can use up another's allowance by typing their address."""
    cfg = ctx.config
    now = now or utcnow()
    since = now - timedelta(days=1)
    proven = Game.select(Game.created_at).where(Game.created_at > since,
                                                Game.status != Game.HELD)
    mine = proven.where(Game.creator == creator.id)
    games, most = mine.count(), cfg.getint("limits", "games_per_creator")
    if games >= most:
        raise LimitError(gettext("%(email)s has started %(games)s games in the last 24 hours, "
                                 "as many as one address may. Please try again tomorrow.",
                                 email=creator.email, games=games),
                         retry_at=_eases_at(mine, most, since))
    sent = (Seat.select().join(Game).where(Game.created_at > since, Game.creator == creator.id,
                                           Game.status != Game.HELD,
                                           Seat.invite_email.is_null(False)).count())
    # invitations mailed lately (a replaced invitee's too, from games of any age) and
    # those still held: what the seats show now may be less
    mailed = (Outbox.select().join(Game).where(Outbox.kind == "invite", Outbox.created_at > since,
                                               Game.creator == creator.id).count())
    held = (Seat.select().join(Game).where(Game.creator == creator.id, Game.status == Game.OPEN,
                                           Seat.invite_email.is_null(False),
                                           Seat.invited_at.is_null(), Seat.player.is_null())
            .count())
    sent = max(sent, mailed + held)
    if sent + len(invited) > cfg.getint("limits", "invitations_per_creator"):
        raise LimitError(gettext(
            "The games of %(email)s have invited %(sent)s players in the last 24 hours; "
            "%(more)s more would pass the day's limit of %(limit)s. Please try again "
            "tomorrow, or fill seats with bots.", email=creator.email, sent=sent,
            more=len(invited), limit=cfg.getint("limits", "invitations_per_creator")),
            retry_at=now + timedelta(days=1))
    check_client(ctx, client_key, now)
    for address in invited:
        received = (Seat.select().join(Game).where(Game.created_at > since,
                                                   Game.status != Game.HELD,
                                                   Seat.invite_email == address).count())
        received = max(received, Outbox.select().where(
            Outbox.kind == "invite", Outbox.created_at > since,
            Outbox.to_address == address).count())
        if received >= cfg.getint("limits", "invitations_per_invitee"):
            raise LimitError(gettext("%(email)s has been invited %(times)s times in the last "
                                     "24 hours, as often as we invite anyone. Please try again "
                                     "tomorrow.", email=address, times=received),
                             retry_at=now + timedelta(days=1))


def create_game(
    ctx: Context,
    game_name: str,
    creator: Player,
    seats: list[str | None],
    options: dict[str, Any] | None = None,
    clock_policy: dict[str, Any] | None = None,
    seed: str | int | None = None,
    client_key: str | None = None,
    held: bool = False,
    bot_levels: list[str | None] | None = None,
) -> Game:
    """A new game with ``creator`` on seat 0.

    ``seats`` lists the other seats: an email address (invited), ``None`` (a
    bot) or ``OPEN_SEAT`` (open to anyone who joins from the lobby's open games:
    ``pbem.lifecycle.join``).  The game starts as soon as every seat is taken.
    Invitations go out only once the creator has confirmed their address (``confirm``): until then
    they are held, and a mail asks the creator to confirm.  Beyond the day's
    limits (``check_limits``) the game is refused.

    ``held``: nothing proves that the asker controls the creator's address (the home
    page's open form), so the game is held (``Game.HELD``) until a click from that
    mailbox (``confirm_game``), whatever the address did before.  The command line and
    a request carrying the creator's own signed link create games that are not held.

    ``bot_levels``: per seat of ``seats``, the level its bot plays at (a key of
    ``pbem.games.search.LEVELS``; None or missing: the default level).
    """
    rules = get_game(game_name)
    players = 1 + len(seats)
    levels = _bot_levels(bot_levels, len(seats), search.default_level(rules))
    resolved = rules.resolve_options(options, players)  # raises OptionError
    policy = clock.resolve_policy(ctx, clock_policy)
    invited = _invited(creator, seats, held)
    with write_transaction():
        if held:  # counts against the asking client only, never against the address
            check_client(ctx, client_key)
            discard_stale_held()
        else:
            check_limits(ctx, creator, invited, client_key)
        game = Game.create(
            game=game_name, options=resolved, seed=str(seed) if seed is not None
            else new_seed(), rules_version=rules.rules_version,
            data_version=datadir.version_for_new_game(ctx.config, rules), clock=policy,
            creator=creator,
            client_key=client_key, status=Game.HELD if held else Game.OPEN,
        )
        Seat.create(game=game, index=0, player=creator)
        for index, address in enumerate(seats, start=1):
            if address == OPEN_SEAT:
                Seat.create(game=game, index=index, open_to_all=True)
            else:
                Seat.create(game=game, index=index, bot=address is None, invite_email=address,
                            bot_level=levels[index - 1])
        if held:
            _ask_to_confirm(ctx, creator, game)
        elif invited and creator.confirmed_at is None:
            compose.queue_confirm(ctx, creator, game)
        else:
            _send_invitations(ctx, game, creator)
        _start_if_full(ctx, game)
    return game


def _bot_levels(bot_levels: list[str | None] | None, seats: int, default: str) -> list[str]:
    """The level of each seat's bot (``default`` where none is given); ``OptionError``
    for a level that is none of ``search.LEVELS``."""
    levels = [level or default for level in (bot_levels or [])]
    levels += [default] * (seats - len(levels))
    unknown = [level for level in levels if level not in search.LEVELS]
    if unknown:
        raise OptionError(gettext("a bot plays at one of the levels %(levels)s, not %(level)s",
                                  levels=", ".join(search.LEVELS), level=unknown[0]))
    return levels


def _invited(creator: Player, seats: list[str | None], held: bool) -> list[str]:
    """The addresses ``seats`` invite, each once and none that asked never to be mailed;
    ``OptionError`` says what is wrong."""
    invited = [normalise_email(address) for address in seats
               if address is not None and address != OPEN_SEAT]
    if creator.email in invited or len(set(invited)) != len(invited):
        raise OptionError(gettext("each player can take only one seat"))
    blocked = [a for a in invited if Blocked.has(a)]
    if blocked:
        raise OptionError(gettext("%(email)s has asked us never to mail them: please invite "
                                  "someone else, or give the seat to a bot", email=blocked[0]))
    if held and Blocked.has(creator.email):
        raise OptionError(gettext("%(email)s has asked us never to mail it, so it cannot "
                                  "confirm a game: please use another address.",
                                  email=creator.email))
    return invited


def _ask_to_confirm(ctx: Context, creator: Player, game: Game) -> None:
    """Mail ``creator`` the request to confirm their held games, unless one went to the
    address in the last 24 hours (its link confirms every held game of the address)."""
    lock_row(Player, creator.id)  # two requests at once: one mail, not two
    since = utcnow() - timedelta(days=1)
    if not Outbox.select().where(Outbox.kind == "confirm", Outbox.created_at > since,
                                 Outbox.to_address == creator.email).exists():
        compose.queue_confirm(ctx, creator, game, held_days=HELD_DAYS)


def held_games(player: Player, now: datetime | None = None) -> list[Game]:
    """The games held for ``player``'s confirmation that may still be confirmed, newest
    first (those older than ``HELD_DAYS`` are about to be deleted)."""
    since = (now or utcnow()) - timedelta(days=HELD_DAYS)
    return list(Game.select().where(Game.creator == player.id, Game.status == Game.HELD,
                                    Game.created_at > since)
                .order_by(Game.id.desc()).limit(20))


#: the held games created before a moment: every tick asks (its SQL built once)
_HELD_BEFORE = Prepared(Game, lambda before: Game.select(Game.id).where(
    Game.status == Game.HELD, Game.created_at <= before), 1, dates=(0,))


def discard_stale_held(now: datetime | None = None) -> int:
    """Delete the held games nobody confirmed within ``HELD_DAYS``: they never started,
    mailed nobody but their creator's address and have no moves; how many.  Called
    whenever the open form asks for a game, so held games never pile up."""
    before = (now or utcnow()) - timedelta(days=HELD_DAYS)
    stale = [g.id for g in _HELD_BEFORE.rows(before)]
    if stale:
        Seat.delete().where(Seat.game.in_(stale)).execute()
        Outbox.update(game=None).where(Outbox.game.in_(stale)).execute()
        Game.delete().where(Game.id.in_(stale), Game.status == Game.HELD).execute()
    return len(stale)


def confirm_game(ctx: Context, player_id: int, game_id: int) -> Game:
    """A click from the mailbox of ``player_id`` on their held game: the address is
    proven, and the game becomes a game like any other, within its creator's limits
    (counted from now): its invitations go out, and it starts if every seat is taken.
    A game confirmed already is returned as it is."""
    with write_transaction():
        player = lock_row(Player, player_id)
        game = lock_game(game_id)
        if player is None or game.creator_id != player.id:
            raise PlayError("no-game", gettext("There is no such game waiting for you."))
        if game.status != Game.HELD:
            return game
        if game.created_at <= utcnow() - timedelta(days=HELD_DAYS):
            raise PlayError("expired", gettext(
                "This game waited more than %(days)s days for your confirmation and has been "
                "discarded. Please create it again.", days=HELD_DAYS))
        invited = [s.invite_email for s in game.seats if s.invite_email is not None]
        check_limits(ctx, player, invited, None)
        _confirmed(ctx, player)
        game.status = Game.OPEN
        game.created_at = utcnow()  # a held game counts from the day it was confirmed
        game.save()
        _send_invitations(ctx, game, player)
        _start_if_full(ctx, game)
        return Game.get_by_id(game.id)


def _send_invitations(ctx: Context, game: Game, creator: Player) -> int:
    """Queue the game's invitations not sent yet; how many."""
    now = utcnow()
    held = list(game.seats.where(Seat.invite_email.is_null(False), Seat.invited_at.is_null(),
                                 Seat.player.is_null()).order_by(Seat.index))
    for seat in held:
        seat.invited_at = now
        seat.save()
        compose.queue_invite(ctx, game, seat, creator)
    return len(held)


def confirm(ctx: Context, player_id: int) -> int:
    """The player proved the address is theirs: the held invitations of their open
    games go out now.  How many went out (0 when confirmed before)."""
    with write_transaction():
        player = lock_row(Player, player_id)
        if player is None:
            raise PlayError("no-player", gettext("There is no such player."))
        return _confirmed(ctx, player)


def _confirmed(ctx: Context, player: Player) -> int:
    """Mark ``player`` (locked) as confirmed and send their held invitations; how many."""
    if player.confirmed_at is None:
        player.confirmed_at = utcnow()
        player.save()
    sent = 0
    for game in Game.select().where(Game.creator == player, Game.status == Game.OPEN):
        sent += _send_invitations(ctx, game, player)
    return sent


def never_mail(address: str) -> None:
    """The address asked never to be mailed again: every later mail of every kind heeds it
    (``compose.queue``), and nobody can invite it any more."""
    address = normalise_email(address).lower()
    with write_transaction():
        if not Blocked.has(address):
            Blocked.create(email=address)
        Player.update(mail_enabled=False).where(Player.email == address).execute()


def accept_invite(ctx: Context, game: Game, seat: Seat, player: Player) -> None:
    with write_transaction():
        # locked first: two invitees accepting at once must each see the other's seat,
        # or neither starts the game (PostgreSQL reads committed rows only)
        game = lock_game(game.id)
        seat = Seat.get_by_id(seat.id)
        if seat.player_id is not None:
            if seat.player_id == player.id:
                return
            raise PlayError("taken", gettext("This seat has been taken already."))
        if Seat.select().where(Seat.game == game, Seat.player == player).exists():
            raise PlayError("taken", gettext("You already have a seat in this game."))
        seat.player = player
        seat.save()
        if player.confirmed_at is None:  # the invitation was mailed to this address
            Player.update(confirmed_at=utcnow()).where(Player.id == player.id).execute()
        _start_if_full(ctx, game)


def _start_if_full(ctx: Context, game: Game) -> None:
    seats = Seat.of(game)
    if game.status != Game.OPEN or any(s.player_id is None and not s.bot for s in seats):
        return
    rules = get_game(game.game)
    # the card data it was created with, should the server have moved on meanwhile; where
    # the server no longer has that version, nothing has been played yet: today's data
    try:
        state = rules.setup_version(len(seats), game.options, game.seed, game.data_version,
                                    game.rules_version)
    except OptionError:
        state = rules.setup(len(seats), game.options, game.seed)
        game.data_version, game.rules_version = rules.data_version, rules.rules_version
    game.status = Game.ACTIVE
    game.started_at = utcnow()
    game.state = state
    game.save()
    compose.queue_started(ctx, game, seats)
    after_change(ctx, game, rules, seats, state, [])


def renew_links(ctx: Context, player_id: int) -> None:
    """Revoke every seat, move and calendar link mailed to the player before, and mail
    them the new ones (their links leaked, or they fear so)."""
    with write_transaction():
        player = lock_row(Player, player_id)
        if player is None:
            raise PlayError("no-player", gettext("There is no such player."))
        player.link_version += 1
        player.save()
        seats = (Seat.select(Seat, Game).join(Game)
                 .where(Seat.player == player, Game.status.in_((Game.OPEN, Game.ACTIVE)))
                 .order_by(Game.id))
        lang = compose.language_of(player)
        text, html = compose.render_mail(
            ctx, "links", lang, player=player, title="pbem",
            seats=[(compose.game_title(s.game), compose.seat_url(ctx, s.game, s)) for s in seats],
            calendar_url=compose.calendar_url(ctx, player))  # and "all your games" below
        # asked for: not news of a game, which the player may have switched off
        compose.queue(ctx, kind="links", to=player, text=text, html=html,
                      subject=say(phrase("pbem: your new links"), lang))


# -- answering an invitation; the creator's choices for a seat without an answer -------


def decline_invite(ctx: Context, game_id: int, index: int, address: str) -> None:
    """The invitee of seat ``index`` does not want to play: the seat is open again, for
    its creator to fill (``replace_invitee``, ``seat_to_bot``), and the creator is told."""
    with write_transaction():
        game = lock_game(game_id)
        seat = Seat.get_or_none(Seat.game == game, Seat.index == index)
        if (game.status != Game.OPEN or seat is None or seat.invite_email != address
                or seat.player_id is not None):
            raise PlayError("withdrawn", gettext("This invitation is no longer open."))
        seat.invite_email = None
        seat.invited_at = None
        seat.save()
        creator = game.creator
        if creator is None:
            return
        known = Player.get_or_none(Player.email == address)
        who = f"{known.name} ({address})" if known is not None else address
        creator_seat = Seat.get_or_none(Seat.game == game, Seat.player == creator)
        lang = compose.language_of(creator)
        title = compose.game_title(game)
        text, html = compose.render_mail(
            ctx, "declined", lang, player=creator, game=game, title=title, who=who,
            seat_number=seat.index + 1,
            seat_url=compose.seat_url(ctx, game, creator_seat) if creator_seat else None)
        compose.queue(ctx, kind="notice", to=creator, text=text, html=html, game=game,
                      subject=say(phrase("{title}: {who} declined", title=title, who=who),
                                  lang))


def _unanswered_seat(game: Game, creator_id: int, index: int) -> Seat:
    """Seat ``index`` of an open ``game`` whose creator is ``creator_id``, nobody on it."""
    if game.creator_id != creator_id:
        raise PlayError("other-player", gettext("Only the player who created this game can "
                                                "change its seats."))
    if game.status != Game.OPEN:
        raise PlayError("not-active", gettext("The game has started: its seats are taken."))
    seat = Seat.get_or_none(Seat.game == game, Seat.index == index)
    if seat is None:
        raise PlayError("no-seat", gettext("This game has no such seat."))
    if seat.player_id is not None or seat.bot:
        raise PlayError("taken", gettext("This seat is taken already."))
    return seat


def replace_invitee(ctx: Context, game_id: int, creator_id: int, index: int, address: str,
                    client_key: str | None = None) -> Seat:
    """The creator invites ``address`` to a seat nobody has taken, instead of whoever
    was invited to it (whose link stops working), within the day's limits."""
    address = normalise_email(address)  # ValueError
    if Blocked.has(address):
        raise OptionError(gettext("%(email)s has asked us never to mail them: please invite "
                                  "someone else, or give the seat to a bot", email=address))
    with write_transaction():
        game = lock_game(game_id)
        seat = _unanswered_seat(game, creator_id, index)
        creator = Player.get_by_id(creator_id)
        others = [s for s in game.seats if s.index != index]
        taken = {s.invite_email for s in others} | {
            s.player.email for s in others if s.player_id is not None}
        if address in taken:
            raise OptionError(gettext("each player can take only one seat"))
        check_limits(ctx, creator, [address], client_key)
        seat.invite_email = address
        seat.invited_at = None
        seat.open_to_all = False  # an open seat given to one invitee leaves the lobby
        seat.save()
        if creator.confirmed_at is not None:
            _send_invitations(ctx, game, creator)
        return seat


def seat_to_bot(ctx: Context, game_id: int, creator_id: int, index: int) -> Game:
    """The creator gives a seat nobody has taken to a bot; the game starts if it was the
    last one free."""
    with write_transaction():
        game = lock_game(game_id)
        seat = _unanswered_seat(game, creator_id, index)
        seat.bot = True
        seat.invite_email = None
        seat.invited_at = None
        seat.open_to_all = False
        seat.save()
        _start_if_full(ctx, game)
        return Game.get_by_id(game.id)


def rematch(ctx: Context, game_id: int, player_id: int, client_key: str | None = None) -> Game:
    """A new game of the finished ``game_id`` with the same players, options and clock,
    created by ``player_id`` (one of them): the others are invited by address, bots stay
    bots.  One rematch per game: asking again returns the one already made."""
    with write_transaction():
        old = lock_game(game_id)
        if old.status != Game.FINISHED:
            raise PlayError("not-active", gettext("Only a finished game can be played again."))
        existing = Game.get_or_none(Game.rematch_of == old.id)
        if existing is not None:
            return existing
        seats = Seat.of(old)
        if not any(s.player_id == player_id for s in seats):
            raise PlayError("other-player", gettext("Only a player of this game can ask for a "
                                                    "rematch."))
        player = lock_row(Player, player_id)
        # they came from a link mailed to their address: that proves it is theirs
        _confirmed(ctx, player)
        others = [None if s.player_id is None else s.player.email
                  for s in seats if s.player_id != player_id]
        levels = [s.bot_level if s.player_id is None else None
                  for s in seats if s.player_id != player_id]
        game = create_game(ctx, old.game, player, others, options=old.options,
                           clock_policy=old.clock, client_key=client_key, bot_levels=levels)
        game.rematch_of = old.id
        game.save()
        return game
