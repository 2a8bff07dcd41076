"""The LMTP listener for replies: the mail server hands each reply to pbem here.

``pbem serve`` starts it beside the web server (``[inbound] lmtp_port``, 0: none);
``pbem lmtp`` runs it alone.  A mail server delivers to it as to a mailbox
(Postfix: ``mailbox_transport`` or a ``transport`` map entry
``lmtp:inet:127.0.0.1:8025``; README "Replies").  Each message is acted on by
``pbem.lifecycle.replies.receive``; the listener says "delivered" (250) only once
that has committed, and "try again later" (451) if it failed, so a crash or a
busy database neither loses a reply nor plays it twice (its Message-ID is kept
with its moves).  What a sender puts in a mail never makes it answer 5xx: hostile,
automatic and strangers' mail is accepted and ignored.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import threading
from typing import Any

import click

from pbem.context import Context, make_context
from pbem.lifecycle import replies
from pbem.models import db, open_database

log = logging.getLogger("pbem.lmtp")

#: aiosmtpd stops reading a message this much above ``[inbound] max_bytes`` (memory);
#: between the two a mail is taken and ignored
HARD_LIMIT_FACTOR = 8


class ReplyHandler:
    """aiosmtpd's handler: every recipient is taken, every message goes to ``replies``."""

    def __init__(self, ctx: Context):
        self.ctx = ctx
        self.lock = threading.Lock()  # one reply at a time: each takes the write lock anyway

    async def handle_RCPT(self, server: Any, session: Any, envelope: Any, address: str,  # noqa: N802
                          rcpt_options: list[str]) -> str:
        envelope.rcpt_tos.append(address)
        return "250 2.1.5 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802
        raw = envelope.original_content or envelope.content or b""
        if isinstance(raw, str):
            raw = raw.encode("utf-8", "surrogateescape")
        loop = asyncio.get_running_loop()
        try:
            result = await loop.run_in_executor(None, self.receive, raw,
                                                list(envelope.rcpt_tos))
            status = "250 2.0.0 OK"
        except Exception:  # noqa: BLE001 - nothing was kept: the mail server tries again
            log.exception("lmtp: a reply failed; the mail server will deliver it again")
            status = "451 4.3.0 Try again later"
            result = None
        if result is not None:
            log.info("lmtp: %s", replies.describe(result))
        # LMTP answers once per recipient (RFC 2033); the message was acted on once
        return "\r\n".join([status] * max(1, len(envelope.rcpt_tos)))

    def receive(self, raw: bytes, recipients: list[str]) -> replies.Result:
        with self.lock:
            try:
                return replies.receive(self.ctx, raw, recipients)
            finally:
                db.close()  # this thread's connection back to the pool


def controller(ctx: Context, host: str | None = None, port: int | None = None) -> Any:
    """An (unstarted) aiosmtpd controller of the LMTP listener."""
    # aiosmtpd (and its asyncio machinery): only a process that listens pays for it
    from aiosmtpd.controller import Controller
    from aiosmtpd.lmtp import LMTP

    class LMTPController(Controller):
        def factory(self) -> LMTP:
            return LMTP(self.handler, **self.SMTP_kwargs)

        def _run(self, ready_event: threading.Event) -> None:
            super()._run(ready_event)
            # aiosmtpd's thread ends at once when it cannot bind (the port is taken)
            # without telling start(), which then waits out its whole ready_timeout
            # (5 s) before it raises the bind error: tell it that the thread is done
            ready_event.set()

        def _trigger_server(self) -> None:
            if self._thread_exception is not None:
                raise self._thread_exception  # the bind error, as start() raised it after 5 s
            super()._trigger_server()

    limit = ctx.config.getint("inbound", "max_bytes") * HARD_LIMIT_FACTOR
    return LMTPController(ReplyHandler(ctx),
                          hostname=host or ctx.config.get("inbound", "lmtp_host"),
                          port=port if port is not None
                          else ctx.config.getint("inbound", "lmtp_port"),
                          data_size_limit=limit, enable_SMTPUTF8=True,
                          ident="pbem LMTP")


def start_listener(ctx: Context) -> Any:
    """Start the listener of ``[inbound]`` in a thread; None where the port is 0 or taken
    (then it says so: the web server runs on without it)."""
    port = ctx.config.getint("inbound", "lmtp_port")
    if port == 0:
        return None
    listener = controller(ctx)
    try:
        listener.start()
    except (OSError, RuntimeError) as exc:
        click.echo(f"replies: the LMTP listener could not start on "
                   f"{listener.hostname}:{port} ({exc}); replies to mails are not taken "
                   f"here (set [inbound] lmtp_port)", err=True)
        return None
    click.echo(f"replies: LMTP on {listener.hostname}:{port}")
    return listener


@click.command("lmtp", help="Run the LMTP listener for replies to pbem's mails alone.")
@click.option("--host", default=None, help="address (default: [inbound] lmtp_host)")
@click.option("--port", type=int, default=None, help="port (default: [inbound] lmtp_port)")
def lmtp_cmd(host: str | None, port: int | None) -> None:
    ctx = make_context()
    open_database(ctx.config.database_url)
    db.close()  # the listener's thread opens its own connection
    listener = controller(ctx, host, port)
    listener.start()
    click.echo(f"replies: LMTP on {listener.hostname}:{listener.port} (Ctrl-C stops it)")
    stop = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stop.set())
    stop.wait()
    listener.stop()


def register(group: click.Group) -> None:
    group.add_command(lmtp_cmd)
