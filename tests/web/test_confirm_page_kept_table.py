"""The confirm page of a turn mail's link shows the table the mail was written with:
the mail kept its picture and its words (``pbem.mail.picture.keep_table``, model
``Drawn``) under what names that table for that reader, and the page, served by
another process, reads them instead of drawing them again.  A table of a state gone by
is never shown: once anything changed, the page draws the table as it is."""

from __future__ import annotations

import json
from html import unescape

from web_helpers import finish, latest_mail, move_paths, play_first_move, seat_path, table

from pbem.games import get_game
from pbem.lifecycle import moves
from pbem.mail import later
from pbem.mail.compose import names_of
from pbem.models import Drawn, Game, Seat

ALICE, BOB = "alice@example.org", "bob@example.org"
MARK = '<svg xmlns="http://www.w3.org/2000/svg"><title>kept by the mail</title></svg>'


def _kept(game: Game, viewer: int) -> Drawn:
    [row] = Drawn.select().where(Drawn.game == game.id, Drawn.viewer == viewer)
    return row


def _marked(game: Game, viewer: int) -> None:
    """The kept table of ``viewer`` replaced by one no game draws."""
    Drawn.update(svg=MARK, text="words kept by the mail").where(
        Drawn.game == game.id, Drawn.viewer == viewer).execute()


def test_the_confirm_page_shows_the_table_the_turn_mail_kept(ctx, client, monkeypatch):
    game = table(ctx, humans=2)  # Visby: both choose their first card at once
    rules = get_game("visby")
    seats = Seat.of(game)
    kept = _kept(game, 0)
    # what the mail kept is the table as the game draws it for Alice, in her words
    view = rules.view(game.state, 0)
    assert kept.svg == rules.picture(view, names_of(seats), "en")
    assert kept.text == rules.render_text(view, names_of(seats), "en")
    path = move_paths(latest_mail(ALICE))[0]
    drawn = client.get(path).text
    assert kept.svg in drawn and kept.text in unescape(drawn)

    _marked(game, 0)

    def refused(*_args, **_kwargs):
        raise AssertionError("the confirm page drew a table the mail had kept")

    monkeypatch.setattr(rules, "picture", refused)
    monkeypatch.setattr(rules, "render_text", refused)
    monkeypatch.setattr(rules, "view", refused)  # nor the view they were drawn from
    page = client.get(path)
    assert page.status_code == 200
    assert MARK in page.text and "words kept by the mail" in page.text


def test_once_the_table_changed_the_confirm_page_draws_it_anew(ctx, client):
    game = table(ctx, humans=2)
    rules = get_game("visby")
    path = move_paths(latest_mail(ALICE))[0]
    _marked(game, 0)
    assert MARK in client.get(path).text
    # Bob chooses his card: Alice's turn and menu go on, the table is another one
    bob = Seat.get(Seat.game == game, Seat.index == 1)
    moves.play(ctx, game.id, 1, rules.legal_moves(game.state, 1)[0], menu_seq=bob.menu_seq)
    game = Game.get_by_id(game.id)
    assert 0 in rules.to_move(game.state)
    page = client.get(path)
    assert page.status_code == 200, "Alice's link still plays"
    assert MARK not in page.text and "words kept by the mail" not in page.text
    view = rules.view(game.state, 0)
    assert rules.picture(view, names_of(Seat.of(game)), "en") in page.text


def test_a_reader_has_one_table_kept_and_none_once_the_game_is_over(ctx, client):
    game = table(ctx, humans=2)
    assert sorted(d.viewer for d in Drawn.select().where(Drawn.game == game.id)) == [0, 1]
    finish(ctx, game, seed=3)
    assert Game.get_by_id(game.id).status == Game.FINISHED
    assert not Drawn.select().where(Drawn.game == game.id).exists()


def test_every_turn_mail_keeps_its_table_in_place_of_the_last(ctx, client):
    game = table(ctx, humans=2)
    rules = get_game("visby")
    keys = {d.key for d in Drawn.select()}
    for _ in range(4):  # both play their default: each new turn's mail keeps a new table
        game = Game.get_by_id(game.id)
        for index in rules.to_move(game.state):
            seat = Seat.get(Seat.game == game, Seat.index == index)
            moves.play(ctx, game.id, index, rules.default_move(game.state, index),
                       menu_seq=seat.menu_seq)
            game = Game.get_by_id(game.id)
    rows = list(Drawn.select().where(Drawn.game == game.id))
    assert len(rows) == len({d.viewer for d in rows}) <= 2
    assert not keys & {d.key for d in rows}, "a table of a state gone by is still kept"


