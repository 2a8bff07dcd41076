"""Every form of the app, sent hostile values: a 4xx page or a correct save, never a 500.

Each POST route of the app is reached with valid links and a valid CSRF token,
so the hostile value gets past the checks in front and reaches the form's own
handling: integers beyond 64 bits, negatives, NaN, infinity, 100,000
characters, NUL, invalid UTF-8, a field given twice, a field missing.  The test
also fails when a route is added without being listed here.
"""

from __future__ import annotations

import pytest
from web_helpers import (
    csrf_of,
    finish,
    free_port,
    latest_mail,
    move_paths,
    paths_in,
    player,
    seat_path,
    table,
)

from pbem import links
from pbem.lifecycle import create, follow, join
from pbem.mail import compose
from pbem.models import Follower, Game, Player, Seat
from pbem.time.scheduler import tick

HOSTILE: list[str | bytes | list[str]] = [
    "99999999999999999999999", str(2**63), "-1", "-99999999999999999999", "nan", "inf",
    "1e308", "x" * 100_000, "\x00", "a\x00b", b"\xff\xfe\xfd", ["1", "2"], "", "0", "1.5",
    "<script>alert(1)</script>", "22:30\r\nBcc: x@example.org",
]
#: per route, a filled-in form that passes (so that a hostile value in one field gets as
#: far as that field's own handling); "n" and "t" are filled in from the seat's row
GOOD: dict[str, dict[str, str]] = {
    "play.confirm_post": {},
    "play.seat_play": {"n": "", "t": "", "move": "play Ritter"},
    "play.seat_takeback": {"n": ""},
    "play.seat_new_links": {},
    "play.seat_talk": {"text": "Good luck, everyone"},
    "play.seat_note": {"text": "Bob hoards salt"},
    "play.seat_settings_post": {"timezone": "UTC", "language": "en", "mail": "on",
                                "kinds": "listed", "mail-talk": "on"},
    "lobby.new_game_post": {
        "name": "Zed", "email": "zed@example.org", "timezone": "UTC", "players": "2",
        "seat-1": "bot", "opt-target": "30", "clock": "per_move", "days": "3",
        "initial_days": "7", "bonus_days": "1", "reminders": "50%, 24h", "grace_hours": "12",
        "timeouts_before_bot": "3", "after_timeouts": "bot"},
    "lobby.confirm_address_post": {"game": "1"},
    "mine.new_game_post": {
        "players": "2", "seat-1": "bot", "opt-target": "30", "clock": "per_move",
        "days": "3", "initial_days": "7", "bonus_days": "1", "reminders": "50%, 24h",
        "grace_hours": "12", "timeouts_before_bot": "3", "after_timeouts": "bot"},
    "lobby.never_post": {"List-Unsubscribe": "One-Click"},
    "lobby.invite_post": {"name": "Carol", "timezone": "UTC", "language": "en"},
    "lobby.unsubscribe_post": {"action": "resubscribe"},
    "time.vacation_post": {"action": "start", "days": "3"},
    "time.quiet_post": {"quiet_start": "22:00", "quiet_end": "08:00", "digest": "on"},
    "time.reclaim_post": {},
    "lobby.invite_decline": {},
    "mine.rematch": {},
    "mine.seat_invite": {"email": "dan@example.org"},
    "mine.seat_bot": {},
    "follow.follow_post": {"email": "fan@example.net"},
    "follow.confirm_post": {},
    "follow.stop_post": {"List-Unsubscribe": "One-Click"},
    "open_games.ask": {"email": "dora@example.net"},
    "open_games.join_post": {"name": "Dora", "timezone": "UTC", "language": "en"},
    "dev.mail_answer": {"text": "2"},
    "inbound.inbound_mail": {},
}


def _encode(field: str, value: str | bytes | list[str]) -> bytes:
    from urllib.parse import quote_from_bytes

    values = value if isinstance(value, list) else [value]
    parts = []
    for v in values:
        raw = v if isinstance(v, bytes) else v.encode("utf-8")
        parts.append(f"{field}={quote_from_bytes(raw)}")
    return "&".join(parts).encode()


