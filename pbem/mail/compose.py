"""Mails as rows of the outbox: what each player is told, rendered from templates.

Queuing happens inside the caller's transaction, so a mail exists exactly
when the change that caused it was committed (a click's "your move" mails as rows
addressed only, whose bodies the tick writes: ``later``).  Delivery is ``outbox``'s job.
Every mail of a game refers to the game's thread id, so mail clients show a
game as one conversation.

Each player reads their mails in their own language: the templates are marked for
gettext and rendered inside ``i18n.in_language`` (``render_mail``); subjects and
dates go through ``pbem.i18n``.  The
game's content is the game's own: the text of a view (``render_text``), the
sentences of moves (stored per language when the move was recorded, read by
``history`` in the reader's language) and its picture come in the
reader's language where the game has it, English where not; card names stay as
printed.  The lines of the game log that notices retell are said in each reader's
language too (``steps.tell_table`` takes a ``Phrase``).
"""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any, NamedTuple

import peewee as pw
from markupsafe import escape

from pbem import i18n, links, sqlcache
from pbem.archive import paths
from pbem.context import Context
from pbem.gamelog import history
from pbem.gamelog.standing import headline, standing
from pbem.games import get_game
from pbem.games.protocol import MENU_CAP, SPECTATOR, Choice, State
from pbem.games.render import named_choices, seat_text
from pbem.i18n import DEFAULT, format_local_time, phrase, say, supported
from pbem.mail import kinds
from pbem.mail.picture import (
    Picture,
    forget_tables,
    keep_table,
    picture_key,
    table_picture,
)
from pbem.mail.talk import Taken, take_unmailed
from pbem.models import Blocked, Game, Outbox, Player, Seat, db, utcnow
from pbem.time import clock, quiet

#: mails a player who chose the daily digest gets in it instead (see ``pbem.time.digest``)
DIGEST_KINDS = ("turn", "notice", "talk")


def mail_domain(ctx: Context) -> str:
    """The domain of our Message-IDs: the sender's (``[mail] from_address``), as RFC 5322
    advises, else the server's host name."""
    return kinds.domain_of(ctx.config)


def _message_id(ctx: Context, game: Game | None) -> str:
    where = f"game-{game.id}" if game is not None else "pbem"
    return f"<{where}.{uuid.uuid4().hex}@{mail_domain(ctx)}>"


#: ``Outbox.subject``'s length
SUBJECT_MAX = 200


def thread_subject(game: Game, seats: list[Seat] | None = None) -> str:
    """The subject of every mail of a game's thread: 'Visby #3 — Alex, Bob, Bot 3'.

    The same for the whole game (mail clients such as Gmail thread by subject as well
    as by References): names as they stand once the table is full, a bot's seat as
    'Bot n' even when it stands in for a player.
    """
    names = []
    if seats is None:
        seats = Seat.of(game)
    for seat in seats:
        if seat.player_id is not None:
            names.append(seat.player.name)
        else:
            names.append(f"Bot {seat.index + 1}" if seat.bot else "?")
    subject = f"{game_title(game)} — {', '.join(names)}"
    if len(subject) > SUBJECT_MAX:
        subject = subject[:SUBJECT_MAX - 1].rstrip(", ") + "…"
    return subject


def _with_headline(text: str, html: str | None, headline: str) -> tuple[str, str | None]:
    """A thread mail says what it is in its body's first line (its subject is the game's)."""
    text = f"{headline}\n\n{text}"
    if html:
        at = html.find("<body")
        end = html.find(">", at) + 1 if at >= 0 else 0
        line = (f'<p style="font-weight: bold; font-size: 1.1em; margin-top: 0;">'
                f"{escape(headline)}</p>\n")
        html = html[:end] + "\n" + line + html[end:].lstrip("\n")
    return text, html


