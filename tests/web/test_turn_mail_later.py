"""A click does not wait for the next player's mail: it queues the "your move" row
addressed, in the move's transaction, and the tick writes its body before it delivers
(``pbem.mail.later``).  The mail then says what is true when it leaves; one whose turn
ended first is never written; one that cannot be written never costs the move."""

from __future__ import annotations

from datetime import datetime, timedelta
from urllib.parse import urlsplit

from freezegun import freeze_time
from peewee import fn
from web_helpers import latest_mail, play_first_move, table, text_part

from pbem.lifecycle import talk
from pbem.mail import compose, later
from pbem.mail.outbox import deliver_due
from pbem.models import Blocked, Game, Outbox, Seat
from pbem.time.scheduler import tick
from pbem.web import create_app

NOON = datetime(2026, 3, 2, 12, 0, 0)
ALICE, BOB = "alice@example.org", "bob@example.org"
#: aiosmtpd's event loop keeps the real clock
REAL_TIME_FOR = ["asyncio", "aiosmtpd"]


def _seat_path(ctx, game: Game, index: int) -> str:
    return urlsplit(compose.seat_url(ctx, game, Seat.get(Seat.game == game,
                                                        Seat.index == index))).path


def _click_until_bob_is_asked(ctx, client, game: Game) -> Outbox:
    """Alice (else Bob, Visby's first picks are made at once) plays the first move of her
    seat page until a click begins a turn of Bob's; Bob's new row, as the click left it."""
    for _ in range(20):
        before = latest_mail(BOB)
        assert any(play_first_move(client, _seat_path(ctx, game, index)) for index in (0, 1)), \
            "neither Alice nor Bob has a move on their seat page"
        asked = latest_mail(BOB)
        if asked.id != before.id:
            return asked
    raise AssertionError("no click began a turn of Bob's in 20 moves")


def test_a_click_queues_the_row_and_the_tick_writes_and_sends_it(smtp_ctx, smtp_server,
                                                                   database):
    with freeze_time(NOON, ignore=REAL_TIME_FOR):
        game = table(smtp_ctx, humans=2)
        client = create_app(smtp_ctx).test_client()
        asked = _click_until_bob_is_asked(smtp_ctx, client, game)
        # in the move's transaction: addressed and threaded, its body still to write
        assert not asked.composed and asked.text_body == "" and asked.reply_to is None
        assert asked.unsubscribe_url is None  # signed when the body is written
        assert asked.turn_seq is not None and asked.message_id and asked.subject
        kept = _Kept()
        deliver_due(smtp_ctx.config, kept)  # the mail due before it goes; it does not
        assert asked.message_id not in kept.ids and Outbox.get_by_id(asked.id).sent_at is None
        done = tick(smtp_ctx)
        # the body the click would have written, from the game as the tick found it (at
        # the same time: its links are signed with it)
        game = Game.get_by_id(game.id)
        seats = Seat.of(game)
        headline, text, _, _, _ = compose.turn_body(smtp_ctx, game, seats[1], seats, game.state)
        unsubscribe = compose.list_unsubscribe(smtp_ctx, seats[1].player, "turn")
    assert done["compose"] >= 1
    asked = Outbox.get_by_id(asked.id)
    assert asked.composed and asked.sent_at is not None
    assert asked.text_body == f"{headline}\n\n{text}"  # nobody talked: no talk on top
    assert asked.reply_to and asked.choices  # replies play: the numbers it gives are known
    [sent] = [m for m in smtp_server.messages if m["Message-ID"] == asked.message_id]
    assert "/m/" in text_part(sent) and "/s/" in text_part(sent)
    # the turn mails' own list, as a mail written at once gives it
    assert asked.unsubscribe_url == unsubscribe
    assert sent["List-Unsubscribe"] == f"<{asked.unsubscribe_url}>"


def test_a_turn_that_ended_before_the_tick_gets_no_mail_written(smtp_ctx, smtp_server,
                                                                 database):
    with freeze_time(NOON, ignore=REAL_TIME_FOR):
        game = table(smtp_ctx, humans=2)
        client = create_app(smtp_ctx).test_client()
        asked = _click_until_bob_is_asked(smtp_ctx, client, game)
        # Bob plays on his seat page (he has it open) until that turn is over, before
        # any tick
        bob = Seat.get(Seat.game == game, Seat.index == 1)
        while bob.in_turn and bob.turn_seq == asked.turn_seq:
            assert play_first_move(client, _seat_path(smtp_ctx, game, 1))
            bob = Seat.get_by_id(bob.id)
        tick(smtp_ctx)
    asked = Outbox.get_by_id(asked.id)
    assert not asked.composed and asked.text_body == ""
    assert asked.sent_at is None and "turn it asks for ended" in asked.last_error
    assert asked.message_id not in [m["Message-ID"] for m in smtp_server.messages]


