"""Play by reply (``pbem.lifecycle.replies``): a reply's first lines play the choices
the mail numbered, once, for the seat's player only; hostile and automatic mail is
refused or ignored and writes nothing."""

from __future__ import annotations

import json
from email.message import EmailMessage

import pytest
from reply_helpers import reply_to
from web_helpers import latest_mail, player, snapshot, table

from pbem.lifecycle import moves, replies
from pbem.mail import compose
from pbem.models import Game, Inbound, Move, Outbox, Seat, Talk

ALICE = "alice@example.org"


def _turn(address: str = ALICE) -> Outbox:
    mail = latest_mail(address)
    assert mail is not None and mail.reply_to
    return mail


def _played() -> list[tuple[int, str]]:
    return [(m.seat, m.move) for m in Move.select().where(Move.kind == Move.PLAYER)
            .order_by(Move.seq)]


def test_the_turn_mail_numbers_its_choices_and_a_reply_of_a_number_plays_it(ctx, database):
    table(ctx)
    mail = _turn()
    numbered = json.loads(mail.choices)["moves"]
    assert f"  2. Play {numbered[1].removeprefix('play ')}" in mail.text_body
    assert mail.reply_to.startswith("pbem+") and mail.reply_to.endswith("@localhost")
    assert len(mail.reply_to.partition("@")[0]) <= 64  # RFC 5321's local part
    result = replies.receive(ctx, reply_to(mail, "2"))
    assert (result.outcome, result.played, result.answered) == ("played", 1, True)
    assert _played() == [(0, numbered[1])]
    answer = latest_mail(ALICE, "answer")
    assert "Your reply played:" in answer.text_body
    assert "Your choices now" in answer.text_body and answer.reply_to


def test_the_same_reply_twice_plays_once_and_another_reply_of_the_same_choice_is_refused(
        ctx, database):
    table(ctx)
    mail = _turn()
    raw = reply_to(mail, "1")
    assert replies.receive(ctx, raw).outcome == "played"
    before = snapshot()
    assert replies.receive(ctx, raw).outcome == "duplicate"
    assert snapshot() == before  # not even an answer
    again = replies.receive(ctx, reply_to(mail, "1"))
    assert again.outcome == "refused" and len(_played()) == 1
    assert "played already" in latest_mail(ALICE, "answer").text_body


def test_a_label_or_a_notation_names_a_choice_too(ctx, database):
    table(ctx)
    mail = _turn()
    first, second = json.loads(mail.choices)["moves"][:2]
    label = compose.move_label(__import__("pbem.games", fromlist=["get_game"]).get_game(
        "visby"), Game.get().state, 0, second, "en")
    assert replies.receive(ctx, reply_to(mail, label.upper())).outcome == "played"
    assert replies.receive(ctx, reply_to(mail, first)).outcome == "played"
    assert _played() == [(0, second), (0, first)]


def test_several_lines_play_in_order_up_to_the_first_refused(ctx, database):
    table(ctx)
    mail = _turn()
    numbered = json.loads(mail.choices)["moves"]
    result = replies.receive(ctx, reply_to(mail, "3\nthanks, see you\n1"))
    assert result.outcome == "played" and result.played == 1
    assert _played() == [(0, numbered[2])]
    answer = latest_mail(ALICE, "answer").text_body
    assert "This line of your reply was not played: thanks, see you" in answer
    assert "Nothing after it was played." in answer


def test_a_reply_in_german_is_answered_in_german(ctx, database):
    table(ctx)
    alice = Seat.get(Seat.index == 0).player
    alice.language = "de"
    alice.save()
    moves.play(ctx, Game.get().id, 1, json.loads(_turn("bob@example.org").choices)["moves"][0],
               menu_seq=1)
    mail = _turn()
    assert replies.receive(ctx, reply_to(mail, "99")).outcome == "refused"
    answer = latest_mail(ALICE, "answer").text_body
    assert "Hallo Alice" in answer and "Your" not in answer


def test_words_to_the_table_by_reply(ctx, database):
    table(ctx)
    mail = _turn()
    assert replies.receive(ctx, reply_to(mail, "talk: Good luck, Bob!")).outcome == "talked"
    [said] = Talk.select()
    assert (said.seat, said.text) == (0, "Good luck, Bob!")
    assert _played() == []
    # a reply to a table-talk mail is talk, whatever its first line says
    game = Game.get()
    talk_mail = compose.queue_talk(ctx, game, Seat.get(Seat.index == 1), game.created_at)
    assert talk_mail.reply_to
    assert replies.receive(ctx, reply_to(talk_mail, "2\nthanks")).outcome == "talked"
    assert [t.text for t in Talk.select().order_by(Talk.id)][1] == "2 thanks"


