"""A player's own pages: all their games, a rematch, and the creator's seats of an open game.

``/me/<token>``                      every game of the player (token: ``links.GAMES``
                                     with the player and their ``link_version``, so
                                     "new links" revokes it), linked from every mail
``/me/<token>/rematch/<id>``         POST: the same players, options and clock again
``/me/<token>/new/<game>``           a new game, created as this player: the link proves
                                     the address, so it needs no confirmation
``/s/<token>/seat/<i>/invite``       POST: the creator invites someone else to a seat
                                     nobody has taken
``/s/<token>/seat/<i>/bot``          POST: the creator gives that seat to a bot
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from babel.numbers import format_decimal
from flask import (
    Blueprint,
    flash,
    get_flashed_messages,
    redirect,
    render_template,
    request,
    url_for,
)
from peewee import JOIN

from pbem import i18n, links
from pbem.games import all_games, get_game
from pbem.games.protocol import OptionError
from pbem.i18n import gettext as _
from pbem.i18n import ngettext
from pbem.lifecycle import create, moves
from pbem.mail import compose
from pbem.models import Game, Player, Rating, RatingChange, Seat, utcnow
from pbem.time import clock
from pbem.web import context, csrf
from pbem.web.lobby import (
    _parse_new_game,
    _render_new,
    _rules_or_404,
    client_key,
    filled_form,
    retry_after,
)
from pbem.web.play import _field, _payload, load_seat_link, path_of, seat_path
from pbem.web.refusal import Refusal, refusal_seconds

bp = Blueprint("mine", __name__)


def games_path(player: Player) -> str:
    return path_of(compose.my_games_url(context(), player))


def _player(token: str) -> Player:
    payload = _payload(links.GAMES, token)
    player = Player.get_or_none(Player.id == _field(payload, "player"))
    if player is None:
        raise Refusal("forged", _("This link names no player of this server."))
    i18n.reader(player.language)  # the page speaks the player's language
    if player.link_version != _field(payload, "version"):
        raise Refusal("revoked", _("Newer links have been mailed to you since this one; "
                                   "please use the link from your latest mail."))
    return player


@dataclass
class Entry:
    """One game of the player as the list shows it."""

    game: Game
    seat: Seat
    title: str
    names: list[str]
    seat_link: str | None
    #: "your move", "waiting for …", "waiting for players to join"…
    status: str = ""
    my_turn: bool = False
    deadline_local: str = ""
    left: str = ""
    #: finished: the result in words, and the rematch if there is one
    result: str = ""
    mine: str = ""
    rematch: Game | None = None
    rematch_link: str | None = None
    #: a finished game's page in the archive (there once the next tick has built it)
    archive_link: str | None = None
    others: list[str] = field(default_factory=list)
    #: what the finished game did to the player's rating (None: not rated)
    rating: RatingChange | None = None


def _ordinal(n: int) -> str:
    if i18n.current() == "de":
        return f"{n}."
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _entries(player: Player) -> tuple[list[Entry], list[Entry], list[Entry]]:
    """The player's games: running, waiting to start, finished (newest first each)."""
    mine = list(Seat.select(Seat, Game).join(Game)
                # a held game is not theirs until a click from their mailbox: anyone
                # may have typed their address
                .where(Seat.player == player.id,
                       Game.status.not_in((Game.ABORTED, Game.HELD)))
                .order_by(Game.id.desc()))
    ids = [s.game_id for s in mine]
    by_game: dict[int, list[Seat]] = {}
    if ids:
        for seat in (Seat.select(Seat, Player).join(Player, JOIN.LEFT_OUTER)
                     .where(Seat.game.in_(ids)).order_by(Seat.game, Seat.index)):
            by_game.setdefault(seat.game_id, []).append(seat)
    rematches = {g.rematch_of: g for g in Game.select().where(Game.rematch_of.in_(ids))} \
        if ids else {}
    now = utcnow()
    running, waiting, finished = [], [], []
    for seat in mine:
        game = seat.game
        seats = by_game.get(game.id, [])
        seat.player = player  # the link is made for them
        names = compose.names_of(seats)
        entry = Entry(game=game, seat=seat, title=compose.game_title(game), names=names,
                      seat_link=seat_path(game, seat),
                      others=[n for s, n in zip(seats, names, strict=True)
                              if s.index != seat.index])
        if game.status == Game.OPEN:
            missing = sum(1 for s in seats if s.player_id is None and not s.bot)
            entry.status = ngettext("Waiting for %(num)d more player to join",
                                    "Waiting for %(num)d more players to join", missing)
            waiting.append(entry)
        elif game.status == Game.ACTIVE:
            _running(entry, game, seat, names, now, player)
            running.append(entry)
        else:
            _finished(entry, game, seat, names, player)
            entry.rematch = rematches.get(game.id)
            if entry.rematch is not None:
                again = Seat.get_or_none(Seat.game == entry.rematch, Seat.player == player.id)
                entry.rematch_link = (seat_path(entry.rematch, again) if again is not None
                                      else url_for("play.game_page", game_id=entry.rematch.id))
            finished.append(entry)
    if finished:
        for change in RatingChange.select().where(
                RatingChange.game.in_([e.game.id for e in finished]),
                RatingChange.player == player.id):
            for entry in finished:
                if entry.game.id == change.game_id and entry.seat.index == change.seat:
                    entry.rating = change
    running.sort(key=lambda e: (not e.my_turn, e.seat.deadline or now, -e.game.id))
    return running, waiting, finished


