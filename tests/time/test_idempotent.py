"""tick is idempotent: twice at one instant, two at once, or again after dying half-way.

Mail goes to a real SMTP server (aiosmtpd on loopback); every test runs on
SQLite and on PostgreSQL.
"""

from __future__ import annotations

import socket
import threading
from collections import Counter
from datetime import timedelta

import pytest
from time_helpers import player, seat, table, utc

from pbem.context import make_context
from pbem.mail.outbox import CLAIM_SECONDS, SMTPTransport, transport_from_config
from pbem.models import Move, Notice, Outbox, db
from pbem.time import scheduler, steps

DEADLINE = utc("2026-03-03 09:00")  # one day per move from Mon 09:00 UTC


class Killed(BaseException):
    """The process dies here (kill -9 as far as the tick can tell: nothing catches it)."""


@pytest.fixture
def mail_ctx(tmp_path, smtp_server):
    return make_context(
        server={"instance": str(tmp_path / "instance"), "base_url": "http://pbem.test"},
        archive={"site_dir": str(tmp_path / "site")},
        mail={"transport": "smtp", "smtp_host": smtp_server.host,
              "smtp_port": str(smtp_server.port), "backoff_seconds": "60"},
    )


def _games(ctx, n: int = 3):
    """``n`` games of two players (Berlin, Tokyo) whom nobody moves for; no grace period."""
    games = []
    for k in range(n):
        a = player(f"anna{k}@example.de", f"Anna {k}", "Europe/Berlin")
        b = player(f"kenji{k}@example.jp", f"Kenji {k}", "Asia/Tokyo")
        games.append(table(ctx, [a, b], {"days": 1, "grace_hours": 0}, seed=k))
    return games


def _message_ids(smtp_server) -> Counter:
    return Counter(str(m["Message-ID"]) for m in smtp_server.messages)


def _assert_each_mail_once(smtp_server) -> None:
    ids = _message_ids(smtp_server)
    assert ids and max(ids.values()) == 1, [i for i, n in ids.items() if n > 1]
    sent = {m.message_id for m in Outbox.select().where(Outbox.sent_at.is_null(False),
                                                        ~Outbox.digest)}
    assert set(ids) == sent


def _assert_each_timeout_once(games) -> None:
    for game in games:
        for index in (0, 1):
            moves = Move.select().where(Move.game == game, Move.seat == index,
                                        Move.kind == Move.TIMEOUT)
            assert moves.count() == 2  # the two cards of the first round, once
            notes = Notice.select().where(Notice.game == game, Notice.seat == index,
                                          Notice.text.contains("default move was played"))
            assert notes.count() == 1
            assert seat(game, index).timeouts_in_row == 1


def test_two_ticks_at_the_same_instant_do_the_work_once(mail_ctx, database, frozen,
                                                        smtp_server):
    games = _games(mail_ctx)
    frozen.move_to(DEADLINE)
    first = scheduler.tick(mail_ctx, DEADLINE)
    second = scheduler.tick(mail_ctx, DEADLINE)
    assert first["timeouts"] == 6 and first["mail"]["sent"] > 0
    assert second["timeouts"] == 0 and second["reminders"] == 0
    assert second["mail"] == {"sent": 0, "retry": 0, "failed": 0, "deferred": 0, "skipped": 0}
    _assert_each_timeout_once(games)
    _assert_each_mail_once(smtp_server)


