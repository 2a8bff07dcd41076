"""Replies to pbem's mails, as mail clients write them, for the tests of play by reply."""

from __future__ import annotations

import itertools
from email.message import EmailMessage

from pbem.models import Outbox

_COUNT = itertools.count(1)


def reply_to(mail: Outbox, body: str, sender: str | None = None,
             to: str | None = None, **headers: str) -> bytes:
    """A plain-text reply to ``mail`` from its recipient (or ``sender``) with ``body``
    above the quoted mail, as a client writes it."""
    msg = EmailMessage()
    msg["From"] = sender or mail.to_address
    msg["To"] = to or mail.reply_to
    if "Subject" not in headers:
        msg["Subject"] = f"Re: {mail.subject}"
    msg["Message-ID"] = f"<reply-{next(_COUNT)}@client.example>"
    msg["In-Reply-To"] = mail.message_id
    for name, value in headers.items():
        msg[name.replace("_", "-")] = value
    quoted = "\n".join(f"> {line}" for line in mail.text_body.splitlines())
    msg.set_content(f"{body}\n\nOn Thu, 26 Nov 2026 at 17:00, pbem <pbem@localhost> "
                    f"wrote:\n{quoted}\n")
    return bytes(msg)
