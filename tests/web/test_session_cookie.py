"""The session cookie (``pbem.web._SessionCookies``): Flask's own, its serializer made
once per keys rather than twice per request."""

from __future__ import annotations

from flask.sessions import SecureCookieSessionInterface
from freezegun import freeze_time

from pbem.web import create_app


def test_the_cookie_is_flasks_and_follows_a_change_of_keys(ctx, sqlite_database):
    app = create_app(ctx)
    ours = app.session_interface
    theirs = SecureCookieSessionInterface()
    payload = {"csrf": "x" * 43, "day": 739940, "_permanent": True}
    # frozen: a cookie carries the second it was signed in
    with app.app_context(), freeze_time("2026-11-20 12:00:00"):
        made = ours.get_signing_serializer(app)
        assert ours.get_signing_serializer(app) is made  # once per keys
        assert made.dumps(payload) == theirs.get_signing_serializer(app).dumps(payload)
        cookie = made.dumps(payload)
        app.config["SECRET_KEY_FALLBACKS"] = [app.secret_key]
        app.secret_key = "a newer key, rotated in"
        renewed = ours.get_signing_serializer(app)
        assert renewed is not made
        assert renewed.loads(cookie) == payload  # the old key still reads the cookie
        assert renewed.dumps(payload) == theirs.get_signing_serializer(app).dumps(payload)


def test_the_forms_csrf_field_is_the_html_a_macro_wrote(ctx, sqlite_database):
    """``csrf_field()`` of ``pages/_forms.html`` (``pbem.web.csrf.field``) writes what the
    macro it replaced wrote, the token escaped as a template escapes it."""
    from pbem.web import csrf

    app = create_app(ctx)
    macro = app.jinja_env.from_string(
        '{% macro csrf_field() -%}\n<input type="hidden" name="csrf_token" '
        'value="{{ csrf_token() }}">\n{%- endmacro %}{{ csrf_field() }}')
    ours = app.jinja_env.from_string('{% import "pages/_forms.html" as forms %}'
                                     "{{ forms.csrf_field() }}|{{ forms.button('/x', 'go') }}")
    with app.test_request_context("/"):
        for secret in ("plain-token_value", 'odd "<&>\' token'):
            from flask import session
            session["csrf"] = secret
            assert str(csrf.field()) == macro.render()
            assert ours.render().startswith(macro.render() + "|")
            assert macro.render() in ours.render().split("|")[1]


def test_a_cookie_is_read_as_flask_reads_it(ctx, sqlite_database):
    """``_SessionCookies.open_session`` reads a good cookie with one HMAC call
    (``links.verified``): what it reads of every cookie (good, with a tagged value,
    compressed, tampered with, too old, signed with a rotated key, not one of ours) is
    what Flask's own interface reads."""
    from flask import request

    from pbem import links

    app = create_app(ctx)
    ours = app.session_interface
    theirs = SecureCookieSessionInterface()
    with app.app_context(), freeze_time("2026-11-20 12:00:00"):
        made = ours.get_signing_serializer(app)
        # as ``csrf.token`` makes it: random, so not compressed
        good = made.dumps({"csrf": "HzlJCBbUMbBVRifUlteZDczwSEMLFYbVHpO4w901jfk", "day": 739940,
                           "_permanent": True})
        assert links.verified(made, good, 62 * 86_400) is not links.UNSURE  # the fast path
        cookies = [good,
                   made.dumps({"_flashes": [("played", "{0} plays")], "csrf": "y"}),
                   made.dumps({"csrf": "a" * 400}),  # compressed
                   good[:-2] + ("AA" if not good.endswith("AA") else "BB"),
                   good.replace(".", "..", 1), "junk", "a.b.c", "é.x.y"]
    rotated = create_app(ctx)
    rotated.config["SECRET_KEY_FALLBACKS"] = [rotated.secret_key]
    rotated.secret_key = "a newer key, rotated in"
    for app_ in (app, rotated):
        for when in ("2026-11-20 12:00:00", "2027-01-20 12:00:00", "2027-03-01 12:00:00"):
            for cookie in cookies:
                with freeze_time(when), app_.test_request_context(
                        "/", headers={"Cookie": f"pbem={cookie}"}):
                    read = app_.session_interface.open_session(app_, request)
                    assert dict(read) == dict(theirs.open_session(app_, request)), (when, cookie)
                    assert type(read) is type(theirs.open_session(app_, request))