def with_talk(ctx: Context, game: Game, player: Player, text: str, html: str | None,
              seats: list[Seat] | None = None) -> tuple[str, str | None, Taken | None]:
    """The mail with the table talk ``player`` has not been mailed yet at its top (and
    that talk marked mailed), and what it took: each message reaches each reader once, in
    their next mail.  ``seats``: the game's seats with their players, where the caller
    has them."""
    if not player.takes(kinds.TALK):  # the player switched table talk off
        return text, html, None
    said = take_unmailed(game, player, seats)
    if not said:
        return text, html, None
    names = names_of(seats if seats is not None else Seat.of(game))
    values = dict(said=[(names[s] if s < len(names) else f"seat {s + 1}", t) for s, t in said])
    with i18n.in_language(language_of(player)):
        text = ctx.text.get_template("mail/_talk.txt").render(**values) + "\n" + text
        if html:
            part = ctx.html.get_template("mail/_talk.html").render(**values)
            at = html.find("<body")
            end = html.find(">", at) + 1 if at >= 0 else 0
            html = html[:end] + "\n" + part + html[end:]
    return text, html, said


def queue_talk(ctx: Context, game: Game, seat: Seat, now: datetime) -> Outbox | None:
    """A mail of table talk alone, for a reader no other mail brought it to in time
    (``pbem.lifecycle.talk.send_due``); a digest reader's waits for their digest."""
    lang = language_of(seat.player)
    text, html = render_mail(ctx, "talk", lang, game=game, title=game_title(game), seat=seat,
                             seat_url=seat_url(ctx, game, seat),
                             by_reply=ctx.config.getbool("inbound", "replies"))
    subject = say(phrase("{title}: table talk", title=game_title(game)), lang)
    return queue(ctx, kind="talk", to=seat.player, subject=subject, text=text, html=html,
                 game=game, now=now, reply_of=seat)


def names_of(seats: list[Seat]) -> list[str]:
    return [s.display for s in seats]


def game_title(game: Game) -> str:
    return f"{get_game(game.game).title} #{game.id}"


def seat_url(ctx: Context, game: Game, seat: Seat) -> str:
    token = ctx.signer.sign_link(links.SEAT, game=game.id, seat=seat.index,
                                 player=seat.player_id, version=seat.player.link_version)
    return ctx.url(f"/s/{token}")


def move_url(ctx: Context, game: Game, seat: Seat, move: str) -> str:
    """A link that plays ``move`` for ``seat`` while it is legal in the seat's current turn."""
    token = ctx.signer.sign_link(links.MOVE, game=game.id, seat=seat.index,
                                 turn=seat.turn_seq, menu=seat.menu_seq, move=move,
                                 player=seat.player_id, version=seat.player.link_version)
    return ctx.url(f"/m/{token}")


def my_games_url(ctx: Context, player: Player) -> str:
    """The player's list of all their games; "new links" (``link_version``) revokes it."""
    token = ctx.signer.sign_link(links.GAMES, player=player.id, version=player.link_version)
    return ctx.url(f"/me/{token}")


def calendar_url(ctx: Context, player: Player) -> str:
    """The player's deadlines as an ICS feed (``pbem.time.calendar``); "new links" revokes it."""
    token = ctx.signer.sign_link(links.CALENDAR, player=player.id,
                                 version=player.link_version)
    return ctx.url(f"/calendar/{token}.ics")


def archive_url(ctx: Context, game: Game) -> str:
    """The game's page in the archive that ``pbem serve`` serves under ``/archive/``: there
    once the scheduler's tick after the game's end has built it."""
    return ctx.url(f"/archive/{paths.html(paths.game_page(game.id))}")


def never_url(ctx: Context, address: str) -> str:
    """"Never mail me again", for an address that has not joined."""
    return ctx.url(f"/never/{ctx.signer.sign_link(links.NEVER, email=address)}")


def confirm_url(ctx: Context, player: Player) -> str:
    return ctx.url(f"/c/{ctx.signer.sign_link(links.CONFIRM, player=player.id)}")


def unsubscribe_url(ctx: Context, player: Player, mail_list: str | None = None) -> str:
    """The one-click unsubscribe of ``player``'s mail of ``mail_list`` (one of
    ``kinds.SWITCHABLE``), or of all their mail (without)."""
    if mail_list in kinds.SWITCHABLE:
        token = ctx.signer.sign_link(links.UNSUBSCRIBE, player=player.id, kind=mail_list)
    else:
        token = ctx.signer.sign_link(links.UNSUBSCRIBE, player=player.id)
    return ctx.url(f"/u/{token}")


