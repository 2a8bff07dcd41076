"""A mail that came in, read defensively: who sent it, which reply address it went to,
what its writer put above the quoted mail, and whether a machine wrote it.

Nothing here trusts the mail: it may be huge, nested without end, in a charset
nobody knows, HTML alone, or a robot's out-of-office answer.  ``parse`` never
raises for what a sender can put in a mail; it says what it found
(``Inbound.problem``) and leaves the decision to ``pbem.lifecycle.replies``.
"""

from __future__ import annotations

import codecs
import email
import email.policy
import hashlib
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from email.header import decode_header, make_header
from email.message import Message
from email.utils import getaddresses

from pbem.mail import flowed

#: MIME parts nested deeper than this, or more parts than ``MAX_PARTS``: not read
MAX_DEPTH = 8
MAX_PARTS = 50
#: what we read of the text above the quote: lines, and characters
MAX_LINES = 40
MAX_CHARS = 4000
#: lines of a mail's text looked at for them (a bottom-poster's words follow the quote)
MAX_SCAN = 3000

#: a personal reply address: any local part, "+", the token (``links.sign_reply``)
_REPLY = re.compile(r"^[^@+\s]*\+(?P<token>\d{1,10}(?:-\d{1,10}){5}-[A-Za-z2-7]{16})@",
                    re.ASCII)
#: the line a mail client writes above the mail it quotes ("On … wrote:"), in the
#: languages our players write in and a few more
_QUOTE_INTRO = re.compile(
    r"(wrote|schrieb|a écrit|escribió|scrisse|schreef|skrev|napisał)\b[^:>]*>?\s*:\s*$",
    re.I)
_QUOTE_START = re.compile(r"^(On|Am|Le|El|Il|Op|Den|W dniu)\s", re.I)
_SEPARATORS = re.compile(
    r"^(-{2,}\s*(Original Message|Ursprüngliche Nachricht|Weitergeleitete Nachricht|"
    r"Forwarded message)\s*-{2,}|_{10,}|-- ?|(From|Von|De|Sent from my|Gesendet von)\b.*)$",
    re.I)
#: the Precedence of mail no person wrote
_BULK = {"bulk", "junk", "list", "auto_reply", "auto-reply"}
_AUTO_HEADERS = ("X-Autoreply", "X-Autorespond", "X-Auto-Reply", "X-Vacation",
                 "X-Autoresponder", "X-Mailer-Daemon")
_AUTO_SUBJECT = re.compile(r"^\s*(auto(matic)?[ -]?(reply|response|antwort)|out of (the )?"
                           r"office|abwesenheitsnotiz|abwesend|vacation|urlaub|"
                           r"undeliverable|delivery status notification|"
                           r"mail delivery failed|unzustellbar)\b|^\s*auto:", re.I)


@dataclass
class Inbound:
    """What a mail that came in says, as far as pbem cares."""

    #: what makes it this message: its Message-ID, else a digest of all of it
    key: str
    #: the From address in lower case ("" where there is none we can read)
    sender: str
    #: reply tokens of the addresses it went to (envelope first, then the headers)
    tokens: list[str] = field(default_factory=list)
    #: an auto-reply, a bounce, a list's mail: never acted on, never answered
    automatic: bool = False
    #: the lines above the quoted mail, first to last, blank lines kept
    lines: list[str] = field(default_factory=list)
    #: why its text could not be read: "html-only", "charset", "nested", "no-text"
    problem: str | None = None

    @property
    def paragraph(self) -> list[str]:
        """The first paragraph above the quote: the lines a reply's choices are on."""
        out: list[str] = []
        for line in self.lines:
            if not line.strip():
                if out:
                    break
                continue
            out.append(line.strip())
        return out

    @property
    def text(self) -> str:
        """All the writer's own words above the quote, one line each."""
        return "\n".join(line.strip() for line in self.lines).strip()


def message_key(msg: Message | None, raw: bytes) -> str:
    """The Message-ID if it looks like one (at most 200 characters), else a digest."""
    if msg is not None:
        try:
            mid = str(msg.get("Message-ID") or "").strip()
        except Exception:  # noqa: BLE001 - a header the parser cannot read
            mid = ""
        if 3 <= len(mid) <= 200 and mid.isascii() and mid.isprintable():
            return mid
    return "sha256:" + hashlib.sha256(raw).hexdigest()


def _header(msg: Message, name: str) -> str:
    """A header's text, its encoded words (RFC 2047) decoded; "" for one we cannot read."""
    try:
        value = msg.get(name)
        if value is None:
            return ""
        return str(make_header(decode_header(str(value))))
    except Exception:  # noqa: BLE001 - malformed: as if absent
        return ""


def _addresses(msg: Message, *names: str) -> list[str]:
    values = [_header(msg, n) for n in names]
    try:
        return [addr.strip().lower() for _name, addr in getaddresses(values) if addr]
    except Exception:  # noqa: BLE001
        return []