def test_strangers_forged_tokens_and_automatic_mail_are_ignored_and_write_nothing(
        ctx, database):
    table(ctx)
    mail = _turn()
    before = snapshot()
    token = mail.reply_to.partition("+")[2].partition("@")[0]
    forged = mail.reply_to.replace(token, token.replace("-0-", "-1-", 1))
    cases = {
        "stranger": reply_to(mail, "1", sender="mallory@evil.example"),
        "forged": reply_to(mail, "1", to=forged),
        "no token": reply_to(mail, "1", to="pbem@localhost"),
        "auto-submitted": reply_to(mail, "1", Auto_Submitted="auto-replied"),
        "precedence": reply_to(mail, "1", Precedence="bulk"),
        "vacation": reply_to(mail, "1", X_Autoreply="yes"),
        "out of office": reply_to(mail, "1", Subject="Out of Office: back Monday"),
        "empty": reply_to(mail, ""),
        "huge": reply_to(mail, "1\n" + "x" * 2_000_000),
        "garbage": b"\x00\xff" * 100,
    }
    for name, raw in cases.items():
        assert replies.receive(ctx, raw).outcome == "ignored", name
    assert snapshot() == before


def _mime(mail: Outbox, part: EmailMessage) -> bytes:
    part["From"] = mail.to_address
    part["To"] = mail.reply_to
    part["Message-ID"] = f"<hostile-{id(part)}@client.example>"
    return bytes(part)


@pytest.mark.parametrize("kind", ["html-only", "charset", "nested"])
def test_unreadable_replies_are_refused_politely_and_play_nothing(ctx, database, kind):
    table(ctx)
    mail = _turn()
    msg = EmailMessage()
    if kind == "html-only":
        msg.set_content("<p>2</p>", subtype="html")
    elif kind == "charset":
        msg.set_payload(b"2\n", charset=None)
        msg["Content-Type"] = "text/plain; charset=x-no-such-charset"
    else:
        inner = EmailMessage()
        inner.set_content("2")
        for _ in range(30):
            outer = EmailMessage()
            outer.make_mixed()
            outer.attach(inner)
            inner = outer
        msg = inner
    result = replies.receive(ctx, _mime(mail, msg))
    assert result.outcome == "refused" and result.answered
    assert _played() == []
    assert "was not played" in latest_mail(ALICE, "answer").text_body.splitlines()[0]


def test_a_reply_to_another_seats_mail_is_refused_at_the_writers_own_seat(ctx, database):
    table(ctx)
    mail = _turn()
    result = replies.receive(ctx, reply_to(mail, "1", sender="Bob <bob@example.org>"))
    assert result.outcome == "refused"
    assert _played() == []
    assert latest_mail(ALICE, "answer") is None
    assert "sent to another seat" in latest_mail("bob@example.org", "answer").text_body


def test_a_stale_reply_is_refused_with_the_choices_open_now(ctx, database):
    table(ctx)
    old = _turn()
    bob = json.loads(_turn("bob@example.org").choices)["moves"]
    for number in ("1", "2"):  # Alice's two cards of round 1
        replies.receive(ctx, reply_to(_turn(), number))
    replies.receive(ctx, reply_to(_turn("bob@example.org"), "1"))
    replies.receive(ctx, reply_to(_turn("bob@example.org"), "2"))
    assert len(_played()) == 4 and bob
    assert _turn().id != old.id  # round 2 has its mail
    result = replies.receive(ctx, reply_to(old, "3"))
    assert result.outcome == "refused" and len(_played()) == 4
    answer = latest_mail(ALICE, "answer").text_body
    assert "moved on" in answer and "Your choices now" in answer


def test_answers_to_one_address_are_bounded_per_hour(ctx, database):
    table(ctx)
    mail = _turn()
    most = ctx.config.getint("inbound", "answers_per_hour")
    for _ in range(most + 3):
        replies.receive(ctx, reply_to(mail, "nonsense"))
    assert Inbound.select().count() == most + 3
    assert Outbox.select().where(Outbox.kind == "answer").count() == most


