"""What a seat may not see, the moves it may not make, and the server hooks.

Hands are public knowledge in Visby (everyone starts with the same eight cards
and the discard piles lie open), so a card name in another seat's view proves
nothing by itself.  The secret is the card a seat has chosen this round before
the reveal.  Two checks:

* structure: the other seat's entry has no ``chosen`` (and no ``hand``) key,
  only ``chosen_count``;
* non-interference: at every secret choice in several random games, the views
  of every other seat and of a spectator, their plain-text renderings, and the
  move's description are *the same whichever card* was chosen, so nothing in
  them can reveal it.
"""

from __future__ import annotations

import copy
import random

import msgspec
import pytest

from pbem.games.protocol import (
    EVERYTHING,
    SPECTATOR,
    IllegalMoveError,
    MalformedMoveError,
    MoveError,
)
from pbem.games.visby import GAME
from pbem.games.visby.data import KARTEN

NAMES = [f"Name{i}" for i in range(6)]


def random_states(players: int, seed: int):
    """Yield ``(state, seat, move)`` for every move of a random game, then the final state."""
    rng = random.Random(seed)
    state = GAME.setup(players, None, seed)
    while not GAME.is_over(state):
        seat = rng.choice(GAME.to_move(state))
        move = rng.choice(GAME.legal_moves(state, seat))
        yield state, seat, move
        state = GAME.apply(state, seat, move)
    yield state, None, None


#: a view as canonical JSON, keys sorted: what ``json.dumps(view, sort_keys=True)`` writes
#: but for its spaces, which no check here reads, in a ninth of the time (a Riga view
#: 12 against 108 µs); that every game's views are JSON the contract test checks
_CANONICAL = msgspec.json.Encoder(order="sorted")


def as_json(view) -> str:
    return _CANONICAL.encode(view).decode()


def others(state, seat):
    return [v for v in range(state["players"]) if v != seat] + [SPECTATOR]


def check_structure(state) -> None:
    """No view shows a rival's hand or pending choice; the counts are right."""
    for viewer in list(range(state["players"])) + [SPECTATOR]:
        view = GAME.view(state, viewer)
        assert view["you"] == viewer
        for entry in view["seats"]:
            s = entry["seat"]
            # while merchants trade, the revealed cards lie on the table, not in the hand
            held = [c for c in state["hand"][s]
                    if state["phase"] != "trade" or c not in state["played"][s]]
            assert entry["chosen_count"] == len(state["chosen"][s])
            assert entry["hand_count"] == len(held)
            if s == viewer:
                assert entry["chosen"] == state["chosen"][s]
                assert entry["hand"] == held
            else:
                assert "chosen" not in entry and "hand" not in entry, (viewer, entry)
    everything = GAME.view(state, EVERYTHING)
    assert [e["chosen"] for e in everything["seats"]] == state["chosen"]


def check_choice_is_secret(state, seat: int) -> int:
    """Every card ``seat`` could choose now looks the same to everyone else.

    Returns how many alternatives were compared (0 when this choice reveals).
    """
    menu = GAME.legal_moves(state, seat)
    afters = {move: GAME.apply(state, seat, move) for move in menu}
    if any(a["round"] != state["round"] or a["phase"] != "choose" for a in afters.values()):
        return 0  # the last choice of the round: everything is revealed at once
    for viewer in others(state, seat):
        seen = [GAME.view(a, viewer) for a in afters.values()]  # each view made once
        views = {as_json(view) for view in seen}
        assert len(views) == 1, f"seat {viewer} can tell which card seat {seat} chose"
        texts = {GAME.render_text(view, NAMES) for view in seen}
        assert len(texts) == 1
        sentences = {GAME.describe(state, seat, move, afters[move], viewer) for move in menu}
        assert len(sentences) == 1, sentences
        (sentence,) = sentences
        assert not any(card in sentence for card in KARTEN), sentence
    # and the seat itself (and the archive) do see what it chose
    for move in menu:
        card = move.split()[1]
        assert card in GAME.describe(state, seat, move, afters[move], seat)
        assert card in GAME.describe(state, seat, move, afters[move], EVERYTHING)
        assert card in GAME.view(afters[move], seat)["seats"][seat]["chosen"]
    return len(menu)


@pytest.mark.parametrize("players", range(2, 7))
def test_a_pending_choice_is_invisible_to_the_other_seats_and_spectators(players):
    compared = 0
    for seed in range(4):
        for state, seat, _move in random_states(players, seed):
            check_structure(state)
            if seat is not None and state["phase"] == "choose":
                compared += check_choice_is_secret(state, seat)
    assert compared > 100  # the check did run on many choices


