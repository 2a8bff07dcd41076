"""Following a running game (issue 26, item 2): its Atom feed of public moves, a
visitor's address confirmed before anything but the request is mailed, at most one
digest a day, a one-click unsubscribe, and nothing in any of it that holds a seat link
or a secret.  One anonymous client cannot make pbem mail a stranger more than once a day."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from datetime import timedelta
from urllib.parse import urlsplit

from freezegun import freeze_time
from web_helpers import finish, forms_in, latest_mail, paths_in, post_form, snapshot, table

from pbem.lifecycle import moves
from pbem.mail import compose
from pbem.mail.outbox import build_message
from pbem.models import Follower, Game, Outbox, Seat, utcnow
from pbem.time import follow as follow_step
from pbem.time.scheduler import tick

ATOM = "{http://www.w3.org/2005/Atom}"
#: a seed long enough that finding it in a text means it leaked
SEED = "7f3a9c1e5b2d40c6a8e4"


def _path(url: str) -> str:
    return urlsplit(url).path


def _ask(client, game: Game, address: str, remote: str = "198.51.100.7", lang: str = "en"):
    environ = {"REMOTE_ADDR": remote}
    headers = {"Accept-Language": lang}
    page = client.get(f"/g/{game.id}", environ_base=environ, headers=headers)
    [form] = [f for f in forms_in(page.text) if f.action.endswith("/follow")]
    return client.post(form.action, environ_base=environ, headers=headers,
                       data={**form.fields, "email": address})


def _play(ctx, game: Game, count: int) -> None:
    """``count`` moves of whoever is to move (the first legal one)."""
    from pbem.games import get_game

    rules = get_game(game.game)
    for _ in range(count):
        game = Game.get_by_id(game.id)
        if game.status != Game.ACTIVE:
            return
        seat = rules.to_move(game.state)[0]
        menu = Seat.get(Seat.game == game, Seat.index == seat).menu_seq
        moves.play(ctx, game.id, seat, rules.legal_moves(game.state, seat)[0], menu_seq=menu)


def _secrets_absent(text: str, game: Game) -> None:
    assert not any(p.startswith(("/s/", "/m/", "/me/", "/i/", "/calendar/", "/c/"))
                   for p in paths_in(text)), text
    assert SEED not in text


def test_follow_a_game_and_get_one_digest_a_day(ctx, client):
    game = table(ctx, seed=SEED)
    page = client.get(f"/g/{game.id}").text
    assert "Follow this game" in page and f"/g/{game.id}/feed.atom" in page
    # a feed reader given the page's address finds the feed in its head
    head = page.split("</head>", 1)[0]
    assert (f'<link rel="alternate" type="application/atom+xml" title="{compose.game_title(game)}"'
            f' href="/g/{game.id}/feed.atom">') in head
    before = snapshot()
    asked = _ask(client, game, "fan@example.net")
    assert asked.status_code == 200 and "a mail is on its way" in asked.text
    [request] = Outbox.select().where(Outbox.to_address == "fan@example.net")
    assert request.kind == "follow-ask" and "/never/" in request.unsubscribe_url
    _secrets_absent(request.text_body + (request.html_body or ""), game)
    assert Follower.get().confirmed_at is None
    [confirm] = [p for p in paths_in(request.text_body) if p.startswith("/follow/")]
    # opening the link (a scanner's prefetch) changes nothing
    after_ask = snapshot()
    assert after_ask != before
    page = client.get(confirm)
    assert page.status_code == 200 and snapshot() == after_ask
    [form] = [f for f in forms_in(page.text) if f.action == confirm]
    done = post_form(client, form)
    assert "follows this game" in done.text
    follower = Follower.get()
    assert follower.confirmed_at is not None and follower.told_seq == game.seq

    # a day without moves mails nothing; a day with moves mails one digest
    assert follow_step.send_due(ctx, utcnow() + timedelta(days=1, minutes=1)) == 0
    _play(ctx, game, 6)
    soon = utcnow() + timedelta(days=2, minutes=2)
    assert follow_step.send_due(ctx, soon) == 1
    assert follow_step.send_due(ctx, soon) == 0  # once, however often the tick runs
    _play(ctx, game, 4)
    assert follow_step.send_due(ctx, soon + timedelta(hours=23)) == 0  # not twice a day
    digests = list(Outbox.select().where(Outbox.kind == "follow"))
    assert len(digests) == 1
    digest = digests[0]
    text = digest.text_body + (digest.html_body or "")
    _secrets_absent(text, game)
    assert "What happened in Visby" in digest.text_body and "\n- " in digest.text_body
    assert digest.unsubscribe_url.endswith("/stop")
    msg = build_message(digest, ctx.config)
    assert msg["List-Id"].startswith("pbem followed <followed.")
    assert msg["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"

    # the end of the game: one last digest with the result, then nothing more
    finish(ctx, game)
    assert follow_step.send_due(ctx, soon + timedelta(days=1)) == 1
    last = latest_mail("fan@example.net", "follow")
    assert "The game is over" in last.text_body and "last digest" in last.text_body
    assert Follower.get().digest_due is None
    assert follow_step.send_due(ctx, soon + timedelta(days=5)) == 0


def test_one_click_unfollows_and_get_only_asks(ctx, client):
    game = table(ctx)
    _ask(client, game, "fan@example.net")
    request = latest_mail("fan@example.net", "follow-ask")
    [confirm] = [p for p in paths_in(request.text_body) if p.startswith("/follow/")]
    post_form(client, next(f for f in forms_in(client.get(confirm).text) if f.action == confirm))
    _play(ctx, game, 3)
    follow_step.send_due(ctx, utcnow() + timedelta(days=1, minutes=1))
    stop = _path(latest_mail("fan@example.net", "follow").unsubscribe_url)
    before = snapshot()
    assert "Stop following" in client.get(stop).text
    assert snapshot() == before
    done = client.post(stop, data={"List-Unsubscribe": "One-Click"})  # no cookie, no token
    assert done.status_code == 200
    assert not Follower.select().exists()
    assert client.get(stop).status_code == 410  # the link is spent


def test_one_client_cannot_mail_a_stranger_more_than_once_a_day(ctx, client):
    first, second = table(ctx), table(ctx, seed=9)
    with freeze_time(utcnow()) as clock:
        for game in (first, second, first):
            assert _ask(client, game, "stranger@example.net").status_code == 200
        # another network, the same stranger: still one mail
        assert _ask(client, second, "Stranger@Example.net", remote="203.0.113.9"
                    ).status_code == 200
        assert Outbox.select().where(Outbox.to_address == "stranger@example.net").count() == 1
        clock.tick(timedelta(days=1, minutes=1))
        _ask(client, second, "stranger@example.net")
        assert Outbox.select().where(Outbox.to_address == "stranger@example.net").count() == 2
        # one client asks for at most ``follows_per_client`` follows a day
        for n in range(10):
            _ask(client, first, f"someone{n}@example.net", remote="192.0.2.1")
        refused = _ask(client, first, "one.more@example.net", remote="192.0.2.1")
        assert refused.status_code == 429 and refused.headers["Retry-After"], refused.text[-1500:]
        assert not Outbox.select().where(Outbox.to_address == "one.more@example.net").exists()


def test_no_follow_mail_to_an_address_that_said_never(ctx, client):
    from pbem.lifecycle import create

    game = table(ctx)
    create.never_mail("quiet@example.net")
    assert _ask(client, game, "quiet@example.net").status_code == 200  # says the same
    assert not Outbox.select().where(Outbox.to_address == "quiet@example.net").exists()


def test_the_feed_tells_public_moves_only(ctx, client):
    game = table(ctx, seed=SEED)
    _play(ctx, game, 8)
    response = client.get(f"/g/{game.id}/feed.atom")
    assert response.status_code == 200
    assert response.headers["Content-Type"].startswith("application/atom+xml")
    root = ET.fromstring(response.data)
    entries = root.findall(f"{ATOM}entry")
    assert entries and len({e.find(f"{ATOM}id").text for e in entries}) == len(entries)
    titles = [e.find(f"{ATOM}title").text for e in entries]
    assert all(re.match(r"\d+\. ", t) for t in titles)
    _secrets_absent(response.text, Game.get_by_id(game.id))
    # the same request, the same bytes: a reader sees each move once
    assert client.get(f"/g/{game.id}/feed.atom").data == response.data
    assert client.get("/g/999/feed.atom").status_code == 404


def test_follow_in_german(ctx, client):
    game = table(ctx)
    asked = _ask(client, game, "fan@example.net", lang="de")
    assert "Mail an diese Adresse unterwegs" in asked.text, asked.text
    request = latest_mail("fan@example.net", "follow-ask")
    assert "Partie" in request.text_body
    [confirm] = [p for p in paths_in(request.text_body) if p.startswith("/follow/")]
    page = client.get(confirm)
    assert "folgen" in page.text
    post_form(client, next(f for f in forms_in(page.text) if f.action == confirm))
    _play(ctx, game, 4)
    follow_step.send_due(ctx, utcnow() + timedelta(days=1, minutes=1))
    digest = latest_mail("fan@example.net", "follow")
    assert "Was seit der letzten Zusammenfassung" in digest.text_body
    # the scheduler's tick runs the step: the next day's digest, with the moves since
    _play(ctx, game, 2)
    done = tick(ctx, now=utcnow() + timedelta(days=2, minutes=2))
    assert done["follow"] == 1


def test_a_player_who_switched_digests_of_followed_games_off_gets_none(ctx, client):
    from web_helpers import player

    from pbem.lifecycle import follow
    from pbem.models import Player

    game = table(ctx)
    carol = player("carol@example.org", "Carol")
    assert follow.ask(ctx, game.id, "carol@example.org", None, "en")
    request = latest_mail("carol@example.org", "follow-ask")
    assert request.player_id == carol.id  # her mail: it heeds her "stop all mail" too
    fan = follow.confirm(Follower.get().id, Follower.get().key)
    Player.update(mail_off="followed").where(Player.id == carol.id).execute()
    _play(ctx, game, 4)
    assert follow_step.send_due(ctx, utcnow() + timedelta(days=1, minutes=1)) == 0
    assert not Outbox.select().where(Outbox.kind == "follow").exists()
    Player.update(mail_off="").where(Player.id == carol.id).execute()
    _play(ctx, game, 2)
    assert follow_step.send_due(ctx, utcnow() + timedelta(days=2, minutes=2)) == 1
    assert Follower.get_by_id(fan.id).told_seq == Game.get_by_id(game.id).seq