def test_two_ticks_running_at_once_do_the_work_once(mail_ctx, database, frozen, smtp_server):
    games = _games(mail_ctx, n=4)
    frozen.move_to(DEADLINE)
    start = threading.Barrier(2)
    errors: list[BaseException] = []
    reports: list[dict] = []

    def run() -> None:
        try:
            start.wait()
            reports.append(scheduler.tick(mail_ctx, DEADLINE))
        except BaseException as exc:  # noqa: BLE001 - reported to the test below
            errors.append(exc)
        finally:
            db.close()

    threads = [threading.Thread(target=run) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not errors
    assert all(r["timeouts"] != "failed" and r["mail"] != "failed" for r in reports)
    assert sum(r["timeouts"] for r in reports) == 8
    _assert_each_timeout_once(games)
    # anything one tick claimed while the other was sending goes out, once, at the latest
    # when the claim expires
    scheduler.tick(mail_ctx, DEADLINE + timedelta(seconds=CLAIM_SECONDS + 1))
    _assert_each_mail_once(smtp_server)
    # but a "your move" whose turn the timeouts ended, which is never sent
    assert not Outbox.select().where(Outbox.sent_at.is_null(), ~Outbox.digest,
                                     Outbox.not_before <= DEADLINE,
                                     Outbox.failed_at.is_null()).exists()


def test_a_tick_killed_while_sending_sends_each_mail_once_when_run_again(
        mail_ctx, database, frozen, smtp_server):
    _games(mail_ctx, n=2)
    real = transport_from_config(mail_ctx.config)
    calls = {"n": 0}

    class DiesOnThirdMail:
        def send(self, message):
            calls["n"] += 1
            if calls["n"] == 3:
                raise Killed()
            real.send(message)

    now = utc("2026-03-02 09:00")
    with pytest.raises(Killed):
        scheduler.tick(mail_ctx, now, transport=DiesOnThirdMail())
    assert len(smtp_server.messages) == 2
    again = scheduler.tick(mail_ctx, now)  # at once: the mail it held is still claimed
    assert again["mail"]["sent"] > 0
    later = scheduler.tick(mail_ctx, now + timedelta(seconds=CLAIM_SECONDS + 1))
    assert later["mail"]["sent"] == 1  # the claimed mail, after its claim ran out
    _assert_each_mail_once(smtp_server)
    assert not Outbox.select().where(Outbox.sent_at.is_null(), ~Outbox.digest,
                                     Outbox.not_before <= now).exists()


def test_a_tick_killed_in_the_middle_of_a_timeout_plays_it_once_when_run_again(
        mail_ctx, database, frozen, smtp_server, monkeypatch):
    games = _games(mail_ctx, n=2)
    frozen.move_to(DEADLINE)
    real_tell = steps.tell_table
    calls = {"n": 0}

    def dies_on_second_table(*args, **kwargs):
        calls["n"] += 1
        if calls["n"] == 2:  # inside the second seat's transaction, after its moves
            raise Killed()
        return real_tell(*args, **kwargs)

    monkeypatch.setattr(steps, "tell_table", dies_on_second_table)
    with pytest.raises(Killed):
        scheduler.tick(mail_ctx, DEADLINE)
    assert Move.select().where(Move.kind == Move.TIMEOUT).count() == 2  # the first seat only
    monkeypatch.setattr(steps, "tell_table", real_tell)
    done = scheduler.tick(mail_ctx, DEADLINE)
    assert done["timeouts"] == 3
    scheduler.tick(mail_ctx, DEADLINE)
    _assert_each_timeout_once(games)
    _assert_each_mail_once(smtp_server)


def test_smtp_failures_back_off_exponentially_and_the_mail_goes_once(mail_ctx, database,
                                                                      frozen, smtp_server):
    from time_helpers import table as make_table

    a = player("anna@example.de", "Anna", "Europe/Berlin")
    b = player("kenji@example.jp", "Kenji", "Asia/Tokyo")
    make_table(mail_ctx, [a, b], {"days": 3})
    Outbox.delete().where(Outbox.to_address != a.email).execute()
    pending = Outbox.select().where(Outbox.sent_at.is_null()).count()
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        dead_port = s.getsockname()[1]
    dead = SMTPTransport("127.0.0.1", dead_port, timeout=2)
    now = utc("2026-03-02 09:00")
    assert scheduler.tick(mail_ctx, now, transport=dead)["mail"]["retry"] == pending
    row = Outbox.select().where(Outbox.sent_at.is_null()).first()
    assert row.attempts == 1 and row.not_before == now + timedelta(seconds=60)
    assert scheduler.tick(mail_ctx, now + timedelta(seconds=30), transport=dead)["mail"][
        "retry"] == 0
    scheduler.tick(mail_ctx, now + timedelta(seconds=60), transport=dead)
    row = Outbox.get_by_id(row.id)
    assert row.attempts == 2 and row.not_before == now + timedelta(seconds=180)
    assert "ConnectionRefused" in row.last_error
    scheduler.tick(mail_ctx, now + timedelta(seconds=180), transport=dead)
    row = Outbox.get_by_id(row.id)  # 60, 120, 240 seconds: the wait doubles each time
    assert row.attempts == 3 and row.not_before == now + timedelta(seconds=420)
    sent = scheduler.tick(mail_ctx, now + timedelta(seconds=420))["mail"]["sent"]
    assert sent == pending
    _assert_each_mail_once(smtp_server)


def test_a_retry_that_would_land_in_the_night_waits_for_the_morning(mail_ctx, database, frozen,
                                                                    smtp_server):
    lucy = player("lucy@example.com", "Lucy", "America/Los_Angeles")
    anna = player("anna@example.de", "Anna", "Europe/Berlin")
    frozen.move_to(utc("2026-03-02 17:00"))  # 09:00 in Los Angeles
    table(mail_ctx, [anna, lucy], {"days": 3})
    mail = Outbox.get(Outbox.to_address == lucy.email, Outbox.kind == "turn")
    # the first attempt failed; its retry comes due at 23:30 in Los Angeles
    night = utc("2026-03-03 07:30")
    Outbox.update(not_before=night, attempts=1).where(Outbox.id == mail.id).execute()
    done = scheduler.tick(mail_ctx, night)
    assert done["mail"]["deferred"] >= 1
    mail = Outbox.get_by_id(mail.id)
    assert mail.sent_at is None and mail.not_before == utc("2026-03-03 16:00")  # 08:00 PST
    scheduler.tick(mail_ctx, utc("2026-03-03 16:00"))
    assert Outbox.get_by_id(mail.id).sent_at is not None


def test_an_imap_mailbox_that_cannot_be_reached_costs_one_line_and_no_other_step(
        tmp_path, database, frozen, smtp_server, caplog):
    # a port nobody listens on: the operator configured the mailbox, its server is down
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        closed = probe.getsockname()[1]
    ctx = make_context(
        server={"instance": str(tmp_path / "instance"), "base_url": "http://pbem.test"},
        archive={"site_dir": str(tmp_path / "site")},
        mail={"transport": "smtp", "smtp_host": smtp_server.host,
              "smtp_port": str(smtp_server.port)},
        inbound={"imap_host": "127.0.0.1", "imap_port": str(closed), "imap_ssl": "false"})
    games = _games(ctx, 1)
    frozen.move_to(DEADLINE)
    with caplog.at_level("WARNING", logger="pbem.time.scheduler"):
        done = scheduler.tick(ctx, DEADLINE)
    assert done["replies"] == "failed"
    assert done["timeouts"] == 2 and done["mail"]["sent"] > 0  # the rest of the tick ran
    _assert_each_timeout_once(games)
    said = [r for r in caplog.records if r.name == "pbem.time.scheduler"]
    assert len(said) == 1 and said[0].levelname == "WARNING", said
    assert "step replies failed: ConnectionRefusedError" in said[0].getMessage()
    assert said[0].exc_info is None  # one line for the operator, not a traceback
