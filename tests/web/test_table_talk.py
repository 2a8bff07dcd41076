"""Table talk (issue 14): a message from the seat page to the table.

Posted with a CSRF token, at most ``talk.MAX_LENGTH`` characters, rate-limited;
shown escaped in the seat and public pages' histories beside the move it followed;
mailed to each other human once: in their next mail of the game, else in a "table
talk" mail of its own after ``talk_mail_after_minutes``, through quiet hours.
"""

from __future__ import annotations

from datetime import datetime, timedelta

import peewee as pw
from freezegun import freeze_time
from web_helpers import csrf_of, finish, latest_mail, paths_in, player, seat_path, table

from pbem.archive import build, site_dir
from pbem.games import get_game
from pbem.lifecycle import create, moves
from pbem.lifecycle.talk import MAX_LENGTH, clean
from pbem.mail import compose
from pbem.mail.outbox import deliver_due
from pbem.models import Game, Outbox, Player, Seat, Talk, create_tables, db, open_database
from pbem.time.scheduler import tick


class _Sink:
    """A transport that takes every mail (the tests read the outbox)."""

    def send(self, message) -> None:
        pass


def _say(client, seat: str, text: str, csrf: bool = True):
    page = client.get(seat)
    data = {"text": text}
    if csrf:
        data["csrf_token"] = csrf_of(page.text)
    return client.post(f"{seat}/talk", data=data)


def _talk_mails(address: str) -> list[Outbox]:
    return list(Outbox.select().where(Outbox.to_address == address).order_by(Outbox.id))


def test_a_message_stands_on_the_seat_and_public_pages_escaped(client, ctx):
    game = table(ctx)
    alice = seat_path(latest_mail("alice@example.org"))
    page = client.get(alice)
    assert f"at most {MAX_LENGTH} characters" in page.text
    response = _say(client, alice, "<script>alert(1)</script> {0} hi")
    assert response.status_code == 303
    shown = client.get(alice)
    assert "Your message is on the table." in shown.text
    for html in (shown.text, client.get(f"/g/{game.id}").text):
        assert "Alice: &lt;script&gt;alert(1)&lt;/script&gt;" in html
        assert "<script>alert(1)" not in html
        assert 'class="talk"' in html
        # a placeholder typed in a message stays text, it is not a player's name
        assert "{\u20600} hi" in html
    row = Talk.get()
    assert (row.seat, row.after_move_seq, row.text) == (0, game.seq,
                                                        "<script>alert(1)</script> {0} hi")


def test_too_long_empty_and_no_csrf_are_400_and_keep_nothing(client, ctx):
    table(ctx)
    alice = seat_path(latest_mail("alice@example.org"))
    long = _say(client, alice, "x" * (MAX_LENGTH + 1))
    assert long.status_code == 400
    assert f"at most {MAX_LENGTH}" in long.text and "Nothing was kept" in long.text
    assert _say(client, alice, " \x00\x07\u202e ").status_code == 400
    no_token = _say(client, alice, "hello", csrf=False)
    assert no_token.status_code == 400 and 'data-reason="csrf"' in no_token.text
    assert Talk.select().count() == 0
    assert _say(client, alice, "x" * MAX_LENGTH).status_code == 303


def test_control_characters_are_removed():
    assert clean("a\r\nBcc: x@example.org\x00\u202eb\t c") == "a Bcc: x@example.orgb c"


def test_past_the_hourly_limit_a_429_says_when_to_write_again(client, ctx):
    table(ctx)
    alice = seat_path(latest_mail("alice@example.org"))
    with freeze_time("2026-05-04 10:00:00") as frozen:
        for n in range(10):
            assert _say(client, alice, f"message {n}").status_code == 303
            frozen.tick(timedelta(minutes=1))
        refused = _say(client, alice, "one more")
        assert refused.status_code == 429
        assert "You can write again from" in refused.text and "11:00" in refused.text
        assert Talk.select().count() == 10
        frozen.move_to("2026-05-04 11:00:01")
        assert _say(client, alice, "one more").status_code == 303


