"""pbem's example game Ziehen (``pbem/games/ziehen``): step, private draw, step, end turn."""

from __future__ import annotations

import json

import pytest

from pbem.games import EXAMPLES, game_names, get_example, get_game, registered
from pbem.games.protocol import EVERYTHING, SPECTATOR, IllegalMoveError, MalformedMoveError
from pbem.games.ziehen import CARDS, GAME, ROUNDS
from pbem.games.ziehen.moves import Move


def play(state, seat, move):
    after = GAME.apply(state, seat, move)
    return after, GAME.turn_over(state, seat, move, after), GAME.is_commit_point(
        state, seat, move, after)


def test_a_turn_is_step_draw_step_end_and_only_the_draw_and_the_end_are_commit_points():
    state = GAME.setup(2, None, "ziehen")
    seen = []
    for _ in range(4):
        (move,) = GAME.legal_moves(state, 0)
        state, turn_over, commit = play(state, 0, move)
        seen.append((move, turn_over, commit))
    assert seen == [("step", False, False), ("draw", False, True), ("step", False, False),
                    ("end", True, True)]
    assert GAME.to_move(state) == [1]


def test_the_drawn_card_is_seen_by_its_author_and_the_archive_only():
    state = GAME.setup(2, None, "ziehen")
    state = GAME.apply(state, 0, "step")
    after = GAME.apply(state, 0, "draw")
    (card,) = after["hand"][0]
    assert card == state["deck"][0]  # the top card
    assert GAME.describe(state, 0, "draw", after, 0) == f"{{0}} draws {card}"
    assert GAME.describe(state, 0, "draw", after, EVERYTHING) == f"{{0}} draws {card}"
    for viewer in (1, SPECTATOR):
        assert GAME.describe(state, 0, "draw", after, viewer) == "{0} draws a card"
        view = GAME.view(after, viewer)
        assert view["seats"][0] == {"seat": 0, "cards": 1}
        assert card not in json.dumps(view) and card not in GAME.render_text(view, ["A", "B"])
    assert GAME.view(after, 0)["seats"][0]["hand"] == [card]


def test_what_the_others_see_does_not_depend_on_the_card_drawn():
    views = {}
    for seed in range(12):
        state = GAME.apply(GAME.apply(GAME.setup(2, None, seed), 0, "step"), 0, "draw")
        views.setdefault(json.dumps(GAME.view(state, 1), sort_keys=True), set()).add(
            state["hand"][0][0])
    assert len(views) == 1
    assert len(next(iter(views.values()))) > 1  # and different cards were drawn


def test_the_deck_is_shuffled_from_the_seed():
    assert GAME.setup(2, None, "a")["deck"] == GAME.setup(2, None, "a")["deck"]
    decks = {tuple(GAME.setup(2, None, seed)["deck"]) for seed in range(10)}
    assert len(decks) > 1
    assert sorted(GAME.setup(2, None, 1)["deck"]) == sorted(CARDS)


def test_the_game_ends_after_its_rounds_with_a_result():
    state = GAME.setup(2, None, "ziehen")
    moves = 0
    while not GAME.is_over(state):
        (seat,) = GAME.to_move(state)
        state = GAME.apply(state, seat, GAME.default_move(state, seat))
        moves += 1
    assert moves == 2 * ROUNDS * 4
    result = GAME.result(state)
    assert result.scores == [sum(CARDS[c] for c in hand) for hand in state["hand"]]
    assert all(len(hand) == ROUNDS for hand in state["hand"])
    assert GAME.round(state) == ROUNDS


def test_wrong_moves_are_refused():
    state = GAME.setup(2, None, "ziehen")
    with pytest.raises(IllegalMoveError, match="now the move is 'step'"):
        GAME.apply(state, 0, "draw")
    with pytest.raises(IllegalMoveError, match="not to move"):
        GAME.apply(state, 1, "step")
    with pytest.raises(MalformedMoveError):
        GAME.apply(state, 0, "jump")


def test_it_can_be_registered_for_a_while():
    with registered(GAME):
        assert get_game("ziehen") is GAME
    with pytest.raises(KeyError):
        get_game("ziehen")


def test_it_is_an_example_never_offered_to_players():
    assert "ziehen" in EXAMPLES and "ziehen" not in game_names()
    assert get_example("ziehen") is GAME


def test_a_move_is_parsed_once_and_printed_back():
    assert Move.from_notation("  draw ") == Move("draw")
    assert Move("end").notation() == "end"
    for verb in ("step", "draw", "end"):
        assert Move.from_notation(verb).notation() == verb
    with pytest.raises(MalformedMoveError):
        Move.from_notation("draw two")


def test_every_language_reads_one_renderer_with_its_own_words():
    state = GAME.apply(GAME.apply(GAME.setup(2, None, "ziehen"), 0, "step"), 0, "draw")
    view = GAME.view(state, 0)
    english, german = (GAME.render_text(view, ["A", "B"], lang) for lang in ("en", "de"))
    assert english.startswith("Ziehen, round 1 of 3") and "Runde 1 von 3" in german
    assert GAME.render_text(view, ["A", "B"], "xx") == english
    assert [c.label for c in GAME.menu(state, 0, "de")] == ["Einen Schritt gehen"]
    before = GAME.apply(GAME.setup(2, None, "ziehen"), 0, "step")
    assert GAME.describe(before, 0, "draw", state, 1, "de") == "{0} zieht eine Karte"


def test_the_picture_names_each_visible_card_as_a_region_with_its_help():
    state = GAME.apply(GAME.apply(GAME.setup(2, None, "ziehen"), 0, "step"), 0, "draw")
    (card,) = state["hand"][0]
    mine = GAME.picture(GAME.view(state, 0), ["A", "B"])
    assert f'data-region="{card}"' in mine and f"<title>{card}: {CARDS[card]} ◇ " in mine
    assert card not in GAME.picture(GAME.view(state, 1), ["A", "B"])
