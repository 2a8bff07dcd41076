"""Following a running game by mail: a visitor's address, confirmed from its mailbox,
gets at most one digest a day of the game's public moves (``pbem.time.follow``).

Asking mails nothing but one request to confirm, and at most one a day to an
address whoever asks (``REQUEST_KIND``), none to an address that said "never mail me
again"; one client may ask ``[limits] follows_per_client`` times a day.  The page that
asked says the same whether a mail went or not, so it tells nobody who follows what.
Nothing a follower gets holds a seat link or a secret: the public page's sentences,
its address and the follower's own links.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from pbem.context import Context
from pbem.i18n import gettext, phrase, say, supported
from pbem.lifecycle.create import LimitError, normalise_email
from pbem.lifecycle.moves import PlayError
from pbem.mail import compose
from pbem.models import (
    Blocked,
    Follower,
    Game,
    Outbox,
    Player,
    lock_row,
    utcnow,
    write_transaction,
)

#: the outbox kind of the request to confirm a follow
REQUEST_KIND = "follow-ask"
#: a digest goes at most this often
DIGEST_EVERY = timedelta(days=1)


def ask(ctx: Context, game_id: int, address: str, client_key: str | None, lang: str,
        now: datetime | None = None) -> bool:
    """``address`` asks to follow ``game_id``: whether a request to confirm was queued.

    ``ValueError`` for an address we could not mail, ``PlayError`` for a game that is
    not running, ``LimitError`` past the client's day.
    """
    now = now or utcnow()
    address = normalise_email(address).lower()
    with write_transaction():
        game = Game.get_or_none(Game.id == game_id)
        if game is None or game.status not in (Game.OPEN, Game.ACTIVE):
            raise PlayError("not-active", gettext("Only a running game can be followed."))
        since = now - timedelta(days=1)
        if client_key is not None:
            asked = Follower.select().where(Follower.client_key == client_key,
                                            Follower.created_at > since)
            most = ctx.config.getint("limits", "follows_per_client")
            if asked.count() >= most:
                first = asked.order_by(Follower.created_at.desc()).limit(most)
                raise LimitError(gettext("Your network has asked to follow %(n)s games in the "
                                         "last 24 hours, as many as we allow. Please try "
                                         "again tomorrow.", n=most),
                                 retry_at=list(first)[-1].created_at + timedelta(days=1))
        follower = Follower.get_or_none(Follower.game == game, Follower.email == address)
        if follower is None:
            follower = Follower.create(game=game, email=address, client_key=client_key,
                                       language=supported(lang), created_at=now)
        if follower.confirmed_at is not None or Blocked.has(address):
            return False
        # one request a day to an address, whoever asks and for whichever game
        if Outbox.select().where(Outbox.kind == REQUEST_KIND, Outbox.to_address == address,
                                 Outbox.created_at > since).exists():
            return False
        _queue_request(ctx, game, follower, now)
        return True


def link(ctx: Context, follower: Follower, action: str = "") -> str:
    """The follower's confirm page (``action`` ""), or its unfollow page ("stop")."""
    token = ctx.signer.sign_link("follow", follower=follower.id, key=follower.key)
    return ctx.url(f"/follow/{token}{'/' + action if action else ''}")


def _queue_request(ctx: Context, game: Game, follower: Follower, now: datetime) -> None:
    title = compose.game_title(game)
    text, html = compose.render_mail(
        ctx, "follow_ask", follower.language, title=title, url=link(ctx, follower),
        game_url=ctx.url(f"/g/{game.id}"), never_url=compose.never_url(ctx, follower.email))
    # to a player's address, the request is that player's mail: it heeds "stop all mail"
    known = Player.get_or_none(Player.email == follower.email)
    compose.queue(ctx, kind=REQUEST_KIND, to=known or follower.email, text=text, html=html,
                  subject=say(phrase("{title}: confirm that you follow it", title=title),
                              follower.language), now=now)


def find(follower_id: int, key: str) -> Follower | None:
    follower = Follower.get_or_none(Follower.id == follower_id)
    return follower if follower is not None and follower.key == key else None


def confirm(follower_id: int, key: str, now: datetime | None = None) -> Follower:
    """A click from the mailbox: the first digest is due a day from now and tells what
    happens from now on."""
    now = now or utcnow()
    with write_transaction():
        follower = lock_row(Follower, follower_id)
        if follower is None or follower.key != key:
            raise PlayError("no-follow", gettext("You do not follow this game (any more)."))
        if follower.confirmed_at is None:
            game = Game.get_by_id(follower.game_id)
            if game.status not in (Game.OPEN, Game.ACTIVE):
                raise PlayError("not-active", gettext("This game is not running."))
            follower.confirmed_at = now
            follower.told_seq = game.seq
            follower.digest_due = now + DIGEST_EVERY
            follower.save()
        return follower


def stop(follower_id: int, key: str) -> bool:
    """Unfollow (the digest's one-click unsubscribe, or its page): whether it followed."""
    with write_transaction():
        return Follower.delete().where(Follower.id == follower_id,
                                       Follower.key == key).execute() == 1