def _running(entry: Entry, game: Game, seat: Seat, names: list[str], now: Any,
             player: Player) -> None:
    to_move = get_game(game.game).to_move(game.state) if game.state else []
    entry.my_turn = seat.index in to_move and not seat.bot
    if entry.my_turn:
        entry.status = _("Your move")
        entry.deadline_local = compose.format_local(seat.deadline, player.timezone,
                                                    i18n.current())
        left = clock.remaining(seat, now)
        entry.left = clock.format_duration(left) if left is not None else ""
    else:
        waiting_for = [names[i] for i in to_move if i != seat.index]
        if seat.index in to_move:  # a bot plays their seat after timeouts
            entry.status = (_("A bot plays your seat; waiting for %(names)s",
                              names=", ".join(waiting_for)) if waiting_for
                            else _("A bot plays your seat; waiting"))
        else:
            entry.status = (_("Waiting for %(names)s", names=", ".join(waiting_for))
                            if waiting_for else _("Waiting"))


def _finished(entry: Entry, game: Game, seat: Seat, names: list[str], player: Player) -> None:
    result = game.result or {}
    winners = [names[i] for i in result.get("winners", []) if i < len(names)]
    ranks, scores = result.get("ranks", []), result.get("scores", [])
    if winners:
        entry.result = ngettext("Winner: %(names)s", "Winners: %(names)s", len(winners),
                                names=", ".join(winners))
    else:
        entry.result = _("Game over") if game.status == Game.FINISHED else _("Ended")
    if game.status == Game.FINISHED:  # only the finished are archived, not the aborted
        entry.archive_link = path_of(compose.archive_url(context(), game))
    if seat.index < len(ranks) and seat.index < len(scores):
        entry.mine = _("You: %(place)s place, %(score)s points",
                       place=_ordinal(ranks[seat.index]),
                       score=i18n.format_number(scores[seat.index]))


def rating_number(number: float) -> str:
    """A rating as a reader writes it, always with its one decimal: 3.0, -2.8 (de: 3,0)."""
    return format_decimal(round(number, 1), format="#,##0.0", locale=i18n.current())


def signed(number: float) -> str:
    """A rating's change as a reader writes it, with its sign: +1.5, −0.3, ±0.0."""
    if round(number, 1) == 0:
        return "±" + rating_number(0)
    return ("+" if number > 0 else "−") + rating_number(abs(number))


def rating_words(change: RatingChange) -> str:
    """What a finished game did to the player's rating, and what decided it besides play."""
    words = _("Rating %(before)s → %(after)s (%(change)s)",
              before=rating_number(change.before), after=rating_number(change.after),
              change=signed(change.after - change.before))
    if change.marked == "timeouts":
        words += " · " + _("decided partly by timeouts")
    elif change.marked == "dropped":
        words += " · " + _("a player dropped out")
    return words


@dataclass
class RatingLine:
    """The player's rating at one game, beside the bots' rating there."""

    title: str
    rating: Rating
    bots: Rating | None


def _ratings(player: Player) -> list[RatingLine]:
    mine = list(Rating.select().where(Rating.player == player.id).order_by(Rating.kind))
    bots = {r.kind: r for r in Rating.select().where(
        Rating.who == "bot", Rating.kind.in_([r.kind for r in mine]))} if mine else {}
    return [RatingLine(get_game(r.kind).title, r, bots.get(r.kind)) for r in mine]


def rating_line(line: RatingLine) -> str:
    words = ngettext("%(game)s: %(rating)s after %(num)d game",
                     "%(game)s: %(rating)s after %(num)d games", line.rating.games,
                     game=line.title, rating=rating_number(line.rating.shown))
    if line.bots is not None:
        words += " " + _("(the bots: %(rating)s)", rating=rating_number(line.bots.shown))
    return words


@bp.get("/me/<token>")
def my_games(token: str) -> Any:
    player = _player(token)
    running, waiting, finished = _entries(player)
    return render_template("pages/my_games.html", me=player, token=token, running=running,
                           waiting=waiting, finished=finished, title_of=compose.game_title,
                           ratings=[rating_line(line) for line in _ratings(player)],
                           rating_words=rating_words,
                           games=all_games(),
                           messages=get_flashed_messages(with_categories=True))


