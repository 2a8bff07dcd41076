"""The SMTP relay is down: mail waits, is retried after the backoff, and goes out once."""

from __future__ import annotations

from datetime import datetime, timedelta

from freezegun import freeze_time
from web_helpers import free_port, table

from pbem.models import Outbox
from pbem.scheduler import tick

NOON = datetime(2026, 3, 2, 12, 0, 0)


def test_mail_waits_while_smtp_is_down_and_goes_once_after_backoff(smtp_ctx, smtp_server,
                                                                   database):
    mail = smtp_ctx.config.values["mail"]
    relay_port = mail["smtp_port"]
    mail["smtp_port"] = str(free_port())  # nothing listens there: connection refused
    # aiosmtpd's event loop keeps the real clock; everything of ours sees the frozen one
    with freeze_time(NOON, ignore=["asyncio", "aiosmtpd"]) as frozen:
        table(smtp_ctx, humans=2, bots=1)
        queued = Outbox.select().count()
        assert queued >= 4  # an invitation, two "started" and two turn mails

        assert tick(smtp_ctx)["mail"]["retry"] == queued
        assert smtp_server.messages == []
        for row in Outbox.select():
            assert row.sent_at is None and row.attempts == 1
            assert row.not_before == NOON + timedelta(seconds=60)
            assert "refused" in row.last_error.lower()

        mail["smtp_port"] = relay_port  # the relay is back, but the backoff is not over
        frozen.tick(timedelta(seconds=30))
        done = tick(smtp_ctx)["mail"]
        assert (done["sent"], done["retry"], done["failed"]) == (0, 0, 0)
        assert smtp_server.messages == []

        frozen.tick(timedelta(seconds=31))
        assert tick(smtp_ctx)["mail"]["sent"] == queued
        frozen.tick(timedelta(minutes=10))
        assert tick(smtp_ctx)["mail"]["sent"] == 0

    received = [m["Message-ID"] for m in smtp_server.messages]
    assert sorted(received) == sorted(r.message_id for r in Outbox.select())
    assert len(set(received)) == len(received) == queued
    assert all(r.attempts == 2 and r.sent_at is not None for r in Outbox.select())
