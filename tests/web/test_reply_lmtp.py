"""Whole games played by replies alone, through the LMTP listener (``pbem.cli.lmtp``): the
mails a real SMTP server received are answered by LMTP, as a mail server would hand on
the replies; the tick delivers the next mails."""

from __future__ import annotations

import smtplib
import time
from collections.abc import Callable, Iterator
from email.message import EmailMessage
from typing import Any

import pytest
from aiosmtpd.controller import DEFAULT_READY_TIMEOUT
from reply_helpers import PEOPLE, Player, humans, play_by_replies, start_table
from web_helpers import free_port, text_part

from pbem.cli.lmtp import controller
from pbem.context import Context, make_context
from pbem.gamelog.records import replay
from pbem.lifecycle.records import game_record
from pbem.models import Game, Inbound, Move
from pbem.time.scheduler import tick


@pytest.fixture
def reply_ctx(tmp_path, smtp_server: Any) -> Context:
    return make_context(
        server={"instance": str(tmp_path / "instance"), "base_url": "http://pbem.test"},
        mail={"transport": "smtp", "smtp_host": smtp_server.host,
              "smtp_port": str(smtp_server.port)},
        # a whole game answers many replies within the hour
        inbound={"answers_per_hour": "100000", "lmtp_port": str(free_port())},
    )


@pytest.fixture
def by_lmtp(reply_ctx: Context) -> Iterator[Callable[[EmailMessage], None]]:
    """What a mail server does with a reply to pbem: hand it on by LMTP."""
    lmtp = controller(reply_ctx)
    lmtp.start()

    def deliver(reply: EmailMessage) -> None:
        with smtplib.LMTP(lmtp.hostname, lmtp.port) as client:
            client.send_message(reply)

    try:
        yield deliver
    finally:
        lmtp.stop()


def test_a_whole_tallinn_game_by_replies_through_lmtp(reply_ctx, smtp_server, by_lmtp,
                                                      database):
    game = start_table(reply_ctx, "tallinn", "reply-1")
    players = [Player(smtp_server, a, by_lmtp, i) for i, a in enumerate(PEOPLE)]
    play_by_replies(reply_ctx, game, players, cap=1500)
    game = Game.get_by_id(game.id)
    assert game.status == Game.FINISHED
    assert replay(game_record(game)) == game.state
    # every move of a person came from a reply, and each reply was recorded once
    assert humans() > 20
    assert Inbound.select().count() == sum(p.sent for p in players)
    assert Inbound.select().where(Inbound.outcome == "played").count() == humans()
    for address in PEOPLE:
        assert any(" wins with " in text_part(m) or " share the win " in text_part(m)
                   for m in smtp_server.to(address))


def _whole_turns_of_several_steps() -> list[tuple[int, int]]:
    """(seat, turn) of the turns that ended after two or more steps of a person."""
    rows = list(Move.select().where(Move.kind == Move.PLAYER).order_by(Move.seq))
    ended = {(m.seat, m.turn_seq) for m in rows if m.turn_end}
    counts: dict[tuple[int, int], int] = {}
    for m in rows:
        counts[(m.seat, m.turn_seq)] = counts.get((m.seat, m.turn_seq), 0) + 1
    return [turn for turn, n in counts.items() if n >= 2 and turn in ended]


def test_a_whole_riga_turn_by_replies_through_lmtp(reply_ctx, smtp_server, by_lmtp,
                                                   database):
    """Replies until a turn of several steps (each answer lists the next step's choices,
    numbered, with a fresh reply address) has been played to its end."""
    game = start_table(reply_ctx, "riga", "reply-2")
    players = [Player(smtp_server, a, by_lmtp, i) for i, a in enumerate(PEOPLE)]
    while not _whole_turns_of_several_steps():
        waiting = [(p, m) for p in players if (m := p.open_mail()) is not None]
        assert waiting, "the game waits, but no mail asks anyone to choose"
        person, mail = waiting[0]
        person.answer(mail, Game.get_by_id(game.id))
        tick(reply_ctx)
        assert sum(p.sent for p in players) < 80, "no turn of several steps"
    assert Inbound.select().where(Inbound.outcome == "played").count() == humans()
    assert humans() == sum(p.sent for p in players)


