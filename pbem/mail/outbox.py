"""Delivery of the outbox: claim due mails, send them, retry with backoff.

A tick claims each mail with a conditional UPDATE before sending it, so two
ticks running at once (two processes, two nodes) never send the same mail;
a tick that dies after claiming leaves the claim to expire, and the mail is
sent by a later tick.  A mail is marked sent only after the transport
accepted it, so delivery is at least once: a crash between the two sends the
mail again, with the same Message-ID.
"""

from __future__ import annotations

import email.errors
import email.policy
import logging
import os
import re
import smtplib
import ssl
import tempfile
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from email.headerregistry import Address, HeaderRegistry, UnstructuredHeader
from email.message import EmailMessage
from email.utils import format_datetime
from pathlib import Path
from typing import Protocol

from pbem.config import Config
from pbem.i18n import DEFAULT, supported
from pbem.mail import flowed, talk
from pbem.mail.kinds import list_id
from pbem.mail.picture import split_html
from pbem.models import Outbox, Player, Seat, db, utcnow
from pbem.sqlcache import Prepared
from pbem.time import quiet

log = logging.getLogger(__name__)

#: how long a claim keeps other ticks away from a mail being sent
CLAIM_SECONDS = 300


def _header_safe(text: str) -> str:
    """One line, no control characters: nothing a player typed can add a header.

    "=?" opens an RFC 2047 encoded word, which the header parser decodes (a name
    typed as ``=?utf-8?q?=0D=0ABcc:...?=`` would become a line break and a header
    on Pythons without the fix for CVE-2024-6923, and a different name on any):
    a space after "=" keeps typed text as typed.
    """
    line = " ".join("".join(c if c.isprintable() else " " for c in text).split())
    return line.replace("=?", "= ?")


#: the language our mail layout declares on its root element
_HTML_LANG = re.compile(r'<html lang="([A-Za-z-]{2,8})"')


def content_language(mail: Outbox) -> str:
    """The language the mail is written in, as the template it was rendered from declared it.

    The HTML part's root says it (``templates/mail/_layout.html``): the row keeps what
    was rendered, so the header agrees with the words even if the player has chosen
    another language since, and the outbox needs no column for it.
    """
    found = _HTML_LANG.search((mail.html_body or "")[:500])
    return supported(found.group(1)) if found else DEFAULT


class _Verbatim(UnstructuredHeader):
    """A header made of our own tokens (a URL in angle brackets, message ids), sent as it is.

    The default folder writes a token longer than a line as RFC 2047 encoded words
    (``=?utf-8?q?=3Chttps=3A//...``): right for words, wrong for the URL of
    List-Unsubscribe (RFC 2369), which providers read without decoding, so one-click
    unsubscribe would break for any real (longer) base URL.  A line may be 998
    characters long; a value that is not plain printable ASCII is folded as usual.
    """

    def fold(self, *, policy: email.policy.Policy) -> str:
        value = str(self)
        if value.isascii() and value.isprintable() and len(self.name) + len(value) < 990:
            return f"{self.name}: {value}{policy.linesep}"
        return super().fold(policy=policy)


_HEADERS = HeaderRegistry()
for _name in ("List-Unsubscribe", "List-Id", "In-Reply-To", "References"):
    _HEADERS.map_to_type(_name, _Verbatim)
#: the default policy, but with our own tokens written verbatim
POLICY = email.policy.default.clone(header_factory=_HEADERS)