def test_a_finished_game_takes_no_more_talk(client, ctx):
    game = table(ctx)
    alice = seat_path(latest_mail("alice@example.org"))
    assert _say(client, alice, "before the end").status_code == 303
    page = client.get(alice)
    finish(ctx, game)
    refused = client.post(f"{alice}/talk", data={"text": "after",
                                                 "csrf_token": csrf_of(page.text)})
    assert refused.status_code == 410
    assert [t.text for t in Talk.select()] == ["before the end"]
    assert "Send to the table" not in client.get(alice).text


def test_an_open_game_takes_no_talk_until_it_starts(client, ctx):
    alice = player("alice@example.org", "Alice")
    game = create.create_game(ctx, "visby", alice, ["bob@example.org"], seed=2)
    seat = Seat.get(Seat.game == game, Seat.index == 0)
    path = paths_in(compose.seat_url(ctx, game, seat))[0]
    page = client.get(path)
    assert "Send to the table" not in page.text
    refused = client.post(f"{path}/talk", data={"text": "anyone?",
                                                "csrf_token": csrf_of(page.text)})
    assert refused.status_code == 409 and "not started" in refused.text
    assert Talk.select().count() == 0


def _play_until_bob_gets_a_turn_mail(ctx, game: Game) -> Outbox:
    rules = get_game(game.game)
    before = Outbox.select().where(Outbox.to_address == "bob@example.org",
                                   Outbox.kind == "turn").count()
    for _ in range(20):
        game = Game.get_by_id(game.id)
        seat = rules.to_move(game.state)[0]
        menu = Seat.get(Seat.game == game, Seat.index == seat).menu_seq
        moves.play(ctx, game.id, seat, rules.legal_moves(game.state, seat)[0], menu_seq=menu)
        turns = (Outbox.select().where(Outbox.to_address == "bob@example.org",
                                       Outbox.kind == "turn").order_by(Outbox.id))
        if turns.count() > before:
            return list(turns)[-1]
    raise AssertionError("Bob never got another turn mail")


def test_the_next_mail_carries_the_message_once(client, ctx):
    with freeze_time("2026-05-04 10:00:00") as frozen:
        game = table(ctx)
        alice = seat_path(latest_mail("alice@example.org"))
        assert _say(client, alice, "Nice move, <b>Bob</b>").status_code == 303
        mail = _play_until_bob_gets_a_turn_mail(ctx, game)
        assert "Alice: Nice move, <b>Bob</b>" in mail.text_body
        assert "Alice</strong>: Nice move, &lt;b&gt;Bob&lt;/b&gt;" in mail.html_body
        # the writer is not mailed her own message
        assert not any("Nice move" in m.text_body for m in _talk_mails("alice@example.org"))
        frozen.tick(timedelta(hours=2))
        tick(ctx, transport=_Sink())
        carrying = [m for m in _talk_mails("bob@example.org") if "Nice move" in m.text_body]
        assert carrying == [mail]


