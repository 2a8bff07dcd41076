"""The outbox as an operator sees it: driven by hand (``deliver_due`` without a time,
as a shell or a one-off script calls it) it sends what is due by the clock; a mail a
dead tick had taken goes out five minutes later, never sooner; one tick sends at most
200 mails and leaves the rest to the next."""

from __future__ import annotations

from datetime import datetime, timedelta

from freezegun import freeze_time

from pbem.mail.outbox import FolderTransport, claim, deliver_due
from pbem.models import Outbox

NOON = datetime(2026, 3, 2, 12, 0, 0)


def _queued(n: int, not_before: datetime) -> Outbox:
    return Outbox.create(kind="notice", to_address=f"someone{n}@example.org",
                         subject=f"Notice {n}", text_body="Hello.",
                         message_id=f"<notice-{n}@pbem.test>", created_at=NOON,
                         not_before=not_before)


def test_delivering_without_naming_a_time_sends_what_the_clock_says_is_due(
        ctx, sqlite_database, tmp_path):
    folder = tmp_path / "mails"
    with freeze_time(NOON) as frozen:
        now_mail = _queued(1, NOON)
        later_mail = _queued(2, NOON + timedelta(hours=1))
        assert deliver_due(ctx.config, FolderTransport(folder))["sent"] == 1
        assert Outbox.get_by_id(now_mail.id).sent_at == NOON
        assert Outbox.get_by_id(later_mail.id).sent_at is None
        assert [p.name.endswith("-notice-1.eml") for p in folder.iterdir()] == [True]
        frozen.tick(timedelta(hours=1))
        assert deliver_due(ctx.config, FolderTransport(folder))["sent"] == 1
        assert Outbox.get_by_id(later_mail.id).sent_at == NOON + timedelta(hours=1)
        assert len(list(folder.glob("*.eml"))) == 2


def test_a_mail_a_dead_tick_had_taken_goes_out_five_minutes_later_and_not_sooner(
        ctx, sqlite_database, tmp_path):
    """A tick that claimed a mail and died holds it for five minutes (a slow tick still
    sending it is not overtaken, so nobody gets it twice); after that the next tick sends it."""
    transport = FolderTransport(tmp_path / "mails")
    with freeze_time(NOON) as frozen:
        mail = _queued(1, NOON)
        assert claim(mail.id, NOON)  # the tick that died
        frozen.tick(timedelta(minutes=5))
        assert deliver_due(ctx.config, transport)["sent"] == 0
        frozen.tick(timedelta(seconds=1))
        assert deliver_due(ctx.config, transport)["sent"] == 1
        assert Outbox.get_by_id(mail.id).sent_at == NOON + timedelta(minutes=5, seconds=1)


def test_one_tick_sends_at_most_200_mails_and_the_next_tick_the_rest(
        ctx, sqlite_database, tmp_path):
    """A backlog (the relay was down for a day) drains 200 mails a tick, oldest first, so
    one tick never runs into the next or floods the relay."""
    transport = FolderTransport(tmp_path / "mails")
    with freeze_time(NOON):
        for n in range(201):
            _queued(n, NOON - timedelta(minutes=201 - n))
        assert deliver_due(ctx.config, transport)["sent"] == 200
        [left] = Outbox.select().where(Outbox.sent_at.is_null())
        assert left.subject == "Notice 200"  # the newest waits
        assert deliver_due(ctx.config, transport)["sent"] == 1