def build_message(mail: Outbox, config: Config, sent_at: datetime | None = None) -> EmailMessage:
    """The message of an outbox row, dated ``sent_at`` (when it goes out) or when queued.

    A mail held back by quiet hours or a retry is dated when it leaves: dated when
    it was queued, it would arrive as if written in the recipient's night.
    """
    msg = EmailMessage(policy=POLICY)
    msg["From"] = Address(display_name=_header_safe(config.get("mail", "from_name")),
                          addr_spec=config.get("mail", "from_address"))
    msg["To"] = Address(display_name=_header_safe(mail.to_name), addr_spec=mail.to_address)
    msg["Subject"] = _header_safe(mail.subject)
    msg["Message-ID"] = mail.message_id
    msg["Date"] = format_datetime((sent_at or mail.created_at).replace(tzinfo=UTC))
    if mail.in_reply_to:
        msg["In-Reply-To"] = mail.in_reply_to
        msg["References"] = mail.in_reply_to
    # each kind of mail is a list of its own, with its own one-click unsubscribe (RFC 2919,
    # RFC 8058): a reader, or their provider, stops one kind and keeps the others
    msg["List-Id"] = list_id(mail.kind, config)
    if mail.unsubscribe_url:
        msg["List-Unsubscribe"] = f"<{mail.unsubscribe_url}>"
        msg["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    if mail.reply_to:  # our own token: plain ASCII (``compose.reply_address``)
        msg["Reply-To"] = mail.reply_to
    msg["Auto-Submitted"] = "auto-generated"
    # lines of at most 78 characters that the reader's program joins to its width
    flowed.set_text(msg, mail.text_body)
    if mail.html_body:
        # the table's picture is stored in the row as a data: URI; sent as a related
        # part named by cid: (mail clients block data: images)
        local = mail.message_id.strip("<>")
        html, images = split_html(mail.html_body, lambda n: f"table{n}.{local}")
        msg.add_alternative(html, subtype="html")
        html_part = msg.get_payload()[-1]
        for cid, png in images:
            html_part.add_related(png, maintype="image", subtype="png", cid=f"<{cid}>",
                                  filename="table.png", disposition="inline")
    # last: setting the content clears Content-* headers, and making it multipart moves
    # them into the first part
    msg["Content-Language"] = content_language(mail)
    return msg


class Transport(Protocol):
    def send(self, message: EmailMessage) -> None: ...


@dataclass
class FolderTransport:
    """Writes each mail as ``<n>.eml`` into a folder: the embedded default for development."""

    folder: Path

    def send(self, message: EmailMessage) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        stamp = utcnow().strftime("%Y%m%dT%H%M%S%f")
        ident = message["Message-ID"].strip("<>").split("@")[0]
        fd, tmp = tempfile.mkstemp(dir=self.folder, suffix=".tmp")
        with os.fdopen(fd, "wb") as fh:
            fh.write(bytes(message))
        os.replace(tmp, self.folder / f"{stamp}-{ident}.eml")


@dataclass
class SMTPTransport:
    host: str
    port: int
    user: str = ""
    password: str = ""
    starttls: bool = False
    timeout: float = 20

    def send(self, message: EmailMessage) -> None:
        with smtplib.SMTP(self.host, self.port, timeout=self.timeout) as smtp:
            if self.starttls:
                smtp.starttls(context=ssl.create_default_context())
            if self.user:
                smtp.login(self.user, self.password)
            smtp.send_message(message)


def transport_from_config(config: Config) -> Transport:
    if config.get("mail", "transport") == "smtp":
        return SMTPTransport(
            host=config.get("mail", "smtp_host"),
            port=config.getint("mail", "smtp_port"),
            user=config.get("mail", "smtp_user"),
            password=config.get("mail", "smtp_password"),
            starttls=config.getbool("mail", "smtp_starttls"),
            timeout=float(config.get("mail", "smtp_timeout")),
        )
    return FolderTransport(config.mail_folder)


#: the mails due at a moment (one value in two places): every tick asks, mostly for none
#: (its SQL built once: peewee building it again was the dearest part of an idle tick)
_DUE = Prepared(Outbox, lambda now, limit: (
    Outbox.select(Outbox.id)
    .where(Outbox.sent_at.is_null(), Outbox.failed_at.is_null(), ~Outbox.digest,
           Outbox.composed,
           Outbox.not_before <= now,
           (Outbox.claimed_until.is_null()) | (Outbox.claimed_until < now))
    .order_by(Outbox.not_before, Outbox.id)
    .limit(limit)), 2, dates=(0,))


def due_mails(now: datetime, limit: int) -> list[Outbox]:
    return _DUE.rows(now, limit)


def claim(mail_id: int, now: datetime) -> bool:
    """Take one mail for this tick; False if another tick got it first."""
    return (Outbox.update(claimed_until=now + timedelta(seconds=CLAIM_SECONDS))
            .where(Outbox.id == mail_id, Outbox.sent_at.is_null(),
                   (Outbox.claimed_until.is_null()) | (Outbox.claimed_until < now))
            .execute()) == 1


def quiet_until(mail: Outbox, now: datetime) -> datetime | None:
    """When the recipient's quiet hours end, if ``now`` is inside them.

    A mail queued in the evening, retried after a failure or left by a tick
    that came late must still not arrive in the night.
    """
    if mail.player_id is not None:
        player = Player.get_or_none(Player.id == mail.player_id)
    else:  # an invitation to an address that may be a player's already
        player = Player.get_or_none(Player.email == mail.to_address)
    if player is None:
        return None
    later = quiet.deliverable_at(now, player.timezone, player.quiet_start, player.quiet_end)
    return later if later > now else None


def stale_turn(mail: Outbox, seats: list[Seat] | None = None) -> str | None:
    """Why a "your move" mail is no longer true, or None: the turn it asks for is over
    (the player moved on the seat page, a timeout played, the game ended) or the seat
    has another player now.  Its links would only answer "moved on".  ``seats``: the
    mail's game's table as just read (``Seat.of``, ``table_of``), not read again."""
    if mail.turn_seq is None or mail.seat_index is None or mail.game_id is None:
        return None
    if seats is not None:
        seat = next((s for s in seats if s.index == mail.seat_index), None)
    else:
        seat = (Seat.select(Seat.player, Seat.turn_seq, Seat.in_turn)
                .where(Seat.game == mail.game_id, Seat.index == mail.seat_index).first())
    if seat is None or seat.player_id != mail.player_id:
        return "not sent: the seat has another player now"
    if seat.turn_seq != mail.turn_seq or not seat.in_turn:
        return "not sent: the turn it asks for ended before delivery"
    return None


def deliver_due(config: Config, transport: Transport, now: datetime | None = None,
                limit: int = 200) -> dict[str, int]:
    """Send what is due; returns counts of ``sent``, ``retry``, ``failed``, ``deferred`` and
    ``skipped`` (a "your move" mail whose turn ended before it could go: ``stale_turn``)."""
    now = now or utcnow()
    counts = {"sent": 0, "retry": 0, "failed": 0, "deferred": 0, "skipped": 0}
    max_attempts = config.getint("mail", "max_attempts")
    backoff = config.getint("mail", "backoff_seconds")
    for row in list(due_mails(now, limit)):
        if not claim(row.id, now):
            continue
        mail = Outbox.get_by_id(row.id)
        stale = stale_turn(mail)
        if stale is not None:  # given up for good, the reason kept: never sent
            with db.atomic():  # the talk it carried waits for its reader again, at once
                (Outbox.update(failed_at=now, claimed_until=None, last_error=stale)
                 .where(Outbox.id == mail.id).execute())
                talk.give_back(mail, now)
            log.info("mail %s to player %s: %s", mail.id, mail.player_id, stale)
            counts["skipped"] += 1
            continue
        later = quiet_until(mail, now)
        if later is not None:  # the recipient's night: wait for their morning
            (Outbox.update(not_before=later, claimed_until=None)
             .where(Outbox.id == mail.id).execute())
            counts["deferred"] += 1
            continue
        try:
            message = build_message(mail, config, sent_at=now)
        except (ValueError, email.errors.MessageError) as exc:
            # no retry can make a message of this row (an address the header parser refuses):
            # give it up at once, and let the mails after it go
            (Outbox.update(attempts=mail.attempts + 1, claimed_until=None, failed_at=now,
                           last_error=f"cannot build the message: {type(exc).__name__}: "
                                      f"{exc}"[:2000])
             .where(Outbox.id == mail.id).execute())
            counts["failed"] += 1
            continue
        try:
            transport.send(message)
        except (OSError, smtplib.SMTPException) as exc:
            attempts = mail.attempts + 1
            gave_up = attempts >= max_attempts
            (Outbox.update(attempts=attempts, last_error=f"{type(exc).__name__}: {exc}"[:2000],
                           claimed_until=None,
                           not_before=now + timedelta(seconds=backoff * 2 ** (attempts - 1)),
                           failed_at=now if gave_up else None)
             .where(Outbox.id == mail.id).execute())
            counts["failed" if gave_up else "retry"] += 1
            continue
        (Outbox.update(sent_at=now, attempts=mail.attempts + 1, claimed_until=None,
                       last_error=None)
         .where(Outbox.id == mail.id).execute())
        counts["sent"] += 1
    return counts
