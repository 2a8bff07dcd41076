"""The pages behind the links we mail: confirm a move, a player's seat, a game in public.

``/m/<token>``  GET shows the move in words and a button; POST plays it
``/s/<token>``  the personal seat page: the table as this seat sees it, what
                happened, the move menu (POST ``/s/<token>/play``), take-back
                (POST ``/s/<token>/takeback``)
``/s/<token>/at?r=<region>``  the moves one place of the picture stands for, when
                it stands for several (``region_links``)
``/g/<id>``     the public page of a game: what a spectator may see

Tokens are checked for authenticity and age by :mod:`pbem.links`; whether
they may still be used (the game moved on, the move was played) is checked
against the database, and the final word is the service's, inside its
transaction.  A refused link is a page with a 4xx status that says why and
where to go on.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from flask import (
    Blueprint,
    abort,
    flash,
    g,
    get_flashed_messages,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from itsdangerous import SignatureExpired, URLSafeTimedSerializer

from pbem import i18n, links
from pbem.gamelog import history
from pbem.gamelog.standing import headline, standing
from pbem.games import get_game
from pbem.games.protocol import SPECTATOR, Choice, Rules
from pbem.games.render import named_choices, seat_text
from pbem.i18n import LANGUAGES
from pbem.i18n import gettext as _
from pbem.lifecycle import create, moves, notes, talk
from pbem.mail import compose, kinds, picture
from pbem.models import Game, Move, Seat, table_of, utcnow, write_transaction
from pbem.time import clock
from pbem.web import _cv_app, context, csrf, running_app
from pbem.web.refusal import Refusal, refusal_seconds
from pbem.web.zones import is_zone, timezones

bp = Blueprint("play", __name__)


# -- tokens --------------------------------------------------------------------


def _payload(purpose: str, token: str, max_age: int | None = None) -> links.Link:
    try:
        return context().signer.load_link(purpose, token, max_age)
    except links.LinkError as exc:
        game_url = None
        if exc.reason == "expired" and "game" in links.FIELDS[purpose]:
            # the signature was good, only the age is wrong: the game it names is real
            old = _expired_payload(exc)
            game_id = links.Link(purpose, old).get("game") if isinstance(old, dict) else None
            if game_id is not None:
                game_url = url_for("play.game_page", game_id=game_id)
        raise Refusal.from_link(exc, game_url=game_url) from exc


def _expired_payload(exc: links.LinkError) -> Any:
    cause = exc.__cause__
    if isinstance(cause, SignatureExpired) and cause.payload is not None:
        try:
            return URLSafeTimedSerializer("-").load_payload(cause.payload)
        except Exception:  # noqa: BLE001 - a payload we cannot read: no link then
            return None
    return None


def _field(link: links.Link, name: str) -> Any:
    """The link's value ``name`` (``links.FIELDS``), or the refusal of a link that lacks it."""
    try:
        return link[name]
    except links.LinkError as exc:
        raise Refusal.from_link(exc) from exc


def path_of(url: str) -> str:
    """The path of one of our absolute URLs, for redirects on the host the reader is on."""
    return urlsplit(url).path


def seat_path(game: Game, seat: Seat) -> str | None:
    if seat.player_id is None:
        return None
    return path_of(compose.seat_url(context(), game, seat))


def _game_and_seat(game_id: int | Game, index: int, note: bool = False,
                   drawn: bool = False) -> tuple[Game, Seat]:
    """The game (read now with its seats, unless given) and its seat ``index``, or the
    refusal.  ``note``: the seat's private note read with them (its seat page);
    ``drawn``: the table its turn mail kept (the confirm page)."""
    if isinstance(game_id, Game):
        game = game_id
    elif type(game_id) is int and type(index) is int:
        game, seats = table_of(game_id, note_of=index if note else None,
                               drawn_of=index if drawn else None)
        if game is not None:
            _loaded()[game.id] = seats
    else:  # a link signed by us names its game by number; anything else is no game
        game = None
    if game is None:
        raise Refusal("no-game", _("There is no such game on this server (any more)."))
    seat = next((s for s in _seats(game) if s.index == index), None)
    if seat is None:
        raise Refusal("no-seat", _("This game has no such seat."),
                      game_url=url_for("play.game_page", game_id=game.id))
    return game, seat


