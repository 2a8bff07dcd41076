"""Mails as rows of the outbox: what each player is told, rendered from templates.

Queuing happens inside the caller's transaction, so a mail exists exactly
when the change that caused it was committed.  Delivery is ``outbox``'s job.
Every mail of a game refers to the game's thread id, so mail clients show a
game as one conversation.

Each player reads their mails in their own language where the templates have
it (``render_mail``; subjects and dates through ``pbem.mail.language``).  Only
our own words are translated: the game's content stays as the engine writes it
(the text of a view, the sentences of moves, move names such as "play Ritter"
with the game's German card names), and so do the lines of the game log that
notices retell.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import jinja2

from pbem import links
from pbem.context import Context
from pbem.games import get_game
from pbem.games.protocol import MENU_CAP, SPECTATOR, Choice, State
from pbem.lifecycle import history
from pbem.mail.language import DEFAULT, local_time, phrase, say, supported
from pbem.models import Blocked, Game, Outbox, Player, Seat, utcnow
from pbem.time import quiet

#: mails a player who chose the daily digest gets in it instead (see ``pbem.time.digest``)
DIGEST_KINDS = ("turn", "notice")


def _message_id(game: Game | None) -> str:
    where = f"game-{game.id}" if game is not None else "pbem"
    return f"<{where}.{uuid.uuid4().hex}@pbem>"


def names_of(seats: list[Seat]) -> list[str]:
    return [s.display for s in seats]


def game_title(game: Game) -> str:
    return f"{get_game(game.game).title} #{game.id}"


def seat_url(ctx: Context, game: Game, seat: Seat) -> str:
    token = ctx.signer.sign(links.SEAT, {"g": game.id, "s": seat.index,
                                         "p": seat.player_id,
                                         "v": seat.player.link_version})
    return ctx.url(f"/s/{token}")


def move_url(ctx: Context, game: Game, seat: Seat, move: str) -> str:
    """A link that plays ``move`` for ``seat`` while it is legal in the seat's current turn."""
    token = ctx.signer.sign(links.MOVE, {"g": game.id, "s": seat.index, "t": seat.turn_seq,
                                         "n": seat.menu_seq, "m": move, "p": seat.player_id,
                                         "v": seat.player.link_version})
    return ctx.url(f"/m/{token}")


def never_url(ctx: Context, address: str) -> str:
    """"Never mail me again", for an address that has not joined."""
    return ctx.url(f"/never/{ctx.signer.sign(links.NEVER, {'e': address})}")


def confirm_url(ctx: Context, player: Player) -> str:
    return ctx.url(f"/c/{ctx.signer.sign(links.CONFIRM, {'p': player.id})}")


def unsubscribe_url(ctx: Context, player: Player) -> str:
    return ctx.url(f"/u/{ctx.signer.sign(links.UNSUBSCRIBE, {'p': player.id})}")


def queue(
    ctx: Context,
    *,
    kind: str,
    to: Player | str,
    subject: str,
    text: str,
    html: str | None,
    game: Game | None = None,
    now: datetime | None = None,
) -> Outbox | None:
    """Add one mail to the outbox; ``None`` when the player asked for no mail, or the
    address asked never to be mailed again (``Blocked``).

    A mail to an address that has not joined (a plain string) carries "never mail
    me again" as its List-Unsubscribe.
    """
    now = now or utcnow()
    player = to if isinstance(to, Player) else None
    if player is not None and not player.mail_enabled:
        return None
    if Blocked.has(player.email if player is not None else str(to)):
        return None
    not_before = now
    digest = False
    if player is not None:
        not_before = quiet.deliverable_at(now, player.timezone, player.quiet_start,
                                          player.quiet_end)
        if player.digest and kind in DIGEST_KINDS:  # held for the digest of their next morning
            digest, not_before = True, quiet.next_local_time(now, player.timezone,
                                                             player.quiet_end)
    return Outbox.create(
        game=game,
        player=player,
        kind=kind,
        to_address=player.email if player is not None else str(to),
        to_name=player.name if player is not None else "",
        subject=subject,
        text_body=text,
        html_body=html,
        message_id=_message_id(game),
        in_reply_to=game.thread_id if game is not None else None,
        unsubscribe_url=(unsubscribe_url(ctx, player) if player is not None
                         else never_url(ctx, str(to))),
        created_at=now,
        not_before=not_before,
        digest=digest,
    )