def list_unsubscribe(ctx: Context, to: Player | str, kind: str) -> str:
    """A mail's one-click unsubscribe: a player's stops the mail's kind (its list,
    ``kinds.list_of``); an address that has not joined gets "never mail me again"."""
    if isinstance(to, Player):
        return unsubscribe_url(ctx, to, kinds.list_of(kind))
    return never_url(ctx, str(to))


@dataclass
class Known:
    """What each mail of one change would ask the database, asked once for all of them
    (``known_for``): the addresses that asked never to be mailed again, and the threads
    whose root mail exists.  A mail queued with it keeps it up to date (a root it writes)."""

    blocked: set[str]
    roots: set[str]


def known_for(ctx: Context, game: Game, players: list[Player]) -> Known:
    """``Known`` for mails of ``game`` to ``players``: two statements, however many."""
    emails = sorted({p.email.lower() for p in players})
    wanted = sorted({game.thread_id(mail_domain(ctx), p.id) for p in players})
    return Known(
        {b.email for b in Blocked.select(Blocked.email).where(Blocked.email.in_(emails))},
        {o.message_id for o in
         Outbox.select(Outbox.message_id).where(Outbox.message_id.in_(wanted))})


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
    seats: list[Seat] | None = None,
    turn_of: Seat | None = None,
    unsubscribe: str | None = None,
    reply_of: Seat | None = None,
    reply_moves: list[str] | None = None,
    known: Known | None = None,
    pending: bool = False,
    batch: list[dict[str, Any]] | None = None,
) -> Outbox | None:
    """Add one mail to the outbox; ``None`` when the player asked for no mail, or the
    address asked never to be mailed again (``Blocked``).

    A mail of a game that has started to a player is a mail of the game's thread: its
    subject is the game's ``thread_subject`` and ``subject`` becomes the first line of
    its body.  (Before the start, the table is not known yet: an invitation, a request
    to confirm an address, an invitation declined keep their own subjects.)  The first
    such mail to the player is the thread's root (its Message-ID is ``Game.thread_id``
    for the player); every later one refers to it.
    Its List-Unsubscribe: ``list_unsubscribe``, or ``unsubscribe`` (a followed game's
    own); a player who switched the mail's kind off gets none.  ``seats``: the game's
    seats with their players, where the caller has them (else they are read).
    ``turn_of``: the seat whose current turn a "your move" mail asks for; the mail is
    not sent once that turn is over.  ``known``: what the caller asked for all the
    mails of its change at once (``known_for``), else each mail asks.  ``pending``: the
    row is addressed and threaded now, its body written later (``finish``; a "your
    move" mail of a click, ``pbem.mail.later``): no talk is taken, no reply address
    given, and whether the address is blocked and whether the row is its thread's root
    are asked then, not in the click.  ``batch``: a ``pending`` row is added to it
    instead, for the caller to insert with the others of its change (``insert_batch``).
    """
    now = now or utcnow()
    player = to if isinstance(to, Player) else None
    if player is not None and not player.takes(kinds.list_of(kind)):
        return None
    if not pending and _blocked(player.email if player is not None else str(to), known):
        return None
    not_before, digest = _when(player, kind, now)
    root = None
    taken = None
    if game is not None and game.status not in (Game.OPEN, Game.HELD) and player is not None:
        if not pending:
            text, html, taken = _dressed(ctx, game, player, subject, text, html, seats,
                                         digest)
        subject = thread_subject(game, seats)
        root = game.thread_id(mail_domain(ctx), player.id)
    row = dict(
        game=game, player=player, kind=kind,
        to_address=player.email if player is not None else str(to),
        to_name=player.name if player is not None else "",
        subject=subject[:SUBJECT_MAX], text_body=text, html_body=html,
        message_id=_message_id(ctx, game), in_reply_to=root,
        # a row written later gets its link then (``finish``): signing one is a click's
        unsubscribe_url=unsubscribe or (None if pending else list_unsubscribe(ctx, to, kind)),
        created_at=now, not_before=not_before, digest=digest,
        seat_index=turn_of.index if turn_of is not None else None,
        turn_seq=turn_of.turn_seq if turn_of is not None else None,
        talk_from=taken.before if taken else None,
        talk_to=taken.after if taken else None,
        composed=not pending,
    )
    if pending and batch is not None:
        batch.append(row)
        return None
    mail = _insert(row, root if not digest and not pending else None, known)
    if (reply_of is not None and not digest and not pending
            and ctx.config.getbool("inbound", "replies")):
        _give_reply_address(ctx, mail, reply_of, reply_moves or [])
    return mail


