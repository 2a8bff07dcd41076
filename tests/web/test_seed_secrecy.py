"""The seed rebuilds every deck and every die: nothing a player receives while the game
runs may carry it (mail headers and bodies, links, pages, the calendar), and the game
record publishes it once the game is over."""

from __future__ import annotations

import base64
import json
import os
import random

import pytest
from web_helpers import BASE, csrf_of, latest_mail, move_paths, paths_in, player, seat_path

from pbem.games import get_game
from pbem.games.protocol import new_seed
from pbem.lifecycle import create
from pbem.mail import later
from pbem.mail.outbox import build_message
from pbem.models import Game, Outbox, Seat
from pbem.time import calendar


def _decoded_tokens(text: str) -> list[str]:
    """The JSON payloads of every signed token in ``text`` (a token's first part)."""
    out = []
    for path in paths_in(text):
        token = path.rstrip("/").split("/")[-1].split(".")[0]
        try:
            out.append(base64.urlsafe_b64decode(token + "=" * (-len(token) % 4)).decode())
        except (ValueError, UnicodeDecodeError):
            continue
    return out


def _everything_mailed(ctx) -> list[str]:
    texts = []
    for mail in Outbox.select().order_by(Outbox.id):
        message = build_message(mail, ctx.config)
        texts.append(message.as_string())
        texts += [mail.text_body, mail.html_body or ""]
        texts += _decoded_tokens(mail.text_body)
    return texts


@pytest.fixture(scope="session")
def run_seed(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A fresh seed (``new_seed``) for this run of the suite, the same for the test's
    run on each database and in every pytest-xdist worker: both play the same game, so
    that its mails' pictures are drawn once, not twice (``RenderedOnce`` in
    tests/conftest.py: 4 of the test's 10 seconds a run); each run still deals anew."""
    root = tmp_path_factory.getbasetemp()  # a worker's lies in the run's, shared by all
    path = (root.parent if os.environ.get("PYTEST_XDIST_WORKER") else root) / "game-seed"
    part = path.with_name(f"{path.name}.{os.getpid()}")
    part.write_text(new_seed())
    try:
        os.link(part, path)  # the first worker's seed, written whole, for every worker
    except FileExistsError:
        pass
    finally:
        part.unlink()
    return path.read_text()


def test_the_seed_is_in_nothing_a_player_receives_until_the_end(ctx, client, run_seed):
    seed = run_seed
    assert len(seed) == 32 and int(seed, 16) >= 0  # 128 bits
    alice, bob = player("alice@example.org", "Alice"), player("bob@example.org", "Bob")
    game = create.create_game(ctx, "visby", alice, ["bob@example.org", None], seed=seed)
    create.accept_invite(ctx, game, Seat.get(Seat.game == game, Seat.index == 1), bob)
    rules = get_game("visby")
    rng = random.Random(4)
    seen: list[str] = []
    while Game.get_by_id(game.id).status == Game.ACTIVE:
        state = Game.get_by_id(game.id).state
        seat = rng.choice([s for s in rules.to_move(state) if s in (0, 1)])
        address = ("alice@example.org", "bob@example.org")[seat]
        later.finish_due(ctx)  # as the tick does: the mails the clicks only addressed
        mail = latest_mail(address)
        seen.append(client.get(seat_path(mail)).text)
        page = client.get(rng.choice(move_paths(mail)))
        seen.append(page.text)
        if page.status_code == 200:
            response = client.post(page.request.path, data={"csrf_token": csrf_of(page.text)})
            seen.append(client.get(response.headers["Location"]).text)
        else:  # that link's choice is gone: play from the seat page
            s = Seat.get(Seat.game == game, Seat.index == seat)
            here = seat_path(mail)
            move = rules.legal_moves(Game.get_by_id(game.id).state, seat)[0]
            client.post(f"{here}/play", data={"csrf_token": csrf_of(seen[-2]), "move": move,
                                              "n": s.menu_seq, "t": s.turn_seq})
        seen.append(client.get(f"/g/{game.id}").text)
        if len(seen) % 20 == 0:
            seen.append(calendar.build(ctx, alice, Game.get_by_id(game.id).started_at))
    finished = Game.get_by_id(game.id)
    assert finished.status == Game.FINISHED
    for text in seen + _everything_mailed(ctx):
        assert seed not in text
        assert str(finished.id) + "-" + seed not in text
    # views of a running game (what pages and mails draw) never name the seed either
    assert all(seed not in json.dumps(rules.view(finished.state, v)) for v in (0, 1, None))
    # once over, the record publishes it
    from pbem.lifecycle.records import game_record

    assert game_record(finished).seed == seed
    assert BASE  # the links above were ours
