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
from datetime import datetime
from typing import Any

import jinja2

from pbem import links
from pbem.context import Context
from pbem.games import get_game
from pbem.games.protocol import SPECTATOR, State
from pbem.mail.language import DEFAULT, local_time, phrase, say, supported
from pbem.models import Game, Notice, Outbox, Player, Seat, utcnow
from pbem.time import quiet

#: how many recent moves a turn mail retells
RECENT_MOVES = 30
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
    token = ctx.signer.sign(links.MOVE, {"g": game.id, "s": seat.index, "n": seat.menu_seq,
                                         "m": move})
    return ctx.url(f"/m/{token}")


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
    """Add one mail to the outbox; ``None`` when the player asked for no mail."""
    now = now or utcnow()
    player = to if isinstance(to, Player) else None
    if player is not None and not player.mail_enabled:
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
        unsubscribe_url=unsubscribe_url(ctx, player) if player is not None else None,
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


Step = tuple[int, int, str, State]  # (seq, seat, move, state before the move)


def recent_steps(game: Game, limit: int = RECENT_MOVES) -> list[Step]:
    """The game's last ``limit`` moves with the state before each, for ``describe``.

    The snapshot holds only the state after the last move, so the states
    before are rebuilt from the log; callers that mail several seats compute
    this once and pass it to ``recent_moves``.
    """
    from pbem.lifecycle.moves import game_record
    from pbem.lifecycle.records import replay_steps

    first = max(0, game.seq - limit)
    return [(index + 1, seat, move, before)
            for index, seat, move, before, _after in replay_steps(game_record(game))
            if index >= first]


def recent_moves(game: Game, viewer: int | None, limit: int = RECENT_MOVES,
                 steps: list[Step] | None = None) -> list[str]:
    """The last moves and notices of the game in words, as ``viewer`` may read them.

    Sentences keep their ``{0}``-style seat placeholders for the caller to fill.
    """
    rules = get_game(game.game)
    steps = recent_steps(game, limit) if steps is None else steps
    first = steps[0][0] if steps else game.seq + 1
    notices: dict[int, list[str]] = {}
    for notice in (Notice.select().where(Notice.game == game, Notice.seq >= first - 1)
                   .order_by(Notice.id)):
        notices.setdefault(notice.seq, []).append(notice.text)
    lines = list(notices.pop(first - 1, []))
    for seq, seat, move, before in steps:
        lines.append(rules.describe(before, seat, move, viewer))
        lines += notices.pop(seq, [])
    for rest in notices.values():
        lines += rest
    return lines


def queue_invite(ctx: Context, game: Game, seat: Seat, host: Player) -> None:
    token = ctx.signer.sign(links.INVITE, {"g": game.id, "s": seat.index,
                                           "e": seat.invite_email})
    rules = get_game(game.game)
    # to an address that plays here already, the invitation is that player's mail: it
    # heeds their "stop all mail" and offers List-Unsubscribe like every other
    invited = Player.get_or_none(Player.email == seat.invite_email)
    lang = invite_language(seat.invite_email, host)
    text, html = render_mail(ctx, "invite", lang, game=game, title=game_title(game),
                             rules=rules, host=host.name, url=ctx.url(f"/i/{token}"))
    subject = say(phrase("{host} invites you to {title}", host=host.name,
                         title=game_title(game)), lang)
    queue(ctx, kind="invite", to=invited or seat.invite_email, subject=subject, text=text,
          html=html, game=game)


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
               steps: list[Step] | None = None) -> None:
    """The mail that asks ``seat`` to act: its view, recent moves, every legal move as a link."""
    rules = get_game(game.game)
    names = names_of(seats)
    view = rules.view(state, seat.index)
    moves = [(m, move_url(ctx, game, seat, m)) for m in rules.legal_moves(state, seat.index)]
    lang = language_of(seat.player)
    values = dict(
        game=game, title=game_title(game), rules=rules, seat=seat, names=names,
        view=view, view_text=rules.render_text(view, names),
        recent=recent_moves(game, seat.index, steps=steps), moves=moves,
        seat_url=seat_url(ctx, game, seat), deadline=seat.deadline,
        deadline_local=format_local(seat.deadline, seat.player.timezone, lang),
        simultaneous=len(rules.to_move(state)) > 1,
    )
    text, html = render_mail(ctx, "turn", lang, **values)
    subject = say(phrase("{title}: your move", title=game_title(game)), lang)
    queue(ctx, kind="turn", to=seat.player, subject=subject, text=text, html=html, game=game)


def queue_result(ctx: Context, game: Game, seats: list[Seat], state: State) -> None:
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
              game=game)


def format_local(when: datetime | None, tz: str, lang: str = DEFAULT) -> str:
    """A UTC time as the reader's local time, e.g. 'Tue 24 Nov 2026, 18:00 (Europe/Berlin)'."""
    if when is None:
        return ""
    from zoneinfo import ZoneInfo

    local = when.replace(tzinfo=ZoneInfo("UTC")).astimezone(quiet.zone(tz))
    return local_time(local, tz, lang)