def test_a_talk_mail_goes_out_after_an_hour_once_and_after_quiet_hours(client, ctx):
    with freeze_time("2026-05-04 20:30:00") as frozen:
        table(ctx)
        bob = Player.get(Player.email == "bob@example.org")
        bob.quiet_start, bob.quiet_end = "21:00", "07:00"  # UTC
        bob.save()
        alice = seat_path(latest_mail("alice@example.org"))
        assert _say(client, alice, "first").status_code == 303
        frozen.tick(timedelta(minutes=10))
        assert _say(client, alice, "second").status_code == 303
        tick(ctx, transport=_Sink())
        assert not Outbox.select().where(Outbox.kind == "talk").exists()  # not yet an hour
        frozen.move_to("2026-05-04 21:31:00")
        tick(ctx, transport=_Sink())
        [mail] = Outbox.select().where(Outbox.kind == "talk")
        assert mail.to_address == "bob@example.org"
        assert "Alice: first" in mail.text_body and "Alice: second" in mail.text_body
        assert mail.not_before == datetime(2026, 5, 5, 7, 0) and mail.sent_at is None
        frozen.move_to("2026-05-05 07:00:30")
        assert deliver_due(ctx.config, _Sink())["sent"] == 1
        assert Outbox.get_by_id(mail.id).sent_at is not None
        tick(ctx, transport=_Sink())
        frozen.tick(timedelta(hours=3))
        tick(ctx, transport=_Sink())
        assert Outbox.select().where(Outbox.kind == "talk").count() == 1
        # nor does a later mail of the game repeat them
        assert not any("Alice: first" in m.text_body for m in _talk_mails("bob@example.org")
                       if m.id != mail.id)


def test_a_digest_reader_gets_the_messages_in_the_digest(client, ctx):
    with freeze_time("2026-05-04 12:00:00") as frozen:
        table(ctx)
        bob = Player.get(Player.email == "bob@example.org")
        bob.quiet_start, bob.quiet_end, bob.digest = "22:00", "07:00", True
        bob.save()
        alice = seat_path(latest_mail("alice@example.org"))
        assert _say(client, alice, "see you tomorrow").status_code == 303
        frozen.move_to("2026-05-04 13:30:00")
        tick(ctx, transport=_Sink())
        tick(ctx, transport=_Sink())
        assert Outbox.select().where(Outbox.kind == "talk").count() == 1  # held, once
        frozen.move_to("2026-05-05 07:01:00")
        tick(ctx, transport=_Sink())
        [digest] = Outbox.select().where(Outbox.kind == "digest")
        assert "Alice: see you tomorrow" in digest.text_body
        assert "Alice: see you tomorrow" in digest.html_body


def test_bots_get_no_mail_and_german_readers_read_german(client, ctx):
    with freeze_time("2026-05-04 12:00:00") as frozen:
        player("alice@example.org", "Alice")
        game = table(ctx, humans=2, bots=1)
        bob = Player.get(Player.email == "bob@example.org")
        bob.language = "de"
        bob.save()
        alice = seat_path(latest_mail("alice@example.org"))
        assert _say(client, alice, "Hallo").status_code == 303
        frozen.tick(timedelta(minutes=61))
        tick(ctx, transport=_Sink())
        [mail] = Outbox.select().where(Outbox.kind == "talk")
        assert mail.to_address == "bob@example.org"
        assert "Tischgespräch" in mail.text_body and "Alice: Hallo" in mail.text_body
        assert game.id == mail.game_id


def test_the_archive_keeps_the_talk_beside_the_move_it_followed(client, ctx):
    game = table(ctx)
    alice = seat_path(latest_mail("alice@example.org"))
    assert _say(client, alice, "Hi all").status_code == 303
    rules = get_game(game.game)
    game = Game.get_by_id(game.id)
    seat = rules.to_move(game.state)[0]
    moves.play(ctx, game.id, seat, rules.legal_moves(game.state, seat)[0],
               menu_seq=Seat.get(Seat.game == game, Seat.index == seat).menu_seq)
    hostile = "# <img src=x onerror=alert(1)> *bold* [link](http://evil.example) `code`"
    assert _say(client, alice, hostile).status_code == 303
    finish(ctx, game)
    build(site_dir(ctx), site_key=ctx.base_url)
    markdown = (site_dir(ctx) / "games" / f"{game.id}.md").read_text()
    lines = markdown.splitlines()
    hi = next(i for i, line in enumerate(lines) if "Table talk, Alice: “Hi all”" in line)
    assert "[1](#m1)" in lines[hi + 1]  # said before the first move, it stands before it
    [second] = [line for line in lines if "Table talk, Alice" in line and "img" in line]
    assert "[2](#m2)" in lines[lines.index(second) + 1] and "[1](#m1)" in lines[
        lines.index(second) - 1]
    assert "&lt;img" in second and "\\*bold\\*" in second and "\\[link\\]" in second
    html = (site_dir(ctx) / "games" / f"{game.id}.html").read_text()
    assert "&lt;img src=x onerror=alert(1)&gt;" in html
    assert "<img src=x" not in html and "<em>bold</em>" not in html
    assert 'href="http://evil.example"' not in html


