"""Pages about time behind the personal seat link: vacation, taking a seat back, the calendar.

``/s/<token>/vacation``  GET: vacation days, running clocks in the reader's time
                         zone, quiet hours, the calendar link; POST: start or end a
                         vacation
``/s/<token>/quiet``     POST: quiet hours and the daily digest
``/s/<token>/reclaim``   GET: confirm taking the seat back from the bot; POST: do it
``/calendar/<token>.ics`` the player's deadlines as an ICS feed (``links.CALENDAR``)

GET never changes anything; every POST carries the CSRF token of
:mod:`pbem.web.csrf`.  The work is done by :mod:`pbem.time.vacation` and
:mod:`pbem.time.timeouts` in their own transactions.
"""

from __future__ import annotations

import re
from typing import Any

from flask import (
    Blueprint,
    Response,
    flash,
    get_flashed_messages,
    redirect,
    render_template,
    request,
    url_for,
)

from pbem import i18n, links
from pbem.i18n import gettext as _
from pbem.lifecycle import moves
from pbem.mail import compose
from pbem.models import Player, utcnow
from pbem.time import calendar as calendar_feed
from pbem.time import clock, reminders, timeouts, vacation
from pbem.time.running import running_clocks
from pbem.web import context, csrf
from pbem.web.play import load_seat_link
from pbem.web.refusal import Refusal

bp = Blueprint("time", __name__)


def _refusal(exc: moves.PlayError, token: str) -> Refusal:
    return Refusal(exc.reason, str(exc), seat_url=url_for("play.seat_page", token=token))


@bp.get("/s/<token>/vacation")
def vacation_page(token: str) -> Any:
    game, seat = load_seat_link(token)
    player = seat.player
    now = utcnow()
    have = vacation.allowance(context(), player, now)
    away_until = clock.stopped_until(player, now)
    clocks = running_clocks(player, now)
    return render_template(
        "time/vacation.html", game=game, seat=seat, me=player, token=token, allowance=have,
        away_until=(compose.format_local(away_until, player.timezone, i18n.current())
                    if away_until else None),
        clocks=clocks, calendar_url=compose.calendar_url(context(), player),
        title=compose.game_title(game), names=compose.names_of(list(game.seats)),
        messages=get_flashed_messages(with_categories=True),
    )


@bp.post("/s/<token>/vacation")
def vacation_post(token: str) -> Any:
    _game, seat = load_seat_link(token)
    here = url_for("time.vacation_page", token=token)
    csrf.check(again_url=here)
    ctx, now = context(), utcnow()
    action = request.form.get("action", "")
    try:
        if action == "start":
            try:
                days = int(request.form.get("days", ""))
            except ValueError:
                raise Refusal("bad-form", _("Say how many days of vacation you want."),
                              again_url=here) from None
            until = vacation.start(ctx, seat.player_id, days, now)
            flash(_("You are on vacation until %(until)s; your clocks stand still until then.",
                    until=compose.format_local(until, seat.player.timezone, i18n.current())),
                  "saved")
        elif action == "end":
            vacation.end(ctx, seat.player_id, now)
            flash(_("Welcome back: your clocks run again."), "saved")
        else:
            raise Refusal("bad-form", _("The form did not say what to do."), again_url=here)
    except moves.PlayError as exc:
        raise _refusal(exc, token) from exc
    return redirect(here, code=303)


_HHMM = re.compile(r"^([01]\d|2[0-3]):[0-5]\d$")


@bp.post("/s/<token>/quiet")
def quiet_post(token: str) -> Any:
    """Quiet hours and the daily digest: when our mail may reach this player, and how."""
    _game, seat = load_seat_link(token)
    here = url_for("time.vacation_page", token=token)
    csrf.check(again_url=here)
    start = request.form.get("quiet_start", "").strip()
    end = request.form.get("quiet_end", "").strip()
    if not (_HHMM.match(start) and _HHMM.match(end)):
        raise Refusal("bad-form", _("Quiet hours are two times like 22:00 and 08:00."),
                      again_url=here)
    (Player.update(quiet_start=start, quiet_end=end,
                   digest=request.form.get("digest") == "on")
     .where(Player.id == seat.player_id).execute())
    reminders.reschedule_player(seat.player_id)
    flash(_("Your quiet hours and mail choice are saved."), "saved")
    return redirect(here, code=303)


@bp.get("/s/<token>/reclaim")
def reclaim_page(token: str) -> Any:
    game, seat = load_seat_link(token)
    if not seat.bot_replaced:
        flash(_("Nobody else plays your seat: it is yours."), "saved")
        return redirect(url_for("play.seat_page", token=token), code=303)
    return render_template("time/reclaim.html", game=game, seat=seat, me=seat.player,
                           token=token, title=compose.game_title(game),
                           ladder=clock.describe_ladder(game.clock))


@bp.post("/s/<token>/reclaim")
def reclaim_post(token: str) -> Any:
    game, seat = load_seat_link(token)
    csrf.check(again_url=url_for("time.reclaim_page", token=token))
    try:
        timeouts.reclaim(context(), game.id, seat.index, seat.player_id, utcnow())
    except moves.PlayError as exc:
        raise _refusal(exc, token) from exc
    flash(_("Your seat is yours again; the bot has stopped."), "saved")
    return redirect(url_for("play.seat_page", token=token), code=303)


@bp.get("/calendar/<token>.ics")
def calendar(token: str) -> Any:
    ctx = context()
    try:
        player = calendar_feed.player_from_token(ctx, token)
    except links.LinkError as exc:
        raise Refusal.from_link(exc) from exc
    if player is None:
        raise Refusal("no-player", _("There is no such player on this server (any more)."))
    body = calendar_feed.build(ctx, player, utcnow())
    return Response(body, mimetype="text/calendar",
                    headers={"Content-Disposition": 'inline; filename="pbem.ics"'})