@bp.post("/me/<token>/rematch/<int:game_id>")
def rematch(token: str, game_id: int) -> Any:
    player = _player(token)
    here = url_for("mine.my_games", token=token)
    csrf.check(again_url=here)
    game_url = url_for("play.game_page", game_id=game_id)
    try:
        game = create.rematch(context(), game_id, player.id, client_key=client_key())
    except create.LimitError as exc:
        raise Refusal("limit", str(exc), again_url=here, game_url=game_url,
                      retry_after=refusal_seconds(exc.retry_at)) from exc
    except OptionError as exc:
        raise Refusal("bad-form", str(exc), again_url=here, game_url=game_url) from exc
    except moves.PlayError as exc:
        raise Refusal.from_play(exc, again_url=here, game_url=game_url) from exc
    seat = Seat.get_or_none(Seat.game == game, Seat.player == player.id)
    # against bots alone it has started already: nobody to invite, nothing to wait for
    flash(_("The rematch %(game)s has started.", game=compose.game_title(game))
          if game.status == Game.ACTIVE
          else _("The rematch is %(game)s: the other players are invited; it starts when "
                 "every seat is taken.", game=compose.game_title(game)), "rematch")
    return redirect((seat_path(game, seat) if seat is not None else None) or here, code=303)


# -- a new game, from the player's own page --------------------------------------------


def _own_form(rules: Any, player: Player) -> dict[str, Any]:
    """The new-game form as posted, its creator the player whose link this is (their
    time zone stays theirs: the form's field is for a newcomer, and is not shown)."""
    return filled_form(rules, name=player.name, email=player.email, timezone="UTC")


@bp.get("/me/<token>/new/<name>")
def new_game(token: str, name: str) -> Any:
    player = _player(token)
    rules = _rules_or_404(name)
    return _render_new(rules, _own_form(rules, player), [], me=player, token=token)


@bp.post("/me/<token>/new/<name>")
def new_game_post(token: str, name: str) -> Any:
    """A game created as the player of this link: it proves the address is theirs (it was
    mailed there), so the game is no held one and counts against their own limits."""
    player = _player(token)
    rules = _rules_or_404(name)
    csrf.check(again_url=url_for("mine.new_game", token=token, name=name))
    form = _own_form(rules, player)
    parsed, errors = _parse_new_game(rules, form)
    if errors:
        return _render_new(rules, form, errors, 400, me=player, token=token)
    try:
        # the link was mailed to the address: that proves it is theirs, as a click on the
        # confirmation would (their invitations go out now)
        create.confirm(context(), player.id)
        game = create.create_game(context(), rules.name, Player.get_by_id(player.id),
                                  parsed["seats"],
                                  options=parsed["options"], clock_policy=parsed["clock"],
                                  client_key=client_key(), bot_levels=parsed["bot_levels"])
    except create.LimitError as exc:
        return (*_render_new(rules, form, [str(exc)], 429, me=player, token=token),
                retry_after(exc))
    except OptionError as exc:
        return _render_new(rules, form, [str(exc)], 400, me=player, token=token)
    seat = Seat.get(Seat.game == game, Seat.index == 0)
    flash(_("%(game)s has started.", game=compose.game_title(game)) if game.status == Game.ACTIVE
          else _("%(game)s is created: the invitations are on their way; it starts when every "
                 "invited player has accepted.", game=compose.game_title(game)), "created")
    return redirect(seat_path(game, seat), code=303)


# -- the creator's choices for a seat nobody has taken ---------------------------------


def _creator_action(token: str) -> tuple[Game, Seat, str]:
    game, seat = load_seat_link(token)
    here = url_for("play.seat_page", token=token)
    csrf.check(again_url=here)
    return game, seat, here


def _refused(exc: Exception, here: str, game: Game) -> Refusal:
    game_url = url_for("play.game_page", game_id=game.id)
    if isinstance(exc, create.LimitError):
        return Refusal("limit", str(exc), seat_url=here, game_url=game_url,
                       retry_after=refusal_seconds(exc.retry_at))
    if isinstance(exc, moves.PlayError):
        return Refusal.from_play(exc, seat_url=here, game_url=game_url)
    return Refusal("bad-form", str(exc), seat_url=here, game_url=game_url)


@bp.post("/s/<token>/seat/<int:index>/invite")
def seat_invite(token: str, index: int) -> Any:
    game, seat, here = _creator_action(token)
    address = request.form.get("email", "")[:300]
    try:
        create.replace_invitee(context(), game.id, seat.player_id, index, address,
                               client_key=client_key())
    except ValueError as exc:  # OptionError and LimitError are ValueErrors too
        if not isinstance(exc, OptionError):
            exc = OptionError(_("Please give an email address."))
        raise _refused(exc, here, game) from exc
    except moves.PlayError as exc:
        raise _refused(exc, here, game) from exc
    flash(_("Seat %(number)s: an invitation goes to the new address.", number=index + 1),
          "invited")
    return redirect(here, code=303)


@bp.post("/s/<token>/seat/<int:index>/bot")
def seat_bot(token: str, index: int) -> Any:
    game, seat, here = _creator_action(token)
    try:
        game = create.seat_to_bot(context(), game.id, seat.player_id, index)
    except moves.PlayError as exc:
        raise _refused(exc, here, game) from exc
    said = _("Seat %(number)s is a bot's now.", number=index + 1)
    if game.status == Game.ACTIVE:
        said += " " + _("The game has started.")
    flash(said, "bot")
    return redirect(here, code=303)
