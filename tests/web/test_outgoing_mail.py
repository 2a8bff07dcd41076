"""Outgoing mail as a relay and a mailbox see it: who it is from, over an encrypted and
authenticated connection, marked as automatic; the folder of the embedded default;
and a relay that stays down.

The relay here is a real aiosmtpd server on loopback that, like a production relay,
accepts mail only after STARTTLS and a login, with a certificate made for the test.
"""

from __future__ import annotations

import email
import email.policy
import shutil
import ssl
import subprocess
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from email.message import EmailMessage
from pathlib import Path

import pytest
from freezegun import freeze_time
from web_helpers import free_port, table

from pbem.context import make_context
from pbem.lifecycle import create
from pbem.mail import flowed
from pbem.models import Outbox
from pbem.time.scheduler import tick

NOON = datetime(2026, 3, 2, 12, 0, 0)
#: aiosmtpd's event loop keeps the real clock; everything of ours sees the frozen one
REAL_TIME_FOR = ["asyncio", "aiosmtpd"]
USER, PASSWORD = "pbem-relay-user", "relay-password-42"


@pytest.fixture(scope="module")
def certificate(tmp_path_factory) -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1 (openssl; the suite has no crypto library)."""
    if shutil.which("openssl") is None:
        pytest.skip("a relay with STARTTLS needs a certificate: openssl is not installed")
    folder = tmp_path_factory.mktemp("relay-cert")
    cert, key = folder / "cert.pem", folder / "key.pem"
    made = subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
         "-nodes", "-keyout", str(key), "-out", str(cert), "-days", "2", "-subj", "/CN=pbem test",
         "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"],
        capture_output=True, text=True, timeout=60)
    if made.returncode != 0:
        pytest.skip(f"openssl could not make a test certificate: {made.stderr.strip()[:200]}")
    return cert, key


@dataclass
class Received:
    mail_from: str
    rcpt_tos: list[str]
    encrypted: bool
    login: str | None
    message: EmailMessage


@dataclass
class Relay:
    """A relay that wants STARTTLS and a login before it takes any mail."""

    host: str
    port: int
    received: list[Received] = field(default_factory=list)
    refused_logins: list[str] = field(default_factory=list)

    def authenticate(self, server, session, envelope, mechanism, auth_data):
        from aiosmtpd.smtp import AuthResult, LoginPassword

        if isinstance(auth_data, LoginPassword) and (
                auth_data.login.decode(), auth_data.password.decode()) == (USER, PASSWORD):
            return AuthResult(success=True, auth_data=USER)
        login = auth_data.login.decode() if isinstance(auth_data, LoginPassword) else "?"
        self.refused_logins.append(login)
        return AuthResult(success=False, handled=False)

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 - aiosmtpd's name
        self.received.append(Received(
            mail_from=envelope.mail_from, rcpt_tos=list(envelope.rcpt_tos),
            encrypted=session.ssl is not None,
            login=session.auth_data if session.authenticated else None,
            message=email.message_from_bytes(envelope.content, policy=email.policy.default)))
        return "250 OK"


@pytest.fixture
def relay(certificate, monkeypatch):
    from aiosmtpd.controller import Controller

    cert, key = certificate
    server_tls = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    server_tls.load_cert_chain(cert, key)
    # our side verifies the relay's certificate as it would a real one: trust this one
    monkeypatch.setenv("SSL_CERT_FILE", str(cert))
    sink = Relay("127.0.0.1", free_port())
    controller = Controller(sink, hostname=sink.host, port=sink.port, tls_context=server_tls,
                            require_starttls=True, authenticator=sink.authenticate,
                            auth_required=True, auth_require_tls=True)
    controller.start()
    try:
        yield sink
    finally:
        controller.stop()


def _ctx(tmp_path, instance: str = "instance", base_url: str = "http://pbem.test",
         **mail: str):
    return make_context(
        server={"instance": str(tmp_path / instance), "base_url": base_url},
        archive={"site_dir": str(tmp_path / "site")},
        mail=mail,
    )


def _relay_ctx(tmp_path, relay: Relay, **mail: str):
    settings = {"transport": "smtp", "smtp_host": relay.host, "smtp_port": str(relay.port),
                "smtp_starttls": "true", "smtp_user": USER, "smtp_password": PASSWORD,
                "from_address": "games@example.org", "from_name": "Visby by mail"}
    return _ctx(tmp_path, **{**settings, **mail})


def test_mail_leaves_from_our_address_over_starttls_with_the_relays_login(tmp_path, relay,
                                                                        database):
    """A relay that may send for the From domain accepts our mail only encrypted and
    logged in; mailboxes see our name and address, and that nobody typed the mail."""
    ctx = _relay_ctx(tmp_path, relay)
    with freeze_time(NOON, ignore=REAL_TIME_FOR):
        table(ctx, humans=3)
        queued = Outbox.select().count()
        assert queued >= 5
        assert tick(ctx)["mail"]["sent"] == queued
    assert relay.refused_logins == []
    assert len(relay.received) == queued
    rows = {r.message_id: r for r in Outbox.select()}
    for got in relay.received:
        msg = got.message
        assert got.encrypted and got.login == USER
        assert got.mail_from == "games@example.org"  # where bounces go
        assert str(msg["From"]) == "Visby by mail <games@example.org>"
        assert msg["From"].addresses[0].addr_spec == "games@example.org"
        assert got.rcpt_tos == [rows[msg["Message-ID"]].to_address]
        # RFC 3834: vacation responders and auto-replies do not answer it
        assert msg["Auto-Submitted"] == "auto-generated"


def test_a_relay_that_refuses_our_login_gets_nothing_and_the_mail_waits(tmp_path, relay,
                                                                       database):
    ctx = _relay_ctx(tmp_path, relay, smtp_password="not the password", backoff_seconds="60")
    with freeze_time(NOON, ignore=REAL_TIME_FOR):
        table(ctx)
        queued = Outbox.select().count()
        assert tick(ctx)["mail"]["retry"] == queued
    assert relay.received == [] and set(relay.refused_logins) == {USER}
    for row in Outbox.select():
        assert row.sent_at is None and row.failed_at is None and row.attempts == 1
        assert row.not_before == NOON + timedelta(seconds=60)
        assert row.last_error.startswith("SMTPAuthenticationError: (535")


def test_the_folder_transport_keeps_every_mail_of_a_tick_as_a_file_of_its_own(tmp_path,
                                                                            database):
    """The embedded default writes each mail into instance/mail/: several mails sent at
    the same instant are as many files, each the whole mail, and no half-written one."""
    # an instance folder of its own that does not exist yet (the database is elsewhere)
    ctx = _ctx(tmp_path, instance="new/instance")
    folder = tmp_path / "new" / "instance" / "mail"
    assert not folder.parent.exists()
    with freeze_time(NOON):
        table(ctx, humans=3)
        rows = list(Outbox.select())
        assert len(rows) >= 5
        assert tick(ctx)["mail"]["sent"] == len(rows)
    files = sorted(folder.iterdir())
    assert [f.suffix for f in files] == [".eml"] * len(rows)
    mails = [email.message_from_bytes(f.read_bytes(), policy=email.policy.default)
             for f in files]
    assert sorted(m["Message-ID"] for m in mails) == sorted(r.message_id for r in rows)
    for mail in mails:
        row = next(r for r in rows if r.message_id == mail["Message-ID"])
        assert mail["To"].addresses[0].addr_spec == row.to_address
        assert mail["Subject"] == row.subject
        # sent format=flowed: what the reader's program shows is the row's text
        plain = mail.get_body(preferencelist=("plain",))
        assert plain.get_param("format") == "flowed"
        long = [line for line in plain.get_content().splitlines()
                if len(line) > 78 and " " in line.strip()]
        assert not long
        assert flowed.text_of(plain) == row.text_body
    # the next tick writes the next mails beside them
    with freeze_time(NOON + timedelta(minutes=1)):
        Outbox.create(kind="notice", to_address="dora@example.org", subject="One more",
                      text_body="hello", message_id="<one-more@pbem>", created_at=NOON,
                      not_before=NOON)
        assert tick(ctx)["mail"]["sent"] == 1
    assert len(list(folder.iterdir())) == len(rows) + 1


def test_a_mail_the_relay_never_takes_is_given_up_after_max_attempts(tmp_path, smtp_server,
                                                                     database):
    """With ``max_attempts = 3`` a mail is tried three times, with a doubling wait, then
    given up with its last error kept for the operator; it never goes out later, and
    the mails queued after it are not held up."""
    ctx = _ctx(tmp_path, transport="smtp", smtp_host=smtp_server.host,
               smtp_port=str(free_port()), max_attempts="3", backoff_seconds="60")
    with freeze_time(NOON, ignore=REAL_TIME_FOR) as frozen:
        table(ctx)
        queued = Outbox.select().count()
        done = tick(ctx)["mail"]
        assert (done["retry"], done["failed"]) == (queued, 0)
        frozen.tick(timedelta(seconds=60))
        done = tick(ctx)["mail"]
        assert (done["retry"], done["failed"]) == (queued, 0)
        assert {r.not_before for r in Outbox.select()} == {NOON + timedelta(seconds=180)}
        frozen.tick(timedelta(seconds=119))
        assert tick(ctx)["mail"] == {"sent": 0, "retry": 0, "failed": 0, "deferred": 0,
                                     "skipped": 0}
        frozen.tick(timedelta(seconds=1))
        done = tick(ctx)["mail"]
        assert (done["retry"], done["failed"]) == (0, queued)
        for row in Outbox.select():
            assert row.attempts == 3 and row.sent_at is None
            assert row.failed_at == NOON + timedelta(seconds=180)
            assert row.last_error.startswith("ConnectionRefusedError: ")
            assert "Connection refused" in row.last_error  # what the operator reads

        # the relay is back: what was given up stays given up, a new mail goes
        ctx.config.values["mail"]["smtp_port"] = str(smtp_server.port)
        Outbox.create(kind="notice", to_address="dora@example.org", subject="Later",
                      text_body="hello", message_id="<later@pbem>",
                      created_at=frozen.time_to_freeze, not_before=NOON)
        frozen.tick(timedelta(days=1))
        assert tick(ctx)["mail"] == {"sent": 1, "retry": 0, "failed": 0, "deferred": 0,
                                     "skipped": 0}
    assert [m["Message-ID"] for m in smtp_server.messages] == ["<later@pbem>"]


def test_a_mail_to_someone_asleep_waits_for_their_morning_and_holds_up_no_other(
        tmp_path, smtp_server, database):
    """At noon UTC it is 04:00 in Los Angeles: Lucy's mails, and an invitation to her
    address, wait until 08:00 there; the mails queued after them go at once."""
    ctx = _ctx(tmp_path, transport="smtp", smtp_host=smtp_server.host,
               smtp_port=str(smtp_server.port))
    lucy = create.get_or_create_player("lucy@example.com", "Lucy",
                                       timezone="America/Los_Angeles")
    early = NOON - timedelta(hours=1)

    def mail(n: int, to: str, player=None, kind: str = "notice") -> Outbox:
        return Outbox.create(kind=kind, player=player, to_address=to, subject=f"Mail {n}",
                             text_body=f"mail {n}", message_id=f"<m{n}@pbem>",
                             created_at=early, not_before=early + timedelta(seconds=n))

    for_lucy = [mail(1, lucy.email, lucy), mail(2, lucy.email, kind="invite")]
    others = [mail(3, "anna@example.de"), mail(4, "kenji@example.jp")]
    with freeze_time(NOON, ignore=REAL_TIME_FOR) as frozen:
        assert tick(ctx)["mail"] == {"sent": 2, "retry": 0, "failed": 0, "deferred": 2,
                                     "skipped": 0}
        assert sorted(m["Message-ID"] for m in smtp_server.messages) == [
            o.message_id for o in others]
        morning = datetime(2026, 3, 2, 16, 0)  # 08:00 PST
        for row in for_lucy:
            row = Outbox.get_by_id(row.id)
            assert row.sent_at is None and row.attempts == 0 and row.failed_at is None
            assert row.not_before == morning and row.claimed_until is None
        frozen.move_to(morning - timedelta(minutes=1))
        assert tick(ctx)["mail"]["sent"] == 0
        frozen.move_to(morning)
        assert tick(ctx)["mail"] == {"sent": 2, "retry": 0, "failed": 0, "deferred": 0,
                                     "skipped": 0}
    assert len(smtp_server.messages) == 4


def test_a_very_long_unsubscribe_url_is_folded_so_that_relays_take_the_mail(
        tmp_path, smtp_server, sqlite_database):
    """RFC 5322 allows 998 characters a line: an operator's (absurdly) long base URL makes
    a List-Unsubscribe longer than that, which is then folded as any long header is,
    and mailboxes still read the whole URL. (SQLite only: PostgreSQL keeps at most 500
    characters of an unsubscribe URL, so there such a base URL fails earlier.)"""
    base = "https://example.org/" + "pbem/" * 200
    ctx = _ctx(tmp_path, base_url=base, transport="smtp", smtp_host=smtp_server.host,
               smtp_port=str(smtp_server.port))
    with freeze_time(NOON, ignore=REAL_TIME_FOR):
        table(ctx)
        assert tick(ctx)["mail"]["sent"] == Outbox.select().count()
    urls = {o.message_id: o.unsubscribe_url for o in Outbox.select() if o.unsubscribe_url}
    assert urls and all(len(u) > 1000 for u in urls.values())
    for raw, msg in zip(smtp_server.raw, smtp_server.messages, strict=True):
        head = raw.split(b"\r\n\r\n", 1)[0]
        assert max(len(line) for line in head.split(b"\r\n")) <= 998
        if msg["Message-ID"] in urls:
            assert str(msg["List-Unsubscribe"]) == f"<{urls[msg['Message-ID']]}>"


def test_a_mail_another_tick_took_first_is_left_to_it_and_the_others_go(tmp_path,
                                                                        smtp_server,
                                                                        database, monkeypatch):
    """Two schedulers (two nodes) pick the same due mails at once: each mail goes once,
    and the tick that lost the race for one mail sends the rest all the same."""
    from pbem.mail import outbox

    ctx = _ctx(tmp_path, transport="smtp", smtp_host=smtp_server.host,
               smtp_port=str(smtp_server.port))
    rows = [Outbox.create(kind="notice", to_address=f"p{n}@example.org", subject=f"Mail {n}",
                          text_body="hello", message_id=f"<race{n}@pbem>", created_at=NOON,
                          not_before=NOON + timedelta(seconds=n)) for n in range(3)]
    claim = outbox.claim

    def the_other_tick_was_faster(mail_id, now):
        if mail_id == rows[0].id:  # taken between this tick's query and its claim
            claim(mail_id, now)
            return False
        return claim(mail_id, now)

    monkeypatch.setattr(outbox, "claim", the_other_tick_was_faster)
    with freeze_time(NOON + timedelta(minutes=1), ignore=REAL_TIME_FOR):
        assert tick(ctx)["mail"] == {"sent": 2, "retry": 0, "failed": 0, "deferred": 0,
                                     "skipped": 0}
    assert sorted(m["Message-ID"] for m in smtp_server.messages) == [
        "<race1@pbem>", "<race2@pbem>"]
    assert Outbox.get_by_id(rows[0].id).sent_at is None  # the other tick's to send


def test_a_mail_that_cannot_be_made_is_given_up_after_one_attempt_saying_why(tmp_path,
                                                                             smtp_server,
                                                                             database):
    ctx = _ctx(tmp_path, transport="smtp", smtp_host=smtp_server.host,
               smtp_port=str(smtp_server.port))
    bad = Outbox.create(kind="invite", to_address="bob@example..org", subject="Hi",
                        text_body="hi", message_id="<bad@pbem>", created_at=NOON,
                        not_before=NOON)
    with freeze_time(NOON, ignore=REAL_TIME_FOR):
        assert tick(ctx)["mail"]["failed"] == 1
    bad = Outbox.get_by_id(bad.id)
    assert bad.attempts == 1 and bad.failed_at == NOON and bad.claimed_until is None
    # the operator reads what was wrong: the kind of error and its words
    kind = "cannot build the message: HeaderParseError: "
    assert bad.last_error.startswith(kind) and len(bad.last_error) > len(kind) + 5