def test_the_secrecy_check_would_catch_a_leak():
    state = GAME.setup(4, None, 1)
    state = GAME.apply(state, 0, "play Ritter")
    leaky = GAME.view(state, 1)
    leaky["seats"][0]["chosen"] = ["Ritter"]
    assert "chosen" in leaky["seats"][0]
    other = GAME.apply(GAME.setup(4, None, 1), 0, "play Schiff")
    assert as_json(GAME.view(other, 1)) == as_json(GAME.view(state, 1))
    assert as_json(GAME.view(other, 0)) != as_json(GAME.view(state, 0))


def test_spectator_sees_no_hand_and_no_choice():
    state = GAME.setup(3, None, 1)
    state = GAME.apply(state, 1, "play Kaufmann")
    view = GAME.view(state, SPECTATOR)
    assert view["you"] is None
    assert all("hand" not in e and "chosen" not in e for e in view["seats"])
    assert view["seats"][1]["chosen_count"] == 1
    assert "Kaufmann" not in GAME.render_text(view, NAMES[:3])
    assert "Kaufmann" in GAME.render_text(GAME.view(state, 1), NAMES[:3])


def test_the_reveal_shows_everything_that_was_chosen():
    state = GAME.setup(4, None, 1)
    for seat, card in enumerate(["Ritter", "Schiff", "Flotte", "Zöllner"]):
        state = GAME.apply(state, seat, f"play {card}")
    view = GAME.view(state, SPECTATOR)
    assert [e["played"] for e in view["seats"]] == [["Ritter"], ["Schiff"], ["Flotte"],
                                                    ["Zöllner"]]


def test_while_merchants_trade_the_revealed_cards_are_on_the_table_not_in_the_hand():
    state = trade_state(goods=6)
    view = GAME.view(state, 0)
    me = view["seats"][0]
    assert me["played"] == ["Schmied", "Kaufmann"]
    assert me["hand_count"] == 6
    assert "Kaufmann" not in me["hand"] and "Schmied" not in me["hand"]
    assert "Your hand: Truppen, Ritter, Flotte, Schiff, Zöllner, Bettelmönch" in (
        GAME.render_text(view, NAMES[:2]))
    # after the round the cards are on the discard pile, as before
    for seat in (0, 1):
        state = GAME.apply(state, seat, "done")
    assert GAME.view(state, 0)["seats"][0]["hand_count"] == 6
    assert GAME.view(state, 0)["seats"][0]["discard"] == ["Schmied", "Kaufmann"]


# -- refused moves -------------------------------------------------------------------


def refused(state, seat, move, error, *words):
    """``apply`` refuses with ``error`` naming ``words``, and the state is untouched."""
    before = copy.deepcopy(state)
    with pytest.raises(error) as caught:
        GAME.apply(state, seat, move)
    assert isinstance(caught.value, MoveError)
    message = str(caught.value).lower()
    for word in words:
        assert word.lower() in message, (word, message)
    assert state == before


def trade_state(goods=2):
    """Two merchants, the purse on field 9 moved back to 7 (rate 3:2)."""
    state = GAME.setup(2, None, 1)
    state["tracks"]["Markt"] = 9
    state["goods"] = [goods, 2]
    for seat in (0, 1):
        state = GAME.apply(state, seat, "play Kaufmann")
        state = GAME.apply(state, seat, "play Schmied")
    assert state["phase"] == "trade" and state["kurs_feld"] == 7
    return state


def test_a_card_not_in_hand_is_refused():
    state = GAME.setup(4, None, 1)
    state["hand"][0].remove("Truppen")
    state["discard"][0].append("Truppen")
    refused(state, 0, "play Truppen", IllegalMoveError, "Truppen", "not in your hand")


def test_a_card_chosen_twice_is_refused():
    state = GAME.apply(GAME.setup(2, None, 1), 0, "play Ritter")
    refused(state, 0, "play Ritter", IllegalMoveError, "Ritter", "already chosen")


def test_a_trade_above_the_purse_is_refused():
    state = trade_state(goods=10)
    refused(state, 0, "trade 2:2", IllegalMoveError, "2:2", "field 7")
    refused(state, 0, "trade 1:1", IllegalMoveError, "1:1", "not on the Markt")


def test_a_trade_with_too_few_goods_is_refused():
    state = trade_state(goods=2)
    refused(state, 0, "trade 3:2", IllegalMoveError, "needs 3 goods", "you have 2")


def test_a_seat_that_is_not_to_move_is_refused():
    state = GAME.apply(GAME.setup(4, None, 1), 0, "play Ritter")
    refused(state, 0, "play Schiff", IllegalMoveError, "seat 0", "not to move")
    refused(state, 7, "play Schiff", IllegalMoveError, "no seat 7")
    refused(state, -1, "play Schiff", IllegalMoveError, "no seat -1")
    state = GAME.setup(4, None, 1)
    state["tracks"]["Markt"] = 9
    for seat, card in enumerate(["Kaufmann", "Schmied", "Schmied", "Schmied"]):
        state = GAME.apply(state, seat, f"play {card}")
    assert GAME.to_move(state) == [0]
    refused(state, 1, "done", IllegalMoveError, "seat 1", "not to move")


