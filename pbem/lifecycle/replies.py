"""Play by reply: a player answers a mail, and the answer's first lines play or talk.

A mail of a seat carries a personal Reply-To (``compose.reply_address``) whose
token is signed like a link and names the game, the seat, the decision the mail
was sent for and the mail itself.  A reply to it from the seat's player plays
the choices its first paragraph names (a number of the mail's list, a label,
a notation), one step per line, each after the same checks as a link
(``moves.play`` with the mail's turn and menu version): up to the first line
refused.  A reply to a table-talk mail, or one whose first line begins with
"talk:", goes to the table (``talk.post``).  The player is answered in their
language (``compose.queue_answer``), at most ``[inbound] answers_per_hour`` times
an hour.

Each message is processed once: its key (``Inbound``) is written in the same
transaction as its moves, its talk and its answer, so a mail server delivering
it again, or a crash before the mail server heard "done", plays nothing twice,
and a crash before that commit loses nothing (the mail server retries).
Machine-written mail is ignored and never answered; a mail to no reply address
of ours, or from an address that is not the seat's player's, is ignored too
(from another player of ours it is refused, politely).
"""

from __future__ import annotations

import json
import logging
import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import peewee as pw

from pbem import i18n, links
from pbem.context import Context
from pbem.gamelog import history
from pbem.games import get_game
from pbem.games.protocol import MoveError, Rules
from pbem.games.render import named_choices, seat_text
from pbem.i18n import N_, gettext
from pbem.lifecycle import moves, talk
from pbem.mail import compose, inbound
from pbem.models import Game, Inbound, Move, Outbox, Player, Seat, utcnow, write_transaction
from pbem.sqlcache import Prepared

log = logging.getLogger("pbem.replies")

#: a reply plays at most this many lines (steps of one turn)
MAX_STEPS = 12
#: what marks a first line as words to the table, in the languages of our mails
_TALK = re.compile(r"^\s*(talk|say|table|sagen|sag|tisch)\s*:\s*", re.I)
#: a line that names a choice by its number: "2", "2.", "(2)", "#2"
_NUMBER = re.compile(r"^[#(]?\s*(\d{1,4})\s*[.):]?$")


@dataclass
class Result:
    """What became of a mail: ``outcome`` is played, talked, refused (answered, nothing
    changed), ignored (nothing written, nothing answered) or duplicate (seen before)."""

    outcome: str
    reason: str = ""
    played: int = 0
    answered: bool = False


@dataclass
class _Target:
    """The mail a reply answers, and its seat, as the reply's token names them."""

    mail: Outbox
    game: Game
    seat: Seat
    player: Player
    turn: int
    menu: int
    numbered: list[str]
    #: the player's link version the address was made with ("new links" revokes it)
    version: int


def receive(ctx: Context, raw: bytes, recipients: list[str] | tuple[str, ...] = (),
            now: datetime | None = None) -> Result:
    """Act on one mail that came in (``raw``: all of it; ``recipients``: the envelope's)."""
    now = now or utcnow()
    if len(raw) > ctx.config.getint("inbound", "max_bytes"):
        return Result("ignored", "too-large")
    mail = inbound.parse(raw, recipients)
    if mail.automatic:
        return Result("ignored", "automatic")
    if not mail.sender:
        return Result("ignored", "no-sender")
    target = _target(ctx, mail.tokens)
    if target is None:
        return Result("ignored", "stranger")
    if Inbound.select().where(Inbound.key == mail.key).exists():
        return Result("duplicate", "seen")
    if mail.sender != target.player.email.lower():
        # a player of the same table answered a mail that was not theirs (forwarded to
        # them, or a forged sender): they are told at their own seat, the seat's owner is
        # not disturbed; anyone else is a stranger
        own = (Seat.select().join(Player)
               .where(Seat.game == target.game.id, pw.fn.LOWER(Player.email) == mail.sender)
               .order_by(Seat.index).first())
        if own is None:
            return Result("ignored", "stranger")
        theirs = _Target(mail=target.mail, game=target.game, seat=own, player=own.player,
                         turn=own.turn_seq, menu=own.menu_seq, numbered=[],
                         version=own.player.link_version)
        with i18n.in_language(compose.language_of(own.player)):
            return _act(ctx, mail, theirs, now, refusal=gettext(
                "That mail was sent to another seat: a reply plays only for the player "
                "it was sent to. Nothing was played; answer your own mails."))
    if mail.problem is None and not mail.text:
        return Result("ignored", "empty")
    with i18n.in_language(compose.language_of(target.player)):
        return _act(ctx, mail, target, now)


