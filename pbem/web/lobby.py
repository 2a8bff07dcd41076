"""The way into a game: home page, creating a game, accepting an invitation, unsubscribing.

Nobody has a password.  Whoever creates a game here names themselves by name and
address; the game is held, mailing nothing but a request to confirm, until a click
from that mailbox starts it (``create.confirm_game``), whatever the address did
before, and the seat link goes only there.  A player who is proven already starts
games from their all-your-games page (``mine``).  Invited players prove their
address by the link mailed to it.
"""

from __future__ import annotations

import math
from typing import Any

from flask import (
    Blueprint,
    abort,
    current_app,
    flash,
    redirect,
    render_template,
    request,
    send_from_directory,
    url_for,
)

from pbem import i18n, links
from pbem.games import UnknownGameError, all_games, get_game, search
from pbem.games.protocol import OptionError, Rules
from pbem.i18n import DEFAULT, LANGUAGES
from pbem.i18n import gettext as _
from pbem.lifecycle import create, moves, talk
from pbem.mail import compose, kinds
from pbem.models import Game, Player, Seat, write_transaction
from pbem.time import clock
from pbem.web import context, csrf
from pbem.web.play import _field, _payload, chosen_language, path_of, seat_path
from pbem.web.refusal import N_, Refusal, refusal_seconds
from pbem.web.zones import is_zone, timezones

bp = Blueprint("lobby", __name__)

#: what a seat field may say instead of an address
BOT_WORDS = {"", "bot"}
#: what a seat field says for a seat open to anyone (in either language of the form)
OPEN_WORDS = {"open", "offen"}


@bp.get("/favicon.ico")
def favicon() -> Any:
    """Browsers ask for it whatever a page links (the archive's pages link none): the
    site's SVG icon rather than a 404 in every log."""
    return send_from_directory(current_app.static_folder, "favicon.svg",
                               mimetype="image/svg+xml", max_age=86_400)


@bp.get("/")
def home() -> Any:
    recent = (Game.select().where(Game.status.in_([Game.ACTIVE, Game.FINISHED]))
              .order_by(Game.id.desc()).limit(10))
    return render_template("pages/home.html", games=all_games(), recent=list(recent),
                           title_of=compose.game_title)


@bp.get("/healthz")
def health() -> Any:
    Game.select(Game.id).limit(1).exists()  # the database answers
    return {"ok": True}


# -- a new game -------------------------------------------------------------------


@bp.get("/new")
def new_game_list() -> Any:
    games = all_games()
    if len(games) == 1:
        return redirect(url_for("lobby.new_game", name=games[0].name))
    return render_template("pages/new_list.html", games=games)


def _rules_or_404(name: str) -> Rules:
    try:
        return get_game(name)
    except UnknownGameError:
        abort(404)


def bot_level_words() -> list[tuple[str, str]]:
    """The bot levels (``pbem.games.search.LEVELS``) as the new-game form offers them."""
    words = {"easy": _("easy: the game's simple bot"),
             "normal": _("normal: thinks a tenth of a second a move"),
             "strong": _("strong: thinks half a second a move")}
    return [(level, words.get(level, level)) for level in search.LEVELS]


def _form_defaults(rules: Rules) -> dict[str, Any]:
    cfg = context().config
    form: dict[str, Any] = {
        "name": "", "email": "", "timezone": "UTC", "players": str(rules.min_players),
        "clock": "per_move",
        "days": cfg.get("clock", "days_per_move"),
        "initial_days": str(clock.BANK_DEFAULTS["initial_days"]),
        "bonus_days": str(clock.BANK_DEFAULTS["bonus_days"]),
        "reminders": cfg.get("clock", "reminders"),
        "grace_hours": cfg.get("clock", "grace_hours"),
        "timeouts_before_bot": cfg.get("clock", "timeouts_before_bot"),
        "after_timeouts": cfg.get("clock", "after_timeouts").strip(),
    }
    for opt in rules.options:
        form[f"opt-{opt.name}"] = str(opt.default)
    for i in range(1, rules.max_players):
        form[f"seat-{i}"] = ""
        form[f"level-{i}"] = search.default_level(rules)
    return form


