"""Following a running game: its Atom feed of public moves, the form on its public page,
and the follower's confirm and unfollow pages (``pbem.lifecycle.follow``).

The confirm page is a GET that changes nothing (mail scanners open links) and a POST.
The unfollow link is a digest's List-Unsubscribe: a mail provider's one-click POST
stops the digests with no login; a GET only asks.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, render_template, request, url_for

from pbem import i18n, links
from pbem.archive.feed import moves_atom
from pbem.gamelog import history
from pbem.games.protocol import SPECTATOR
from pbem.games.render import seat_text
from pbem.i18n import gettext as _
from pbem.lifecycle import create, follow, moves
from pbem.mail import compose
from pbem.models import Follower, Game, Move, Seat
from pbem.web import context, csrf
from pbem.web.lobby import _one_click_or_form, client_key
from pbem.web.play import _field, _payload, listed_game
from pbem.web.refusal import Refusal, refusal_seconds

bp = Blueprint("follow", __name__)

#: moves a game's feed carries, newest first
FEED_ENTRIES = 50


@bp.get("/g/<int:game_id>/feed.atom")
def feed(game_id: int) -> Any:
    """The game's public moves as a spectator reads them (the public page's sentences)."""
    game = listed_game(game_id)
    names = compose.names_of(Seat.of(game))
    rows = (Move.select(Move.seq, Move.seat, Move.move, Move.said_author, Move.said_others,
                        Move.said_in, Move.created_at)
            .where(Move.game == game).order_by(Move.seq.desc()).limit(FEED_ENTRIES))
    lang = i18n.current()
    entries = [(row.seq, row.created_at, seat_text(history.said(row, SPECTATOR, lang), names))
               for row in rows if history.is_told(row)]
    page = context().url(f"/g/{game.id}")
    body = moves_atom(compose.game_title(game), page, page,
                      context().url(f"/g/{game.id}/feed.atom"), entries)
    return body, 200, {"Content-Type": "application/atom+xml; charset=utf-8"}


@bp.post("/g/<int:game_id>/follow")
def follow_post(game_id: int) -> Any:
    game = listed_game(game_id)
    here = url_for("play.game_page", game_id=game.id)
    csrf.check(again_url=here)
    address = request.form.get("email", "")[:300]
    try:
        follow.ask(context(), game.id, address, client_key(), i18n.current())
    except create.LimitError as exc:  # an OptionError, itself a ValueError: first
        raise Refusal("limit", str(exc), game_url=here,
                      retry_after=refusal_seconds(exc.retry_at)) from exc
    except ValueError as exc:
        raise Refusal("bad-form", _("Please give an email address to mail the digest to."),
                      game_url=here) from exc
    except moves.PlayError as exc:
        raise Refusal.from_play(exc, game_url=here) from exc
    # the same answer whether a mail went or not: the page tells nobody who follows what
    return render_template("pages/follow.html", state="asked", game=game,
                           title=compose.game_title(game), game_url=here)


def _follower(token: str) -> Follower:
    payload = _payload(links.FOLLOW, token)
    follower = follow.find(_field(payload, "follower"), _field(payload, "key"))
    if follower is None:
        raise Refusal("withdrawn", _("You do not follow this game (any more)."))
    i18n.reader(follower.language)
    return follower


def _page(follower: Follower, state: str) -> Any:
    game = Game.get_by_id(follower.game_id)
    return render_template("pages/follow.html", state=state, game=game,
                           follower=follower, title=compose.game_title(game),
                           game_url=url_for("play.game_page", game_id=game.id))


@bp.get("/follow/<token>")
def confirm(token: str) -> Any:
    follower = _follower(token)
    return _page(follower, "following" if follower.confirmed_at else "confirm")


@bp.post("/follow/<token>")
def confirm_post(token: str) -> Any:
    follower = _follower(token)
    csrf.check(again_url=request.path)
    try:
        follower = follow.confirm(follower.id, follower.key)
    except moves.PlayError as exc:
        raise Refusal.from_play(exc, game_url=url_for(
            "play.game_page", game_id=follower.game_id)) from exc
    return _page(follower, "following")


@bp.get("/follow/<token>/stop")
def stop(token: str) -> Any:
    return _page(_follower(token), "stop")


@bp.post("/follow/<token>/stop")
def stop_post(token: str) -> Any:
    follower = _follower(token)
    one_click = _one_click_or_form()
    follow.stop(follower.id, follower.key)
    if one_click:
        return _("Unsubscribed.") + "\n", 200, {"Content-Type": "text/plain; charset=utf-8"}
    return _page(follower, "stopped")
