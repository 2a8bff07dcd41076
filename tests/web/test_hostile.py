"""Names with HTML and line breaks show as typed, escaped, and never reach a header raw."""

from __future__ import annotations

import email
import email.policy

from freezegun import freeze_time
from web_helpers import (
    confirm_address,
    forms_in,
    html_part,
    move_paths,
    paths_in,
    post_form,
    text_part,
)

from pbem.models import Outbox, Player
from pbem.time.scheduler import tick

MALLORY = '<script>alert("m")</script>\r\nBcc: victim@example.org'
EVE = "Eve <img src=x onerror=alert(1)>\nX-Injected: yes"


def _mails(ctx) -> list[tuple[bytes, email.message.EmailMessage]]:
    files = sorted(ctx.config.mail_folder.glob("*.eml"))
    return [(f.read_bytes(), email.message_from_bytes(f.read_bytes(),
                                                      policy=email.policy.default))
            for f in files]


def _escaped_in_page(html: str) -> None:
    assert "<script>alert" not in html and "<img src=x" not in html
    assert "&lt;script&gt;alert" in html or "&lt;img src=x" in html


@freeze_time("2026-03-02 12:00:00")  # daytime: no quiet hours hold the mail back
def test_hostile_names_are_escaped_in_pages_and_mails(ctx, app, database):
    mallory, eve = app.test_client(), app.test_client()
    form = next(f for f in forms_in(mallory.get("/new/visby").text) if f.action == "/new/visby")
    created = post_form(mallory, form, name=MALLORY, email="mallory@example.org",
                        players="3", **{"seat-1": "eve@example.org", "seat-2": "bot"})
    assert created.status_code == 303
    page = mallory.get(created.headers["Location"])
    _escaped_in_page(page.text)
    _escaped_in_page(confirm_address(mallory, "mallory@example.org").text)
    tick(ctx)
    [(_raw, invite)] = [(r, m) for r, m in _mails(ctx) if "invites you" in str(m["Subject"])]
    invite_path = next(p for p in paths_in(text_part(invite)) if p.startswith("/i/"))
    page = eve.get(invite_path)
    _escaped_in_page(page.text)
    [form] = [f for f in forms_in(page.text) if f.action == invite_path]
    seat_page = eve.get(post_form(eve, form, name=EVE, timezone="UTC").headers["Location"])
    assert seat_page.status_code == 200
    _escaped_in_page(seat_page.text)
    assert "&lt;script&gt;" in seat_page.text and "&lt;img src=x" in seat_page.text
    tick(ctx)

    for player in Player.select():
        assert "\r" not in player.name and "\n" not in player.name
    assert Player.get(Player.email == "mallory@example.org").name.startswith("<script>")

    mails = _mails(ctx)
    assert len(mails) >= 5
    for raw, msg in mails:
        head = raw.split(b"\n\n", 1)[0]
        for line in head.splitlines():
            assert not line.lower().startswith((b"bcc", b"x-injected")), line
        assert msg["Bcc"] is None and msg["X-Injected"] is None
        assert "\n" not in str(msg["To"]) and "\n" not in str(msg["Subject"])
        html = html_part(msg)
        assert "<script>alert" not in html and "<img src=x" not in html
    turn = next(m for _r, m in mails if text_part(m).startswith("Visby #1: your move")
                and "eve@" in str(m["To"]))
    # the game's subject names the players as typed, on one line (checked above)
    assert str(turn["Subject"]).startswith("Visby #1 — <script>")
    assert "<script>" in text_part(turn)  # plain text shows the name as typed
    assert "&lt;script&gt;" in html_part(turn)

    # the confirm page and the public page
    confirm = eve.get(move_paths(Outbox.get(Outbox.message_id == turn["Message-ID"]))[0])
    assert confirm.status_code == 200
    _escaped_in_page(confirm.text)
    _escaped_in_page(eve.get("/g/1").text)


#: printable text that a header parser decodes (RFC 2047) into a line break and a header
ENCODED = "=?utf-8?q?Trent=0D=0ABcc:_victim@example.org=0D=0AX-Injected:_yes?="


@freeze_time("2026-03-02 12:00:00")
def test_a_name_written_as_an_encoded_word_cannot_add_a_header(ctx, app, database):
    trent = app.test_client()
    form = next(f for f in forms_in(trent.get("/new/visby").text) if f.action == "/new/visby")
    created = post_form(trent, form, name=ENCODED, email="trent@example.org", players="3",
                        **{"seat-1": "eve@example.org", "seat-2": "bot"})
    assert created.status_code == 303
    confirm_address(trent, "trent@example.org")
    invite = next(o for o in Outbox.select() if o.kind == "invite")
    eve = app.test_client()
    page = eve.get(next(p for p in paths_in(invite.text_body) if p.startswith("/i/")))
    [form] = [f for f in forms_in(page.text)
              if "/i/" in f.action and not f.action.endswith("/decline")]
    assert post_form(eve, form, name="\u00c8ve " + ENCODED, timezone="UTC").status_code == 303
    tick(ctx)
    mails = _mails(ctx)
    assert len(mails) >= 5 and any("invites you" in str(m["Subject"]) for _r, m in mails)
    for raw, msg in mails:
        head = raw.split(b"\n\n", 1)[0]
        assert head.isascii(), head  # "\u00c8ve" goes as an RFC 2047 encoded word
        for line in head.splitlines():
            assert not line.lower().startswith((b"bcc", b"x-injected")), (line, head)
        assert msg["Bcc"] is None and msg["X-Injected"] is None
        for name in ("To", "Subject"):
            assert "\n" not in str(msg[name]) and "\r" not in str(msg[name])
        assert text_part(msg)  # the body is still the body
    assert any(str(m["To"]).startswith('"\u00c8ve = ?utf-8?q?Trent') for _r, m in mails)