@dataclass
class MoveLink:
    game: Game
    seat: Seat
    #: the seat's turn the link was mailed for, and its menu version then
    turn_seq: int
    menu_seq: int
    move: str

    @property
    def links(self) -> dict[str, str | None]:
        return {"game_url": url_for("play.game_page", game_id=self.game.id),
                "seat_url": seat_path(self.game, self.seat)}


def _move_payload(token: str) -> links.Link:
    days = context().config.getint("links", "move_link_days")
    return _payload(links.MOVE, token, days * 86_400)


def load_move_link(token: str, drawn: bool = False) -> MoveLink:
    """The game, seat and move a move link names, or the refusal; ``drawn``: the table
    the seat's turn mail kept comes along (``_game_and_seat``)."""
    payload = _move_payload(token)
    game, seat = _game_and_seat(_field(payload, "game"), _field(payload, "seat"),
                                drawn=drawn)
    _check_owner(game, seat, payload)
    return MoveLink(game, seat, _field(payload, "turn"), _field(payload, "menu"),
                    _field(payload, "move"))


def _check_owner(game: Game, seat: Seat, payload: links.Link) -> None:
    """The link was made for the seat's player, and before they asked for new links.
    (The game's address only for a refusal: a link that passes, every click's three
    requests, does not build it.)"""
    if seat.player_id is None or seat.player_id != _field(payload, "player"):
        raise Refusal("other-player", _("This link was made for another player of this "
                                        "seat, who no longer sits there."),
                      game_url=url_for("play.game_page", game_id=game.id))
    # the link is this player's: the page speaks their language from here on
    i18n.reader(seat.player.language)
    if seat.player.link_version != _field(payload, "version"):
        raise Refusal("revoked", _("Newer links have been mailed to you since this one; "
                                   "please use the link from your latest mail."),
                      game_url=url_for("play.game_page", game_id=game.id))


def load_seat_link(token: str, note: bool = False) -> tuple[Game, Seat]:
    payload = _payload(links.SEAT, token)
    game, seat = _game_and_seat(_field(payload, "game"), _field(payload, "seat"), note)
    _check_owner(game, seat, payload)
    return game, seat


# -- shared pieces of the pages ------------------------------------------------------


def _seats(game: Game) -> list[Seat]:
    """The game's seats in order, each with its player loaded in the same query; read
    once per request (a page reads the seat of its link, the names, the menu's names from
    them; a move changes no name)."""
    loaded = _loaded()
    if game.id not in loaded:
        loaded[game.id] = Seat.of(game)
    return loaded[game.id]


def _loaded() -> dict[int, list[Seat]]:
    """The tables this request has read, by game (``_seats``), kept in Flask's ``g``
    (read from its context variable where this Flask has one: the proxy costs more)."""
    found = _cv_app.get(None) if _cv_app is not None else None
    page = found.g if found is not None else g
    loaded = page.get("pbem_seats")
    if loaded is None:
        loaded = page.pbem_seats = {}
    return loaded


def _sentence(game: Game, row: Move | None, viewer: int) -> str | None:
    """A recorded move in words, as ``viewer`` reads it, names filled in."""
    if row is None:
        return None
    return seat_text(history.said(row, viewer, i18n.current()),
                     compose.names_of(_seats(game)))


def check_move_link(link: MoveLink, kept: list[Choice] | None = None) -> Choice:
    """Refuse a move link that can no longer be played (read-only; ``moves.play`` decides
    last, under the game's lock); else the menu's entry for its move, names filled in
    (the confirm page shows it).

    The menu offers exactly the legal moves (the protocol's ``menu``): a move it has an
    entry for is legal, and the game lists its moves once for both questions.  ``kept``:
    the seat's menu now, as its turn mail kept it (``_kept_menu``), which answers both
    without asking the game."""
    game, seat = link.game, link.seat
    if game.status == Game.FINISHED:
        raise Refusal("not-active", _("This game has ended; its links cannot be played any "
                                      "more. The final table is on the game's page."),
                      **link.links)
    if game.status != Game.ACTIVE:
        raise Refusal("not-active", _("This game is not running."), **link.links)
    refused = moves.link_refusal(game, seat, link.turn_seq, link.menu_seq, link.move)
    if refused is None:
        choice = (_choice(get_game(game.game), game, seat, link.move, seat.player.language)
                  if kept is None else next((c for c in kept if c.move == link.move), None))
        if choice is not None:
            return choice
        refused = moves.gone()
    raise _play_refusal(refused, game, seat, link.links)