def _target(ctx: Context, tokens: list[str]) -> _Target | None:
    """The first token that is ours and names a mail of ours to that seat's player."""
    for token in tokens:
        values = links.load_reply(ctx.signer, token)
        if values is None:
            continue
        mail = Outbox.get_or_none(Outbox.id == values["mail"])
        if (mail is None or mail.game_id != values["game"] or mail.player_id is None
                or not mail.reply_to or token not in mail.reply_to.lower()
                or not mail.choices):
            continue
        seat = Seat.get_or_none(Seat.game == values["game"], Seat.index == values["seat"])
        if seat is None or seat.player_id != mail.player_id:
            continue  # the seat changed hands since: that player's replies no longer count
        try:
            numbered = json.loads(mail.choices)
        except ValueError:
            continue
        return _Target(mail=mail, game=Game.get_by_id(values["game"]), seat=seat,
                       player=seat.player, turn=values["turn"], menu=values["menu"],
                       numbered=[m for m in numbered.get("moves", []) if isinstance(m, str)],
                       version=values["version"])
    return None


def _act(ctx: Context, mail: inbound.Inbound, target: _Target, now: datetime,
         refusal: str = "") -> Result:
    """Play, talk or refuse (``refusal``: why, decided already), all of it with the mail's
    key in one transaction."""
    try:
        with write_transaction():
            Inbound.create(key=mail.key, sender=mail.sender, received_at=now,
                           outcome="refused")
            answer, outcome, played = (
                (compose.Answer([], refused=refusal), "refused", 0) if refusal
                else _decide(ctx, mail, target, now))
            game = Game.get_by_id(target.game.id)
            seat = Seat.get_by_id(target.seat.id)
            answered = _may_answer(ctx, mail.sender, now) and compose.queue_answer(
                ctx, game, seat, answer, now) is not None
            Inbound.update(outcome=outcome, answered=answered).where(
                Inbound.key == mail.key).execute()
    except pw.IntegrityError:
        # the same message, arrived twice at once: the other one acted on it
        return Result("duplicate", "seen")
    return Result(outcome, answer.refused and "refused" or "", played, answered)


def _decide(ctx: Context, mail: inbound.Inbound, target: _Target,
            now: datetime) -> tuple[compose.Answer, str, int]:
    problem = _problem(ctx, mail, target, now)
    if problem:
        return compose.Answer([], refused=problem), "refused", 0
    first = mail.paragraph[0] if mail.paragraph else ""
    if target.mail.kind == "talk" or _TALK.match(first):
        return _talk(ctx, mail, target, now)
    return _play(ctx, mail.paragraph, target, now)


def _problem(ctx: Context, mail: inbound.Inbound, target: _Target, now: datetime) -> str:
    """Why the reply cannot be acted on at all, in the player's words, or ""."""
    if mail.problem == "html-only":
        return gettext("Your reply had no plain text we could read (only HTML): please "
                       "answer in plain text, or use the links of the mail.")
    if mail.problem == "charset":
        return gettext("Your reply was written in a character set we cannot read: please "
                       "answer in UTF-8 plain text, or use the links of the mail.")
    if mail.problem is not None:
        return gettext("We could not find the text of your reply: please answer in plain "
                       "text, or use the links of the mail.")
    if target.player.link_version != target.version:
        return gettext("Newer links have been mailed to you since this mail; please "
                       "answer your latest mail.")
    days = ctx.config.getint("links", "move_link_days")
    if target.mail.created_at < now - timedelta(days=days):
        return gettext("This mail is too old to be answered; please answer your latest "
                       "mail.")
    return ""


def _talk(ctx: Context, mail: inbound.Inbound, target: _Target,
          now: datetime) -> tuple[compose.Answer, str, int]:
    words = _TALK.sub("", mail.text, count=1)
    try:
        talk.post(ctx, Game.get_by_id(target.game.id), Seat.get_by_id(target.seat.id),
                  words, now)
    except talk.TalkError as exc:
        return compose.Answer([], refused=str(exc)), "refused", 0
    return compose.Answer([], talked=True), "talked", 0


