"""The personal seat page: a whole turn in one visit, take-back, what others may not see."""

from __future__ import annotations

from web_helpers import (
    csrf_of,
    forms_in,
    latest_mail,
    move_forms,
    move_paths,
    player,
    post_form,
    seat_path,
    table,
)

from pbem.games import get_game
from pbem.models import Move, Player


def _label(move: str, lang: str = "en") -> str:
    rules = get_game("visby")
    state = rules.setup(2, None, 5)
    return next(c.label for c in rules.menu(state, 0, lang) if c.move == move)


def _takeback_form(html: str):
    forms = [f for f in forms_in(html) if f.action.endswith("/takeback")]
    return forms[0] if forms else None


def test_a_whole_turn_in_one_visit_with_take_back(ctx, client):
    table(ctx, humans=2)  # two players: two cards each round
    link = move_paths(latest_mail("alice@example.org"))[1]  # play Ritter
    confirm = client.get(link)
    label = _label("play Ritter")
    assert "Ritter" in label and label != "play Ritter"  # words for people, not notation
    assert label in confirm.text  # the move in words
    assert forms_in(confirm.text)[-1].button == f"Confirm: {label}"
    page = client.get(post_form(client, forms_in(confirm.text)[-1]).headers["Location"])
    assert "Played: Alice chooses Ritter" in page.text  # what the move did, in words
    # the turn goes on: the second card is offered right here, and the first can be taken back
    assert len(move_forms(page.text)) == 7
    assert "Ritter" not in [f.fields["move"].split()[-1] for f in move_forms(page.text)]
    takeback = _takeback_form(page.text)
    assert takeback is not None and "Alice chooses Ritter" in page.text.split("takeback")[1]

    first = post_form(client, takeback)
    second = post_form(client, takeback)  # a double click takes back one step, not two
    assert first.status_code == 303 and second.status_code == 410
    page = client.get(first.headers["Location"])
    assert "You took back your step: Alice chooses Ritter" in page.text
    assert len(move_forms(page.text)) == 8 and _takeback_form(page.text) is None
    assert Move.select().count() == 0

    for card in ("Schiff", "Kaufmann"):
        form = next(f for f in move_forms(page.text) if f.fields["move"] == f"play {card}")
        page = client.get(post_form(client, form).headers["Location"])
    assert move_forms(page.text) == []
    assert "Waiting for: Bob" in page.text
    # until Bob has chosen, the last card can still be taken back
    assert _takeback_form(page.text) is not None


def test_others_see_that_a_card_was_chosen_never_which(ctx, client, app):
    table(ctx, humans=2)
    alice_seat = seat_path(latest_mail("alice@example.org"))
    page = client.get(alice_seat)
    form = next(f for f in move_forms(page.text) if f.fields["move"] == "play Zöllner")
    post_form(client, form)
    bob = app.test_client()
    for path in (seat_path(latest_mail("bob@example.org")), "/g/1"):
        text = bob.get(path).text
        assert "Alice chooses a card in secret" in text
        assert "chooses Zöllner" not in text and "You have chosen" not in text
    public = bob.get("/g/1").text
    assert "Zöllner" not in public and "Your hand" not in public
    # Alice's own table in words says her choice
    assert "\nYou have chosen: Zöllner (secret until all have chosen)" \
        in client.get(alice_seat).text


def test_deadlines_show_in_the_readers_time_zone_and_settings_change_it(ctx, client):
    table(ctx, humans=2)
    path = seat_path(latest_mail("alice@example.org"))
    page = client.get(path)
    assert "(UTC)" in page.text
    settings = client.get(path + "/settings")
    [form] = [f for f in forms_in(settings.text) if f.action.endswith("/settings")]
    saved = post_form(client, form, timezone="Asia/Tokyo")  # the mail box is unticked
    assert saved.status_code == 303
    alice = Player.get(Player.email == "alice@example.org")
    assert alice.timezone == "Asia/Tokyo" and not alice.mail_enabled
    assert "(Asia/Tokyo)" in client.get(path).text
    bad = client.post(path + "/settings", data={"csrf_token": csrf_of(settings.text),
                                                "timezone": "Mars/Olympus"})
    assert bad.status_code == 400


def test_while_bots_still_owe_moves_a_person_choosing_beside_them_plays_at_once(
        ctx, client, monkeypatch):
    """A change whose bots stopped at their cap leaves their moves to the tick; a person
    to move beside them (Visby's cards, chosen by everyone at once) does not wait for
    them: her turn begins, her mail goes, her seat page offers the turn."""
    from pbem.games import get_game
    from pbem.lifecycle import moves
    from pbem.models import Game, Outbox, Seat

    table(ctx, humans=1, bots=2)  # Alice and two bots choose their cards at once
    seat = seat_path(latest_mail("alice@example.org"))
    monkeypatch.setattr(moves, "MAX_AUTOMATIC_SECONDS", 0.0)  # the cap met at once
    mails = Outbox.select().where(Outbox.to_address == "alice@example.org",
                                  Outbox.kind == "turn")
    before = mails.count()
    for _ in range(2):  # Alice's two cards: the second ends the round, a new one begins
        form = move_forms(client.get(seat).text)[0]
        assert post_form(client, form).status_code == 303
    game, alice = Game.get(), Seat.get(Seat.index == 0)
    # the rules have Alice choose again beside the bots, whose choices the tick plays
    assert game.bots_pending and 0 in get_game("visby").to_move(game.state)
    assert {1, 2} <= set(get_game("visby").to_move(game.state))
    assert alice.in_turn and alice.deadline is not None
    assert mails.count() == before + 1  # the new round's turn mail
    page = client.get(seat).text
    assert move_forms(page) and "The bots are still moving" not in page
    # she chooses before the bots have: her card is taken, the bots' are still owed
    assert post_form(client, move_forms(page)[0]).status_code == 303
    assert Game.get().bots_pending
    monkeypatch.undo()
    assert moves.continue_bots(ctx, Game.get().id) > 0
    assert not Game.get().bots_pending


def test_while_bots_still_owe_moves_a_person_after_them_waits(ctx, client, monkeypatch):
    """Where the bots' moves come before a person's turn (Riga: one seat after the
    other), her turn begins after the tick has played them: the seat page offers no
    button of a turn that has not begun (it could only be refused), says why, and offers
    the turn once it has."""
    from pbem.games import get_game
    from pbem.lifecycle import create, moves
    from pbem.models import Game, Seat

    alice = player("alice@example.org", "Alice")
    game = create.create_game(ctx, "riga", alice, [None, None], seed=5)
    seat = seat_path(latest_mail("alice@example.org"))
    monkeypatch.setattr(moves, "MAX_AUTOMATIC_SECONDS", 0.0)  # the cap met at once
    for _ in range(12):  # Alice's turn, step by step, until the bots are to move
        if not Seat.get(Seat.game == game, Seat.index == 0).in_turn:
            break
        assert post_form(client, move_forms(client.get(seat).text)[0]).status_code == 303
    game = Game.get_by_id(game.id)
    assert game.bots_pending and 0 not in get_game("riga").to_move(game.state)
    page = client.get(seat).text
    assert move_forms(page) == []
    assert "The bots are still moving" in page
    monkeypatch.undo()
    while Game.get_by_id(game.id).bots_pending:
        assert moves.continue_bots(ctx, game.id) > 0
    assert Seat.get(Seat.game == game, Seat.index == 0).in_turn
    page = client.get(seat).text
    assert move_forms(page) and "The bots are still moving" not in page