def language_of(player: Player | None) -> str:
    """The language ``player``'s mails are written in (the default for a language we lack)."""
    return supported(player.language) if player is not None else DEFAULT


def _template(env: jinja2.Environment, kind: str, ext: str,
              lang: str) -> tuple[jinja2.Template, str]:
    """``mail/<kind>.<lang>.<ext>`` if there is one, else the English ``mail/<kind>.<ext>``;
    with the language of the one chosen."""
    if lang != DEFAULT:
        try:
            return env.get_template(f"mail/{kind}.{lang}.{ext}"), lang
        except jinja2.TemplateNotFound:
            pass  # not translated (yet): English is better than no mail
    return env.get_template(f"mail/{kind}.{ext}"), DEFAULT


def render_mail(ctx: Context, kind: str, lang: str, /, **values: Any) -> tuple[str, str]:
    """A mail's text and HTML from ``templates/mail/<kind>``, in ``lang`` where it has them.

    Each part tells its template the language it is written in (``lang``): the HTML
    layout declares it, and delivery sends that as ``Content-Language``.  (The
    arguments before ``/`` are positional so that any name is free for a template value.)
    """
    parts = []
    for env, ext in ((ctx.text, "txt"), (ctx.html, "html")):
        template, written_in = _template(env, kind, ext, supported(lang))
        parts.append(template.render(**values, lang=written_in))
    return parts[0], parts[1]


@dataclass(frozen=True)
class MenuLink:
    """One choice of a seat's menu with the link that plays it."""

    choice: Choice
    url: str

    @property
    def label(self) -> str:
        return self.choice.label


@dataclass
class Menu:
    """A seat's menu as a mail shows it: every choice as a link while the menu is
    short, else what the choices are (by group) and the seat page, where they are."""

    links: list[MenuLink]
    #: (group, how many choices) in order, for a menu too long to list
    groups: list[tuple[str, int]]

    @property
    def short(self) -> bool:
        return len(self.links) <= MENU_CAP

    def __bool__(self) -> bool:
        return bool(self.links)

    def __iter__(self):  # the templates' ``for link in moves``
        return iter(self.links)


def menu_links(ctx: Context, game: Game, seat: Seat, state: State, lang: str) -> Menu:
    """The seat's choices in ``lang``, each with its signed link."""
    rules = get_game(game.game)
    links_ = [MenuLink(choice, move_url(ctx, game, seat, choice.move))
              for choice in rules.menu(state, seat.index, lang)]
    groups: dict[str, int] = {}
    for link in links_:
        groups[link.choice.group] = groups.get(link.choice.group, 0) + 1
    return Menu(links_, list(groups.items()))


def queue_invite(ctx: Context, game: Game, seat: Seat, host: Player) -> None:
    token = ctx.signer.sign(links.INVITE, {"g": game.id, "s": seat.index,
                                           "e": seat.invite_email})
    rules = get_game(game.game)
    # to an address that plays here already, the invitation is that player's mail: it
    # heeds their "stop all mail" and offers List-Unsubscribe like every other
    invited = Player.get_or_none(Player.email == seat.invite_email)
    lang = invite_language(seat.invite_email, host)
    seats = list(game.seats.order_by(Seat.index))
    text, html = render_mail(ctx, "invite", lang, game=game, title=game_title(game),
                             rules=rules, host=host.name, url=ctx.url(f"/i/{token}"),
                             names=names_of(seats), clock=_clock_words(game),
                             never_url=None if invited else never_url(ctx, seat.invite_email))
    subject = say(phrase("{host} invites you to {title}", host=host.name,
                         title=game_title(game)), lang)
    queue(ctx, kind="invite", to=invited or seat.invite_email, subject=subject, text=text,
          html=html, game=game)


