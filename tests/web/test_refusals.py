"""Links the server refuses: each gets a page with a 4xx status that says why, never a trace.

And a refused POST changes nothing in the database.
"""

from __future__ import annotations

import base64
import json
from datetime import timedelta

import pytest
from freezegun import freeze_time
from itsdangerous import URLSafeSerializer
from web_helpers import csrf_of, finish, latest_mail, move_paths, seat_path, snapshot, table

from pbem import links
from pbem.lifecycle import moves
from pbem.models import Game, Move, Player, Seat


def _reason(response) -> str:
    marker = 'data-reason="'
    assert marker in response.text, response.text
    return response.text.split(marker, 1)[1].split('"', 1)[0]


def _refused(client, path: str, status: int, reason: str) -> None:
    """GET shows the refusal, and a POST with a good CSRF token is refused the same way."""
    got = client.get(path)
    assert (got.status_code, _reason(got)) == (status, reason)
    assert "Traceback" not in got.text
    token = csrf_of(client.get("/new/visby").text)
    before = snapshot()
    posted = client.post(path, data={"csrf_token": token})
    assert (posted.status_code, _reason(posted)) == (status, reason)
    assert snapshot() == before


def _links_to_seat(html: str, address: str) -> bool:
    """Whether the page links to the seat of ``address`` (tokens differ by their time only)."""
    payload = seat_path(latest_mail(address)).split("/")[-1].split(".")[0]
    return f'href="/s/{payload}.' in html


def _payload(token: str) -> dict:
    """What a token says (itsdangerous compresses a long payload: a leading ".")."""
    body = token.rsplit(".", 2)[0]
    return URLSafeSerializer("-").load_payload(body.encode())


def _tamper(token: str, **changes) -> str:
    """The token with its payload changed and the old signature kept."""
    body, timestamp, signature = token.rsplit(".", 2)
    payload = _payload(token)
    payload.update(changes)
    raw = json.dumps(payload, separators=(",", ":")).encode()
    new_body = base64.urlsafe_b64encode(raw).decode().rstrip("=")
    return f"{new_body}.{timestamp}.{signature}"


def test_a_forged_link(ctx, client):
    table(ctx)
    path = move_paths(latest_mail("alice@example.org"))[0]
    broken = path[:-3] + ("aaa" if not path.endswith("aaa") else "bbb")
    _refused(client, broken, 400, "forged")
    _refused(client, "/m/not-a-token-at-all", 400, "forged")
    # a token signed by another server (another secret)
    other = links.Signer(["another-secret"]).sign(links.MOVE, {"g": 1, "s": 0, "n": 1,
                                                                "m": "play Ritter"})
    _refused(client, f"/m/{other}", 400, "forged")
    # a seat link is no move link: one salt per purpose
    _refused(client, "/m/" + seat_path(latest_mail("alice@example.org")).split("/")[-1],
             400, "forged")


def test_a_move_link_cannot_be_turned_to_another_seat_or_game(ctx, client):
    game = table(ctx)
    token = move_paths(latest_mail("alice@example.org"))[0].split("/")[-1]
    _refused(client, f"/m/{_tamper(token, s=1)}", 400, "forged")
    _refused(client, f"/m/{_tamper(token, g=game.id + 1)}", 400, "forged")
    seat_token = seat_path(latest_mail("alice@example.org")).split("/")[-1]
    assert client.get(f"/s/{_tamper(seat_token, s=1)}").status_code == 400


def test_a_seat_link_of_someone_else_or_of_a_game_that_is_gone(ctx, client):
    game = table(ctx)
    alice = Player.get(Player.email == "alice@example.org")
    # signed by us, but Alice does not sit on seat 1: this cannot open Bob's hand
    token = ctx.signer.sign(links.SEAT, {"g": game.id, "s": 1, "p": alice.id, "v": 1})
    response = client.get(f"/s/{token}")
    assert (response.status_code, _reason(response)) == (403, "other-player")
    assert "Bob" not in response.text or "Your hand" not in response.text
    missing = ctx.signer.sign(links.MOVE, {"g": game.id + 99, "s": 0, "n": 1, "m": "play Ritter"})
    _refused(client, f"/m/{missing}", 404, "no-game")
    # a newer link version revokes the old links
    path = seat_path(latest_mail("alice@example.org"))
    Player.update(link_version=2).where(Player.id == alice.id).execute()
    response = client.get(path)
    assert (response.status_code, _reason(response)) == (410, "revoked")


def test_an_expired_link_and_a_fresh_one(ctx, database, tmp_path):
    from pbem.web import create_app

    with freeze_time("2026-03-02 12:00:00") as frozen:
        table(ctx)
        client = create_app(ctx).test_client()
        path = move_paths(latest_mail("alice@example.org"))[0]
        frozen.tick(timedelta(days=29))
        assert client.get(path).status_code == 200
        frozen.tick(timedelta(days=2))  # move_link_days is 30
        response = client.get(path)
        assert (response.status_code, _reason(response)) == (410, "expired")
        assert 'href="/g/1"' in response.text  # still says which game, to go on from
        _refused(client, path, 410, "expired")


