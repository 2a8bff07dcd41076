"""Each kind of mail is a list of its own (issue 26, item 6): its List-Id, its one-click
unsubscribe (RFC 8058) that stops that kind alone without a login, a confirm page on
GET, and a switch per kind on the settings page."""

from __future__ import annotations

from urllib.parse import urlsplit

from web_helpers import finish, forms_in, latest_mail, post_form, seat_path, snapshot, table

from pbem.context import make_context
from pbem.mail import compose, kinds
from pbem.mail.outbox import build_message
from pbem.models import Outbox, Player


def _path(url: str) -> str:
    return urlsplit(url).path


def test_every_mail_names_its_kind_and_unsubscribes_from_it(ctx, client):
    game = table(ctx)
    config = make_context(server={"base_url": "https://play.example.org"},
                          mail={"from_address": "pbem@play.example.org"}).config
    seen = {}
    for mail in Outbox.select():
        msg = build_message(mail, config)
        assert msg["List-Id"] == f"pbem {kinds.list_of(mail.kind)} " \
                                 f"<{kinds.list_of(mail.kind)}.play.example.org>"
        assert msg["List-Unsubscribe"] == f"<{mail.unsubscribe_url}>"
        assert msg["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
        seen[mail.kind] = mail
    assert {"invite", "notice", "turn"} <= set(seen)
    finish(ctx, game)
    result = latest_mail("alice@example.org", "result")
    turn = latest_mail("alice@example.org", "turn")
    # two kinds, two lists, two links
    assert build_message(result, config)["List-Id"] == "pbem results <results.play.example.org>"
    assert result.unsubscribe_url != turn.unsubscribe_url
    # behind an https base URL (production: README "Production") the link is https
    https = make_context(server={"base_url": "https://play.example.org"})
    alice = Player.get(Player.email == "alice@example.org")
    assert compose.list_unsubscribe(https, alice, "reminder").startswith(
        "https://play.example.org/u/")
    assert compose.list_unsubscribe(https, "x@example.net", "invite").startswith(
        "https://play.example.org/never/")


def test_one_click_stops_that_kind_alone_and_get_changes_nothing(ctx, client):
    game = table(ctx)
    turn = latest_mail("alice@example.org", "turn") or latest_mail("bob@example.org", "turn")
    address = turn.to_address
    path = _path(turn.unsubscribe_url)
    before = snapshot()
    page = client.get(path)  # a mail scanner's prefetch
    assert page.status_code == 200 and "Stop this kind of mail" in page.text
    assert "Your move and news of your games" in page.text
    assert snapshot() == before
    # the provider's POST: no cookie, no CSRF token, no login
    done = client.post(path, data={"List-Unsubscribe": "One-Click"})
    assert done.status_code == 200
    player = Player.get(Player.email == address)
    assert player.mail_enabled and player.mail_off == "turns"
    assert not player.takes(kinds.TURNS) and player.takes(kinds.RESULTS)
    turns_before = Outbox.select().where(Outbox.kind == "turn",
                                         Outbox.to_address == address).count()
    finish(ctx, game)
    assert Outbox.select().where(Outbox.kind == "turn",
                                 Outbox.to_address == address).count() == turns_before
    assert latest_mail(address, "result") is not None  # results still come
    # the page says it is off and turns it on again
    page = client.get(path)
    [form] = [f for f in forms_in(page.text) if f.action == path]
    assert form.button == "Send me this kind of mail again"
    post_form(client, form)
    assert Player.get(Player.email == address).mail_off == ""


def test_the_settings_page_switches_each_kind(ctx, client):
    table(ctx)
    seat = seat_path(latest_mail("alice@example.org"))
    page = client.get(f"{seat}/settings")
    for kind in kinds.SWITCHABLE:
        assert f'name="mail-{kind}"' in page.text
    [form] = [f for f in forms_in(page.text) if f.action.endswith("/settings")]
    assert all(form.fields[f"mail-{k}"] == "on" for k in kinds.SWITCHABLE)
    fields = {k: v for k, v in form.fields.items() if k not in ("mail-talk", "mail-followed")}
    form.fields = dict(fields, mail="on")  # ticked, as a browser sends it
    assert post_form(client, form).status_code == 303
    alice = Player.get(Player.email == "alice@example.org")
    assert alice.mail_off.split() == ["talk", "followed"] and alice.mail_enabled
    page = client.get(f"{seat}/settings").text
    assert 'name="mail-talk" value="on">' in page and 'name="mail-turns" value="on" checked>' \
        in page


def test_the_pages_speak_german(ctx, client):
    table(ctx)
    Player.update(language="de").where(Player.email == "alice@example.org").execute()
    alice = Player.get(Player.email == "alice@example.org")
    page = client.get(_path(compose.unsubscribe_url(ctx, alice, kinds.TALK)))
    assert "Diese Art von Mail abbestellen" in page.text, page.text
    seat = seat_path(latest_mail("alice@example.org"))
    assert "Tischgespräche deiner Partien" in client.get(f"{seat}/settings").text


def test_table_talk_switched_off_reaches_the_player_in_no_mail(ctx, client):
    from datetime import timedelta

    from pbem.lifecycle import talk
    from pbem.models import Seat, utcnow

    game = table(ctx, humans=3)
    Player.update(mail_off="talk").where(Player.email == "alice@example.org").execute()
    bob = Seat.get(Seat.game == game, Seat.index == 1)
    talk.post(ctx, game, bob, "Good luck, everyone")
    later = utcnow() + timedelta(hours=2)
    talk.send_due(ctx, later)
    to = [m.to_address for m in Outbox.select().where(Outbox.kind == "talk")]
    assert "carol@example.org" in to and "alice@example.org" not in to
    finish(ctx, game)
    assert not any("Good luck, everyone" in m.text_body for m in Outbox.select().where(
        Outbox.to_address == "alice@example.org"))