_MESSAGES = {
    "used": i18n.lazy_gettext("A move from this link has already been played; a link "
                              "plays once."),
    "stale": i18n.lazy_gettext("The game has moved on since this link was mailed: the "
                               "decision it was for is over. Your seat shows what you can "
                               "do now."),
    "gone": i18n.lazy_gettext("This choice is no longer open: the table has changed since "
                              "the link was mailed. Your seat shows what you can do now."),
}


def _play_refusal(exc: moves.PlayError, game: Game, seat: Seat,
                  links_: dict[str, str | None]) -> Refusal:
    detail = _sentence(game, exc.row, seat.index) if exc.reason == "used" else None
    return Refusal(exc.reason, str(_MESSAGES.get(exc.reason, exc)), detail=detail, **links_)


def _choice(rules: Rules, game: Game, seat: Seat, move: str, lang: str) -> Choice | None:
    """The menu's entry for ``move``, names filled in (the game labels that move alone)."""
    choice = rules.choice(game.state, seat.index, move, lang)
    if choice is None:
        return None
    return named_choices([choice], compose.names_of(_seats(game)))[0]


def region_links(game: Game, seat: Seat, token: str, menu: list[Choice]) -> dict[str, str]:
    """Where tapping each place of the picture leads: for a region one legal move acts
    on, that move's confirm page (the link a turn mail carries); for a region several
    act on, the short list of those (``seat_region``).  Regions come from the game's
    menu (``Choice.region``); the picture draws and frames them (``svg.Canvas``)."""
    regions: dict[str, list[Choice]] = {}
    for choice in menu:
        if choice.region:
            regions.setdefault(choice.region, []).append(choice)
    return {
        region: (path_of(compose.move_url(context(), game, seat, choices[0].move))
                 if len(choices) == 1
                 else url_for("play.seat_region", token=token, r=region))
        for region, choices in regions.items()}


def table_values(game: Game, seats: list[Seat], viewer: int | None,
                 since: int = 0, in_turn: bool | None = None,
                 links: dict[str, str] | None = None, mailed: bool = False,
                 waiting: bool = True) -> dict[str, Any]:
    """What every game page shows: the view, its picture (with ``links``: the places to
    tap, ``region_links``), names, what happened since move ``since`` (with
    ``in_turn``: what seat ``viewer`` missed, ``seat_history``), who is to move (with
    ``waiting``: the seat and the game pages say whom they wait for; the confirm and the
    region pages say nothing of it, and the game is not asked).
    ``mailed``: the reader came from a turn mail, whose table (picture and words) was
    kept when it was written and read with the seats (``table_of(drawn_of=…)``): shown
    as kept, not drawn again, and its view not computed (``view`` is then None; the
    page's templates ask ``view_text`` whether a table stands)."""
    rules = get_game(game.game)
    names = compose.names_of(seats)
    values: dict[str, Any] = {
        "game": game, "rules": rules, "seats": seats, "names": names,
        "title": compose.game_title(game), "view": None, "view_text": None, "picture": None,
        "tappable": False,
        "recent": history.History(), "to_move": [],
        "result": game.result, "waiting_for": [], "free_seats": [], "open_seats": [],
        "standing": None, "headline": "", "archive_url": None,
        # the page's language: a game's template that speaks it reads it as mails give it
        "lang": i18n.current(),
    }
    if game.result:
        values["standing"] = standing(game.result, names, i18n.current())
        values["headline"] = headline(values["standing"], i18n.current())
    if game.status == Game.FINISHED:
        values["archive_url"] = compose.archive_url(context(), game)
    if game.state is None:
        # an invitation declined frees its seat: nobody is waited for there any more
        values["waiting_for"] = [s for s in seats if s.player_id is None and not s.bot
                                 and s.invite_email]
        values["free_seats"] = [s for s in seats if s.player_id is None and not s.bot
                                and not s.invite_email and not s.open_to_all]
        values["open_seats"] = [s for s in seats if s.player_id is None and s.open_to_all]
        return values
    key = picture.picture_key(game, seats, viewer, names, values["lang"])
    kept = picture.kept_table(seats[viewer], key) if mailed and not links else None
    if kept is not None:  # drawn from this very view when the mail was written
        values["picture"], values["view_text"] = kept
    else:
        values["view"] = rules.view(game.state, viewer)
        values["picture"] = picture.draw(rules, values["view"], names, values["lang"], key,
                                         links)
        values["view_text"] = rules.render_text(values["view"], names, values["lang"])
    values["tappable"] = bool(links) and 'class="target"' in (values["picture"] or "")
    values["recent"] = (
        history.history(game, viewer, since_seq=since, lang=values["lang"])
        if in_turn is None or viewer is None
        else history.seat_history(game, viewer, in_turn, lang=values["lang"]))
    if waiting and game.status == Game.ACTIVE:
        values["to_move"] = [names[s] for s in rules.to_move(game.state)]
    return values


