"""Development: the mails in the browser. Production: no /dev, no development secret."""

from __future__ import annotations

import re

import pytest
from freezegun import freeze_time
from web_helpers import forms_in, hrefs, move_forms, player

from pbem.config import ConfigError
from pbem.context import make_context
from pbem.lifecycle import create
from pbem.time.scheduler import tick
from pbem.web import create_app


@freeze_time("2026-03-02 12:00:00")
def test_a_newcomer_plays_from_the_mails_shown_in_the_browser(ctx, sqlite_client):
    client = sqlite_client
    you = player("demo@example.org", "You")
    create.create_game(ctx, "visby", you, [None, None], seed=1)
    tick(ctx)
    listing = client.get("/dev/mail")
    assert listing.status_code == 200
    mails = [h for h in hrefs(listing.text) if h.startswith("/dev/mail/")]
    assert len(mails) == 2  # "has started", then "your move": newest first
    assert "your move" in listing.text.split(mails[0])[1].split("</a>")[0]

    shown = client.get(mails[0])
    assert shown.status_code == 200
    moves = [h for h in hrefs(shown.text) if "/m/" in h]
    assert len(moves) == 8 and all(h.startswith("http://pbem.test/m/") for h in moves)
    assert 'sandbox="' in shown.text

    html = client.get(mails[0] + "/html")
    assert html.status_code == 200
    assert html.headers["Content-Security-Policy"].startswith("sandbox")
    assert '<base target="_top">' in html.text

    confirm = client.get(moves[0].removeprefix("http://pbem.test"))
    assert confirm.status_code == 200
    played = client.post(forms_in(confirm.text)[-1].action,
                         data=forms_in(confirm.text)[-1].fields)
    assert played.status_code == 303
    assert len(move_forms(client.get(played.headers["Location"]).text)) == 7


def test_mail_names_cannot_leave_the_folder(sqlite_client):
    for name in ("..%2F..%2Fpbem.db", "x.txt", ".hidden.eml", "nope.eml"):
        assert sqlite_client.get(f"/dev/mail/{name}").status_code == 404


def test_production_hides_dev_and_refuses_the_development_secret(tmp_path, sqlite_database):
    base = {"instance": str(tmp_path / "instance"), "base_url": "https://pbem.example.org",
            "production": "true"}
    with pytest.raises(ConfigError):
        create_app(make_context(server=base))
    app = create_app(make_context(server={**base, "secret_key": "old-key, a-long-random-key"}))
    client = app.test_client()
    assert client.get("/dev/mail").status_code == 404
    home = client.get("/")
    assert home.status_code == 200 and "/dev/mail" not in home.text
    assert app.config["SESSION_COOKIE_SECURE"] and app.secret_key == "a-long-random-key"


def test_pages_fit_a_phone_and_need_no_script(sqlite_client):
    for path in ("/", "/new/visby", "/dev/mail", "/g/404"):
        response = sqlite_client.get(path)
        assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in \
            response.text
        # one script at most, our own and deferred: it presets the browser's time zone on a
        # new-game form, which without it still works and says UTC
        scripts = re.findall(r"<script[^>]*>", response.text)
        assert scripts == [] or (len(scripts) == 1 and re.fullmatch(
            r'<script src="/static/zone\.js\?v=[0-9a-f]{12}" defer>', scripts[0])), \
            (path, scripts)
        assert response.headers["Referrer-Policy"] == "no-referrer"
    css = sqlite_client.get("/static/style.css").text
    assert "min-height: 2.75rem" in css  # thumb-sized buttons


@pytest.mark.parametrize("secret", ["dev-secret-do-not-use-in-production, a-long-random-key",
                                    "a-long-random-key,dev-secret-do-not-use-in-production",
                                    " , "])
def test_production_refuses_the_development_secret_among_rotated_keys(tmp_path, secret):
    """Every key of a rotation list verifies links: the published development secret
    kept as an old key would let anyone sign a link to any seat."""
    config = make_context(server={"instance": str(tmp_path / "instance"), "production": "true",
                                  "secret_key": secret}).config
    with pytest.raises(ConfigError):
        config.check_production()
