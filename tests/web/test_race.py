"""Two clicks at the same moment on one link (or one button) play one move, once."""

from __future__ import annotations

import threading

from web_helpers import csrf_of, latest_mail, move_forms, move_paths, seat_path, table

from pbem.models import Move


def _race(app, get_path: str, post_path_and_data) -> list:
    """Two browsers load ``get_path``, then POST at the same moment; their responses."""
    browsers = [app.test_client() for _ in range(2)]
    pages = [b.get(get_path) for b in browsers]
    assert all(p.status_code == 200 for p in pages)
    posts = [post_path_and_data(p.text) for p in pages]
    barrier = threading.Barrier(2)
    results: list = [None, None]

    def click(i: int) -> None:
        barrier.wait()
        path, data = posts[i]
        results[i] = browsers[i].post(path, data=data)

    threads = [threading.Thread(target=click, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    return results


def test_two_clicks_at_once_play_one_move(ctx, app, database):
    table(ctx, humans=2)
    played = 0
    for address in ("alice@example.org", "bob@example.org"):
        link = move_paths(latest_mail(address))[0]
        results = _race(app, link, lambda html, link=link: (link, {"csrf_token": csrf_of(html)}))
        played += 1
        assert sorted(r.status_code for r in results) == [303, 409]
        loser = next(r for r in results if r.status_code == 409)
        assert "Already played" in loser.text
        assert Move.select().where(Move.kind == Move.PLAYER).count() == played

        # the second card from the seat page's buttons: the same race
        seat = seat_path(latest_mail(address))

        def second_card(html: str) -> tuple[str, dict]:
            form = move_forms(html)[0]
            return form.action, form.fields

        results = _race(app, seat, second_card)
        played += 1
        assert sorted(r.status_code for r in results) == [303, 409]
        assert Move.select().where(Move.kind == Move.PLAYER).count() == played