def test_moves_of_the_wrong_phase_are_illegal_not_malformed():
    state = GAME.setup(2, None, 1)
    refused(state, 0, "trade 3:2", IllegalMoveError, "play <card>")
    refused(state, 0, "done", IllegalMoveError, "play <card>")
    state = trade_state()
    refused(state, 0, "play Ritter", IllegalMoveError, "revealed")


def test_no_move_after_the_game_is_over():
    state = GAME.setup(2, None, 1)
    state["seals"] = [30, 0]
    for seat in (0, 1):
        state = GAME.apply(state, seat, "play Schmied")
        state = GAME.apply(state, seat, "play Zöllner")
    assert GAME.is_over(state)
    refused(state, 0, "play Ritter", IllegalMoveError, "over")


@pytest.mark.parametrize("move, words", [
    ("", ["empty"]),
    ("   ", ["empty"]),
    ("fly away", ["not a visby move"]),
    ("play", ["not a visby move"]),
    ("play Dragon", ["Dragon", "no card"]),
    ("play Ritter Schiff", ["not a visby move"]),
    ("trade", ["not a visby move"]),
    ("trade 3-2", ["trade 3:2"]),
    ("trade 0:1", ["trade 3:2"]),
    ("trade 3:2:1", ["trade 3:2"]),
    ("trade x:y", ["trade 3:2"]),
    ("done now", ["not a visby move"]),
])
def test_malformed_notation_is_refused_as_malformed(move, words):
    for state in (GAME.setup(2, None, 1), trade_state()):
        refused(state, 0, move, MalformedMoveError, *words)
        with pytest.raises(MoveError) as caught:
            GAME.apply(state, 0, move)
        assert not isinstance(caught.value, IllegalMoveError)


def test_notation_is_case_and_space_tolerant_and_canonical():
    assert GAME.parse("  PLAY   ritter ") == "play Ritter"
    assert GAME.parse("play zöllner") == "play Zöllner"
    assert GAME.parse("Trade 3:2") == "trade 3:2"
    state = GAME.apply(GAME.setup(2, None, 1), 0, "PLAY   ritter")
    assert state["chosen"][0] == ["Ritter"]


# -- default move and commit points --------------------------------------------------


@pytest.mark.parametrize("players", range(2, 7))
def test_the_default_move_is_always_legal(players):
    checked = 0
    for seed in range(3):
        for state, _seat, _move in random_states(players, seed):
            for seat in GAME.to_move(state):
                default = GAME.default_move(state, seat)
                assert default in GAME.legal_moves(state, seat)
                GAME.apply(state, seat, default)  # and is accepted
                checked += 1
    assert checked > 100


def test_the_default_move_in_trade_phase_is_done():
    state = trade_state(goods=10)
    assert GAME.default_move(state, 0) == "done"


def test_no_default_move_for_a_seat_that_is_not_to_move():
    state = GAME.apply(GAME.setup(4, None, 1), 0, "play Ritter")
    with pytest.raises(ValueError):
        GAME.default_move(state, 0)


def commit(state, seat, move):
    after = GAME.apply(state, seat, move)
    return GAME.is_commit_point(state, seat, move, after), after


def test_commit_points_in_a_four_player_round():
    state = GAME.setup(4, None, 1)
    state["tracks"]["Markt"] = 9
    state["goods"] = [6, 6, 6, 6]
    for seat, card in enumerate(["Kaufmann", "Kaufmann", "Schmied"]):
        point, state = commit(state, seat, f"play {card}")
        assert point is False  # a secret choice may be taken back until the reveal
    point, state = commit(state, 3, "play Ritter")
    assert point is True  # the reveal
    assert state["phase"] == "trade"
    point, state = commit(state, 0, "trade 3:2")
    assert point is False  # a trade step may be taken back until "done"
    point, state = commit(state, 0, "done")
    assert point is True
    point, state = commit(state, 1, "done")
    assert point is True  # the last "done" ends the round
    assert state["round"] == 2


def test_commit_points_in_a_two_player_round_without_merchants():
    state = GAME.setup(2, None, 1)
    point, state = commit(state, 0, "play Ritter")
    assert point is False
    point, state = commit(state, 0, "play Schiff")
    assert point is False  # seat 0 has finished, but nothing is revealed yet
    point, state = commit(state, 1, "play Flotte")
    assert point is False
    point, state = commit(state, 1, "play Truppen")
    assert point is True
    assert state["round"] == 2