def _lmtp_send(listener: Any, raw: bytes, to: str = "pbem+1-0-1-1-1-1-aaaaaaaaaaaaaaaa@localhost"
               ) -> tuple[int, bytes]:
    """Deliver ``raw`` as it is (lines as sent) by LMTP; the listener's answer."""
    with smtplib.LMTP(listener.hostname, listener.port) as client:
        client.ehlo_or_helo_if_needed()
        client.mail("someone@example.org")
        client.rcpt(to)
        return client.data(raw.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n"))


@pytest.fixture
def listener(reply_ctx: Context) -> Iterator[Any]:
    lmtp = controller(reply_ctx)
    lmtp.start()
    try:
        yield lmtp
    finally:
        lmtp.stop()


def test_hostile_mail_by_lmtp_is_taken_and_ignored_and_the_listener_stays_up(
        reply_ctx, smtp_server, listener, database, monkeypatch):
    from reply_helpers import reply_to
    from web_helpers import latest_mail, snapshot

    start_table(reply_ctx, "tallinn", "hostile")
    mail = latest_mail("alice@example.org")
    nested = b"Content-Type: multipart/mixed; boundary=b\n\n" + (
        b"--b\nContent-Type: multipart/mixed; boundary=b\n\n" * 3000)
    before = snapshot()
    hostile = [
        b"\x00\xff\xfe garbage",
        # above [inbound] max_bytes, below what the listener reads at all
        b"From: alice@example.org\nTo: " + mail.reply_to.encode() + b"\n\n1\n"
        + (b"x" * 70 + b"\n") * 20_000,
        nested,
        reply_to(mail, "1", sender="mallory@evil.example"),
        reply_to(mail, "1", X_Autoreply="yes"),
        b"Subject: no sender\n\n1\n",
    ]
    for raw in hostile:
        code, _said = _lmtp_send(listener, raw, to=mail.reply_to)
        assert code == 250, raw[:60]
    assert snapshot() == before
    # the database is away for a moment: the listener says "try again", nothing is kept,
    # and the mail server's next attempt plays once
    raw = reply_to(mail, "1")

    def down(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("the database is away")

    with monkeypatch.context() as patch:
        patch.setattr("pbem.lifecycle.replies.receive", down)
        code, _said = _lmtp_send(listener, raw, to=mail.reply_to)
        assert code == 451
    assert snapshot() == before
    assert _lmtp_send(listener, raw, to=mail.reply_to)[0] == 250
    assert _lmtp_send(listener, raw, to=mail.reply_to)[0] == 250
    assert humans() == 1


def test_serve_starts_the_listener_of_its_settings_and_runs_on_without_one(tmp_path, capsys):
    from pbem.cli.lmtp import start_listener

    def ctx_on(port: int) -> Context:
        return make_context(server={"instance": str(tmp_path / "instance")},
                            inbound={"lmtp_port": str(port)})

    assert start_listener(ctx_on(0)) is None  # none asked for
    port = free_port()
    first = start_listener(ctx_on(port))
    try:
        assert first is not None and f"replies: LMTP on 127.0.0.1:{port}" in capsys.readouterr().out
        with smtplib.LMTP("127.0.0.1", port) as client:
            assert client.ehlo_or_helo_if_needed() is None and client.does_esmtp
        began = time.monotonic()
        assert start_listener(ctx_on(port)) is None  # the port is taken: said, not fatal
        # said at once, not after aiosmtpd's whole ready_timeout of 5 s (the bound leaves
        # a loaded machine a second to start the thread and fail to bind)
        assert time.monotonic() - began < DEFAULT_READY_TIMEOUT - 1
        said = capsys.readouterr().err
        assert "could not start" in said and "address already in use" in said, said
    finally:
        first.stop()