def test_every_form_answers_hostile_values_with_a_page_never_a_500(app, ctx, database):
    player("alice@example.org", "Alice")
    table(ctx, humans=2)  # Alice and Bob play
    # a second game with a seat still invited, for the invitation form
    open_game = create.create_game(
        ctx, "visby", Player.get(Player.email == "alice@example.org"),
        ["bob@example.org", "carol@example.org"], seed=3)
    finish(ctx, create.create_game(ctx, "visby", Player.get(Player.email == "alice@example.org"),
                                   [None], seed=4))  # for a rematch
    client = app.test_client()
    # the mails in the folder, for /dev/mail's answer; no LMTP listener where it sends
    ctx.config.values["inbound"]["lmtp_port"] = str(free_port())
    tick(ctx)
    routes = _routes_for(ctx, open_game)
    declared = {r.endpoint for r in app.url_map.iter_rules() if "POST" in (r.methods or ())}
    assert declared == set(routes) == set(GOOD), "a POST route is not in this test"
    failures = []
    for endpoint, path in routes.items():
        page = client.get(path if endpoint != "lobby.new_game_post" else "/new/visby")
        token = csrf_of(page.text) if 'name="csrf_token"' in page.text else csrf_of(
            client.get("/new/visby").text)
        seat = Seat.get(Seat.game == Game.select().order_by(Game.id).first(), Seat.index == 0)
        good = {k: v or str(getattr(seat, {"n": "menu_seq", "t": "turn_seq"}[k]))
                for k, v in GOOD[endpoint].items()}
        for field in [*good, "extra"]:
            for value in HOSTILE:
                rest = b"".join(b"&" + _encode(k, v) for k, v in good.items() if k != field)
                body = b"csrf_token=" + token.encode() + b"&" + _encode(field, value) + rest
                response = client.post(path, data=body,
                                       content_type="application/x-www-form-urlencoded")
                if response.status_code >= 500:
                    failures.append((endpoint, field, repr(value)[:40], response.status_code))
    assert failures == []


def _routes_for(ctx, game: Game) -> dict[str, str]:
    alice = Player.get(Player.email == "alice@example.org")
    seat = Seat.get(Seat.game == Game.select().order_by(Game.id).first(), Seat.index == 0)
    seat_url = paths_in(compose.seat_url(ctx, seat.game, seat))[0]
    mail = latest_mail("alice@example.org")
    invited = Seat.get(Seat.game == game, Seat.index == 2)
    invite = ctx.signer.sign(links.INVITE, {"g": game.id, "s": 2, "e": invited.invite_email})
    declined = ctx.signer.sign(links.INVITE, {"g": game.id, "s": 1, "e": "bob@example.org"})
    creator_url = paths_in(compose.seat_url(ctx, game, Seat.get(Seat.game == game,
                                                                Seat.index == 0)))[0]
    games = paths_in(compose.my_games_url(ctx, alice))[0]
    finished = Game.get(Game.status == Game.FINISHED)
    fan = Follower.create(game=seat.game_id, email="fan@example.net")
    open_seats = create.create_game(ctx, "visby", alice, [create.OPEN_SEAT, create.OPEN_SEAT],
                                    seed=8)
    return {
        "play.confirm_post": move_paths(mail)[0],
        "play.seat_play": f"{seat_url}/play",
        "play.seat_takeback": f"{seat_url}/takeback",
        "play.seat_new_links": f"{seat_url}/new-links",
        "play.seat_talk": f"{seat_url}/talk",
        "play.seat_note": f"{seat_url}/note",
        "play.seat_settings_post": f"{seat_url}/settings",
        "lobby.new_game_post": "/new/visby",
        "lobby.confirm_address_post": paths_in(compose.confirm_url(ctx, alice))[0],
        "lobby.never_post": paths_in(compose.never_url(ctx, "dave@example.org"))[0],
        "lobby.invite_post": f"/i/{invite}",
        "lobby.unsubscribe_post": paths_in(compose.unsubscribe_url(ctx, alice))[0],
        "time.vacation_post": f"{seat_url}/vacation",
        "time.quiet_post": f"{seat_url}/quiet",
        "time.reclaim_post": f"{seat_url}/reclaim",
        "lobby.invite_decline": f"/i/{declined}/decline",
        "mine.rematch": f"{games}/rematch/{finished.id}",
        "mine.new_game_post": f"{games}/new/visby",
        "mine.seat_invite": f"{creator_url}/seat/1/invite",
        "mine.seat_bot": f"{creator_url}/seat/1/bot",
        "follow.follow_post": f"/g/{seat.game_id}/follow",
        "follow.confirm_post": paths_in(follow.link(ctx, fan))[0],
        "follow.stop_post": paths_in(follow.link(ctx, fan, "stop"))[0],
        "open_games.ask": f"/open/{open_seats.id}",
        "open_games.join_post": paths_in(join.link(ctx, open_seats, "dora@example.net"))[0],
        "dev.mail_answer": f"/dev/mail/{_answerable(ctx)}/answer",
        "inbound.inbound_mail": "/inbound/mail",
    }


@pytest.mark.parametrize("value", ["99999999999999999999999", str(2**63), "-5", "abc"])
def test_a_menu_number_beyond_64_bits_is_a_400_not_an_overflow(app, ctx, database, value):
    table(ctx)
    client = app.test_client()
    seat = seat_path(latest_mail("alice@example.org"))
    page = client.get(seat)
    response = client.post(f"{seat}/play", data={"csrf_token": csrf_of(page.text), "n": value,
                                                 "t": value, "move": "play Ritter"})
    assert response.status_code == 400
    assert 'data-reason="bad-form"' in response.text


def _answerable(ctx) -> str:
    """A mail in the folder that /dev/mail offers to answer (it has a Reply-To)."""
    for path in sorted(ctx.config.mail_folder.glob("*.eml")):
        if b"\nReply-To: " in path.read_bytes():
            return path.name
    raise AssertionError("no mail with a Reply-To in the folder")