def test_an_older_database_gets_the_talk_table(tmp_path):
    database = open_database(f"sqlite:///{tmp_path / 'old.db'}")
    try:
        create_tables()
        from playhouse.migrate import SqliteMigrator, migrate

        database.execute_sql('DROP TABLE "talk"')
        migrate(SqliteMigrator(database).drop_column("seat", "talk_mailed"))
        assert "talk" not in database.get_tables()
        create_tables()
        assert "talk" in database.get_tables()
        assert "talk_mailed" in {c.name for c in database.get_columns("seat")}
    finally:
        db.close()
        assert isinstance(database, pw.SqliteDatabase)


def test_a_reader_with_mail_off_is_mailed_the_waiting_talk_once_mail_is_on(client, ctx):
    """The tick finds waiting readers by ``Seat.talk_waiting_since`` alone: a reader it
    cannot mail stops waiting, and turning mail on again makes them wait again."""
    with freeze_time("2026-05-04 10:00:00") as frozen:
        table(ctx)
        bob = Player.get(Player.email == "bob@example.org")
        Player.update(mail_enabled=False).where(Player.id == bob.id).execute()
        alice = seat_path(latest_mail("alice@example.org"))
        assert _say(client, alice, "are you there?").status_code == 303
        frozen.tick(timedelta(minutes=61))
        tick(ctx, transport=_Sink())
        assert not Outbox.select().where(Outbox.kind == "talk").exists()
        assert Seat.get(Seat.player == bob).talk_waiting_since is None  # no tick asks again
        path = compose.unsubscribe_url(ctx, bob).replace("http://pbem.test", "")
        page = client.get(path)
        client.post(path, data={"action": "resubscribe", "csrf_token": csrf_of(page.text)})
        tick(ctx, transport=_Sink())
        [mail] = Outbox.select().where(Outbox.kind == "talk")
        assert mail.to_address == "bob@example.org" and "Alice: are you there?" in mail.text_body
        assert Seat.get(Seat.player == bob).talk_waiting_since is None


def test_talk_waiting_in_an_older_database_is_mailed_after_the_upgrade(tmp_path, ctx):
    """A database from before ``Seat.talk_waiting_since``: ``create_tables`` adds the
    column and fills it from the talk itself, so the tick mails what waited."""
    from playhouse.migrate import SqliteMigrator, migrate

    from pbem.lifecycle import talk

    database = open_database(f"sqlite:///{tmp_path / 'old.db'}")
    try:
        create_tables()
        with freeze_time("2026-05-04 10:00:00") as frozen:
            game = table(ctx)
            seats = list(Seat.select().where(Seat.game == game).order_by(Seat.index))
            talk.post(ctx, game, seats[0], "from before the upgrade")
            database.execute_sql('DROP INDEX "seat_talk_waiting_since"')
            migrate(SqliteMigrator(database).drop_column("seat", "talk_waiting_since"))
            create_tables()
            assert Seat.get_by_id(seats[1].id).talk_waiting_since == datetime(2026, 5, 4, 10)
            assert Seat.get_by_id(seats[0].id).talk_waiting_since is None  # the writer
            frozen.tick(timedelta(minutes=61))
            tick(ctx, transport=_Sink())
            [mail] = Outbox.select().where(Outbox.kind == "talk")
            assert mail.to_address == "bob@example.org"
            assert "from before the upgrade" in mail.text_body
    finally:
        db.close()


