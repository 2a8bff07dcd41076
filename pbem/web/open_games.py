"""The lobby's open games: games with seats left open to anyone, and joining one.

A visitor picks a game and gives their address; the seat is theirs only after a click
on the link mailed there (``pbem.lifecycle.join``), where they also say their name,
time zone and language, as an invited player does.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, flash, redirect, render_template, request, url_for

from pbem import i18n, links
from pbem.games import get_game
from pbem.i18n import DEFAULT, LANGUAGES
from pbem.i18n import gettext as _
from pbem.lifecycle import create, join, moves
from pbem.mail import compose
from pbem.models import Game, Player, Seat
from pbem.time import clock
from pbem.web import context, csrf
from pbem.web.lobby import client_key, player_from_form
from pbem.web.play import _field, _payload, listed_game, seat_path
from pbem.web.refusal import Refusal, refusal_seconds
from pbem.web.zones import timezones

bp = Blueprint("open_games", __name__)


@bp.get("/open")
def open_games() -> Any:
    listed = join.open_games()
    return render_template("pages/open_games.html", listed=listed, title_of=compose.game_title,
                           rules_of=lambda g: get_game(g.game),
                           clock_of=lambda g: clock.describe_policy(g.clock) if g.clock else "")


@bp.post("/open/<int:game_id>")
def ask(game_id: int) -> Any:
    game = listed_game(game_id)
    here = url_for("open_games.open_games")
    csrf.check(again_url=here)
    try:
        join.ask(context(), game.id, request.form.get("email", "")[:300], client_key(),
                 i18n.current())
    except create.LimitError as exc:  # an OptionError, itself a ValueError: first
        raise Refusal("limit", str(exc), again_url=here,
                      retry_after=refusal_seconds(exc.retry_at)) from exc
    except ValueError as exc:
        raise Refusal("bad-form", _("Please give your email address: the link to your seat "
                                    "is mailed there."), again_url=here) from exc
    except moves.PlayError as exc:
        raise Refusal.from_play(exc, again_url=here) from exc
    # the same answer whether a mail went or not: nobody learns who plays here
    return render_template("pages/join.html", state="asked", game=game,
                           title=compose.game_title(game), days=join.LINK_DAYS)


def _join(token: str) -> tuple[Game, str]:
    payload = _payload(links.JOIN, token, join.LINK_DAYS * 86_400)
    game = Game.get_or_none(Game.id == _field(payload, "game"))
    if game is None:
        raise Refusal("no-game", _("There is no such game on this server (any more)."))
    address = _field(payload, "email")
    known = Player.get_or_none(Player.email == address)
    if known is not None:
        i18n.reader(known.language)
    return game, address


@bp.get("/join/<token>")
def join_page(token: str) -> Any:
    game, address = _join(token)
    player = Player.get_or_none(Player.email == address)
    seated = (Seat.get_or_none(Seat.game == game, Seat.player == player)
              if player is not None else None)
    form = {"name": player.name if player else address.split("@")[0],
            "timezone": player.timezone if player else "UTC",
            "language": player.language if player else
            request.accept_languages.best_match(list(LANGUAGES), default=DEFAULT)}
    seats = Seat.of(game)
    return render_template(
        "pages/join.html", state="join", game=game, title=compose.game_title(game),
        address=address, names=compose.names_of(seats), rules=get_game(game.game),
        clock=clock.describe_policy(game.clock) if game.clock else "",
        free=sum(1 for s in seats if s.open_to_all and s.player_id is None),
        seat_link=seat_path(game, seated) if seated else None,
        form=form, timezones=timezones(), languages=LANGUAGES)


@bp.post("/join/<token>")
def join_post(token: str) -> Any:
    game, address = _join(token)
    csrf.check(again_url=request.path)
    player = player_from_form(address)
    try:
        seat = join.join(context(), game.id, player)
    except moves.PlayError as exc:
        raise Refusal.from_play(exc, game_url=url_for("play.game_page",
                                                      game_id=game.id)) from exc
    game = Game.get_by_id(game.id)
    i18n.reader(player.language)
    flash(_("You have joined; the game has started.") if game.status == Game.ACTIVE
          else _("You have joined."), "joined")
    return redirect(seat_path(game, seat), code=303)
