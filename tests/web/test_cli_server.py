"""``pbem init-db``, ``demo``, ``verify``, ``export``, ``import``; when ``serve`` ticks."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner
from freezegun import freeze_time
from web_helpers import text_part

from pbem.cli import main
from pbem.cli.server import scheduler_wanted
from pbem.context import make_context
from pbem.gamelog.records import GameRecord
from pbem.gamelog.selfplay import play_random_game
from pbem.models import Game, Player, db


@pytest.fixture
def run(tmp_path, monkeypatch):
    """Run a ``pbem`` command on a fresh instance folder; returns the click result."""
    env = {"PBEM_SERVER_INSTANCE": str(tmp_path / "instance"),
           "PBEM_SERVER_BASE_URL": "http://pbem.test",
           "PBEM_ARCHIVE_SITE_DIR": str(tmp_path / "site"),
           "PBEM_DATABASE_URL": ""}
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    monkeypatch.delenv("DATABASE_URL", raising=False)
    runner = CliRunner()

    def invoke(*args: str, input: str | None = None):
        return runner.invoke(main, list(args), input=input, catch_exceptions=False)

    yield invoke
    db.close()


@freeze_time("2026-03-02 12:00:00")  # two runs print the same link only in the same second
def test_demo_makes_a_game_you_can_open(run, tmp_path):
    assert run("init-db").exit_code == 0
    first = run("demo")
    assert first.exit_code == 0, first.output
    seat = re.search(r"your seat:\s+(http://pbem.test/s/\S+)", first.output).group(1)
    assert "your mails: http://pbem.test/dev/mail" in first.output
    assert list((tmp_path / "instance" / "mail").glob("*.eml"))  # delivered into the folder
    again = run("demo")  # run.sh calls it on every start: the same game, not a new one
    assert "a demo game is running" in again.output and seat in again.output
    assert Game.select().count() == 1
    assert Player.get(Player.email == "demo@localhost").name == "Alex"

    from pbem.web import create_app

    page = create_app(make_context()).test_client().get(seat.removeprefix("http://pbem.test"))
    assert page.status_code == 200 and "Your move" in page.text


def test_export_import_and_verify(run, tmp_path):
    run("init-db")
    run("demo")
    exported = run("export", "1")
    assert exported.exit_code == 0
    record = GameRecord.loads(exported.output)
    assert record.game == "visby" and record.players[0] == "Alex"
    assert run("export", "99").exit_code == 1

    finished, _state = play_random_game("visby", 3, 5, {})
    path = tmp_path / "finished.json"
    path.write_text(finished.dumps())
    imported = run("import", str(path))
    assert imported.exit_code == 0, imported.output
    game = Game.get_by_id(2)
    assert (game.status, game.seq) == (Game.FINISHED, len(finished.moves))
    assert json.loads(run("export", "2").output)["moves"] == finished.to_json()["moves"]
    assert not Player.get(Player.email.startswith("import-2-0-")).mail_enabled

    (tmp_path / "active.json").write_text(exported.output)
    active = run("import", str(tmp_path / "active.json"))
    assert "active" in active.output and "/s/" in active.output

    verified = run("verify")
    assert verified.exit_code == 0, verified.output
    assert "3 games checked, 0 with problems" in verified.output
    # a result stored by an older pbem, without the words in other languages, is no
    # difference; German words that differ from the replay's are
    stored = Game.get_by_id(2).result
    old = {k: v for k, v in stored.items() if not k.endswith("_in")}
    Game.update(result=old).where(Game.id == 2).execute()
    assert "0 with problems" in run("verify").output
    Game.update(result={**stored, "details_in": {"de": ["?"]}}).where(Game.id == 2).execute()
    assert "game 2: the stored result differs" in run("verify", "--quiet").output
    Game.update(result=stored).where(Game.id == 2).execute()

    state = Game.get_by_id(2).state
    state["seals"][0] += 1
    Game.update(state=state).where(Game.id == 2).execute()
    broken = run("verify", "--quiet")
    assert broken.exit_code == 1
    assert "game 2: replay differs from the snapshot in seals" in broken.output

    (tmp_path / "bad.json").write_text('{"game": "visby", "players": ["a", "b"], "seed": 1, '
                                       '"moves": [{"seat": 0, "move": "play Drache"}]}')
    refused = run("import", str(tmp_path / "bad.json"))
    assert refused.exit_code == 1 and "error:" in refused.output
    assert Game.select().count() == 3  # nothing half-imported


def test_commands_on_a_missing_database_say_so(run):
    result = run("verify")
    assert result.exit_code == 1 and "pbem init-db" in result.output


@pytest.mark.parametrize(("enabled", "reloader", "run_main", "wanted"), [
    ("true", False, None, True),     # plain serve: the one process ticks
    ("true", True, None, False),     # the reloader's watcher: never
    ("true", True, "true", True),    # the reloader's child that serves
    ("false", False, None, False),   # cron or `pbem scheduler` ticks instead
])
def test_serve_runs_one_scheduler(enabled, reloader, run_main, wanted):
    ctx = make_context(scheduler={"enabled": enabled})
    environ = {"WERKZEUG_RUN_MAIN": run_main} if run_main else {}
    assert scheduler_wanted(ctx, reloader, environ) is wanted


@pytest.mark.parametrize(("name", "options", "title", "resolved", "most_clicks"), [
    ("tallinn", ("-o", "legat=yes"), "Tallinn #1", {"legat": True, "tower_order": False}, 200),
    # the readings kept as options (issue 24) are resolved to the rulebook's reading
    ("macao", (), "Macao #1", {"graf_senkt": False}, 1500),
    ("riga", ("-o", "riga=yes"), "Riga #1",
     {"riga": True, "kran_abrunden": False, "bauhof_nur_stapel": False}, 2500),
])
def test_a_demo_plays_to_the_end_from_the_mails_and_the_seat_page(
        run, tmp_path, monkeypatch, name, options, title, resolved, most_clicks):
    """``pbem demo --game NAME``: you against bots, every move from a link of the
    latest mail in the mail folder, or from the seat page that link leads to.

    Tallinn's short game goes with the table's picture in each HTML mail, drawn and
    rendered as delivery does; Macao's and Riga's long ones (hundreds of clicks, a
    picture drawn and rendered for nearly each) without it: the test reads the mails'
    text, a picture that cannot be drawn never stops a mail, and the pictures have
    tests of their own (tests/mail/test_mail_picture.py, each game's picture tests)."""
    import email
    import email.policy
    import random

    from web_helpers import forms_in, move_forms, paths_in, post_form

    from pbem.mail import compose
    from pbem.mail.picture import fonts_usable
    from pbem.time.scheduler import tick
    from pbem.web import create_app

    if name != "tallinn":
        monkeypatch.setattr(compose, "table_picture", lambda *args, **kwargs: None)

    created = run("demo", "--game", name, "-n", "3", *options)
    assert created.exit_code == 0 and title in created.output, created.output
    ctx = make_context()
    client = create_app(ctx).test_client()
    folder = tmp_path / "instance" / "mail"
    seen: set[str] = set()
    rng = random.Random(5)

    pictured = 0  # mails that carry the table's picture

    def new_mails() -> list[email.message.EmailMessage]:
        nonlocal pictured
        out = []
        for path in sorted(folder.glob("*.eml")):
            if path.name not in seen:
                seen.add(path.name)
                out.append(email.message_from_bytes(path.read_bytes(),
                                                    policy=email.policy.default))
                pictured += any(part.get_content_type() == "image/png"
                                for part in out[-1].walk())
        return out

    def text(msg) -> str:
        return text_part(msg)

    page, clicks, from_mail = None, 0, 0
    while True:
        tick(ctx)
        mails = new_mails()
        if any(" with " in text(m).splitlines()[0] for m in mails):  # "Alex wins with 39"
            break
        turns = [m for m in mails if "your move" in text(m).splitlines()[0]]
        if turns:  # a new turn: its mail's links
            links = [p for p in paths_in(text(turns[-1])) if p.startswith("/m/")]
            confirm = client.get(rng.choice(links))
            assert confirm.status_code == 200, confirm.text
            [form] = [f for f in forms_in(confirm.text) if f.action.startswith("/m/")]
            response = post_form(client, form)
            from_mail += 1
        else:  # the turn goes on (no new mail): its next step is on the seat page
            forms = move_forms(page.text) if page is not None else []
            assert forms, "no mail and nothing to do"
            response = post_form(client, rng.choice(forms))
        assert response.status_code == 303, response.text
        page = client.get(response.headers["Location"])
        clicks += 1
        assert clicks < most_clicks, "the game does not end"
    assert from_mail >= 10  # every round began with a mail
    game = Game.get()
    assert game.status == Game.FINISHED and game.game == name
    assert game.options == resolved
    assert title in client.get(f"/g/{game.id}").text
    if name == "tallinn" and fonts_usable():
        assert pictured >= from_mail  # every turn mail came with the table's picture
    elif name != "tallinn":
        assert pictured == 0
