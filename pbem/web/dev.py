"""Development only: read the mails of the folder transport in the browser.

With the embedded defaults every mail is written as a ``.eml`` file into the
instance's ``mail/`` folder instead of being sent.  ``/dev/mail`` lists them,
newest first, and shows each one: its text part with the links clickable,
and its HTML part in a sandboxed frame, so a newcomer can play a whole game
from the mails without a mail server.  A mail with a Reply-To (a turn mail, an answer, table talk)
can be answered from its page: the reply goes to pbem's LMTP listener
(``pbem.cli.lmtp``, which ``pbem serve`` starts) as a mail client's reply would reach
it through a mail server.  The blueprint is not registered in
production, where every ``/dev/`` path is a 404.
"""

from __future__ import annotations

import email
import email.policy
import re
import smtplib
import uuid
from email.message import EmailMessage
from pathlib import Path
from typing import Any

from flask import Blueprint, abort, render_template, request
from markupsafe import Markup, escape

from pbem.mail import flowed
from pbem.mail.picture import inline_cids
from pbem.models import Inbound
from pbem.web import context, csrf

bp = Blueprint("dev", __name__, url_prefix="/dev")

#: how many mails the list shows
LIST_LIMIT = 300
_NAME = re.compile(r"^[0-9A-Za-z][0-9A-Za-z._-]*\.eml$")
_URL = re.compile(r"https?://[^\s<>\"']+")


def _folder() -> Path:
    return context().config.mail_folder


def _read(path: Path) -> EmailMessage:
    return email.message_from_bytes(path.read_bytes(), policy=email.policy.default)


def _mail_path(name: str) -> Path:
    if not _NAME.match(name):
        abort(404)
    path = _folder() / name
    if not path.is_file():
        abort(404)
    return path


def _part(msg: EmailMessage, kind: str) -> str | None:
    body = msg.get_body(preferencelist=(kind,))
    if body is None or body.get_content_subtype() != kind:
        return None
    return flowed.text_of(body)  # as a reader's program shows it: long lines whole


def linkify(text: str) -> Markup:
    """Plain text as HTML with every http(s) URL a link; the rest escaped."""
    parts: list[Markup] = []
    pos = 0
    for match in _URL.finditer(text):
        parts.append(escape(text[pos:match.start()]))
        url = escape(match.group(0))
        parts.append(Markup(f'<a href="{url}">{url}</a>'))
        pos = match.end()
    parts.append(escape(text[pos:]))
    return Markup("").join(parts)


def _written(path: Path) -> tuple[str, int]:
    """Newest first: by the time in the name, then (same microsecond) by the file's time."""
    try:
        mtime = path.stat().st_mtime_ns
    except OSError:
        mtime = 0
    return path.name.split("-", 1)[0], mtime


#: the Message-ID of a game thread's root (``Game.thread_id``)
_THREAD_ROOT = re.compile(r"<game-\d+-[0-9a-f]+\.p\d+@")


def _says(msg: Any) -> str:
    """What a mail of a game's thread is (its subject is the game's): its first line."""
    if not (msg["In-Reply-To"] or _THREAD_ROOT.match(str(msg["Message-ID"] or ""))):
        return ""
    body = msg.get_body(preferencelist=("plain",))
    lines = flowed.text_of(body).splitlines() if body is not None else []
    return lines[0] if lines else ""


@bp.get("/mail")
def mail_list() -> Any:
    folder = _folder()
    names = [p.name for p in sorted(folder.glob("*.eml"), key=_written, reverse=True)] \
        if folder.is_dir() else []
    mails = []
    for name in names[:LIST_LIMIT]:
        try:
            msg = _read(folder / name)
        except OSError:
            continue  # removed meanwhile
        mails.append({"name": name, "to": str(msg["To"] or ""), "says": _says(msg),
                      "subject": str(msg["Subject"] or ""), "date": str(msg["Date"] or "")})
    config = context().config
    return render_template("pages/dev_mail_list.html", mails=mails, total=len(names),
                           folder=str(folder), transport=config.get("mail", "transport"),
                           smtp=f"{config.get('mail', 'smtp_host')}:"
                                f"{config.get('mail', 'smtp_port')}")


@bp.get("/mail/<name>")
def mail_show(name: str) -> Any:
    msg = _read(_mail_path(name))
    text = _part(msg, "plain")
    headers = [(h, str(msg[h])) for h in ("Date", "From", "To", "Subject", "Message-ID",
                                         "In-Reply-To", "Reply-To", "List-Unsubscribe") if msg[h]]
    return render_template("pages/dev_mail.html", name=name, headers=headers,
                           text=linkify(text) if text is not None else None,
                           has_html=_part(msg, "html") is not None,
                           reply_to=str(msg["Reply-To"] or ""), to=str(msg["To"] or ""))


#: the longest answer the form takes
ANSWER_MAX = 2000


def reply_of(msg: EmailMessage, text: str) -> EmailMessage:
    """The reply a mail client writes to ``msg``: ``text`` above the quoted mail."""
    reply = EmailMessage()
    reply["From"] = msg["To"]
    reply["To"] = msg["Reply-To"]
    reply["Subject"] = f"Re: {msg['Subject']}"
    reply["Message-ID"] = f"<dev-answer.{uuid.uuid4().hex}@localhost>"
    reply["In-Reply-To"] = msg["Message-ID"]
    reply["References"] = msg["Message-ID"]
    quoted = "\n".join(f"> {line}" for line in (_part(msg, "plain") or "").splitlines())
    reply.set_content(f"{text.strip()}\n\n{msg['From']} wrote:\n{quoted}\n",
                      cte="quoted-printable")
    return reply


@bp.post("/mail/<name>/answer")
def mail_answer(name: str) -> Any:
    """Answer a mail as its reader would: the reply goes to the LMTP listener."""
    msg = _read(_mail_path(name))
    here = f"/dev/mail/{name}"
    csrf.check(again_url=here)
    if not msg["Reply-To"]:
        abort(404)
    reply = reply_of(msg, request.form.get("text", "")[:ANSWER_MAX])
    config = context().config
    host, port = config.get("inbound", "lmtp_host"), config.getint("inbound", "lmtp_port")
    try:
        with smtplib.LMTP(host, port, timeout=30) as lmtp:
            lmtp.send_message(reply)
        sent, problem = True, ""
    except (OSError, smtplib.SMTPException) as exc:
        sent, problem = False, str(exc)
    row = Inbound.get_or_none(Inbound.key == reply["Message-ID"]) if sent else None
    return render_template("pages/dev_answered.html", name=name, lmtp=f"{host}:{port}",
                           sent=sent, problem=problem,
                           outcome=row.outcome if row is not None else "ignored"), \
        200 if sent else 409


@bp.get("/mail/<name>/html")
def mail_html(name: str) -> Any:
    """The HTML part alone, for the sandboxed frame: no scripts, links open the whole window."""
    msg = _read(_mail_path(name))
    html = _part(msg, "html")
    if html is None:
        abort(404)
    html = inline_cids(msg, html)  # the table's picture, sent as a related part
    html = re.sub(r"(<head[^>]*>)", r'\1<base target="_top">', html, count=1, flags=re.I)
    return html, 200, {
        "Content-Type": "text/html; charset=utf-8",
        "Content-Security-Policy": "sandbox allow-top-navigation-by-user-activation "
                                   "allow-popups allow-popups-to-escape-sandbox; "
                                   "script-src 'none'; frame-ancestors 'self'",
        "X-Frame-Options": "SAMEORIGIN",
    }