def test_a_seat_taken_back_from_the_bot_is_mailed_the_talk_it_missed(client, ctx):
    from pbem.time import timeouts

    with freeze_time("2026-05-04 10:00:00") as frozen:
        game = table(ctx)
        bob = Player.get(Player.email == "bob@example.org")
        rules = get_game(game.game)
        for _ in range(10):  # Bob chooses; then he waits for Alice
            state = Game.get_by_id(game.id).state
            if 1 not in rules.to_move(state):
                break
            moves.play(ctx, game.id, 1, rules.legal_moves(state, 1)[0])
        assert rules.to_move(Game.get_by_id(game.id).state) == [0]
        Seat.update(bot=True, bot_replaced=True).where(Seat.player == bob).execute()
        alice = seat_path(latest_mail("alice@example.org"))
        assert _say(client, alice, "the bot cannot read this").status_code == 303
        assert Seat.get(Seat.player == bob).talk_waiting_since is None  # bots wait for nothing
        frozen.tick(timedelta(minutes=61))
        tick(ctx, transport=_Sink())
        assert not Outbox.select().where(Outbox.kind == "talk").exists()
        timeouts.reclaim(ctx, game.id, 1, bob.id, datetime(2026, 5, 4, 11, 1))
        # back from the bot (and not in turn: no turn mail), the seat waits for the talk
        # again, from when it was written
        assert Seat.get(Seat.player == bob).talk_waiting_since == datetime(2026, 5, 4, 10)
        tick(ctx, transport=_Sink())
        [mail] = Outbox.select().where(Outbox.kind == "talk")
        assert mail.to_address == "bob@example.org"
        assert "the bot cannot read this" in mail.text_body


def test_talk_in_a_turn_mail_never_sent_reaches_its_reader_by_a_talk_mail(client, ctx):
    """Bob's turn mail carries Alice's message but waits for his morning; he plays on
    his seat page before it goes, so the mail is never sent (its turn is over): the
    message goes to him in a "table talk" mail instead, once."""
    with freeze_time("2026-05-04 20:30:00") as frozen:
        game = table(ctx)
        bob = Player.get(Player.email == "bob@example.org")
        bob.quiet_start, bob.quiet_end = "21:00", "07:00"  # UTC
        bob.save()
        frozen.move_to("2026-05-04 21:30:00")  # Bob's night: his mails wait
        alice = seat_path(latest_mail("alice@example.org"))
        assert _say(client, alice, "Good night, Bob").status_code == 303
        mail = _play_until_bob_gets_a_turn_mail(ctx, game)
        assert "Alice: Good night, Bob" in mail.text_body and mail.talk_to is not None
        # Bob plays from his seat page in the night, before his turn mail may go
        game = Game.get_by_id(game.id)
        rules = get_game(game.game)
        while mail.seat_index in rules.to_move(game.state):
            seat = Seat.get(Seat.game == game, Seat.index == mail.seat_index)
            moves.play(ctx, game.id, seat.index, rules.legal_moves(game.state, seat.index)[0],
                       menu_seq=seat.menu_seq)
            game = Game.get_by_id(game.id)
        frozen.move_to("2026-05-05 07:00:30")
        tick(ctx, transport=_Sink())
        skipped = Outbox.get_by_id(mail.id)
        assert skipped.sent_at is None and skipped.failed_at is not None
        tick(ctx, transport=_Sink())  # the talk step, then its mail
        told = [m for m in _talk_mails("bob@example.org")
                if "Good night, Bob" in m.text_body and m.id != mail.id]
        assert len(told) == 1 and told[0].sent_at is not None, [m.kind for m in told]
        frozen.tick(timedelta(hours=3))
        tick(ctx, transport=_Sink())
        assert sum("Good night, Bob" in m.text_body for m in _talk_mails("bob@example.org")
                   if m.id != mail.id) == 1
