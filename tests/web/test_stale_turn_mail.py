"""A "your move" mail still true when it goes: a player who moved on the seat page before
the tick delivered gets no mail for that decision, and the next decision's mail goes."""

from __future__ import annotations

from datetime import datetime, timedelta

from freezegun import freeze_time
from web_helpers import latest_mail, play_first_move, player, seat_path, table, text_part

from pbem.models import Outbox, Player
from pbem.time.scheduler import tick
from pbem.web import create_app

NOON = datetime(2026, 3, 2, 12, 0, 0)
ALICE = "alice@example.org"
#: aiosmtpd's event loop keeps the real clock
REAL_TIME_FOR = ["asyncio", "aiosmtpd"]


def _move_until_next_turn_mail(client, first: Outbox) -> Outbox:
    """Alice plays from her seat page (never from the mail) until her next turn's mail is
    queued."""
    seat = seat_path(first)
    for _ in range(20):
        assert play_first_move(client, seat), "Alice has nothing to play on her seat page"
        latest = latest_mail(ALICE)
        if latest.id != first.id:
            return latest
    raise AssertionError("no new turn of Alice's after 20 moves")


def test_a_turn_mail_whose_turn_ended_before_delivery_is_not_sent(smtp_ctx, smtp_server,
                                                                  database):
    with freeze_time(NOON, ignore=REAL_TIME_FOR) as frozen:
        table(smtp_ctx, humans=1, bots=2)
        first = latest_mail(ALICE)
        assert first is not None and first.turn_seq is not None
        client = create_app(smtp_ctx).test_client()
        frozen.tick(timedelta(seconds=5))
        second = _move_until_next_turn_mail(client, first)
        assert second.turn_seq > first.turn_seq
        done = tick(smtp_ctx)["mail"]
    assert done["skipped"] == 1
    first, second = Outbox.get_by_id(first.id), Outbox.get_by_id(second.id)
    assert first.sent_at is None and first.failed_at is not None
    assert "turn it asks for ended" in first.last_error
    assert second.sent_at is not None
    ids = [m["Message-ID"] for m in smtp_server.messages]
    assert first.message_id not in ids and second.message_id in ids
    turns = [m for m in smtp_server.messages
             if "your move" in text_part(m).partition("\n")[0] and ALICE in str(m["To"])]
    assert [m["Message-ID"] for m in turns] == [second.message_id]


def test_a_digest_does_not_tell_a_turn_that_ended_before_it(smtp_ctx, smtp_server, database):
    """Held for the digest, the first turn's line is left out: the second turn is told."""
    with freeze_time(NOON, ignore=REAL_TIME_FOR) as frozen:
        player(ALICE, "Alice")
        Player.update(digest=True).where(Player.email == ALICE).execute()
        table(smtp_ctx, humans=1, bots=2)
        first = latest_mail(ALICE)
        assert first.digest
        client = create_app(smtp_ctx).test_client()
        second = _move_until_next_turn_mail(client, first)
        frozen.tick(timedelta(days=1, hours=1))
        tick(smtp_ctx)
        tick(smtp_ctx)
    first, second = Outbox.get_by_id(first.id), Outbox.get_by_id(second.id)
    assert first.sent_at is None and "ended" in first.last_error
    assert second.sent_at is not None  # bundled into the digest
    [digest] = [m for m in smtp_server.messages if ALICE in str(m["To"])]
    body = text_part(digest)
    # before the fix both held turns were told: the same line twice
    assert body.count(second.text_body.partition("\n")[0]) == 1