def test_a_turn_mail_the_tick_writes_keeps_its_table_too(ctx, client):
    """A click only addresses the next player's mail; the tick writes it (``later``),
    and keeps its table with it, in the same transaction."""
    game = table(ctx, humans=2)
    for _ in range(20):  # Alice, else Bob, plays until a click begins a turn of Bob's
        before = latest_mail(BOB).id
        assert any(play_first_move(client, seat_path(latest_mail(address)))
                   for address in (ALICE, BOB))
        asked = latest_mail(BOB)
        if asked.id != before:
            break
    assert not asked.composed, "the click left the body to the tick"
    assert later.finish_due(ctx) >= 1
    game = Game.get_by_id(game.id)
    rules = get_game("visby")
    assert _kept(game, 1).svg == rules.picture(rules.view(game.state, 1),
                                               names_of(Seat.of(game)), "en")
    _marked(game, 1)
    page = client.get(move_paths(latest_mail(BOB))[0])
    assert page.status_code == 200 and MARK in page.text, \
        "the confirm page did not show the table the tick kept"


def _asked_never(*_args, **_kwargs):
    raise AssertionError("the confirm page asked the game for an entry the mail had kept")


def test_the_confirm_page_names_the_move_from_the_menu_the_mail_kept(ctx, client,
                                                                     monkeypatch):
    """The mail kept its menu with its table: the confirm page of one of its links finds
    the move there, legal and labelled, without asking the game (``_kept_menu``)."""
    game = table(ctx, humans=2)
    rules = get_game("visby")
    kept = _kept(game, 0)
    menu = rules.menu(game.state, 0, "en")
    assert json.loads(kept.choices) == [[c.move, c.label, c.group, c.help, c.region]
                                        for c in menu]
    path = move_paths(latest_mail(ALICE))[0]
    shown = client.get(path)
    assert shown.status_code == 200
    # the kept labels marked: the page shows the kept one, and asks the game for none
    Drawn.update(choices=json.dumps([[c.move, f"kept: {c.label}", c.group, c.help,
                                      c.region] for c in menu])).where(
        Drawn.id == kept.id).execute()
    for name in ("choice", "menu_entry", "menu", "legal_moves"):
        monkeypatch.setattr(rules, name, _asked_never)
    page = client.get(path)
    assert page.status_code == 200, page.text
    assert "kept: " in page.text


def test_the_confirm_page_asks_the_game_nothing_it_does_not_show(ctx, client, monkeypatch):
    """Whom the game waits for is said on the seat and the game pages, not on the confirm
    page: it does not ask the game (``table_values(waiting=False)``); the seat page
    does, and says it."""
    table(ctx, humans=2)
    rules = get_game("visby")
    path = move_paths(latest_mail(ALICE))[0]
    seat_page = seat_path(latest_mail(ALICE))
    assert client.get(path).status_code == 200  # the page as it is, once
    for name in ("to_move", "picture", "render_text", "view", "choice", "menu",
                 "legal_moves"):
        monkeypatch.setattr(rules, name, _asked_never)
    page = client.get(path)
    assert page.status_code == 200, page.text
    monkeypatch.undo()
    # Alice chooses her cards: then the seat page waits for Bob, and says so
    for _ in range(4):
        if "Waiting for: " in client.get(seat_page).text:
            break
        assert play_first_move(client, seat_page)
    assert "Waiting for: Bob" in client.get(seat_page).text


def test_a_table_kept_without_its_menu_asks_the_game_for_the_entry(ctx, client,
                                                                   monkeypatch):
    """A table an older pbem kept has no menu with it: the game names the move, as it
    did before the menu was kept."""
    game = table(ctx, humans=2)
    rules = get_game("visby")
    Drawn.update(choices="").where(Drawn.game == game.id).execute()
    asked = []
    choice = rules.choice

    def counted(*args, **kwargs):
        asked.append(args)
        return choice(*args, **kwargs)

    monkeypatch.setattr(rules, "choice", counted)
    page = client.get(move_paths(latest_mail(ALICE))[0])
    assert page.status_code == 200 and len(asked) == 1


def test_a_move_the_kept_menu_does_not_list_is_refused(ctx, client):
    """A kept menu is the seat's menu now (its key names the move number and the menus'
    versions): a move it does not list is not legal now, and the link is refused as one
    whose choice is gone."""
    game = table(ctx, humans=2)
    Drawn.update(choices="[]").where(Drawn.game == game.id, Drawn.viewer == 0).execute()
    page = client.get(move_paths(latest_mail(ALICE))[0])
    assert page.status_code >= 400 and 'data-reason="gone"' in page.text


def test_once_the_table_changed_the_kept_menu_is_not_read(ctx, client):
    """A menu kept with a table of a state gone by names nothing now: the game is asked."""
    game = table(ctx, humans=2)
    rules = get_game("visby")
    path = move_paths(latest_mail(ALICE))[0]
    Drawn.update(choices="[]").where(Drawn.game == game.id, Drawn.viewer == 0).execute()
    bob = Seat.get(Seat.game == game, Seat.index == 1)
    moves.play(ctx, game.id, 1, rules.legal_moves(game.state, 1)[0], menu_seq=bob.menu_seq)
    assert client.get(path).status_code == 200, "Alice's link still plays"
