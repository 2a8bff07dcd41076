"""Mail scanners open every link in a mail: no GET (or HEAD) may change anything."""

from __future__ import annotations

from web_helpers import all_mailed_paths, finish, player, snapshot, table

from pbem.lifecycle import create
from pbem.time.scheduler import tick


def test_opening_every_link_ever_mailed_changes_nothing(ctx, app, database):
    over = finish(ctx, table(ctx, humans=2, bots=1, seed=3))  # a finished game
    table(ctx, humans=3, seed=4)  # a running one, whose links are all still good
    create.create_game(ctx, "visby", player("alice@example.org", "Alice"),
                        ["dave@example.org"])  # an invitation nobody answered yet
    tick(ctx)  # deliver into the folder, so that the state below is final
    paths = all_mailed_paths()
    kinds = {p[:3] for p in paths}
    assert {"/m/", "/s/", "/i/", "/u/"} <= kinds, kinds
    assert len(paths) > 100
    before = snapshot()
    browser, scanner = app.test_client(), app.test_client()
    for path in paths + [f"/g/{over.id}", "/", "/dev/mail"]:
        response = browser.get(path)
        assert response.status_code < 500, (path, response.status_code)
        assert scanner.head(path).status_code == response.status_code
    assert snapshot() == before