def test_talk_written_after_the_click_rides_in_the_turn_mail(smtp_ctx, smtp_server, database):
    with freeze_time(NOON, ignore=REAL_TIME_FOR) as frozen:
        game = table(smtp_ctx, humans=2)
        client = create_app(smtp_ctx).test_client()
        asked = _click_until_bob_is_asked(smtp_ctx, client, game)
        frozen.tick(timedelta(seconds=20))
        alice = Seat.get(Seat.game == game, Seat.index == 0)
        talk.post(smtp_ctx, Game.get_by_id(game.id), alice, "Gut gespielt, Bob!")
        tick(smtp_ctx)
    asked = Outbox.get_by_id(asked.id)
    assert asked.sent_at is not None and "Gut gespielt, Bob!" in asked.text_body
    assert asked.talk_to is not None and asked.talk_to > asked.talk_from
    # taken once: no "table talk" mail of its own follows
    assert Outbox.select().where(Outbox.to_address == BOB, Outbox.kind == "talk").count() == 0


def test_a_body_that_cannot_be_written_is_given_up_and_the_move_stands(
        smtp_ctx, smtp_server, database, monkeypatch):
    with freeze_time(NOON, ignore=REAL_TIME_FOR) as frozen:
        game = table(smtp_ctx, humans=2)
        client = create_app(smtp_ctx).test_client()
        asked = _click_until_bob_is_asked(smtp_ctx, client, game)
        played = Game.get_by_id(game.id).seq

        def broken(*_args, **_kwargs):
            raise RuntimeError("a defect in the turn mail")

        monkeypatch.setattr(compose, "turn_body", broken)
        attempts = smtp_ctx.config.getint("mail", "max_attempts")
        for _ in range(attempts):
            tick(smtp_ctx)
            frozen.tick(timedelta(minutes=1))
    asked = Outbox.get_by_id(asked.id)
    assert asked.attempts == attempts and asked.failed_at is not None
    assert "cannot compose: RuntimeError: a defect in the turn mail" in asked.last_error
    assert Game.get_by_id(game.id).seq == played  # the move stays in the log


class _Kept:
    """A transport that keeps the Message-IDs it is given."""

    def __init__(self) -> None:
        self.ids: list[str] = []

    def send(self, message) -> None:
        self.ids.append(message["Message-ID"])


def test_a_body_is_drawn_again_when_the_game_moved_while_it_was_drawn(
        smtp_ctx, smtp_server, database, monkeypatch):
    """The body is drawn outside the write transaction; a move that came meanwhile (here
    the game's move number raised from beside, as another request's move would) makes
    it draw again from the game as it is then."""
    with freeze_time(NOON, ignore=REAL_TIME_FOR):
        game = table(smtp_ctx, humans=2)
        client = create_app(smtp_ctx).test_client()
        asked = _click_until_bob_is_asked(smtp_ctx, client, game)
        drawn: list[int] = []
        real = compose.turn_body

        def drawing(ctx, game_row, *args):
            drawn.append(game_row.seq)
            if len(drawn) == 1:
                Game.update(seq=Game.seq + 1).where(Game.id == game_row.id).execute()
            return real(ctx, game_row, *args)

        monkeypatch.setattr(compose, "turn_body", drawing)
        assert later.finish_due(smtp_ctx) >= 1
    assert drawn[:2] == [drawn[0], drawn[0] + 1]
    assert Outbox.get_by_id(asked.id).composed