# -- pages ---------------------------------------------------------------------


def _kept_menu(game: Game, seats: list[Seat], seat: Seat) -> list[Choice] | None:
    """The seat's menu as its turn mail listed it, where the mail kept the table as it is
    now for this page's reader (``picture.kept_choices``) in the words the game's menu
    speaks to the seat (``check_move_link`` asks it in the player's language); else
    None.  A confirm page of a mailed link mostly finds it: the game is not asked again
    for the move's entry (a Riga menu lists every legal move to find one)."""
    lang = i18n.current()
    if game.state is None or lang != seat.player.language:
        return None
    return picture.kept_choices(seat, picture.picture_key(
        game, seats, seat.index, compose.names_of(seats), lang))


@bp.get("/m/<token>")
def confirm(token: str) -> Any:
    link = load_move_link(token, drawn=True)
    game, seat = link.game, link.seat
    seats = _seats(game)
    choice = check_move_link(link, _kept_menu(game, seats, seat))
    rules = get_game(game.game)
    values = table_values(game, seats, seat.index, in_turn=seat.in_turn, mailed=True,
                          waiting=False)
    return render_template(
        "pages/confirm.html", **values, seat=seat, move=link.move, choice=choice,
        seat_url=seat_path(game, seat), secret=rules.is_secret(game.state),
        deadline_local=compose.format_local(seat.deadline, seat.player.timezone,
                                            i18n.current()),
    )


@bp.post("/m/<token>")
def confirm_post(token: str) -> Any:
    payload = _move_payload(token)
    game_id, index = _field(payload, "game"), _field(payload, "seat")
    checked: list[MoveLink] = []

    def check(game: Game, seats: list[Seat]) -> None:
        """The link's checks (``load_move_link``, then CSRF, in that order) on the rows the
        move's transaction has locked and read: the game and its seats are read once."""
        _loaded()[game.id] = seats
        game, seat = _game_and_seat(game, index)
        _check_owner(game, seat, payload)
        checked.append(MoveLink(game, seat, _field(payload, "turn"),
                                _field(payload, "menu"), _field(payload, "move")))
        csrf.check(again_url=request.path)

    def given(name: str, default: Any) -> Any:  # ``check`` refuses a missing one
        value = payload.get(name)
        return default if value is None else value

    try:
        outcome = moves.play(context(), game_id, index, given("move", ""),
                             menu_seq=given("menu", 0), turn_seq=given("turn", 0),
                             check=check, mail_later=True)
    except moves.PlayError as exc:
        if not checked:  # refused before the checks ran (no game, busy): run them now
            checked.append(load_move_link(token))
            csrf.check(again_url=request.path)
        link = checked[0]
        raise _play_refusal(exc, link.game, link.seat, link.links) from exc
    link = checked[0]
    # the seat's page (``links`` would build the game's address too, for a refusal)
    to = seat_path(link.game, link.seat)
    if to is None:  # no player sits there (a link that passed names its player): no seat
        return redirect(url_for("play.game_page", game_id=link.game.id), code=303)
    return _played_redirect(to, outcome.moves[0])


#: the cookie that tells a seat page which move its player has just played there: the
#: move's number in the game's log, for that seat page's path alone.  The page reads
#: the move's words from the log (never from the cookie: a number that names no move of
#: this seat says nothing) and drops the cookie, so the words show once.  (A flashed
#: message had the session cookie signed twice a click: by the POST that flashed it and
#: by the seat page that took it out.)
PLAYED_COOKIE = "pbem-played"


