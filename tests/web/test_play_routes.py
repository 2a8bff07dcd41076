"""What a player sees of the pages behind their links at the edges: a move link on the
last second of its days, and a game that has ended pointing to its archive."""

from __future__ import annotations

from datetime import timedelta

from freezegun import freeze_time
from web_helpers import (
    finish,
    latest_mail,
    move_forms,
    move_paths,
    post_form,
    seat_path,
    snapshot,
    table,
)

from pbem.web import create_app


def test_a_move_link_plays_to_the_last_second_of_its_days_and_not_after(ctx, sqlite_database):
    """``move_link_days`` (30) counts whole days of 86 400 seconds: a link opened exactly
    30 days after it was mailed still works, a second later it has expired."""
    days = ctx.config.getint("links", "move_link_days")
    with freeze_time("2026-03-02 12:00:00") as frozen:
        table(ctx)
        client = create_app(ctx).test_client()
        path = move_paths(latest_mail("alice@example.org"))[0]
        frozen.tick(timedelta(days=days))
        assert client.get(path).status_code == 200
        frozen.tick(timedelta(seconds=1))
        assert client.get(path).status_code == 410


def test_a_finished_games_pages_lead_to_its_archive(ctx, sqlite_database):
    """Once a game has ended, its public page and each player's seat page link to the
    game in the archive; while it runs, neither does."""
    game = table(ctx)
    client = create_app(ctx).test_client()
    seat = seat_path(latest_mail("alice@example.org"))
    archive = f"/archive/games/{game.id}"
    for page in (f"/g/{game.id}", seat):
        text = client.get(page).text
        assert "This game in the archive" not in text, page
    finish(ctx, game)
    for page in (f"/g/{game.id}", seat):
        text = client.get(page).text
        assert "This game in the archive" in text, page
        assert archive in text, page


def test_a_seat_page_form_sent_twice_is_refused_the_second_time_saying_why(ctx, client):
    """Sending the seat page's move form again (the back button, a double click) plays
    nothing more: the player gets a page that says the game moved on and links back to
    the seat, not an error."""
    table(ctx)
    seat = seat_path(latest_mail("alice@example.org"))
    page = client.get(seat)
    form = move_forms(page.text)[0]
    assert post_form(client, form).status_code == 303
    played = snapshot()
    again = post_form(client, form)
    assert again.status_code == 409, again.text[:500]
    assert "moved on" in again.text or "already been played" in again.text
    assert f'href="{seat}"' in again.text
    assert snapshot() == played
