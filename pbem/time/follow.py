"""The daily digest of a followed game (``pbem.lifecycle.follow``): a tick step.

The tick finds the followers whose digest is due by ``Follower.digest_due`` alone (an
index on a due time, never all games or all followers), claims each with a conditional
UPDATE that moves its due time a day on, and mails what the game's public page would
have told since the last digest: its moves as a spectator reads them (never table
talk, never a seat link), and its result once it is over, after which the follower
gets nothing more.  A day with no move mails nothing.
"""

from __future__ import annotations

from datetime import datetime

from pbem.context import Context
from pbem.gamelog import history
from pbem.gamelog.standing import headline, standing
from pbem.games.protocol import SPECTATOR
from pbem.games.render import seat_text
from pbem.i18n import phrase, say
from pbem.lifecycle.follow import DIGEST_EVERY, link
from pbem.mail import compose
from pbem.models import Follower, Game, Player, Seat, write_transaction
from pbem.sqlcache import Prepared
from pbem.time import steps

#: the outbox kind of a followed game's digest (``kinds.FOLLOWED``)
KIND = "follow"


#: followers whose digest is due (built once, as ``timeouts.due``'s)
_DUE = Prepared(Follower, lambda now, limit: (
    Follower.select(Follower.id).where(Follower.digest_due <= now)
    .order_by(Follower.digest_due).limit(limit)), 2, dates=(0,))


def due(now: datetime, limit: int = steps.BATCH) -> list[int]:
    return [f.id for f in _DUE.rows(now, limit)]


def send_due(ctx: Context, now: datetime) -> int:
    return steps.each("follow", due(now), lambda fid: digest_one(ctx, fid, now))


def digest_one(ctx: Context, follower_id: int, now: datetime) -> bool:
    """The follower's digest, if one is due and the game moved; False if not (or if
    another tick took it)."""
    with write_transaction():
        follower = Follower.get_or_none(Follower.id == follower_id)
        if follower is None or follower.digest_due is None or follower.digest_due > now:
            return False
        game = Game.get_by_id(follower.game_id)
        over = game.status not in (Game.OPEN, Game.ACTIVE)
        claimed = (Follower.update(digest_due=None if over else now + DIGEST_EVERY,
                                   told_seq=game.seq)
                   .where(Follower.id == follower.id,
                          Follower.digest_due == follower.digest_due).execute())
        if claimed != 1:
            raise steps.Lost(follower_id)
        if game.seq <= follower.told_seq and game.status != Game.FINISHED:
            return False  # nothing happened: nothing to tell
        # to a player's address, the digest is that player's mail: it heeds their switch
        # of digests of followed games, their "stop all mail" and their quiet hours
        player = Player.get_or_none(Player.email == follower.email)
        return _queue(ctx, follower, player, game, now)


def lines_since(game: Game, since_seq: int, lang: str, names: list[str]) -> list[str]:
    """What happened after ``since_seq`` as a spectator reads it, without table talk."""
    told = history.history(game, SPECTATOR, since_seq=since_seq, lang=lang)
    return [seat_text(line, names) for r in told.rounds for t in r.turns if not t.talk
            for line in t.lines]


def _queue(ctx: Context, follower: Follower, player: Player | None, game: Game,
           now: datetime) -> bool:
    lang = follower.language
    names = compose.names_of(Seat.of(game))
    title = compose.game_title(game)
    lines = lines_since(game, follower.told_seq, lang, names)
    said = None
    if game.status == Game.FINISHED and game.result is not None:
        said = headline(standing(game.result, names, lang), lang)
    text, html = compose.render_mail(
        ctx, "follow", lang, title=title, lines=lines, result=said,
        game_url=ctx.url(f"/g/{game.id}"), feed_url=ctx.url(f"/g/{game.id}/feed.atom"),
        stop_url=link(ctx, follower, "stop"))
    subject = say(phrase("{title}: the day's moves", title=title), lang)
    if said:
        subject = f"{title}: {said}"
    return compose.queue(ctx, kind=KIND, to=player or follower.email, subject=subject,
                         text=text, html=html, now=now,
                         unsubscribe=link(ctx, follower, "stop")) is not None