def test_a_link_played_twice(ctx, client):
    table(ctx)  # two players: two cards a round, chosen from one mail
    mail = latest_mail("alice@example.org")
    paths = move_paths(mail)
    page = client.get(paths[1])
    first = client.post(paths[1], data={"csrf_token": csrf_of(page.text)})
    assert first.status_code == 303
    again = client.post(paths[1], data={"csrf_token": csrf_of(page.text)})
    assert (again.status_code, _reason(again)) == (409, "used")
    assert "Alice chooses Ritter" in again.text  # which move was played from it
    assert _links_to_seat(again.text, "alice@example.org")  # the seat, to go on from
    # another link of the same mail plays the second card of the round
    second = client.post(paths[2], data={"csrf_token": csrf_of(client.get(paths[2]).text)})
    assert second.status_code == 303
    assert latest_mail("alice@example.org").id == mail.id  # no new mail for the 2nd card
    # with both cards chosen the decision is over: a third link of the mail is stale
    _refused(client, paths[3], 410, "stale")
    assert Move.select().where(Move.kind == Move.PLAYER).count() == 2


def test_a_link_whose_choice_is_gone(ctx, client):
    """The decision is still open, but the link's card is no longer to be chosen (played
    from a form of another version): the confirm page says so, and so does its POST."""
    game = table(ctx)
    paths = move_paths(latest_mail("alice@example.org"))
    ritter = next(p for p in paths if _payload(p.split("/")[-1])["m"] == "play Ritter")
    seat = game.seats.where(Seat.index == 0).get()
    moves.play(ctx, game.id, 0, "play Ritter", menu_seq=seat.menu_seq + 1000,
               turn_seq=seat.turn_seq)
    _refused(client, ritter, 409, "gone")
    # the mail's other cards still play: the round's second card is open
    other = next(p for p in paths if _payload(p.split("/")[-1])["m"] == "play Schiff")
    assert client.get(other).status_code == 200


def test_a_stale_link_after_the_game_moved_on(ctx, client):
    game = table(ctx)
    old = move_paths(latest_mail("alice@example.org"))
    for seat, cards in ((0, ("Ritter", "Schiff")), (1, ("Flotte", "Truppen"))):
        for card in cards:
            moves.play(ctx, game.id, seat, f"play {card}")
    assert Game.get_by_id(game.id).state["round"] == 2
    # Alice's round-1 mail: a link not played is stale, a link played says so
    _refused(client, old[0], 410, "stale")
    ritter = next(p for p in old if _payload(p.split("/")[-1])["m"] == "play Ritter")
    _refused(client, ritter, 409, "used")
    # a round-2 mail came; after a take-back its links still play: the decision is open
    fresh = move_paths(latest_mail("alice@example.org"))
    moves.play(ctx, game.id, 0, "play Kaufmann")
    moves.take_back(ctx, game.id, 0)
    assert client.get(fresh[0]).status_code == 200
    # once the round is decided, they are stale
    for seat in (0, 1):
        for _ in range(2):
            state = Game.get_by_id(game.id).state
            if seat in moves.get_game("visby").to_move(state):
                moves.play(ctx, game.id, seat,
                           moves.get_game("visby").legal_moves(state, seat)[-1])
    _refused(client, fresh[0], 410, "stale")
    page = client.get(fresh[0])
    assert _links_to_seat(page.text, "alice@example.org")


def test_a_link_of_a_game_that_is_over(ctx, client):
    game = table(ctx, humans=2)
    path = move_paths(latest_mail("bob@example.org"))[0]
    finish(ctx, game)
    assert Game.get_by_id(game.id).status == Game.FINISHED
    _refused(client, path, 410, "not-active")
    assert "ended" in client.get(path).text


def test_a_post_without_the_csrf_token_changes_nothing(ctx, client):
    table(ctx)
    path = move_paths(latest_mail("alice@example.org"))[0]
    assert client.get(path).status_code == 200
    before = snapshot()
    for data in ({}, {"csrf_token": "guess"}):
        response = client.post(path, data=data)
        assert (response.status_code, _reason(response)) == (400, "csrf")
        assert path in response.text  # offers to open the page again
    assert snapshot() == before


@pytest.mark.parametrize("path", ["/s/x/play", "/g/999", "/dev/mail/../../etc/passwd",
                                  "/dev/mail/nope.eml", "/new/chess", "/i/x", "/u/x"])
def test_odd_paths_are_pages_not_traces(sqlite_client, path):
    response = sqlite_client.get(path)
    assert 400 <= response.status_code < 500
    assert "<h1>" in response.text and "Traceback" not in response.text