def _blocked(address: str, known: Known | None) -> bool:
    """Whether ``address`` asked never to be mailed again (as ``known`` has it, if given)."""
    return address.lower() in known.blocked if known is not None else Blocked.has(address)


def _when(player: Player | None, kind: str, now: datetime) -> tuple[datetime, bool]:
    """When a mail queued ``now`` may go (after the player's quiet hours), and whether it
    is held for the digest of their next morning instead."""
    if player is None:
        return now, False
    if player.digest and kind in DIGEST_KINDS:
        return quiet.next_local_time(now, player.timezone, player.quiet_end), True
    return quiet.deliverable_at(now, player.timezone, player.quiet_start,
                                player.quiet_end), False


def _dressed(ctx: Context, game: Game, player: Player, subject: str, text: str,
             html: str | None, seats: list[Seat] | None, digest: bool
             ) -> tuple[str, str | None, Taken | None]:
    """A game's mail to a player as it goes in the game's thread: the talk waiting for
    them on top (not in a mail held for the digest, which takes talk itself), then
    ``subject`` as the body's first line (the thread's subject is the game's)."""
    taken = None
    if not digest:
        text, html, taken = with_talk(ctx, game, player, text, html, seats)
    text, html = _with_headline(text, html, subject)
    return text, html, taken


class Asked(NamedTuple):
    """What ``finish`` asks the database of a ``pending`` row before it writes it."""

    #: its address asked never to be mailed again (``Blocked.has``)
    blocked: bool
    #: a mail holds its thread's root as its Message-ID already (``_root_held``)
    root_held: bool


def still_pending(mail: Outbox) -> Asked | None:
    """Under its game's lock: ``Asked`` of a ``pending`` row as read before, if it is still
    to be written (no other tick wrote it, gave it up or removed it meanwhile), else
    None; one statement, its text written once (``finish`` asks these of every row it
    writes, and building each query cost more than the database's answer).  Nothing but
    writing it changes such a row's other columns (``finish``, under the same lock)."""
    found = _STILL_PENDING.one([mail.to_address.lower(), _root_of(mail), mail.id])
    if found is None or found[0] or found[1] is not None:
        return None
    return Asked(bool(found[2]), bool(found[3]))


#: ``still_pending``'s statement
_STILL_PENDING = sqlcache.Written(Outbox, lambda database: (
    f'SELECT "{Outbox.composed.column_name}", "{Outbox.failed_at.column_name}", '
    f'EXISTS (SELECT 1 FROM "{Blocked._meta.table_name}" '
    f'WHERE "{Blocked.email.column_name}" = {database.param}), '
    f'EXISTS (SELECT 1 FROM "{Outbox._meta.table_name}" '
    f'WHERE "{Outbox.message_id.column_name}" = {database.param}) '
    f'FROM "{Outbox._meta.table_name}" WHERE "{Outbox.id.column_name}" = {database.param}'))


def _root_of(mail: Outbox) -> str | None:
    """The root a ``pending`` row may become (``_take_root``): none for a digest's."""
    return mail.in_reply_to if not mail.digest else None