def _render_new(rules: Rules, form: dict[str, Any], errors: list[str], status: int = 200,
                me: Player | None = None, token: str | None = None) -> Any:
    """The new-game form; with ``me`` (and the ``token`` of their all-your-games link) the
    form of a player who is known already, which asks nothing about them."""
    action = (url_for("mine.new_game_post", token=token, name=rules.name) if me is not None
              else url_for("lobby.new_game_post", name=rules.name))
    return render_template("pages/new_game.html", rules=rules, form=form, errors=errors,
                           bot_levels=bot_level_words(),
                           timezones=timezones(), action=action, me=me,
                           games_link=url_for("mine.my_games", token=token) if me else None,
                           ), status


@bp.get("/new/<name>")
def new_game(name: str) -> Any:
    rules = _rules_or_404(name)
    return _render_new(rules, _form_defaults(rules), [])


def _parse_new_game(rules: Rules, form: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """The checked values of the new-game form, or the errors to show beside it."""
    errors: list[str] = []
    parsed: dict[str, Any] = {}
    parsed["name"] = create.clean_name(form["name"]) if form["name"].strip() else ""
    if not parsed["name"]:
        errors.append(_("Please give your name: the other players see it."))
    try:
        parsed["email"] = create.normalise_email(form["email"])
    except ValueError:
        errors.append(_("Please give your email address: your seat link is mailed there."))
    if not is_zone(form["timezone"]):
        errors.append(_("Please choose a time zone from the list."))
    try:
        players = int(form["players"])
    except ValueError:
        players = 0
    if not rules.min_players <= players <= rules.max_players:
        errors.append(_("%(game)s is for %(min)s to %(max)s players.", game=rules.title,
                        min=rules.min_players, max=rules.max_players))
        players = rules.min_players
    seats: list[str | None] = []
    levels: list[str | None] = []  # a level for each bot seat; an invited seat has none
    for i in range(1, players):
        raw = form.get(f"seat-{i}", "").strip()
        if raw.lower() in BOT_WORDS:
            level = form.get(f"level-{i}", search.default_level(rules))
            if level not in search.LEVELS:
                errors.append(_("Seat %(number)s: choose how strongly its bot plays from the "
                                "list.", number=i + 1))
            seats.append(None)
            levels.append(level)
            continue
        if raw.lower() in OPEN_WORDS:  # anyone may take it from the lobby's open games
            seats.append(create.OPEN_SEAT)
            levels.append(None)  # one level per seat, so that seat and level keep in step
            continue
        try:
            seats.append(create.normalise_email(raw))
            levels.append(None)
        except ValueError:
            errors.append(_("Seat %(number)s: enter an email address, 'bot' (or leave it "
                            "empty) for a computer player, or 'open' for anyone to join.",
                            number=i + 1))
    parsed["seats"] = seats
    parsed["bot_levels"] = levels
    addresses = [a for a in seats if a not in (None, create.OPEN_SEAT)] + [parsed.get("email")]
    if len(set(addresses)) != len(addresses):
        errors.append(_("Each player can take only one seat: an address appears twice."))
    options = {}
    for opt in rules.texts(i18n.current()).options:
        raw = form.get(f"opt-{opt.name}", str(opt.default))
        match = [c for c in opt.choices if str(c) == raw]
        if not match:
            errors.append(_("%(option)s: choose one of %(choices)s.", option=opt.label,
                            choices=", ".join(map(str, opt.choices))))
        else:
            options[opt.name] = match[0]
    parsed["options"] = options
    parsed["clock"] = _parse_clock(form, errors)
    return parsed, errors


#: the clock form's number fields and how a mistake in one is named
_CLOCK_NUMBERS = {
    "per_move": {"days": N_("Days per move")},
    "bank": {"initial_days": N_("Time bank: days at the start"),
             "bonus_days": N_("Time bank: days added per move")},
}
_LADDER_NUMBERS = {"grace_hours": N_("Grace period"),
                   "timeouts_before_bot": N_("Timeouts in a row")}


def _number(raw: str) -> int | float:
    value = float(raw)
    if not math.isfinite(value):  # float() reads "nan" and "inf"
        raise ValueError(raw)
    return int(value) if value.is_integer() else value


def _parse_clock(form: dict[str, Any], errors: list[str]) -> dict[str, Any]:
    """The clock policy the form asks for; ``clock.resolve_policy`` checks its ranges."""
    kind = form["clock"]
    if kind not in _CLOCK_NUMBERS:
        errors.append(_("Clock: choose days per move or a time bank."))
        return {}
    policy: dict[str, Any] = {"kind": kind, "reminders": form["reminders"],
                              "after_timeouts": form["after_timeouts"]}
    for key, label in {**_CLOCK_NUMBERS[kind], **_LADDER_NUMBERS}.items():
        try:
            policy[key] = _number(form[key])
        except ValueError:
            errors.append(_("%(field)s: give a number.", field=_(label)))
    return policy


def filled_form(rules: Rules, **fixed: str) -> dict[str, Any]:
    """The new-game form as posted (each field cut to 300 characters), ``fixed`` fields
    as given whatever was posted."""
    form = _form_defaults(rules)
    for key in form:
        form[key] = request.form.get(key, form[key])[:300]
    form.update(fixed)
    return form


def retry_after(exc: create.LimitError) -> dict[str, str]:
    """The ``Retry-After`` header of a 429 for ``exc``: seconds until the limit eases."""
    return {"Retry-After": str(refusal_seconds(exc.retry_at))}


@bp.post("/new/<name>")
def new_game_post(name: str) -> Any:
    rules = _rules_or_404(name)
    csrf.check(again_url=url_for("lobby.new_game", name=name))
    form = filled_form(rules)
    parsed, errors = _parse_new_game(rules, form)
    if errors:
        return _render_new(rules, form, errors, 400)
    try:
        # one transaction: a game refused for its options or clock leaves no new player
        with write_transaction():
            creator = Player.get_or_none(Player.email == parsed["email"]) or \
                create.get_or_create_player(parsed["email"], parsed["name"],
                                            timezone=form["timezone"])
            # nothing here proves the address is the asker's: the game is held
            game = create.create_game(context(), rules.name, creator, parsed["seats"],
                                       options=parsed["options"],
                                       clock_policy=parsed["clock"],
                                       client_key=client_key(), held=True,
                                       bot_levels=parsed["bot_levels"])
    except create.LimitError as exc:
        return (*_render_new(rules, form, [str(exc)], 429), retry_after(exc))
    except OptionError as exc:
        return _render_new(rules, form, [str(exc)], 400)
    return redirect(url_for("lobby.created", game_id=game.id), code=303)


def client_key() -> str:
    """The client's network address as a keyed hash: enough to count its games per day,
    nothing a reader of the database could turn back into the address."""
    import hashlib
    import hmac

    secret = context().signer.secret_keys[-1].encode()
    address = (request.remote_addr or "unknown").encode()
    return hmac.new(secret, address, hashlib.sha256).hexdigest()[:32]


@bp.get("/created/<int:game_id>")
def created(game_id: int) -> Any:
    game = Game.get_or_none(Game.id == game_id)
    if game is None:
        abort(404)
    seats = Seat.of(game)
    held = any(s.invite_email and s.invited_at is None and s.player_id is None for s in seats)
    # the seat link goes only to the mailbox: handing it out here would let anyone who
    # types an address act as its owner
    return render_template("pages/created.html", game=game, seats=seats,
                           names=compose.names_of(seats), title=compose.game_title(game),
                           held=held, held_days=create.HELD_DAYS)


# -- confirming an address; never mail me again ------------------------------------------


def _confirm_player(token: str) -> Player:
    payload = _payload(links.CONFIRM, token, 30 * 86_400)
    player = Player.get_or_none(Player.id == _field(payload, "player"))
    if player is None:
        raise Refusal("forged", _("This link names no player of this server."))
    i18n.reader(player.language)
    return player


@bp.get("/c/<token>")
def confirm_address(token: str) -> Any:
    player = _confirm_player(token)
    held = create.held_games(player)
    return render_template("pages/confirm_address.html", player=player, done=None, held=held,
                           title_of=compose.game_title, tables=_tables(held),
                           held_days=create.HELD_DAYS)


def _tables(games: list[Game]) -> dict[int, list[str]]:
    """Who sits at each game's table, as its pages name them."""
    return {g.id: compose.names_of(Seat.of(g)) for g in games}


@bp.post("/c/<token>")
def confirm_address_post(token: str) -> Any:
    player = _confirm_player(token)
    csrf.check(again_url=request.path)
    raw = request.form.get("game")
    if raw is None:  # an address with no held game: its open games' invitations go out
        sent = create.confirm(context(), player.id)
        return render_template("pages/confirm_address.html", player=player, done=sent,
                               game=None)
    game_id = int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 12 else 0
    try:
        game = create.confirm_game(context(), player.id, game_id)
    except create.LimitError as exc:
        raise Refusal("limit", str(exc), again_url=request.path,
                      retry_after=refusal_seconds(exc.retry_at)) from exc
    except moves.PlayError as exc:
        raise Refusal.from_play(exc, again_url=request.path) from exc
    seat = Seat.get(Seat.game == game, Seat.index == 0)
    # the click came from the mailbox: this browser may have the seat and all the games
    return render_template("pages/confirm_address.html", player=player, done=0, game=game,
                           title=compose.game_title(game), seat_link=seat_path(game, seat),
                           games_link=path_of(compose.my_games_url(context(), player)))


def _never_address(token: str) -> str:
    payload = _payload(links.NEVER, token)
    return _field(payload, "email")


@bp.get("/never/<token>")
def never(token: str) -> Any:
    return render_template("pages/never.html", address=_never_address(token), done=False)


@bp.post("/never/<token>")
def never_post(token: str) -> Any:
    address = _never_address(token)
    one_click = _one_click_or_form()
    try:
        create.never_mail(address)
    except ValueError as exc:
        raise Refusal("forged", _("This link names no address we could mail.")) from exc
    if one_click:
        return _("You will get no more mail from us.") + "\n", 200, {
            "Content-Type": "text/plain; charset=utf-8"}
    return render_template("pages/never.html", address=address, done=True)


# -- invitations ---------------------------------------------------------------------


def _invite(token: str) -> tuple[Game, Seat, str]:
    days = context().config.getint("links", "invite_link_days")
    payload = _payload(links.INVITE, token, days * 86_400)
    game = Game.get_or_none(Game.id == _field(payload, "game"))
    if game is None:
        raise Refusal("no-game", _("There is no such game on this server (any more)."))
    seat = Seat.get_or_none(Seat.game == game, Seat.index == _field(payload, "seat"))
    address = _field(payload, "email")
    known = Player.get_or_none(Player.email == address)
    if known is not None:  # someone who plays here already reads their own language
        i18n.reader(known.language)
    game_url = url_for("play.game_page", game_id=game.id)
    if seat is None or seat.invite_email != address:
        raise Refusal("withdrawn", _("This invitation is no longer open."), game_url=game_url)
    if seat.player_id is not None and seat.player.email != address:
        raise Refusal("taken", _("Someone else has taken this seat."), game_url=game_url)
    if game.status not in (Game.OPEN, Game.ACTIVE):
        raise Refusal("not-active", _("This game is not running."), game_url=game_url)
    return game, seat, address


@bp.get("/i/<token>")
def invite(token: str) -> Any:
    game, seat, address = _invite(token)
    player = Player.get_or_none(Player.email == address)
    seats = Seat.of(game)
    joined = seat.player_id is not None
    form = {"name": player.name if player else address.split("@")[0],
            "timezone": player.timezone if player else "UTC",
            # a newcomer's browser says which language they read best
            "language": player.language if player else
            request.accept_languages.best_match(list(LANGUAGES), default=DEFAULT)}
    return render_template(
        "pages/invite.html", game=game, seat=seat, rules=get_game(game.game), token=token,
        title=compose.game_title(game), names=compose.names_of(seats), seats=seats,
        host=game.creator.name if game.creator else _("A player"), address=address,
        joined=joined, seat_link=seat_path(game, seat) if joined else None,
        clock=clock.describe_policy(game.clock) if game.clock else "",
        form=form, timezones=timezones(), languages=LANGUAGES, errors=[],
    )


def player_from_form(address: str) -> Player:
    """The player of ``address`` with the name, time zone and language the form of a
    link mailed to that address gave: the link's holder may set them (an invitation, a
    join link)."""
    name = create.clean_name(request.form.get("name", "")[:300])
    tz = request.form.get("timezone", "UTC")
    if not is_zone(tz):
        tz = "UTC"
    known = Player.get_or_none(Player.email == address)
    lang = chosen_language(known.language if known else DEFAULT, again_url=request.path)
    player = create.get_or_create_player(address, name, timezone=tz, language=lang)
    if (player.name, player.timezone, player.language) != (name, tz, lang):
        player.name, player.timezone, player.language = name, tz, lang
        player.save()
    return player


@bp.post("/i/<token>")
def invite_post(token: str) -> Any:
    game, seat, address = _invite(token)
    csrf.check(again_url=request.path)
    player = player_from_form(address)
    try:
        create.accept_invite(context(), game, seat, player)
    except moves.PlayError as exc:
        raise Refusal.from_play(exc, game_url=url_for("play.game_page",
                                                      game_id=game.id)) from exc
    game = Game.get_by_id(game.id)
    seat = Seat.get_by_id(seat.id)
    i18n.reader(player.language)
    if game.status == Game.ACTIVE:
        flash(_("You have joined; the game has started."), "joined")
    else:
        # the seat page's status says when the game starts: said once, not twice
        flash(_("You have joined."), "joined")
    return redirect(seat_path(game, seat), code=303)


@bp.post("/i/<token>/decline")
def invite_decline(token: str) -> Any:
    game, seat, address = _invite(token)
    csrf.check(again_url=url_for("lobby.invite", token=token))
    try:
        create.decline_invite(context(), game.id, seat.index, address)
    except moves.PlayError as exc:
        raise Refusal.from_play(exc, game_url=url_for("play.game_page",
                                                      game_id=game.id)) from exc
    host = game.creator.name if game.creator else _("The host")
    return render_template("pages/declined.html", title=compose.game_title(game), host=host,
                           never_url=None if Player.get_or_none(Player.email == address)
                           else path_of(compose.never_url(context(), address)))


# -- unsubscribe -------------------------------------------------------------------


def _one_click_or_form() -> bool:
    """Whether this POST is a mail provider's one-click unsubscribe (RFC 8058), which
    comes with no cookie (the signed link proves it); any other POST is our own form
    and must carry its CSRF token."""
    one_click = request.form.get("List-Unsubscribe") == "One-Click"
    if not one_click:
        csrf.check(again_url=request.path)
    return one_click


def _player(token: str) -> tuple[Player, str | None]:
    """The player an unsubscribe link names, and the kind of mail it stops (``None``:
    all mail; a link mailed before kinds had lists of their own)."""
    payload = _payload(links.UNSUBSCRIBE, token)
    player = Player.get_or_none(Player.id == _field(payload, "player"))
    if player is None:
        raise Refusal("forged", _("This link names no player of this server."))
    i18n.reader(player.language)
    kind = payload.get("kind")
    return player, kind if kind in kinds.SWITCHABLE else None


def _unsubscribe_page(player: Player, kind: str | None, done: str | None) -> Any:
    return render_template("pages/unsubscribe.html", player=player, kind=kind, done=done,
                           label=_(kinds.LABELS[kind]) if kind else None,
                           on=player.takes(kind) if kind else player.mail_enabled)


@bp.get("/u/<token>")
def unsubscribe(token: str) -> Any:
    return _unsubscribe_page(*_player(token), done=None)


@bp.post("/u/<token>")
def unsubscribe_post(token: str) -> Any:
    """Stop (or start again) the kind of mail the link names, or all mail: a mail
    provider's one-click POST needs no login and no cookie (RFC 8058)."""
    player, kind = _player(token)
    one_click = _one_click_or_form()
    enable = not one_click and request.form.get("action") == "resubscribe"
    if kind is None:
        Player.update(mail_enabled=enable).where(Player.id == player.id).execute()
    else:
        switch_kind(player.id, kind, enable)
    if enable and kind in (None, kinds.TALK):
        talk.rewait(Seat.player == player.id)  # table talk that waited while mail was off
    if one_click:
        return _("Unsubscribed.") + "\n", 200, {"Content-Type": "text/plain; charset=utf-8"}
    return _unsubscribe_page(Player.get_by_id(player.id), kind, "on" if enable else "off")


def switch_kind(player_id: int, kind: str, on: bool) -> None:
    """Switch one kind of mail on or off for the player, in one write."""
    with write_transaction():
        player = Player.get_by_id(player_id)
        off = [k for k in player.mail_off.split() if k != kind and k in kinds.SWITCHABLE]
        if not on:
            off.append(kind)
        Player.update(mail_off=" ".join(off)).where(Player.id == player_id).execute()
