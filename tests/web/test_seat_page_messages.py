"""What the seat page and the public page tell a player in words: who the table still
waits for, and what they have just played."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from web_helpers import (
    csrf_of,
    forms_in,
    latest_mail,
    move_paths,
    play_first_move,
    player,
    post_form,
    seat_path,
    table,
)

from pbem.games import get_game
from pbem.lifecycle import create, moves
from pbem.mail import compose
from pbem.models import Game, Move, Seat


def _words(html: str) -> str:
    """The page's text as a reader sees it: no tags, no style sheet, single spaces."""
    html = re.sub(r"<style.*?</style>", " ", html, flags=re.S)
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def test_an_open_game_says_how_many_invited_players_it_waits_for(ctx, client):
    """Alice invites Bob, Carol and Dora and adds a bot: the pages wait for three, then
    two, then one invited player (the bot is there already and never counted)."""
    alice = player("alice@example.org", "Alice")
    people = ["bob@example.org", "carol@example.org", "dora@example.org"]
    game = create.create_game(ctx, "visby", alice, [*people, None], seed=4)
    mine = urlsplit(compose.seat_url(ctx, game, Seat.get(Seat.game == game,
                                                           Seat.index == 0))).path
    for waiting, address in ((3, people[0]), (2, people[1]), (1, None)):
        noun = "player" if waiting == 1 else "players"
        wanted = f"Waiting for {waiting} invited {noun} to accept."
        assert wanted in _words(client.get(mine).text), waiting
        assert wanted in _words(client.get(f"/g/{game.id}").text), waiting
        if address is not None:
            seat = Seat.get(Seat.game == game, Seat.invite_email == address)
            create.accept_invite(ctx, game, seat, player(address, address.split("@")[0]))
    seat = Seat.get(Seat.game == game, Seat.invite_email == people[2])
    create.accept_invite(ctx, game, seat, player(people[2], "Dora"))
    assert Game.get_by_id(game.id).status == Game.ACTIVE
    assert "invited player" not in _words(client.get(mine).text)


def test_a_move_played_from_the_seat_page_is_confirmed_there_once(ctx, client):
    """Alice clicks a card on her seat page: she lands on the same page, which says in
    words what she played; reloading it does not say it again."""
    table(ctx)
    seat = seat_path(latest_mail("alice@example.org"))
    page = client.get(seat)
    form = next(f for f in forms_in(page.text)
                if f.action.endswith("/play") and f.fields["move"] == "play Schiff")
    done = post_form(client, form)
    assert done.status_code == 303 and urlsplit(done.location).path == seat
    after = _words(client.get(done.location).text)
    said = re.findall(r"Played: ([^.]*)", after)
    assert len(said) == 1 and "Schiff" in said[0] and "play Schiff" not in said[0], said
    assert "Played:" not in _words(client.get(seat).text)


def test_what_was_played_comes_by_a_cookie_naming_the_move_not_in_the_session(ctx, client):
    """Alice confirms a move from her mail: the POST leaves the session cookie as it was
    (nothing flashed into it, nothing signed again) and sets ``pbem-played`` for her seat
    page alone, naming the move by its number; the seat page says that move in words
    once, leaves the session alone too and drops the cookie.  A value that names no move
    of hers, or no number, says nothing."""
    game = table(ctx)
    path = move_paths(latest_mail("alice@example.org"))[0]
    page = client.get(path)
    done = client.post(path, data={"csrf_token": csrf_of(page.text)})
    assert done.status_code == 303
    seat = urlsplit(done.location).path
    cookies = done.headers.getlist("Set-Cookie")
    assert not [c for c in cookies if c.startswith("pbem=")], cookies
    [played] = [c for c in cookies if c.startswith("pbem-played=")]
    mine = Move.select().where(Move.game == game.id, Move.seat == 0).order_by(
        Move.seq.desc()).first()
    assert played.startswith(f"pbem-played={mine.seq};"), played
    assert f"Path={seat}" in played and "HttpOnly" in played and "SameSite=Lax" in played
    after = client.get(seat)
    said = re.findall(r"Played: ([^.]*)", _words(after.text))
    assert len(said) == 1, said
    cookies = after.headers.getlist("Set-Cookie")
    assert not [c for c in cookies if c.startswith("pbem=")], cookies
    assert [c for c in cookies if c.startswith("pbem-played=;")], cookies  # dropped
    assert "Played:" not in _words(client.get(seat).text)
    # Bob's move, a move of nobody, no number: no words
    assert play_first_move(client, seat_path(latest_mail("bob@example.org")))
    bobs = Move.select().where(Move.game == game.id, Move.seat == 1).first()
    for value in (str(bobs.seq), "99999", "1x", "-1", "1" * 12):
        client.set_cookie("pbem-played", value, path=seat)
        assert "Played:" not in _words(client.get(seat).text), value
    client.set_cookie("pbem-played", str(mine.seq), path=seat)  # hers: said again
    assert said == re.findall(r"Played: ([^.]*)", _words(client.get(seat).text))


def test_the_seat_and_the_public_page_show_a_picture_of_the_table(ctx, client):
    table(ctx)
    for path in (seat_path(latest_mail("alice@example.org")), "/g/1"):
        page = client.get(path).text
        assert re.search(r'<figure class="table-picture"[^>]*><svg[^>]*>.*</svg>', page, re.S), path


def test_the_public_page_retells_the_current_round_and_the_one_before(ctx, client):
    """A spectator who opens the game in its third round reads rounds 2 and 3."""
    game = table(ctx)
    rules = get_game("visby")
    while True:
        state = Game.get_by_id(game.id).state
        if rules.round(state) == 3 and Move.select().where(Move.round == 3).exists():
            break
        index = rules.to_move(state)[0]
        moves.play(ctx, game.id, index, rules.legal_moves(state, index)[0])
    rounds = re.findall(r'<h3 class="round">Round (\d+)</h3>', client.get("/g/1").text)
    assert rounds == ["2", "3"]