def finish(ctx: Context, mail: Outbox, game: Game, seats: list[Seat], subject: str,
           text: str, html: str | None, asked: Asked, reply_of: Seat | None = None,
           reply_moves: list[str] | None = None) -> bool:
    """Write the body of a ``pending`` row as ``queue`` would have written it then:
    the talk waiting now, the headline, the reply address, its List-Unsubscribe link (a
    click signs none); the row becomes its thread's root where the thread has none yet.
    An address that asked never to be mailed again meanwhile gets nothing: the row is
    removed, as ``queue`` would not have added it (False).  ``asked``: what
    ``still_pending`` said of the row in this transaction."""
    if asked.blocked:
        mail.delete_instance()
        return False
    if _root_of(mail) is not None and not asked.root_held:
        _take_root(mail)
    # the player comes with the table (``Seat.of``, ``table_of``): not read again
    player = next((s.player for s in seats if s.player_id == mail.player_id
                   and s.player_id is not None), None)
    if player is not None:
        mail.__rel__["player"] = player
    text, html, taken = _dressed(ctx, game, mail.player, subject, text, html, seats, False)
    mail.text_body, mail.html_body, mail.composed = text, html, True
    mail.talk_from = taken.before if taken else None
    mail.talk_to = taken.after if taken else None
    mail.unsubscribe_url = mail.unsubscribe_url or list_unsubscribe(ctx, mail.player, mail.kind)
    # attempts to write it that failed are not attempts to deliver it
    mail.attempts, mail.last_error = 0, None
    written = [Outbox.text_body, Outbox.html_body, Outbox.composed, Outbox.talk_from,
               Outbox.talk_to, Outbox.unsubscribe_url, Outbox.attempts, Outbox.last_error]
    if reply_of is not None and ctx.config.getbool("inbound", "replies"):
        _reply_fields(ctx, mail, reply_of, reply_moves or [])  # the row has its id
        written += [Outbox.choices, Outbox.reply_to]
    sqlcache.update_rows([mail], only=written)  # its SQL built once: ``mail.save(only=…)``
    return True


def _take_root(mail: Outbox) -> None:
    """A ``pending`` row, queued referring to its thread's root, becomes that root where
    no mail of the thread holds it yet (as ``_insert`` makes the first mail of a thread):
    ``finish`` has asked that (``still_pending``)."""
    root = mail.in_reply_to
    try:
        with db.atomic():  # a savepoint: a root queued at the same time keeps its id
            Outbox.update(message_id=root, in_reply_to=None).where(Outbox.id == mail.id).execute()
        mail.message_id, mail.in_reply_to = root, None
    except pw.IntegrityError:
        pass


def _root_held(root: str) -> bool:
    """Whether a mail of the thread already holds ``root`` as its Message-ID (a thread's
    root is given once: ``_insert``, ``_take_root``)."""
    return Outbox.select().where(Outbox.message_id == root).exists()


def _give_reply_address(ctx: Context, mail: Outbox, seat: Seat, moves: list[str]) -> None:
    """``mail``'s personal reply address and the choices a reply's numbers name: the
    address names the row, so it is written once the row has its id."""
    _reply_fields(ctx, mail, seat, moves)
    mail.save(only=[Outbox.choices, Outbox.reply_to])


def _reply_fields(ctx: Context, mail: Outbox, seat: Seat, moves: list[str]) -> None:
    mail.choices = json.dumps({"turn": seat.turn_seq, "menu": seat.menu_seq, "moves": moves})
    mail.reply_to = reply_address(ctx, mail, seat)


def insert_batch(rows: list[dict[str, Any]]) -> None:
    """The ``pending`` rows ``queue`` gathered in ``batch``, in one statement (a move
    that begins three players' turns adds three rows)."""
    if rows:
        sqlcache.insert_many(Outbox, rows)


def _insert(row: dict[str, Any], root: str | None, known: Known | None = None) -> Outbox:
    """The outbox row; the root of its thread (Message-ID ``root``) where the thread has
    none yet: the first mail of a thread that goes out on its own (a mail held for the
    digest is never delivered as itself, and is given no ``root``)."""
    if root is not None and not (
            root in known.roots if known is not None else _root_held(root)):
        try:
            with db.atomic():  # a savepoint: a root queued at the same time keeps its id
                mail = sqlcache.insert(Outbox, **{**row, "message_id": root,
                                                  "in_reply_to": None})
            if known is not None:
                known.roots.add(root)
            return mail
        except pw.IntegrityError:
            pass
    return sqlcache.insert(Outbox, **row)


