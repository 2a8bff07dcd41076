"""The demo of ./run.sh: answering a turn mail from /dev/mail plays by reply, through the
LMTP listener that ``pbem serve`` starts (``pbem.cli.lmtp``)."""

from __future__ import annotations

import json

from web_helpers import forms_in, free_port, hrefs, post_form

from pbem.cli.lmtp import controller
from pbem.cli.server import DEMO_EMAIL, DEMO_NAME
from pbem.context import make_context
from pbem.lifecycle import create
from pbem.models import Move, Outbox, Player, Seat
from pbem.time.scheduler import tick
from pbem.web import create_app


def test_answering_2_to_the_demos_turn_mail_plays_the_second_choice(tmp_path, sqlite_database):
    ctx = make_context(server={"instance": str(tmp_path / "instance"),
                               "base_url": "http://pbem.test"},
                       inbound={"lmtp_port": str(free_port())})
    # what `pbem demo` makes: you against two bots, the first mails written to the folder
    you = Player.create(email=DEMO_EMAIL, name=DEMO_NAME, quiet_start="00:00",
                        quiet_end="00:00")
    game = create.create_game(ctx, "visby", you, [None, None], seed=1)
    tick(ctx)
    listener = controller(ctx)
    listener.start()
    try:
        client = create_app(ctx).test_client()
        listing = client.get("/dev/mail")
        newest = next(h for h in hrefs(listing.text) if h.startswith("/dev/mail/"))
        shown = client.get(newest)
        assert "pbem+" in shown.text  # its Reply-To, shown with the form
        [form] = [f for f in forms_in(shown.text) if f.action.endswith("/answer")]
        answered = post_form(client, form, text="2")
        assert answered.status_code == 200, answered.text
        assert "played" in answered.text
    finally:
        listener.stop()
    turn = Outbox.get(Outbox.kind == "turn", Outbox.to_address == DEMO_EMAIL)
    second = json.loads(turn.choices)["moves"][1]
    [mine] = Move.select().where(Move.game == game, Move.seat == 0, Move.kind == Move.PLAYER)
    assert mine.move == second
    assert Seat.get(Seat.game == game, Seat.index == 0).menu_seq > 1
    tick(ctx)  # pbem's answer goes to the folder like every mail
    [answer] = Outbox.select().where(Outbox.kind == "answer")
    assert answer.sent_at is not None and "Your reply played:" in answer.text_body


def test_answering_without_a_listener_says_so_and_changes_nothing(tmp_path, sqlite_database):
    ctx = make_context(server={"instance": str(tmp_path / "instance"),
                               "base_url": "http://pbem.test"},
                       inbound={"lmtp_port": str(free_port())})
    you = Player.create(email=DEMO_EMAIL, name=DEMO_NAME, quiet_start="00:00",
                        quiet_end="00:00")
    create.create_game(ctx, "visby", you, [None, None], seed=1)
    tick(ctx)
    client = create_app(ctx).test_client()
    newest = next(h for h in hrefs(client.get("/dev/mail").text) if h.startswith("/dev/mail/"))
    [form] = [f for f in forms_in(client.get(newest).text) if f.action.endswith("/answer")]
    answered = post_form(client, form, text="2")
    assert answered.status_code == 409 and "pbem serve" in answered.text
    assert not Move.select().where(Move.kind == Move.PLAYER).exists()