def _play(ctx: Context, lines: list[str], target: _Target,
          now: datetime) -> tuple[compose.Answer, str, int]:
    played: list[str] = []
    lines = lines[:MAX_STEPS]
    if not lines:
        return compose.Answer([], refused=gettext(
            "Your reply named no choice: write its number on the first line.")), "refused", 0
    rules = get_game(target.game.game)
    lang = compose.language_of(target.player)
    for i, line in enumerate(lines):
        game = Game.get_by_id(target.game.id)
        seat = Seat.get_by_id(target.seat.id)
        refusal = None
        move = None
        if game.status != Game.ACTIVE or game.state is None:
            refusal = gettext("This game is not running any more.")
        else:
            move = choose(line, rules, game, seat, lang, target.numbered)
            if move is None:
                refusal = gettext("That is not one of your choices.")
        if move is not None:
            try:
                outcome = moves.play(ctx, game.id, seat.index, move,
                                     # the first step with the mail's decision, as its link;
                                     # the next ones where the first left the seat's menu
                                     menu_seq=target.menu if i == 0 else seat.menu_seq,
                                     turn_seq=target.turn, now=now)
            except moves.PlayError as exc:
                if exc.reason == "busy":
                    raise  # nothing is kept: the mail server tries again later
                refusal = _why(exc)
            else:
                names = compose.names_of(Seat.of(game))
                played += [seat_text(history.said(row, seat.index, lang), names)
                           for row in outcome.moves if row.seat == seat.index
                           and row.kind == Move.PLAYER]
        if refusal is not None:
            answer = compose.Answer(played, refused=refusal, refused_line=line[:200],
                                    not_read=i + 1 < len(lines))
            return answer, "played" if played else "refused", len(played)
    return compose.Answer(played), "played", len(played)


_WHY = {
    "used": N_("This choice was played already from this mail; a mail's choice plays once."),
    "stale": N_("The decision this mail was sent for is over: the game has moved on since."),
    "gone": N_("This choice is no longer open: the table has changed since the mail was "
               "sent."),
}


def _why(exc: moves.PlayError) -> str:
    return gettext(_WHY[exc.reason]) if exc.reason in _WHY else str(exc)


def _fold(text: str) -> str:
    return " ".join(text.casefold().split())


def choose(line: str, rules: Rules, game: Game, seat: Seat, lang: str,
           numbered: list[str]) -> str | None:
    """The move ``line`` names: a number of the mail's list, a label of the seat's menu
    now (in the player's language or English), or a notation; None if none."""
    number = _NUMBER.match(line.strip())
    if number:
        n = int(number.group(1))
        return numbered[n - 1] if 1 <= n <= len(numbered) else None
    wanted = _fold(line.strip().rstrip("."))
    if not wanted:
        return None
    names = compose.names_of(Seat.of(game))
    for language in dict.fromkeys((lang, i18n.DEFAULT)):
        for choice in named_choices(rules.menu(game.state, seat.index, language), names):
            if _fold(choice.label) == wanted:
                return choice.move
    legal = rules.legal_moves(game.state, seat.index)
    for move in legal:
        if _fold(move) == wanted:
            return move
    try:
        parsed = rules.parse(line.strip())
    except (MoveError, ValueError):
        return None
    return parsed if parsed in legal else None


def _may_answer(ctx: Context, sender: str, now: datetime) -> bool:
    """Whether ``sender`` may get one more answer this hour (no loop with a robot that
    slipped past ``inbound.is_automatic``, no flood to an address)."""
    most = ctx.config.getint("inbound", "answers_per_hour")
    sent = (Inbound.select().where(Inbound.sender == sender, Inbound.answered == True,  # noqa: E712
                                   Inbound.received_at > now - timedelta(hours=1)).count())
    return sent < most


#: old rows one tick forgets at most (the rest goes in the next ticks)
FORGET_BATCH = 1000


#: the oldest mails received before a moment: every tick asks (its SQL built once)
_RECEIVED_BEFORE = Prepared(Inbound, lambda before: (
    Inbound.select(Inbound.id).where(Inbound.received_at < before)
    .order_by(Inbound.received_at).limit(FORGET_BATCH)), 1, dates=(0,))


def forget_old(ctx: Context, now: datetime) -> int:
    """Forget the mails that came in more than ``[inbound] keep_days`` ago (0: never), so
    the table does not grow for ever: a mail server retries a delivery for days, not
    weeks, and IMAP polling deletes what it handed over.  Their keys go through the
    index of ``received_at``, the oldest first, ``FORGET_BATCH`` a tick."""
    days = ctx.config.getint("inbound", "keep_days")
    if days <= 0:
        return 0
    old = [row.id for row in _RECEIVED_BEFORE.rows(now - timedelta(days=days))]
    if not old:  # the idle tick takes no write lock for it
        return 0
    with write_transaction():
        return Inbound.delete().where(Inbound.id.in_(old)).execute()


def describe(result: Result) -> dict[str, Any]:
    """A result as a log line's or a webhook's answer's fields."""
    return {"outcome": result.outcome, "reason": result.reason, "played": result.played,
            "answered": result.answered}