def reply_address(ctx: Context, mail: Outbox, seat: Seat) -> str:
    """The personal address a reply to ``mail`` goes to: on the sender's domain, the
    sender's local part with a signed token after "+" (``links.sign_reply``), so that
    one alias or mailbox with subaddressing takes every reply (README "Replies")."""
    local = ctx.config.get("mail", "from_address").rpartition("@")[0].strip().strip("<")
    local = "".join(c for c in local if c.isalnum() or c in "._-") or "pbem"
    token = links.sign_reply(ctx.signer, game=seat.game_id, seat=seat.index,
                             turn=seat.turn_seq, menu=seat.menu_seq, mail=mail.id,
                             version=seat.player.link_version)
    return f"{local}+{token}@{mail_domain(ctx)}"


def language_of(player: Player | None) -> str:
    """The language ``player``'s mails are written in (the default for a language we lack)."""
    return supported(player.language) if player is not None else DEFAULT


def render_mail(ctx: Context, kind: str, lang: str, /, **values: Any) -> tuple[str, str]:
    """A mail's text and HTML from ``templates/mail/<kind>.{txt,html}``, in ``lang``.

    The templates' words come from the gettext catalog of ``lang`` (English where a
    string has no translation yet, and for a language we cannot write in).  Each part
    tells its template the language it is written in (``lang``): the HTML layout
    declares it, and delivery sends that as ``Content-Language``.  (The arguments
    before ``/`` are positional so that any name is free for a template value.)
    """
    # every mail to a player links their games (the layouts' footer): the reader is the
    # ``player`` or the ``seat``'s player the mail is made for
    reader = values.get("player") or getattr(values.get("seat"), "player", None)
    values.setdefault("my_games_url",
                      my_games_url(ctx, reader) if isinstance(reader, Player) else None)
    parts = []
    with i18n.in_language(lang) as written_in:
        for env, ext in ((ctx.text, "txt"), (ctx.html, "html")):
            parts.append(env.get_template(f"mail/{kind}.{ext}").render(**values,
                                                                     lang=written_in))
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


def move_label(rules: Any, state: State, seat_index: int, move: str, lang: str,
               names: list[str] | None = None) -> str:
    """``move`` as the game's menu says it to a reader of ``lang`` ("Truppen ausspielen"
    for "play Truppen"); the notation where the menu does not offer it."""
    choice = rules.choice(state, seat_index, move, lang)
    if choice is None:
        return move
    return seat_text(choice.label, names) if names else choice.label


def menu_links(ctx: Context, game: Game, seat: Seat, state: State, lang: str,
               names: list[str] | None = None) -> Menu:
    """The seat's choices in ``lang``, each with its signed link (``names``: the seats'
    names, where the caller has them)."""
    rules = get_game(game.game)
    if names is None:
        names = names_of(Seat.of(game))
    links_ = [MenuLink(choice, move_url(ctx, game, seat, choice.move))
              for choice in named_choices(rules.menu(state, seat.index, lang), names)]
    groups: dict[str, int] = {}
    for link in links_:
        groups[link.choice.group] = groups.get(link.choice.group, 0) + 1
    return Menu(links_, list(groups.items()))


def queue_invite(ctx: Context, game: Game, seat: Seat, host: Player) -> None:
    token = ctx.signer.sign_link(links.INVITE, game=game.id, seat=seat.index,
                                 email=seat.invite_email)
    rules = get_game(game.game)
    # to an address that plays here already, the invitation is that player's mail: it
    # heeds their "stop all mail" and offers List-Unsubscribe like every other
    invited = Player.get_or_none(Player.email == seat.invite_email)
    lang = invite_language(seat.invite_email, host)
    seats = Seat.of(game)
    text, html = render_mail(ctx, "invite", lang, game=game, title=game_title(game),
                             rules=rules, host=host.name, url=ctx.url(f"/i/{token}"),
                             names=names_of(seats), clock=clock_words(game, lang),
                             never_url=None if invited else never_url(ctx, seat.invite_email))
    subject = say(phrase("{host} invites you to {title}", host=host.name,
                         title=game_title(game)), lang)
    queue(ctx, kind="invite", to=invited or seat.invite_email, subject=subject, text=text,
          html=html, game=game)