def test_a_row_another_tick_wrote_while_this_one_drew_is_left_as_written(
        smtp_ctx, smtp_server, database, monkeypatch):
    """The row is read before its body is drawn and asked again under the game's lock: a
    row another tick (another node) wrote meanwhile is left as that tick wrote it, and
    one given up meanwhile stays given up."""
    with freeze_time(NOON, ignore=REAL_TIME_FOR):
        game = table(smtp_ctx, humans=2)
        client = create_app(smtp_ctx).test_client()
        asked = _click_until_bob_is_asked(smtp_ctx, client, game)
        real = compose.turn_body
        other: list[dict] = []

        def other_tick_first(ctx, game_row, *args):
            body = real(ctx, game_row, *args)
            monkeypatch.setattr(compose, "turn_body", real)
            assert later.finish_one(ctx, asked.id, NOON)  # the other tick, done first
            other.append(dict(Outbox.get_by_id(asked.id).__data__))
            return body

        monkeypatch.setattr(compose, "turn_body", other_tick_first)
        assert not Outbox.get_by_id(asked.id).composed
        assert not later.finish_one(smtp_ctx, asked.id, NOON)
        assert other and other[0]["composed"] and other[0]["reply_to"]
        assert Outbox.get_by_id(asked.id).__data__ == other[0]  # as the other tick left it

        asked = _click_until_bob_is_asked(smtp_ctx, client, game)

        def given_up_meanwhile(ctx, game_row, *args):
            Outbox.update(failed_at=NOON, last_error="gone").where(
                Outbox.id == asked.id).execute()
            return real(ctx, game_row, *args)

        monkeypatch.setattr(compose, "turn_body", given_up_meanwhile)
        assert not later.finish_one(smtp_ctx, asked.id, NOON)
    row = Outbox.get_by_id(asked.id)
    assert not row.composed and row.text_body == "" and row.last_error == "gone"


def test_an_address_blocked_before_the_tick_gets_nothing(smtp_ctx, smtp_server, database):
    """Whether the address asked never to be mailed again is asked when the body is
    written, not in the click: one that asked meanwhile gets no mail at all."""
    with freeze_time(NOON, ignore=REAL_TIME_FOR):
        game = table(smtp_ctx, humans=2)
        client = create_app(smtp_ctx).test_client()
        asked = _click_until_bob_is_asked(smtp_ctx, client, game)
        Blocked.create(email=BOB)
        tick(smtp_ctx)
    assert Outbox.get_or_none(Outbox.id == asked.id) is None
    assert asked.message_id not in [m["Message-ID"] for m in smtp_server.messages]


def test_the_first_mail_of_a_thread_becomes_its_root_when_written(smtp_ctx, smtp_server,
                                                                   database):
    """A row written later is queued referring to its thread's root; where no mail of
    the thread holds the root (here: Bob's earlier mails taken away), it becomes it."""
    with freeze_time(NOON, ignore=REAL_TIME_FOR):
        game = table(smtp_ctx, humans=2)
        client = create_app(smtp_ctx).test_client()
        asked = _click_until_bob_is_asked(smtp_ctx, client, game)
        root = game.thread_id(compose.mail_domain(smtp_ctx), asked.player_id)
        assert asked.in_reply_to == root and asked.message_id != root
        Outbox.delete().where(Outbox.message_id == root).execute()
        tick(smtp_ctx)
    asked = Outbox.get_by_id(asked.id)
    assert asked.message_id == root and asked.in_reply_to is None and asked.sent_at
    [sent] = [m for m in smtp_server.messages if m["Message-ID"] == root]
    assert sent["In-Reply-To"] is None


def test_a_click_that_begins_several_turns_queues_a_row_for_each(smtp_ctx, smtp_server,
                                                                  database):
    """Visby's three players choose their cards at once: the click that opens the next
    choice queues the three rows in one statement; the tick writes and sends each."""
    with freeze_time(NOON, ignore=REAL_TIME_FOR):
        game = table(smtp_ctx, humans=3)
        client = create_app(smtp_ctx).test_client()
        for _ in range(30):
            newest = Outbox.select(fn.MAX(Outbox.id)).scalar() or 0
            for index in range(3):
                play_first_move(client, _seat_path(smtp_ctx, game, index))
            fresh = list(Outbox.select().where(Outbox.id > newest, Outbox.kind == "turn",
                                               Outbox.composed == False))  # noqa: E712
            if len({row.to_address for row in fresh}) == 3:
                break
        else:
            raise AssertionError("no click began all three turns in 30 rounds")
        assert all(row.text_body == "" and row.turn_seq is not None for row in fresh)
        tick(smtp_ctx)
    sent = {m["Message-ID"] for m in smtp_server.messages}
    for row in fresh:
        row = Outbox.get_by_id(row.id)
        assert row.composed == (row.failed_at is None)
        # a row whose turn ended before the tick (a later click of this round) is given
        # up; every other is written and sent
        assert (row.message_id in sent) == row.composed
    assert any(Outbox.get_by_id(row.id).composed for row in fresh)
