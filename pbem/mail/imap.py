"""IMAP polling of a mailbox for replies: for an operator whose mail server delivers the
replies into a mailbox rather than to pbem's LMTP listener.

At every tick (``pbem.time.scheduler``) ``poll`` reads the mailbox's messages, hands
each to a handler (``pbem.lifecycle.replies.receive``) and deletes it once handled.
A message the handler failed on stays for the next tick; one handled but not yet
deleted when the process died is handled again and found by its Message-ID, so it
plays once.  A message above ``[inbound] max_bytes`` is deleted unread.
"""

from __future__ import annotations

import imaplib
import logging
import re
import ssl
from collections.abc import Callable
from typing import Any

from pbem.config import Config

log = logging.getLogger("pbem.imap")

#: messages one tick reads at most (the rest waits for the next tick)
BATCH = 200
_SIZE = re.compile(rb"RFC822\.SIZE (\d+)")


def configured(config: Config) -> bool:
    return bool(config.get("inbound", "imap_host").strip())


def connect(config: Config) -> imaplib.IMAP4:
    host, port = config.get("inbound", "imap_host"), config.getint("inbound", "imap_port")
    if config.getbool("inbound", "imap_ssl"):
        return imaplib.IMAP4_SSL(host, port, ssl_context=ssl.create_default_context(),
                                 timeout=30)
    return imaplib.IMAP4(host, port, timeout=30)


def poll(config: Config, handle: Callable[[bytes], Any]) -> int:
    """Hand each message of the mailbox to ``handle`` and delete it; how many were handled.
    Nothing to do where no IMAP host is configured."""
    if not configured(config):
        return 0
    handled = 0
    imap = connect(config)
    try:
        imap.login(config.get("inbound", "imap_user"), config.get("inbound", "imap_password"))
        status, _data = imap.select(config.get("inbound", "imap_mailbox"))
        if status != "OK":
            raise imaplib.IMAP4.error(f"cannot select {config.get('inbound', 'imap_mailbox')}")
        _status, found = imap.uid("SEARCH", None, "UNDELETED")
        uids = (found[0] or b"").split()[:BATCH]
        most = config.getint("inbound", "max_bytes")
        for uid in uids:
            _status, sized = imap.uid("FETCH", uid, "(RFC822.SIZE)")
            size = _SIZE.search(b" ".join(x for x in sized if isinstance(x, bytes)) or b"")
            if size is None or int(size.group(1)) > most:
                log.info("imap: message %s is larger than %s bytes: deleted unread", uid, most)
            else:
                _status, fetched = imap.uid("FETCH", uid, "(BODY.PEEK[])")
                raw = next((part[1] for part in fetched
                            if isinstance(part, tuple) and len(part) == 2), b"")
                try:
                    handle(raw)
                except Exception:  # noqa: BLE001 - this one stays for the next tick
                    log.exception("imap: message %s failed; it stays for the next tick", uid)
                    continue
                handled += 1
            imap.uid("STORE", uid, "+FLAGS", "(\\Deleted \\Seen)")
        imap.expunge()
    finally:
        try:
            imap.logout()
        except (OSError, imaplib.IMAP4.error):
            pass
    return handled