def test_a_crash_between_receiving_and_recording_loses_nothing_and_plays_once(
        ctx, database, monkeypatch):
    table(ctx)
    mail = _turn()
    raw = reply_to(mail, "2")
    before = snapshot()

    def crash(*args, **kwargs):
        raise RuntimeError("the power went out")

    with monkeypatch.context() as patch:
        patch.setattr(compose, "queue_answer", crash)
        with pytest.raises(RuntimeError):
            replies.receive(ctx, raw)
    assert snapshot() == before  # the move and the key went together: neither is there
    assert replies.receive(ctx, raw).outcome == "played"  # the mail server delivers again
    assert replies.receive(ctx, raw).outcome == "duplicate"
    assert len(_played()) == 1


def test_a_player_with_new_links_must_answer_the_latest_mail(ctx, database):
    table(ctx)
    mail = _turn()
    alice = player(ALICE, "Alice")
    alice.link_version += 1
    alice.save()
    assert replies.receive(ctx, reply_to(mail, "1")).outcome == "refused"
    assert _played() == []


def test_a_reminder_lists_the_same_choices_and_a_reply_to_it_plays(ctx, database):
    from pbem.time import reminders

    game = table(ctx)
    seat = Seat.get(Seat.game == game, Seat.index == 0)
    reminders._queue_reminder(ctx, game, seat, game.created_at)
    reminder = latest_mail(ALICE, "reminder")
    assert reminder.reply_to and "Or answer this mail" in reminder.text_body
    numbered = json.loads(reminder.choices)["moves"]
    assert replies.receive(ctx, reply_to(reminder, "4")).outcome == "played"
    assert _played() == [(0, numbered[3])]


def test_an_out_of_office_subject_in_encoded_words_is_seen_too(ctx, database):
    table(ctx)
    mail = _turn()
    raw = b"Subject: =?utf-8?q?Abwesenheitsnotiz=3A_bis_Montag?=\n" + reply_to(
        mail, "1", Subject="x")
    raw = raw.replace(b"\nSubject: x\n", b"\n")  # the encoded one only, as a client sends it
    assert raw.count(b"Subject:") == 1
    assert replies.receive(ctx, raw).outcome == "ignored"
    assert _played() == []


@pytest.mark.parametrize(("body", "lines"), [
    ("2\n\nOn Thu, 26 Nov 2026 at 17:00, pbem <pbem@localhost>\nwrote:\n> Hello\n", ["2"]),
    ("2\n3\n\nthanks\n-- \nAlice\n> Hello\n", ["2", "3"]),
    ("  2.  \n-----Original Message-----\nFrom: pbem\n", ["2."]),
    ("On Thu, pbem wrote:\n> Hello\n> 1. Play Truppen\n\n2\n\nSent from my phone\n", ["2"]),
    ("> Hello\n", []),
    ("Am Do., 26. Nov. 2026 um 17:00 Uhr schrieb pbem:\n> Hallo\n", []),
])
def test_the_writers_own_first_lines_are_read_above_or_below_the_quote(body, lines):
    from pbem.mail.inbound import Inbound, above_quote

    assert Inbound(key="k", sender="a@b", lines=above_quote(body)).paragraph == lines


def test_the_tick_forgets_the_mails_that_came_in_after_keep_days(ctx, database, monkeypatch):
    """``[inbound] keep_days`` (30): a record of a mail that came in is kept while a mail
    server might deliver it again, then the tick forgets it, the oldest first."""
    from datetime import timedelta

    from freezegun import freeze_time

    from pbem.models import utcnow
    from pbem.time import scheduler

    table(ctx)
    raw = reply_to(_turn(), "1")
    with freeze_time("2026-03-01 12:00:00"):
        assert replies.receive(ctx, raw).outcome == "played"
        received = utcnow()
    Inbound.create(key="<later@example.org>", sender=ALICE, outcome="talked",
                   received_at=received + timedelta(days=2))
    keys = lambda: sorted(row.key for row in Inbound.select())  # noqa: E731
    # still within the 30 days: a mail server's retry is still a duplicate
    assert scheduler.tick(ctx, received + timedelta(days=29))["inbound"] == 0
    assert replies.receive(ctx, raw).outcome == "duplicate"
    assert scheduler.tick(ctx, received + timedelta(days=31))["inbound"] == 1
    assert keys() == ["<later@example.org>"]
    monkeypatch.setitem(ctx.config.values["inbound"], "keep_days", "0")  # never
    assert replies.forget_old(ctx, received + timedelta(days=400)) == 0
    assert keys() == ["<later@example.org>"]
