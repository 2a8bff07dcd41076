"""The inbound-mail webhook (``pbem.web.inbound``): raw MIME behind a shared secret."""

from __future__ import annotations

import json

import pytest
from reply_helpers import reply_to
from web_helpers import latest_mail, snapshot, table

from pbem.context import make_context
from pbem.models import Move
from pbem.web import create_app

SECRET = "a-long-shared-secret"


@pytest.fixture
def hook_ctx(tmp_path):
    return make_context(server={"instance": str(tmp_path / "instance"),
                                "base_url": "http://pbem.test"},
                        archive={"site_dir": str(tmp_path / "site")},
                        inbound={"webhook_secret": SECRET})


def _post(client, raw: bytes, secret: str = SECRET, **headers: str):
    return client.post("/inbound/mail", data=raw, headers={
        "Authorization": f"Bearer {secret}", "Content-Type": "message/rfc822", **headers})


def test_a_reply_posted_to_the_webhook_plays_once(hook_ctx, database):
    table(hook_ctx)
    client = create_app(hook_ctx).test_client()
    mail = latest_mail("alice@example.org")
    raw = reply_to(mail, "3")
    first = _post(client, raw)
    assert first.status_code == 200 and first.json["outcome"] == "played"
    again = _post(client, raw)  # the provider posts it again (a lost answer, a retry)
    assert again.status_code == 200 and again.json["outcome"] == "duplicate"
    [move] = Move.select().where(Move.kind == Move.PLAYER)
    assert move.move == json.loads(mail.choices)["moves"][2]


def test_the_webhook_wants_its_secret_and_is_off_without_one(hook_ctx, ctx, database):
    table(hook_ctx)
    raw = reply_to(latest_mail("alice@example.org"), "3")
    before = snapshot()
    client = create_app(hook_ctx).test_client()
    assert _post(client, raw, secret="wrong").status_code == 401
    assert client.post("/inbound/mail", data=raw).status_code == 401
    assert create_app(ctx).test_client().post(
        "/inbound/mail", data=raw, headers={"Authorization": "Bearer "}).status_code == 404
    assert snapshot() == before


def test_hostile_posts_are_refused_or_ignored_never_a_5xx(hook_ctx, database):
    table(hook_ctx)
    client = create_app(hook_ctx).test_client()
    mail = latest_mail("alice@example.org")
    before = snapshot()
    huge = _post(client, reply_to(mail, "1\n" + "x" * 1_200_000))
    assert huge.status_code == 413
    for raw in (b"", b"\x00" * 1000, b"From: x\n\n" + b"--" * 40_000,
                reply_to(mail, "1", sender="mallory@evil.example"),
                reply_to(mail, "1", Auto_Submitted="auto-replied"),
                b"Content-Type: multipart/mixed; boundary=a\n\n" + b"--a\nContent-Type: "
                b"multipart/mixed; boundary=a\n\n" * 5000):
        answer = _post(client, raw)
        assert answer.status_code == 200 and answer.json["outcome"] == "ignored", raw[:60]
    assert snapshot() == before


def test_the_envelope_recipient_names_the_reply_address_where_the_headers_do_not(
        hook_ctx, database):
    table(hook_ctx)
    client = create_app(hook_ctx).test_client()
    mail = latest_mail("alice@example.org")
    raw = reply_to(mail, "2", to="Alice's games <games@example.org>")  # forwarded on
    assert _post(client, raw).json["outcome"] == "ignored"
    posted = _post(client, raw, **{"X-Envelope-To": f"other@example.org, {mail.reply_to}"})
    assert posted.json["outcome"] == "played"
