"""Open games: seats a creator left open to anyone, and joining one from the lobby.

Whoever wants a seat gives their address; pbem mails it one link (``REQUEST_KIND``),
at most one a day to an address whoever asks, none to an address that said "never
mail me again", and one client may ask ``[limits] joins_per_client`` times a day.  The
request counts as an invitation to that address (``[limits] invitations_per_invitee``).
Only a click from that mailbox takes the seat (``join``): nobody can seat a stranger.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

import peewee as pw

from pbem.context import Context
from pbem.i18n import gettext, phrase, say, supported
from pbem.lifecycle.create import LimitError, _start_if_full, normalise_email
from pbem.lifecycle.moves import PlayError, lock_game
from pbem.mail import compose
from pbem.models import (
    Blocked,
    Game,
    JoinAsk,
    Outbox,
    Player,
    Seat,
    utcnow,
    write_transaction,
)

#: the outbox kind of the mail that brings a join link
REQUEST_KIND = "join-ask"
#: how long a join link works
LINK_DAYS = 7
#: open games the lobby lists at most
LISTED = 100


@dataclass(frozen=True)
class OpenGame:
    """A game of the lobby's list: what a stranger needs to choose it."""

    game: Game
    players: int
    free: int


def open_games(limit: int = LISTED) -> list[OpenGame]:
    """Games waiting for players with seats open to anyone, oldest first (they have
    waited longest), found by the index of open seats."""
    free = (Seat.select(Seat.game, pw.fn.COUNT(Seat.id).alias("free"))
            .where(Seat.open_to_all, Seat.player.is_null()).group_by(Seat.game))
    counts = {row.game_id: row.free for row in free}
    if not counts:
        return []
    games = list(Game.select().where(Game.id.in_(list(counts)), Game.status == Game.OPEN)
                 .order_by(Game.id).limit(limit))
    sizes = {row.game_id: row.n for row in
             Seat.select(Seat.game, pw.fn.COUNT(Seat.id).alias("n"))
             .where(Seat.game.in_([g.id for g in games])).group_by(Seat.game)}
    return [OpenGame(g, sizes.get(g.id, 0), counts[g.id]) for g in games]


def _open_seat(game: Game) -> Seat | None:
    return (Seat.select().where(Seat.game == game, Seat.open_to_all, Seat.player.is_null())
            .order_by(Seat.index).first())


def ask(ctx: Context, game_id: int, address: str, client_key: str | None, lang: str,
        now: datetime | None = None) -> bool:
    """``address`` asks for a seat of ``game_id``: whether its link was mailed.

    ``ValueError`` for an address we could not mail, ``PlayError`` for a game with no
    open seat, ``LimitError`` past the client's day.
    """
    now = now or utcnow()
    address = normalise_email(address).lower()
    with write_transaction():
        game = Game.get_or_none(Game.id == game_id)
        if game is None or game.status != Game.OPEN or _open_seat(game) is None:
            raise PlayError("taken", gettext("This game has no open seat (any more)."))
        since = now - timedelta(days=1)
        if client_key is not None:
            most = ctx.config.getint("limits", "joins_per_client")
            asked = JoinAsk.select(JoinAsk.created_at).where(JoinAsk.client_key == client_key,
                                                            JoinAsk.created_at > since)
            if asked.count() >= most:
                oldest = list(asked.order_by(JoinAsk.created_at.desc()).limit(most))[-1]
                raise LimitError(gettext("Your network has asked for %(n)s seats in the last "
                                         "24 hours, as many as we allow. Please try again "
                                         "tomorrow.", n=most),
                                 retry_at=oldest.created_at + timedelta(days=1))
        JoinAsk.create(game=game, email=address, client_key=client_key, created_at=now)
        if Blocked.has(address) or Seat.select().join(Player).where(
                Seat.game == game, Player.email == address).exists():
            return False
        # one request a day to an address, and it counts as an invitation to it
        received = Outbox.select().where(Outbox.to_address == address,
                                         Outbox.created_at > since,
                                         Outbox.kind.in_((REQUEST_KIND, "invite")))
        if received.where(Outbox.kind == REQUEST_KIND).exists() or (
                received.count() >= ctx.config.getint("limits", "invitations_per_invitee")):
            return False
        _queue_request(ctx, game, address, supported(lang), now)
        return True


def link(ctx: Context, game: Game, address: str) -> str:
    token = ctx.signer.sign_link("join", game=game.id, email=address)
    return ctx.url(f"/join/{token}")


def _queue_request(ctx: Context, game: Game, address: str, lang: str, now: datetime) -> None:
    title = compose.game_title(game)
    # to an address that plays here, the mail is that player's, in their language
    known = Player.get_or_none(Player.email == address)
    lang = compose.language_of(known) if known else lang
    text, html = compose.render_mail(
        ctx, "join_ask", lang, title=title, url=link(ctx, game, address),
        game_url=ctx.url(f"/g/{game.id}"), days=LINK_DAYS, clock=compose.clock_words(game, lang),
        never_url=compose.never_url(ctx, address))
    compose.queue(ctx, kind=REQUEST_KIND, to=known or address, text=text, html=html, now=now,
                  subject=say(phrase("{title}: your seat, if you confirm", title=title), lang))


def join(ctx: Context, game_id: int, player: Player) -> Seat:
    """``player`` (whose address the join link was mailed to) takes the first seat of
    ``game_id`` still open; the game starts if it was the last free seat."""
    with write_transaction():
        game = lock_game(game_id)
        mine = Seat.get_or_none(Seat.game == game, Seat.player == player)
        if mine is not None:
            return mine  # a second click on the same link
        seat = _open_seat(game) if game.status == Game.OPEN else None
        if seat is None:
            raise PlayError("taken", gettext("This game has no open seat (any more)."))
        seat.player = player
        seat.save()
        if player.confirmed_at is None:  # the link was mailed to this address
            Player.update(confirmed_at=utcnow()).where(Player.id == player.id).execute()
        _start_if_full(ctx, game)
        return Seat.get_by_id(seat.id)
