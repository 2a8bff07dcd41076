"""A whole game played by replies alone through a real IMAP server: the replies land in
pbem's mailbox on Debian's Dovecot (its own unprivileged configuration on a free loopback
port, ``dovecot_support``), and each tick polls it (``pbem.mail.imap``)."""

from __future__ import annotations

from collections.abc import Iterator
from email.message import EmailMessage
from typing import Any

import dovecot_support
import pytest
from reply_helpers import PEOPLE, Player, humans, play_by_replies, reply_to, start_table
from web_helpers import latest_mail

from pbem.context import Context, make_context
from pbem.gamelog.records import replay
from pbem.lifecycle import replies
from pbem.lifecycle.records import game_record
from pbem.mail import imap
from pbem.models import Game, Inbound
from pbem.time.scheduler import tick


@pytest.fixture
def mailbox() -> Iterator[dovecot_support.Mailbox]:
    reason = dovecot_support.skip_reason()
    if reason:
        pytest.skip(reason)
    with dovecot_support.dovecot() as box:
        yield box


@pytest.fixture
def imap_ctx(tmp_path, smtp_server: Any, mailbox: dovecot_support.Mailbox) -> Context:
    return make_context(
        server={"instance": str(tmp_path / "instance"), "base_url": "http://pbem.test"},
        mail={"transport": "smtp", "smtp_host": smtp_server.host,
              "smtp_port": str(smtp_server.port)},
        inbound={"answers_per_hour": "100000", "imap_host": mailbox.host,
                 "imap_port": str(mailbox.port), "imap_ssl": "false",
                 "imap_user": mailbox.user, "imap_password": mailbox.password},
    )


def test_a_whole_tallinn_game_by_replies_through_imap(imap_ctx, smtp_server, mailbox,
                                                      database):
    game = start_table(imap_ctx, "tallinn", "imap-1")

    def deliver(reply: EmailMessage) -> None:  # the mail server files it in the mailbox
        mailbox.append(bytes(reply))

    players = [Player(smtp_server, a, deliver, i) for i, a in enumerate(PEOPLE)]
    play_by_replies(imap_ctx, game, players, cap=1500)
    game = Game.get_by_id(game.id)
    assert game.status == Game.FINISHED
    assert replay(game_record(game)) == game.state
    assert Inbound.select().where(Inbound.outcome == "played").count() == humans() > 20
    assert mailbox.count() == 0  # each reply was taken out of the mailbox once handled


def test_a_reply_left_in_the_mailbox_after_a_crash_plays_once(imap_ctx, mailbox, database,
                                                              monkeypatch):
    start_table(imap_ctx, "tallinn", "imap-2")
    mail = latest_mail(next(iter(PEOPLE)))
    raw = reply_to(mail, "1")
    mailbox.append(raw)
    mailbox.append(reply_to(mail, "1", sender="mallory@evil.example"))  # ignored
    # the tick handled the reply, then died before the mailbox heard of it
    monkeypatch.setattr(imap.imaplib.IMAP4, "expunge", _die)
    monkeypatch.setattr(imap.imaplib.IMAP4, "uid", _uid_dying_at_store)
    with pytest.raises(RuntimeError):
        imap.poll(imap_ctx.config, lambda raw: replies.receive(imap_ctx, raw))
    monkeypatch.undo()
    assert mailbox.count() == 2 and humans() == 1
    tick(imap_ctx)  # the next tick finds it again: its Message-ID is known, nothing plays
    assert mailbox.count() == 0
    assert humans() == 1 and Inbound.select().count() == 1


_REAL_UID = imap.imaplib.IMAP4.uid


def _uid_dying_at_store(self: Any, command: str, *args: Any) -> Any:
    if command == "STORE":
        raise RuntimeError("the process died")
    return _REAL_UID(self, command, *args)


def _die(self: Any) -> Any:
    raise RuntimeError("the process died")