def clock_words(game: Game, lang: str) -> str:
    """The game's clock in one sentence, in ``lang``."""
    with i18n.in_language(lang):
        return clock.describe_policy(game.clock) if game.clock else ""


def queue_confirm(ctx: Context, player: Player, game: Game, held_days: int | None = None) -> None:
    """Ask a creator to confirm their address before their game starts or its invitations
    go out; ``held_days``: how long a held game waits for it."""
    lang = language_of(player)
    text, html = render_mail(ctx, "confirm", lang, player=player, game=game,
                             title=game_title(game), url=confirm_url(ctx, player),
                             held_days=held_days)
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
              game=game, seats=seats)


def queue_turn(ctx: Context, game: Game, seat: Seat, seats: list[Seat], state: State,
               now: datetime | None = None, known: Known | None = None,
               later: bool = False, batch: list[dict[str, Any]] | None = None) -> None:
    """The mail that asks ``seat`` to act: its view, what happened since its last turn,
    and its menu as links.  ``known``: as ``queue`` takes it, for all the turn mails of
    one change.  ``later``: only the row now, its body written by the next tick
    (``pbem.mail.later``), so that a player's click does not wait for the next player's
    mail; a digest reader's is written at once (it is never sent as itself).  ``batch``:
    as ``queue`` takes it, for a row written later."""
    later = later and not seat.player.digest
    body = TurnBody("", "", None, None) if later else turn_body(ctx, game, seat, seats, state)
    queue(ctx, kind="turn", to=seat.player, subject=body.subject, text=body.text,
          html=body.html, game=game, now=now, seats=seats, turn_of=seat, reply_of=seat,
          reply_moves=reply_moves(body.menu) if body.menu is not None else [], known=known,
          pending=later, batch=batch)
    body.keep(game, seat)


def reply_moves(menu: Menu) -> list[str]:
    """The notations a reply's numbers name, in the mail's order: a short menu's (a long
    one is answered from the seat page, not by number)."""
    return [link.choice.move for link in menu] if menu.short else []


class TurnBody(NamedTuple):
    """A "your move" mail's subject line, text, HTML and menu, and the table it shows
    (``picture_key``, SVG, words, the menu's choices; ``None`` without a picture), which
    the confirm page of its links shows as the mail did once it is kept with the mail
    (``keep``)."""

    subject: str
    text: str
    html: str | None
    menu: Menu | None
    table: tuple[tuple[Any, ...], str, str, list[Choice]] | None = None

    def keep(self, game: Game, seat: Seat) -> None:
        """Keep the table for the confirm page, in the transaction that keeps the mail."""
        if self.table is not None:
            keep_table(game, seat.index, *self.table)


def turn_body(ctx: Context, game: Game, seat: Seat, seats: list[Seat], state: State
              ) -> TurnBody:
    """A "your move" mail for ``seat`` at ``state`` (drawn, nothing written)."""
    rules = get_game(game.game)
    names = names_of(seats)
    view = rules.view(state, seat.index)
    lang = language_of(seat.player)
    menu = menu_links(ctx, game, seat, state, lang, names)
    key = picture_key(game, seats, seat.index, names, lang)
    view_text = rules.render_text(view, names, lang)
    # a turn mail held for the digest is never sent as itself: no picture to store
    drawn = None if seat.player.digest else table_picture(rules, view, names, lang,
                                                          game_title(game), key)
    values = dict(
        game=game, title=game_title(game), rules=rules, seat=seat, names=names,
        view=view, view_text=view_text,
        recent=history.seat_history(game, seat.index, in_turn=True, lang=lang),
        moves=menu, by_reply=ctx.config.getbool("inbound", "replies"),
        seat_url=seat_url(ctx, game, seat), deadline=seat.deadline,
        deadline_local=format_local(seat.deadline, seat.player.timezone, lang),
        secret=rules.is_secret(state), picture=drawn,
    )
    text, html = render_mail(ctx, "turn", lang, **values)
    subject = say(phrase("{title}: your move", title=game_title(game)), lang)
    return TurnBody(subject, text, html, menu,
                    None if drawn is None else (key, drawn.svg, view_text,
                                                [link.choice for link in menu]))


