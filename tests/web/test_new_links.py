"""A player who fears their links leaked asks for new ones: the old seat, move and
calendar links stop working, and a mail brings the new ones."""

from __future__ import annotations

from web_helpers import csrf_of, forms_in, latest_mail, move_paths, paths_in, seat_path, table

from pbem.models import Outbox


def test_new_links_revoke_the_old_ones(ctx, client):
    table(ctx)
    mail = latest_mail("alice@example.org")
    seat, move = seat_path(mail), move_paths(mail)[0]
    vacation = client.get(f"{seat}/vacation").text
    [calendar] = [p for p in paths_in(vacation.replace('"', " ")) if p.startswith("/calendar/")]
    assert client.get(calendar).status_code == 200
    settings = client.get(f"{seat}/settings")
    [form] = [f for f in forms_in(settings.text) if f.action.endswith("/new-links")]
    done = client.post(form.action, data={"csrf_token": csrf_of(settings.text)})
    assert done.status_code == 200 and "New links are on their way" in done.text
    for old in (seat, move, calendar):
        response = client.get(old)
        assert response.status_code == 410, old
        assert 'data-reason="revoked"' in response.text
    fresh = (Outbox.select().where(Outbox.to_address == "alice@example.org")
             .order_by(Outbox.id.desc()).first())
    assert "new links" in fresh.subject
    [new_seat] = [p for p in paths_in(fresh.text_body) if p.startswith("/s/")]
    page = client.get(new_seat)
    assert page.status_code == 200 and "Alice" in page.text
    [new_calendar] = [p for p in paths_in(fresh.text_body) if p.startswith("/calendar/")]
    assert client.get(new_calendar).status_code == 200
    # a move link from the new seat page plays
    assert forms_in(page.text)


def test_new_links_need_the_form_token(ctx, client):
    table(ctx)
    seat = seat_path(latest_mail("alice@example.org"))
    response = client.post(f"{seat}/new-links", data={})
    assert response.status_code == 400
    assert client.get(seat).status_code == 200  # nothing was revoked