def _played_redirect(to: str, row: Move) -> Any:
    """The 303 to the seat page ``to``, which says what ``row`` played (``PLAYED_COOKIE``)."""
    response = redirect(to, code=303)
    response.set_cookie(PLAYED_COOKIE, str(row.seq), path=to, httponly=True, samesite="Lax",
                        secure=running_app().config["SESSION_COOKIE_SECURE"])
    return response


def _played_words(game: Game, seat: Seat, told: history.History, sent: str) -> str | None:
    """What the seat's player has just played, in words (``PLAYED_COOKIE``): the move
    ``sent`` names, found among the rows the seat's history read (it is the seat's newest
    move, so it mostly is), else read; None for a value that names no move of this
    seat."""
    if not (sent.isascii() and sent.isdigit() and len(sent) <= 10):
        return None
    seq = int(sent)
    row = next((r for r in told.log if r.seq == seq), None) if told.seat == seat.index else None
    if row is None:
        row = Move.get_or_none(Move.game == game.id, Move.seq == seq)
    if row is None or row.seat != seat.index:
        return None
    return _sentence(game, row, seat.index)


def _menu(game: Game, seat: Seat, seats: list[Seat]) -> list[Choice]:
    """The seat's choices, names filled in: none when the game is not running, or when
    the seat's turn has not begun (bots' moves before it that a busy server left to the
    tick, ``Game.bots_pending``: a button of that turn would only be refused)."""
    if game.status != Game.ACTIVE or not seat.in_turn:
        return []
    return named_choices(get_game(game.game).menu(game.state, seat.index,
                                                  seat.player.language),
                         compose.names_of(seats))


@bp.get("/s/<token>")
def seat_page(token: str) -> Any:
    game, seat = load_seat_link(token, note=True)
    seats = _seats(game)
    menu = _menu(game, seat, seats)
    values = table_values(game, seats, seat.index, in_turn=seat.in_turn,
                          links=region_links(game, seat, token, menu))
    takeback = None
    if game.status == Game.ACTIVE:
        candidate = moves.takeback_candidate(game, seat.index, values["recent"])
        if candidate is not None:
            takeback = seat_text(history.said(candidate, seat.index, values["lang"]),
                                 values["names"])
    left = clock.remaining(seat, utcnow()) if menu else None
    messages = get_flashed_messages(with_categories=True)
    played = request.cookies.get(PLAYED_COOKIE)
    if played is not None:
        said = _played_words(game, seat, values["recent"], played)
        if said is not None:
            messages = [*messages, ("played", said)]
    page = render_template(
        "pages/seat.html", **values, seat=seat, me=seat.player, menu=menu,
        menu_groups=_grouped(menu), takeback=takeback,
        token=token, deadline_local=compose.format_local(seat.deadline, seat.player.timezone,
                                                         i18n.current()),
        time_left=clock.format_duration(left) if left is not None else None,
        clock_policy=_policy_words(game.clock) if game.clock else None,
        messages=messages,
        # the creator of an open game sees who has answered and fills the seats left
        seats_to_fill=game.status == Game.OPEN and seat.player_id == game.creator_id,
        games_url=path_of(compose.my_games_url(context(), seat.player)),
        talk_max=talk.MAX_LENGTH,
        note=notes.read(seat), note_max=notes.MAX_LENGTH,
    )
    if played is None:
        return page
    response = make_response(page)
    response.delete_cookie(PLAYED_COOKIE, path=request.script_root + request.path,
                           httponly=True, samesite="Lax",
                           secure=running_app().config["SESSION_COOKIE_SECURE"])
    return response


@bp.get("/s/<token>/at")
def seat_region(token: str) -> Any:
    """The moves one tapped place of the picture stands for: a short list to choose from,
    with the table beside it; nothing to play there (any more) leads back to the seat."""
    game, seat = load_seat_link(token)
    seats = _seats(game)
    region = request.args.get("r", "")[:200]
    menu = _menu(game, seat, seats)
    here = [choice for choice in menu if region and choice.region == region]
    if not here:
        flash(_("Nothing to play there now: choose on your seat page."), "refused")
        return redirect(url_for("play.seat_page", token=token), code=303)
    values = table_values(game, seats, seat.index, in_turn=seat.in_turn,
                          links=region_links(game, seat, token, menu), waiting=False)
    return render_template(
        "pages/region.html", **values, seat=seat, me=seat.player, token=token,
        choices=here, messages=get_flashed_messages(with_categories=True))