def reply_tokens(addresses: Iterable[str]) -> list[str]:
    """The tokens of the personal reply addresses among ``addresses``, in order, once."""
    found: list[str] = []
    for address in addresses:
        match = _REPLY.match(address.strip().strip("<>"))
        if match and match.group("token").lower() not in found:
            found.append(match.group("token").lower())
    return found


def is_automatic(msg: Message) -> bool:
    """Written by a machine (RFC 3834 and what vacation programs send in practice)."""
    auto = _header(msg, "Auto-Submitted").strip().lower()
    if auto and auto != "no":
        return True
    if _header(msg, "Precedence").strip().lower() in _BULK:
        return True
    if any(_header(msg, h) for h in _AUTO_HEADERS):
        return True
    if _header(msg, "List-Id") or _header(msg, "List-Unsubscribe"):
        return True  # a mailing list's copy: not the player writing to us
    if _header(msg, "X-Auto-Response-Suppress").strip().lower() in ("all", "oof"):
        return True  # Exchange marks its out-of-office answers so
    if _header(msg, "Return-Path").strip() == "<>":
        return True  # a bounce
    if msg.get_content_type() == "multipart/report":
        return True
    return bool(_AUTO_SUBJECT.search(_header(msg, "Subject")))


def _text_part(msg: Message) -> tuple[Message | None, str | None]:
    """The first text/plain part that is not an attachment, or why there is none."""
    stack: list[tuple[Message, int]] = [(msg, 0)]
    seen = 0
    html = False
    while stack:
        part, depth = stack.pop(0)
        seen += 1
        if depth > MAX_DEPTH or seen > MAX_PARTS:
            return None, "nested"
        if part.is_multipart():
            payload = part.get_payload()
            if isinstance(payload, list):
                stack[0:0] = [(p, depth + 1) for p in payload if isinstance(p, Message)]
            continue
        kind = part.get_content_type()
        disposition = _header(part, "Content-Disposition").lower()
        if disposition.startswith("attachment"):
            continue
        if kind == "text/plain":
            return part, None
        if kind == "text/html":
            html = True
    return None, "html-only" if html else "no-text"


def _decoded(part: Message) -> tuple[str | None, str | None]:
    charset = (part.get_content_charset() or "us-ascii").strip().lower()
    try:
        codecs.lookup(charset)
    except (LookupError, ValueError):
        return None, "charset"
    try:
        payload = part.get_payload(decode=True)
    except Exception:  # noqa: BLE001 - a broken transfer encoding
        return None, "charset"
    if not isinstance(payload, bytes):
        return None, "no-text"
    try:
        return payload.decode(charset, errors="replace"), None
    except (LookupError, ValueError):
        return None, "charset"


def above_quote(text: str) -> list[str]:
    """The writer's own lines: those above the mail they answer (and above their
    signature); where they wrote below it instead (bottom-posting), the first own lines
    after the quote."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    out: list[str] = []
    for i, line in enumerate(lines[:MAX_SCAN]):
        stripped = line.strip()
        if line in ("-- ", "--"):
            break  # the signature
        own = any(x.strip() for x in out)
        quoting = (stripped.startswith(">") or bool(_QUOTE_INTRO.search(stripped))
                   or bool(_QUOTE_START.match(stripped) and i + 1 < len(lines)
                           and _QUOTE_INTRO.search(lines[i + 1].strip())))
        if quoting or (own and _SEPARATORS.match(stripped)):
            if own:
                break
            out = []  # nothing of the writer's yet: their words may follow the quote
            continue
        out.append(line.rstrip())
        if len(out) >= MAX_LINES or sum(len(x) for x in out) > MAX_CHARS:
            break
    return out


def parse(raw: bytes, recipients: Iterable[str] = ()) -> Inbound:
    """What ``raw`` (a whole message) says; ``recipients``: the envelope's, where known."""
    try:
        msg = email.message_from_bytes(raw, policy=email.policy.compat32)
    except Exception:  # noqa: BLE001 - unreadable: a key of its bytes, nothing else
        return Inbound(key=message_key(None, raw), sender="", problem="no-text")
    senders = _addresses(msg, "From")
    mail = Inbound(key=message_key(msg, raw), sender=senders[0] if len(senders) == 1 else "",
                   tokens=reply_tokens([*recipients, *_addresses(
                       msg, "To", "Cc", "Delivered-To", "X-Original-To", "Envelope-To")]),
                   automatic=is_automatic(msg))
    part, problem = _text_part(msg)
    if part is None:
        mail.problem = problem
        return mail
    text, problem = _decoded(part)
    if text is None:
        mail.problem = problem
        return mail
    if flowed.is_flowed(part):  # as most mail programs send: long lines cut at spaces
        text = flowed.unflow(text, str(part.get_param("delsp", "")).lower() == "yes")
    mail.lines = above_quote(text)
    return mail