def queue_result(ctx: Context, game: Game, seats: list[Seat], state: State,
                 now: datetime | None = None) -> None:
    forget_tables(game)  # its turn mails' tables (``keep_table``): no link plays any more
    rules = get_game(game.game)
    names = names_of(seats)
    result = rules.result(state)
    view = rules.view(state, SPECTATOR)
    standings: dict[str, Any] = {}  # its words (details, tie-breakers): per language
    pictures: dict[str, Picture | None] = {}  # the same final table: drawn once per language
    for seat in seats:
        if seat.player_id is None:
            continue
        lang = language_of(seat.player)
        if lang not in pictures:
            pictures[lang] = table_picture(rules, view, names, lang, game_title(game),
                                           picture_key(game, seats, SPECTATOR, names, lang))
        if lang not in standings:
            standings[lang] = standing(result, names, lang)
        st = standings[lang]
        said = headline(st, lang)
        text, html = render_mail(ctx, "result", lang, game=game, title=game_title(game),
                                 names=names, seat=seat, result=result, standing=st,
                                 headline=said,
                                 winner_names=[names[w] for w in result.winners],
                                 view_text=rules.render_text(view, names, lang),
                                 view=view, rules=rules, seat_url=seat_url(ctx, game, seat),
                                 picture=pictures[lang],
                                 archive_url=archive_url(ctx, game))
        subject = f"{game_title(game)}: {said}"
        queue(ctx, kind="result", to=seat.player, subject=subject, text=text, html=html,
              game=game, now=now, seats=seats)


def format_local(when: datetime | None, tz: str, lang: str = DEFAULT) -> str:
    """A UTC time as the reader's local time, e.g. 'Tue 24 Nov 2026, 18:00 (Europe/Berlin)'."""
    if when is None:
        return ""
    from zoneinfo import ZoneInfo

    local = when.replace(tzinfo=ZoneInfo("UTC")).astimezone(quiet.zone(tz))
    return format_local_time(local.replace(tzinfo=None), tz, lang)


@dataclass
class Answer:
    """What pbem answers a reply (``pbem.lifecycle.replies``): what it played, whether it
    took the words to the table, why it refused a line; the rest is read from the game."""

    played: list[str]
    talked: bool = False
    refused: str = ""
    refused_line: str = ""
    #: lines followed the refused one: none of them was played
    not_read: bool = False


def queue_answer(ctx: Context, game: Game, seat: Seat, answer: Answer,
                 now: datetime | None = None) -> Outbox | None:
    """The answer to a seat's reply, in its player's language: what was played (or why
    not) and what happens next; while the seat is to move, its choices now, numbered,
    with a fresh reply address for them."""
    rules = get_game(game.game)
    seats = Seat.of(game)
    names = names_of(seats)
    lang = language_of(seat.player)
    active = game.status == Game.ACTIVE and game.state is not None
    menu = (menu_links(ctx, game, seat, game.state, lang, names)
            if active and seat.in_turn and seat.index in rules.to_move(game.state) else None)
    waiting = [names[i] for i in rules.to_move(game.state)] if active else []
    text, html = render_mail(ctx, "answer", lang, game=game, title=game_title(game),
                             seat=seat, names=names, played=answer.played,
                             talked=answer.talked, refused=answer.refused,
                             refused_line=answer.refused_line, not_read=answer.not_read,
                             finished=game.status == Game.FINISHED, moves=menu,
                             waiting_for=waiting, seat_url=seat_url(ctx, game, seat))
    if answer.refused and not answer.played:
        subject = say(phrase("{title}: your reply was not played", title=game_title(game)),
                      lang)
    else:
        subject = say(phrase("{title}: your reply", title=game_title(game)), lang)
    return queue(ctx, kind="answer", to=seat.player, subject=subject, text=text, html=html,
                 game=game, now=now, seats=seats, reply_of=seat,
                 reply_moves=[link.choice.move for link in menu]
                 if menu is not None and menu.short else [])