#: a game's clock in words by the clock and the language (``_policy_words``); a game's
#: clock is one of a few, and every seat page says it
_POLICY_WORDS: dict[tuple[str, str], str] = {}


def _policy_words(policy: dict[str, Any]) -> str:
    """``clock.describe_policy`` of ``policy`` in the page's language, said once per
    process (its words and numbers depend on nothing else)."""
    key = (json.dumps(policy, sort_keys=True), i18n.current())
    said = _POLICY_WORDS.get(key)
    if said is None:
        if len(_POLICY_WORDS) >= 256:
            _POLICY_WORDS.clear()
        said = _POLICY_WORDS[key] = clock.describe_policy(policy)
    return said


def _grouped(menu: list[Choice]) -> list[tuple[str, list[Choice]]]:
    """The menu by group, in the order the groups first appear."""
    groups: dict[str, list[Choice]] = {}
    for choice in menu:
        groups.setdefault(choice.group, []).append(choice)
    return list(groups.items())


#: the largest number a form's counter may carry (far beyond any game's, and within
#: every database's integer column)
_MAX_COUNTER = 2**31 - 1


def _counter_field(name: str) -> int:
    """A whole number 0…2³¹-1 from the form, or a 400 page that says what to do."""
    raw = request.form.get(name, "")
    if raw.isascii() and raw.isdigit() and len(raw) <= 10 and int(raw) <= _MAX_COUNTER:
        return int(raw)
    raise Refusal("bad-form", _("The form did not say which menu it came from: please "
                                "open your seat page again and choose from there."))


@bp.post("/s/<token>/play")
def seat_play(token: str) -> Any:
    game, seat = load_seat_link(token)
    here = url_for("play.seat_page", token=token)
    csrf.check(again_url=here)
    menu_seq = _counter_field("n")
    turn_seq = _counter_field("t")
    move = request.form.get("move", "")[:200]
    links_ = {"game_url": url_for("play.game_page", game_id=game.id), "seat_url": here}
    try:
        outcome = moves.play(context(), game.id, seat.index, move, menu_seq=menu_seq,
                             turn_seq=turn_seq, mail_later=True)
    except moves.PlayError as exc:
        raise _play_refusal(exc, game, seat, links_) from exc
    return _played_redirect(here, outcome.moves[0])


@bp.post("/s/<token>/takeback")
def seat_takeback(token: str) -> Any:
    game, seat = load_seat_link(token)
    here = url_for("play.seat_page", token=token)
    csrf.check(again_url=here)
    menu_seq = _counter_field("n")
    try:
        removed = moves.take_back(context(), game.id, seat.index, menu_seq=menu_seq)
    except moves.PlayError as exc:
        raise Refusal(exc.reason, str(exc), seat_url=here,
                      game_url=url_for("play.game_page", game_id=game.id)) from exc
    step = seat_text(history.said(removed, seat.index, i18n.current()),
                     compose.names_of(_seats(game)))
    flash(_("You took back your step: %(step)s.", step=step), "took-back")
    return redirect(here, code=303)


#: the refusal reason of each ``talk.TalkError`` reason
_TALK_REFUSALS = {"too-long": "bad-form", "talk-limit": "limit"}


@bp.post("/s/<token>/talk")
def seat_talk(token: str) -> Any:
    """Table talk: a message from this seat to the table (``pbem.lifecycle.talk``)."""
    game, seat = load_seat_link(token)
    here = url_for("play.seat_page", token=token)
    csrf.check(again_url=here)
    raw = request.form.get("text", "")
    try:
        with write_transaction():
            talk.post(context(), Game.get_by_id(game.id), seat, raw)
    except talk.TalkError as exc:
        message = str(exc)
        if exc.retry_at is not None:
            message += " " + _("You can write again from %(when)s.", when=compose.format_local(
                exc.retry_at, seat.player.timezone, i18n.current()))
        raise Refusal(_TALK_REFUSALS.get(exc.reason, exc.reason), message, seat_url=here,
                      game_url=url_for("play.game_page", game_id=game.id),
                      retry_after=refusal_seconds(exc.retry_at)
                      if exc.retry_at is not None else None) from exc
    flash(_("Your message is on the table."), "talk")
    return redirect(here, code=303)