def _clock_words(game: Game) -> str:
    from pbem.time import clock

    return clock.describe_policy(game.clock) if game.clock else ""


def queue_confirm(ctx: Context, player: Player, game: Game) -> None:
    """Ask a creator to confirm their address before their invitations go out."""
    lang = language_of(player)
    text, html = render_mail(ctx, "confirm", lang, player=player, game=game,
                             title=game_title(game), url=confirm_url(ctx, player))
    subject = say(phrase("{title}: please confirm your address", title=game_title(game)), lang)
    queue(ctx, kind="confirm", to=player, subject=subject, text=text, html=html, game=game)


def invite_language(address: str | None, host: Player) -> str:
    """An invitation reads in the language of the address's player, if it plays here already;
    else in the host's, who writes it, as one writes to friends in the language one shares."""
    invited = Player.get_or_none(Player.email == address) if address else None
    return language_of(invited or host)


def queue_started(ctx: Context, game: Game, seats: list[Seat]) -> None:
    """Everyone gets their personal seat link when the game starts."""
    names = names_of(seats)
    for seat in seats:
        if seat.bot or seat.player_id is None:
            continue
        lang = language_of(seat.player)
        text, html = render_mail(ctx, "started", lang, game=game, title=game_title(game),
                                 names=names, seat=seat, url=seat_url(ctx, game, seat))
        subject = say(phrase("{title} has started", title=game_title(game)), lang)
        queue(ctx, kind="notice", to=seat.player, subject=subject, text=text, html=html,
              game=game)


def queue_turn(ctx: Context, game: Game, seat: Seat, seats: list[Seat], state: State,
               now: datetime | None = None) -> None:
    """The mail that asks ``seat`` to act: its view, what happened since its last turn,
    and its menu as links."""
    rules = get_game(game.game)
    names = names_of(seats)
    view = rules.view(state, seat.index)
    lang = language_of(seat.player)
    since = history.since_seq_for(game, seat.index, in_turn=True)
    values = dict(
        game=game, title=game_title(game), rules=rules, seat=seat, names=names,
        view=view, view_text=rules.render_text(view, names),
        recent=history.history(game, seat.index, since_seq=since),
        moves=menu_links(ctx, game, seat, state, lang),
        seat_url=seat_url(ctx, game, seat), deadline=seat.deadline,
        deadline_local=format_local(seat.deadline, seat.player.timezone, lang),
        secret=rules.is_secret(state),
    )
    text, html = render_mail(ctx, "turn", lang, **values)
    subject = say(phrase("{title}: your move", title=game_title(game)), lang)
    queue(ctx, kind="turn", to=seat.player, subject=subject, text=text, html=html, game=game,
          now=now)


def queue_result(ctx: Context, game: Game, seats: list[Seat], state: State,
                 now: datetime | None = None) -> None:
    rules = get_game(game.game)
    names = names_of(seats)
    result = rules.result(state)
    view = rules.view(state, SPECTATOR)
    for seat in seats:
        if seat.player_id is None:
            continue
        lang = language_of(seat.player)
        text, html = render_mail(ctx, "result", lang, game=game, title=game_title(game),
                                 names=names, seat=seat, result=result,
                                 winner_names=[names[w] for w in result.winners],
                                 view_text=rules.render_text(view, names),
                                 view=view, rules=rules, seat_url=seat_url(ctx, game, seat))
        subject = say(phrase("{title} is over", title=game_title(game)), lang)
        queue(ctx, kind="result", to=seat.player, subject=subject, text=text, html=html,
              game=game, now=now)


def format_local(when: datetime | None, tz: str, lang: str = DEFAULT) -> str:
    """A UTC time as the reader's local time, e.g. 'Tue 24 Nov 2026, 18:00 (Europe/Berlin)'."""
    if when is None:
        return ""
    from zoneinfo import ZoneInfo

    local = when.replace(tzinfo=ZoneInfo("UTC")).astimezone(quiet.zone(tz))
    return local_time(local, tz, lang)
