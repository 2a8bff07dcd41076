"""What a link or a form may do, and nothing more: the forms behind a seat link need this
browser's CSRF token, each signed link opens only the page it was made for, and an
operator can rotate the secret key without breaking the links already mailed."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from freezegun import freeze_time
from web_helpers import (
    csrf_of,
    forms_in,
    latest_mail,
    move_paths,
    post_form,
    seat_path,
    snapshot,
    table,
)

from pbem import links
from pbem.context import make_context
from pbem.lifecycle import create, follow, join
from pbem.mail import compose
from pbem.models import Follower, Move, Player, Seat
from pbem.web import create_app


def _reason(response) -> str:
    marker = 'data-reason="'
    assert marker in response.text, response.text[:2000]
    return response.text.split(marker, 1)[1].split('"', 1)[0]


def _path(url: str) -> str:
    return urlsplit(url).path


# -- the settings forms need this browser's token ---------------------------------------


def _alice_settings(client, ctx):
    table(ctx)
    seat = seat_path(latest_mail("alice@example.org"))
    page = client.get(f"{seat}/settings")
    [form] = [f for f in forms_in(page.text) if f.action.endswith("/settings")]
    return seat, page, form


def test_another_website_cannot_change_a_players_time_zone_language_or_mail(ctx, app, client):
    """A page elsewhere can make Alice's browser send her settings form (the browser
    adds her cookie), but it cannot read her page to learn the form's token: whatever
    token it sends, nothing of hers changes."""
    seat, page, form = _alice_settings(client, ctx)
    hostile = {"timezone": "Pacific/Chatham", "language": "de"}  # and "mail" left out: off
    someone_else = csrf_of(app.test_client().get(f"{seat}/settings").text)
    before = snapshot()
    for token in (None, "", "guess", someone_else):
        data = dict(hostile) if token is None else dict(hostile, csrf_token=token)
        response = client.post(form.action, data=data)
        assert (response.status_code, _reason(response)) == (400, "csrf"), token
        assert f'href="{seat}"' in response.text  # offers the page again, to go on from
    assert snapshot() == before
    alice = Player.get(Player.email == "alice@example.org")
    assert (alice.timezone, alice.language, alice.mail_enabled) == ("UTC", "en", True)

    # her own form, sent from her own page, does save
    saved = post_form(client, form, **hostile)
    assert saved.status_code == 303
    alice = Player.get(Player.email == "alice@example.org")
    assert (alice.timezone, alice.language, alice.mail_enabled) == (
        "Pacific/Chatham", "de", False)
    # saved, and said in the language she has just chosen
    assert "Deine Einstellungen sind gespeichert." in client.get(saved.location).text
    assert csrf_of(page.text) == form.fields["csrf_token"]


def test_another_website_cannot_change_a_players_quiet_hours(ctx, app, client):
    seat, _page, _form = _alice_settings(client, ctx)
    vacation = client.get(f"{seat}/vacation").text
    [form] = [f for f in forms_in(vacation) if f.action.endswith("/quiet")]
    hostile = {"quiet_start": "03:00", "quiet_end": "04:00", "digest": "on"}
    before = snapshot()
    for token in (None, "guess", csrf_of(app.test_client().get(f"{seat}/vacation").text)):
        data = dict(hostile) if token is None else dict(hostile, csrf_token=token)
        response = client.post(form.action, data=data)
        assert (response.status_code, _reason(response)) == (400, "csrf"), token
    assert snapshot() == before
    assert post_form(client, form, **hostile).status_code == 303
    alice = Player.get(Player.email == "alice@example.org")
    assert (alice.quiet_start, alice.quiet_end, alice.digest) == ("03:00", "04:00", True)


def test_another_website_cannot_play_or_take_back_a_move_for_a_player(ctx, app, client):
    """The move buttons and "take back" of the seat page are forms too: sent by another
    site through Alice's browser, without her page's token, they change nothing."""
    table(ctx)
    seat = seat_path(latest_mail("alice@example.org"))
    page = client.get(seat).text
    play = next(f for f in forms_in(page) if f.action.endswith("/play"))
    someone_else = csrf_of(app.test_client().get(seat).text)
    before = snapshot()
    for token in (None, "guess", someone_else):
        data = {k: v for k, v in play.fields.items() if k != "csrf_token"}
        if token is not None:
            data["csrf_token"] = token
        response = client.post(play.action, data=data)
        assert (response.status_code, _reason(response)) == (400, "csrf"), token
    assert snapshot() == before
    page = client.get(post_form(client, play).location).text  # her own click plays
    assert Move.select().count() == 1
    takeback = next(f for f in forms_in(page) if f.action.endswith("/takeback"))
    before = snapshot()
    response = client.post(takeback.action, data={"n": takeback.fields["n"]})
    assert (response.status_code, _reason(response)) == (400, "csrf")
    assert snapshot() == before
    assert post_form(client, takeback).status_code == 303
    assert Move.select().count() == 0


def test_a_settings_form_filled_in_wrong_says_what_was_wrong(ctx, client):
    seat, _page, form = _alice_settings(client, ctx)
    wrong_zone = post_form(client, form, timezone="Mars/Olympus")
    assert (wrong_zone.status_code, _reason(wrong_zone)) == (400, "bad-form")
    assert "&#39;Mars/Olympus&#39; is not a time zone this server knows." in wrong_zone.text
    wrong_language = post_form(client, form, language="tlh")
    assert (wrong_language.status_code, _reason(wrong_language)) == (400, "bad-form")
    assert ("&#39;tlh&#39; is not a language our mails are written in; choose one of: "
            "English, Deutsch.") in wrong_language.text
    assert f'href="{seat}"' in wrong_language.text
    alice = Player.get(Player.email == "alice@example.org")
    assert (alice.timezone, alice.language) == ("UTC", "en")


# -- one purpose per link ---------------------------------------------------------------


def _genuine_links(ctx) -> dict[str, str]:
    """A real link of every kind the server mails, each for its own page."""
    game = table(ctx)
    alice = Player.get(Player.email == "alice@example.org")
    seat = Seat.get(Seat.game == game, Seat.index == 0)
    move = move_paths(latest_mail("alice@example.org"))[0]
    # an open game with a seat that still waits for Carol, for an invitation link
    open_game = create.create_game(ctx, "visby", alice, ["carol@example.org"], seed=3)
    invited = Seat.get(Seat.game == open_game, Seat.invite_email == "carol@example.org")
    invite = ctx.signer.sign(links.INVITE, {"g": open_game.id, "s": invited.index,
                                            "e": "carol@example.org"})
    return {
        "move": move,
        "seat": _path(compose.seat_url(ctx, game, seat)),
        "invite": f"/i/{invite}",
        "unsubscribe": _path(compose.unsubscribe_url(ctx, alice)),
        "calendar": _path(compose.calendar_url(ctx, alice)),
        "confirm": _path(compose.confirm_url(ctx, alice)),
        "never": _path(compose.never_url(ctx, "carol@example.org")),
        "games": _path(compose.my_games_url(ctx, alice)),
        "follow": _path(follow.link(ctx, Follower.create(game=game, email="fan@example.net"))),
        "join": _path(join.link(ctx, create.create_game(ctx, "visby", alice, [create.OPEN_SEAT],
                                                        seed=4), "dora@example.net")),
    }


#: what the page of a link signed for something else says
NOT_OURS = "<p>This link is not valid: it was not made by this server or it was changed.</p>"
_ROUTE = {"move": "/m/{}", "seat": "/s/{}", "invite": "/i/{}", "unsubscribe": "/u/{}",
          "calendar": "/calendar/{}.ics", "confirm": "/c/{}", "never": "/never/{}",
          "games": "/me/{}", "follow": "/follow/{}", "join": "/join/{}"}


def _token(path: str) -> str:
    return path.rstrip("/").split("/")[-1].removesuffix(".ics")


def test_a_link_opens_only_the_page_it_was_made_for(ctx, client):
    """A calendar link someone shared must not unsubscribe its owner, a seat link must
    not play a move, an unsubscribe link must not confirm an address...: each kind of
    link is signed for its purpose, and any other page refuses it as not valid."""
    genuine = _genuine_links(ctx)
    assert set(genuine) == set(links.PURPOSES) == set(_ROUTE)
    for kind, path in genuine.items():
        assert client.get(path).status_code == 200, (kind, path)
    for kind, path in genuine.items():
        for other, route in _ROUTE.items():
            if other == kind:
                continue
            response = client.get(route.format(_token(path)))
            assert (response.status_code, _reason(response)) == (400, "forged"), (kind, other)
            assert NOT_OURS in response.text


def test_a_calendar_or_seat_link_posted_as_one_click_unsubscribe_changes_nothing(ctx, client):
    genuine = _genuine_links(ctx)
    before = snapshot()
    for kind in ("calendar", "games", "seat", "confirm", "move"):
        for route in ("/u/{}", "/never/{}", "/follow/{}/stop"):
            response = client.post(route.format(_token(genuine[kind])),
                                    data={"List-Unsubscribe": "One-Click"})
            assert (response.status_code, _reason(response)) == (400, "forged"), (kind, route)
    posted = client.post(_ROUTE["never"].format(_token(genuine["invite"])),
                         data={"List-Unsubscribe": "One-Click"})
    assert posted.status_code == 400
    assert snapshot() == before
    assert Player.get(Player.email == "alice@example.org").mail_enabled


def test_the_signer_refuses_a_purpose_it_does_not_know(ctx):
    with pytest.raises(ValueError, match="'settings'"):
        ctx.signer.sign("settings", {"p": 1})
    with pytest.raises(ValueError, match="'settings'"):
        ctx.signer.load("settings", ctx.signer.sign(links.SEAT, {"p": 1}))


def test_a_token_that_is_not_a_dict_is_not_a_link(ctx):
    """Every link of ours carries named fields; a signed list or number is not a link."""
    for payload in ([1, 0], 7, "seat"):
        token = ctx.signer.sign(links.SEAT, payload)
        with pytest.raises(links.LinkError) as refused:
            ctx.signer.load(links.SEAT, token)
        assert (refused.value.reason, str(refused.value)) == ("forged",
                                                              "This link is not valid.")


# -- rotating the secret key ----------------------------------------------------------


def _keyed(tmp_path, keys: str):
    ctx = make_context(
        server={"instance": str(tmp_path / "instance"), "base_url": "http://pbem.test",
                "secret_key": keys},
        archive={"site_dir": str(tmp_path / "site")},
    )
    return ctx, create_app(ctx).test_client()


def test_rotating_the_secret_key_keeps_mailed_links_until_the_old_key_is_dropped(tmp_path,
                                                                               database):
    """The operator appends a new key (``old,new``): links mailed before keep working
    and new links are signed with the new key; once the old key is dropped, links
    signed with it are refused as not valid, and the new ones still work."""
    old_ctx, old_client = _keyed(tmp_path, "the-old-key-0123456789")
    game = table(old_ctx)
    alice = Player.get(Player.email == "alice@example.org")
    seat = Seat.get(Seat.game == game, Seat.index == 0)
    mailed = {
        "seat": _path(compose.seat_url(old_ctx, game, seat)),
        "move": move_paths(latest_mail("alice@example.org"))[0],
        "calendar": _path(compose.calendar_url(old_ctx, alice)),
        "unsubscribe": _path(compose.unsubscribe_url(old_ctx, alice)),
    }
    for path in mailed.values():
        assert old_client.get(path).status_code == 200
    old_page = old_client.get(mailed["seat"]).text  # a browser with a form open

    both_ctx, both = _keyed(tmp_path, "the-old-key-0123456789, the-new-key-9876543210")
    for kind, path in mailed.items():
        assert both.get(path).status_code == 200, kind
    # the form that was open before the rotation still plays (the session cookie was
    # signed with the old key, and Flask still reads it)
    both.set_cookie("pbem", old_client.get_cookie("pbem").value, domain="localhost")
    [form, *_] = [f for f in forms_in(old_page) if f.action.endswith("/play")]
    assert post_form(both, form).status_code == 303
    assert Move.select().count() == 1
    fresh = _path(compose.seat_url(both_ctx, game, seat))
    assert links.Signer(["the-new-key-9876543210"]).load(links.SEAT, _token(fresh))
    with pytest.raises(links.LinkError):
        links.Signer(["the-old-key-0123456789"]).load(links.SEAT, _token(fresh))

    _new_ctx, new = _keyed(tmp_path, "the-new-key-9876543210")
    for kind, path in mailed.items():
        response = new.get(path)
        assert (response.status_code, _reason(response)) == (400, "forged"), kind
    assert new.get(fresh).status_code == 200


# -- the session cookie that carries the token -----------------------------------------------


def _cookie_expiry(response) -> str | None:
    """The Expires of the session cookie the response sets, or None if it sets none."""
    for header in response.headers.getlist("Set-Cookie"):
        if header.startswith("pbem="):
            return next(part.strip().split("=", 1)[1] for part in header.split(";")
                        if part.strip().lower().startswith("expires="))
    return None


def test_the_session_cookie_is_sent_when_made_and_when_half_its_life_is_gone(ctx, client):
    """Not with every page (each had signed it again), but
    a page with a form always leaves the browser a cookie good for a month more, and the
    token it carries stays the same, so a form shown before the renewal still posts."""
    with freeze_time("2026-03-01 12:00:00") as frozen:
        game = table(ctx)
        seat = Seat.get(Seat.game == game, Seat.index == 0)

        def page():
            return client.get(_path(compose.seat_url(ctx, game, seat)))

        first = page()
        assert _cookie_expiry(first) == "Sat, 02 May 2026 12:00:00 GMT"  # 62 days
        for day in ("2026-03-02", "2026-03-31"):  # a day, and 30 days on
            frozen.move_to(f"{day} 12:00:00")
            assert _cookie_expiry(page()) is None, day
        frozen.move_to("2026-04-01 12:00:00")  # 31 days on
        renewed = page()
        assert _cookie_expiry(renewed) == "Tue, 02 Jun 2026 12:00:00 GMT"
        assert csrf_of(renewed.text) == csrf_of(first.text)
        frozen.move_to("2026-04-02 12:00:00")
        assert _cookie_expiry(page()) is None
        [form, *_] = [f for f in forms_in(first.text) if f.action.endswith("/play")]
        assert post_form(client, form).status_code == 303  # shown a month ago, still plays
        assert Move.select().count() == 1


# -- the seat page's move form ---------------------------------------------------------------


def test_a_move_form_that_does_not_say_which_menu_it_came_from_plays_nothing(ctx, client):
    """The move buttons of the seat page carry the menu and the turn they were shown
    for; a form without them (an old page, a hand-made request) is refused with a page
    that says to open the seat again, and changes nothing."""
    table(ctx)
    seat = seat_path(latest_mail("alice@example.org"))
    page = client.get(seat)
    form = next(f for f in forms_in(page.text) if f.action.endswith("/play"))
    assert {"n", "t", "move", "csrf_token"} <= set(form.fields)
    before = snapshot()
    for field, value in (("n", None), ("t", None), ("n", ""), ("t", ""), ("n", "one"),
                         ("n", "-1"), ("t", "1.0"), ("n", str(2**31))):
        data = {k: v for k, v in form.fields.items() if k != field}
        if value is not None:
            data[field] = value
        response = client.post(form.action, data=data)
        assert (response.status_code, _reason(response)) == (400, "bad-form"), (field, value)
        assert "open your seat page again" in response.text
    assert snapshot() == before
    assert post_form(client, form).status_code == 303
    assert Move.select().count() == 1
