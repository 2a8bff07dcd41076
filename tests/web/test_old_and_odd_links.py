"""Links that are genuine but odd: made before the database was reset, mailed by an older
pbem, older than their time, or of a game the operator stopped. Each is a page that says
what happened and where to go on, never a trace."""

from __future__ import annotations

from datetime import timedelta
from urllib.parse import urlsplit

from freezegun import freeze_time
from web_helpers import csrf_of, latest_mail, move_paths, snapshot, table

from pbem import links
from pbem.mail import compose
from pbem.models import Game, Move, Player


def _refusal(response) -> tuple[int, str]:
    marker = 'data-reason="'
    assert marker in response.text, response.text[:2000]
    return response.status_code, response.text.split(marker, 1)[1].split('"', 1)[0]


def test_a_link_to_a_seat_the_game_does_not_have_says_so(ctx, client):
    """After the development database was reset, game 1 has two seats; an old mail's
    link to its fourth seat finds no such seat, and offers the game's page."""
    game = table(ctx)
    alice = Player.get(Player.email == "alice@example.org")
    for purpose, path in ((links.SEAT, "/s/{}"), (links.MOVE, "/m/{}")):
        token = ctx.signer.sign(purpose, {"g": game.id, "s": 3, "t": 1, "n": 1,
                                          "m": "play Ritter", "p": alice.id, "v": 1})
        response = client.get(path.format(token))
        assert _refusal(response) == (404, "no-seat"), purpose
        assert "This game has no such seat." in response.text
        assert f'href="/g/{game.id}"' in response.text


def test_a_move_link_mailed_by_an_older_pbem_is_refused_as_not_valid(ctx, client):
    """Move links of older versions named no turn; such a link (or any link missing what
    it should name, or naming it as text) is not valid, whatever else it says."""
    game = table(ctx)
    alice = Player.get(Player.email == "alice@example.org")
    good = {"g": game.id, "s": 0, "t": 1, "n": 1, "m": "play Ritter", "p": alice.id, "v": 1}
    old = {k: v for k, v in good.items() if k != "t"}
    for payload in (old, dict(good, g=str(game.id)), dict(good, m=7)):
        response = client.get(f"/m/{ctx.signer.sign(links.MOVE, payload)}")
        assert _refusal(response) == (400, "forged"), payload
        assert "it does not name what it should" in response.text
    assert client.get(f"/m/{ctx.signer.sign(links.MOVE, good)}").status_code == 200


def test_an_address_confirmation_link_older_than_a_month_has_expired(ctx, client):
    table(ctx)
    alice = Player.get(Player.email == "alice@example.org")
    with freeze_time("2026-03-02 12:00") as frozen:
        path = urlsplit(compose.confirm_url(ctx, alice)).path
        frozen.tick(timedelta(days=29))
        assert client.get(path).status_code == 200
        frozen.tick(timedelta(days=2))
        response = client.get(path)
    assert _refusal(response) == (410, "expired")
    assert "This link has expired." in response.text


def test_the_links_of_a_game_the_operator_stopped_say_it_is_not_running(ctx, client):
    game = table(ctx)
    path = move_paths(latest_mail("alice@example.org"))[0]
    token = csrf_of(client.get(path).text)
    Game.update(status=Game.ABORTED).where(Game.id == game.id).execute()
    response = client.get(path)
    assert _refusal(response) == (410, "not-active")
    assert "This game is not running." in response.text
    before = snapshot()
    posted = client.post(path, data={"csrf_token": token})
    assert posted.status_code == 410
    assert snapshot() == before and Move.select().count() == 0


def test_the_page_of_a_game_that_does_not_exist_is_not_found(sqlite_client):
    response = sqlite_client.get("/g/999")
    assert response.status_code == 404 and "Not Found" in response.text