@bp.post("/s/<token>/new-links")
def seat_new_links(token: str) -> Any:
    game, seat = load_seat_link(token)
    csrf.check(again_url=url_for("play.seat_settings", token=token))
    create.renew_links(context(), seat.player_id)
    return render_template("pages/new_links.html", title=compose.game_title(game),
                           me=seat.player, game=game)


@bp.get("/s/<token>/settings")
def seat_settings(token: str) -> Any:
    game, seat = load_seat_link(token)
    return render_template("pages/settings.html", game=game, seat=seat, me=seat.player,
                           token=token, title=compose.game_title(game), timezones=timezones(),
                           languages=LANGUAGES, mail_kinds=[(k, _(kinds.LABELS[k]))
                                                            for k in kinds.SWITCHABLE])


def chosen_language(current: str, **links: str | None) -> str:
    """The mail language a form chose, or ``current`` when it has no such field.

    Only a language we have mails in may be chosen: anything else would be stored and
    then silently read as English, so it is refused like any field filled in wrong.
    """
    lang = request.form.get("language")
    if lang is None:
        return current
    if lang not in LANGUAGES:
        raise Refusal("bad-form", _("%(lang)s is not a language our mails are written in; "
                                    "choose one of: %(languages)s.", lang=repr(lang[:40]),
                                    languages=", ".join(LANGUAGES.values())), **links)
    return lang


@bp.post("/s/<token>/settings")
def seat_settings_post(token: str) -> Any:
    _game, seat = load_seat_link(token)
    here = url_for("play.seat_page", token=token)
    csrf.check(again_url=here)
    player = seat.player
    tz = request.form.get("timezone", player.timezone)
    if not is_zone(tz):
        raise Refusal("bad-form", _("%(tz)s is not a time zone this server knows.",
                                    tz=repr(tz)),
                      seat_url=here)
    player.language = chosen_language(player.language, seat_url=here)
    player.timezone = tz
    talk_was_on = player.takes(kinds.TALK)
    player.mail_enabled = request.form.get("mail") == "on"
    # each kind of mail has its switch (``mail.kinds``); "mail" above stops them all.
    # An unticked box sends nothing: the form says that it lists them ("kinds")
    if request.form.get("kinds") == "listed":
        player.mail_off = " ".join(k for k in kinds.SWITCHABLE
                                   if request.form.get(f"mail-{k}") != "on")
    player.save()
    if player.takes(kinds.TALK) and not talk_was_on:
        talk.rewait(Seat.player == player.id)  # table talk that waited while mail was off
    i18n.reader(player.language)  # the message reads in the language just chosen
    flash(_("Your settings are saved."), "saved")
    return redirect(here, code=303)


def listed_game(game_id: int) -> Game:
    """The game a visitor may follow or join; 404 for none, or one still held for its
    creator's confirmation."""
    game = Game.get_or_none(Game.id == game_id)
    if game is None or game.status == Game.HELD:
        abort(404)
    return game


@bp.get("/g/<int:game_id>")
def game_page(game_id: int) -> Any:
    game = Game.get_or_none(Game.id == game_id)
    if game is None:
        abort(404)
    seats = _seats(game)
    # the public page retells the current round and the one before
    first_round = max(0, get_game(game.game).round(game.state) - 1) if game.state else 0
    values = table_values(game, seats, SPECTATOR, since=history.since_round(game, first_round))
    return render_template("pages/game.html", **values)


@bp.post("/s/<token>/note")
def seat_note(token: str) -> Any:
    """The seat's private note (``pbem.lifecycle.notes``): saved from the form's button
    (then back to the seat page), or by ``static/note.js`` while its player types (then
    no page: 204, or the refusal's status)."""
    _game, seat = load_seat_link(token)
    here = url_for("play.seat_page", token=token)
    csrf.check(again_url=here)
    try:
        with write_transaction():
            notes.save(seat, request.form.get("text", ""))
    except notes.NoteError as exc:
        raise Refusal(exc.reason, str(exc), seat_url=here) from exc
    if request.headers.get("X-Requested-With") == "note.js":
        return "", 204
    flash(_("Your note is saved."), "saved")
    return redirect(here + "#note", code=303)
