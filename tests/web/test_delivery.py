"""The SMTP relay is down: mail waits, is retried after the backoff, and goes out once."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from email.utils import parsedate_to_datetime

from freezegun import freeze_time
from markupsafe import escape
from web_helpers import finish, free_port, table

from pbem.context import make_context
from pbem.mail import flowed
from pbem.models import Outbox, Player
from pbem.time.scheduler import tick

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
    # dated when it went out, not when it was queued: a mail held back (here by the
    # backoff, at night by quiet hours) does not arrive dated hours in the past
    sent = NOON + timedelta(seconds=61)
    assert {parsedate_to_datetime(m["Date"]) for m in smtp_server.messages} == {
        sent.replace(tzinfo=UTC)}
    assert all(r.attempts == 2 and r.sent_at is not None for r in Outbox.select())


def test_a_mail_that_cannot_be_built_fails_alone_and_the_rest_goes(smtp_ctx, smtp_server,
                                                                  database):
    """A row no message can be made of (an address the header parser refuses) must not
    block the queue: before, every tick stopped at it and no mail after it left."""
    with freeze_time(NOON, ignore=["asyncio", "aiosmtpd"]) as frozen:
        bad = Outbox.create(kind="invite", to_address="bob@example..org", subject="Hi",
                            text_body="hi", message_id="<bad@pbem>", created_at=NOON,
                            not_before=NOON - timedelta(hours=1))
        table(smtp_ctx, humans=2)
        good = Outbox.select().where(Outbox.id != bad.id).count()
        done = tick(smtp_ctx)["mail"]
        assert (done["sent"], done["failed"]) == (good, 1)
        bad = Outbox.get_by_id(bad.id)
        assert bad.failed_at == NOON and bad.sent_at is None and "cannot build" in bad.last_error
        frozen.tick(timedelta(days=1))
        assert tick(smtp_ctx)["mail"] == {"sent": 0, "retry": 0, "failed": 0, "deferred": 0,
                                          "skipped": 0}
    assert len(smtp_server.messages) == good


def test_each_game_is_one_thread_and_every_player_mail_can_unsubscribe(smtp_ctx, smtp_server,
                                                                       app, database):
    """What the relay receives: text and HTML alternatives, one thread per game and player
    (the game's subject on every mail, the first one the root whose Message-ID the later
    ones refer to, ids in the sender's domain), and an RFC 8058 one-click unsubscribe
    that works with nothing but the header's URL."""
    smtp_ctx.config.values["mail"]["from_address"] = "games@play.example.org"
    with freeze_time(NOON, ignore=["asyncio", "aiosmtpd"]) as frozen:
        first = table(smtp_ctx, humans=2, seed=1)
        second = table(smtp_ctx, humans=2, seed=2)
        frozen.tick(timedelta(minutes=1))
        finish(smtp_ctx, second)
        done = tick(smtp_ctx)["mail"]
        # the turn mails of the game played to its end are no longer true: never sent
        stale = Outbox.select().where(Outbox.failed_at.is_null(False))
        assert done["skipped"] == stale.count() > 0
        assert {(m.kind, m.game_id) for m in stale} == {("turn", second.id)}
        assert done["sent"] == Outbox.select().count() - done["skipped"]
    threads: dict[tuple[str, str], list] = {}
    for msg in smtp_server.messages:
        assert msg.get_content_type() == "multipart/alternative"
        plain, html = msg.iter_parts()
        assert plain.get_content_type() == "text/plain"
        if html.get_content_type() == "multipart/related":  # with the table's picture
            assert [p.get_content_type() for p in html.iter_parts()] == ["text/html",
                                                                         "image/png"]
        else:
            assert html.get_content_type() == "text/html"
        assert msg["Message-ID"].endswith("@play.example.org>")
        if str(msg["To"]).startswith("Alice") or str(msg["To"]).startswith("Bob"):
            assert msg["List-Unsubscribe"].startswith("<http://pbem.test/u/")
            assert msg["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
        if str(msg["Subject"]).startswith("Alice invites you"):  # before the game: its own
            assert msg["In-Reply-To"] is None and msg["References"] is None
            continue
        address = msg["To"].addresses[0].addr_spec
        threads.setdefault((address, str(msg["Subject"])), []).append(msg)
    assert set(threads) == {(a, f"Visby #{g.id} — Alice, Bob") for a in
                            ("alice@example.org", "bob@example.org") for g in (first, second)}
    for (address, subject), mails in threads.items():
        game = first if subject.startswith(f"Visby #{first.id} ") else second
        player = Player.get(Player.email == address)
        root = game.thread_id("play.example.org", player.id)
        assert mails[0]["Message-ID"] == root and mails[0]["In-Reply-To"] is None
        assert len(mails) >= 2
        for later in mails[1:]:
            assert later["In-Reply-To"] == later["References"] == root != later["Message-ID"]
        # what each mail is stands in its first line, in the reader's words
        said = [flowed.text_of(m.get_body(preferencelist=("plain",))).splitlines()[0]
                for m in mails]
        title = f"Visby #{game.id}"
        assert said[0] == f"{title} has started"
        # the game played to its end before the tick: its "your move" mails were stale
        assert (f"{title}: your move" in said) == (game == first)
        if game == second:
            assert said[-1].startswith(f"{title}: ") and " with " in said[-1]
        for m, line in zip(mails, said, strict=True):  # the HTML part says it first too
            html = m.get_body(preferencelist=("html",)).get_content()
            assert escape(line) in html.split("<body", 1)[1].split("</p>", 1)[0]

    alice = next(m for m in smtp_server.messages if "alice@" in str(m["To"]))
    url = alice["List-Unsubscribe"].strip("<>").removeprefix("http://pbem.test")
    assert alice["List-Id"] == "pbem turns <turns.play.example.org>"
    response = app.test_client().post(url, data={"List-Unsubscribe": "One-Click"})
    assert response.status_code == 200
    # the one click stops the kind of mail it came with, and only that kind
    alice_now = Player.get(Player.email == "alice@example.org")
    assert alice_now.mail_enabled and alice_now.mail_off == "turns"


def test_a_long_unsubscribe_url_is_sent_as_it_is_not_as_encoded_words(tmp_path, smtp_server,
                                                                      database):
    """RFC 2369 wants the URL itself in angle brackets; a header folder that turns a long
    one into RFC 2047 encoded words (=?utf-8?q?=3Chttps...) breaks one-click unsubscribe,
    and production base URLs are longer than the tests' http://pbem.test."""
    base = "https://play-by-email.a-rather-long-domain-name.example.org/pbem"
    ctx = make_context(
        server={"instance": str(tmp_path / "instance"), "base_url": base},
        archive={"site_dir": str(tmp_path / "site")},
        mail={"transport": "smtp", "smtp_host": smtp_server.host,
              "smtp_port": str(smtp_server.port)})
    with freeze_time(NOON, ignore=["asyncio", "aiosmtpd"]):
        table(ctx, humans=2)
        tick(ctx)
    # each kind of mail has its own URL: found by the mail's Message-ID
    urls = {o.message_id: o.unsubscribe_url for o in Outbox.select() if o.unsubscribe_url}
    assert urls and smtp_server.raw
    for raw in smtp_server.raw:
        head = raw.split(b"\r\n\r\n", 1)[0].decode("ascii")
        ident = next(line for line in head.splitlines() if line.startswith("Message-ID:"))
        url = urls[ident.split(":", 1)[1].strip()]
        assert len(url) > 100
        assert f"\r\nList-Unsubscribe: <{url}>\r\n" in head, head
