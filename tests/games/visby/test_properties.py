"""Random legal games of Visby, with hypothesis, checked at every step.

The first ``DRAWN_MOVES`` moves of a game (seat and move) are drawn by
hypothesis, so it explores odd patterns (always the first or last card, never
trading) and shrinks a failure to a short move list.  Any legal play need not
end (everyone playing Bettelmönch and never trading gains no seals), so the
rest of the game is played by a uniform random generator seeded by
hypothesis, which ends a game after a few hundred moves.

What must hold after every move:

* goods and track markers within 0..15, seals never negative and never lost;
* each player's 8 cards exactly once in hand + discard; the cards chosen this
  round are in the hand (they leave it only when the round ends); during the
  Kaufmann step the revealed cards are still in the hand; after a round the
  revealed cards are on the discard pile, unless they included the
  Bettelmönch, which takes the whole pile back;
* the state survives a JSON round trip unchanged, and ``apply`` does not
  change the state it is given;

and at the end: the scores are seals + goods // 3, the ranks follow the
rulebook's tie-breakers, and replaying the record gives the same final state.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.gamelog.records import GameRecord, replay
from pbem.games.visby import GAME
from pbem.games.visby.data import KARTEN

DRAWN_MOVES = 120
MAX_MOVES = 5_000  # random games end after ~60-300 moves; this is a hang, not a game
PER_ROUND = {2: 2, 3: 2, 4: 1, 5: 1, 6: 1}


def check_cards(state) -> None:
    per_round = PER_ROUND[state["players"]]
    phase = state["phase"]
    moving = GAME.to_move(state)
    for seat in range(state["players"]):
        hand, discard = state["hand"][seat], state["discard"][seat]
        chosen, played = state["chosen"][seat], state["played"][seat]
        where = f"seat {seat} in {phase}, round {state['round']}: {hand=} {discard=}"
        assert Counter(hand) + Counter(discard) == Counter(KARTEN), where
        assert len(set(chosen)) == len(chosen) and set(chosen) <= set(hand), where
        assert "Bettelmönch" not in discard, where  # it always takes the pile back
        if phase == "choose":
            assert len(chosen) < per_round if seat in moving else len(chosen) == per_round
            assert len(hand) >= per_round, where  # a seat can always complete its choice
        else:
            assert chosen == [], where
        if phase == "trade":
            assert len(played) == per_round and set(played) <= set(hand), where
        elif state["round"] == 1 and phase == "choose":
            assert played == [], where
        elif "Bettelmönch" in played:
            assert sorted(hand) == sorted(KARTEN) and discard == [], where
        else:
            assert len(played) == per_round, where
            assert set(played) <= set(discard) and not set(played) & set(hand), where


def check_numbers(state, before) -> None:
    n = state["players"]
    assert all(0 <= g <= 15 for g in state["goods"]), state["goods"]
    assert all(0 <= v <= 15 for v in state["tracks"].values()), state["tracks"]
    assert all(s >= 0 for s in state["seals"]), state["seals"]
    assert all(state["seals"][s] >= before["seals"][s] for s in range(n)), "seals were lost"
    assert state["round"] in (before["round"], before["round"] + 1)
    if state["phase"] == "trade":
        assert state["trading"] and set(state["trading"]) <= {
            s for s in range(n) if "Kaufmann" in state["played"][s]}
        assert 0 <= state["kurs_feld"] <= 15
    else:
        assert state["trading"] == [] and state["kurs_feld"] is None


def play_checked(data, players: int, target: int):
    state = GAME.setup(players, {"target": target}, seed=data.draw(st.integers(0, 2**31)))
    assert state["goods"] == [players] * players
    rng = random.Random(data.draw(st.integers(0, 2**32), label="tail seed"))
    record = GameRecord(game="visby", players=[f"P{i}" for i in range(players)],
                        seed=state["seed"], options={"target": target},
                        rules_version=GAME.rules_version)
    check_cards(state)
    # the state as JSON, made once per state: read back it is both the copy that shows
    # ``apply`` changed nothing (the same as a deepcopy, as every state survives JSON:
    # checked below for each new state and here for the first) and the state read back
    as_json = json.dumps(state, sort_keys=True)
    assert json.loads(as_json) == state
    while not GAME.is_over(state):
        assert len(record.moves) < MAX_MOVES, "the game did not end"
        seats = GAME.to_move(state)
        assert seats, "nobody to move in a running game"
        if len(record.moves) < DRAWN_MOVES:
            seat = data.draw(st.sampled_from(seats))
            move = data.draw(st.sampled_from(GAME.legal_moves(state, seat)))
        else:
            seat = rng.choice(seats)
            move = rng.choice(GAME.legal_moves(state, seat))
        for other in range(players):
            if other not in seats:
                assert GAME.legal_moves(state, other) == []
        frozen = json.loads(as_json)
        after = GAME.apply(state, seat, move)
        assert state == frozen, f"apply changed its input state ({seat}: {move})"
        assert json.dumps(state, sort_keys=True) == as_json
        after_json = json.dumps(after, sort_keys=True)
        assert json.loads(after_json) == after, "state does not survive JSON"
        # a state read back from JSON plays on exactly the same
        assert GAME.apply(json.loads(as_json), seat, move) == after
        check_numbers(after, state)
        check_cards(after)
        record.moves.append((seat, move))
        state, as_json = after, after_json
    assert GAME.to_move(state) == []
    assert max(state["seals"]) >= target
    return record, state


def check_result(state) -> None:
    n = state["players"]
    result = GAME.result(state)
    recount = [state["seals"][s] + state["goods"][s] // 3 for s in range(n)]
    assert result.scores == recount == GAME.scores(state)
    keys = [(recount[s], state["goods"][s] % 3, len(state["hand"][s])) for s in range(n)]
    assert result.ranks == [1 + sum(k > keys[s] for k in keys) for s in range(n)]
    assert result.winners == [s for s in range(n) if keys[s] == max(keys)]
    assert result.winners


def check_replay(record: GameRecord, state) -> None:
    assert replay(record) == state
    assert replay(GameRecord.loads(record.dumps())) == state


# the 45-seal game is for 2 or 3 players only (Visby.validate_options)
@pytest.mark.parametrize("players, target",
                         [(n, 30) for n in range(2, 7)] + [(2, 45), (3, 45)])
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_random_games_keep_every_invariant(players, target, data):
    record, state = play_checked(data, players, target)
    check_result(state)
    check_replay(record, state)


@pytest.mark.parametrize("players", range(2, 7))
def test_the_invariant_checks_can_fail(players):
    """The checks above catch a lost card, a 16th good and a card in two places."""
    state = GAME.setup(players, None, seed=3)
    state["hand"][0] = state["hand"][0][1:]
    with pytest.raises(AssertionError):
        check_cards(state)
    state = GAME.setup(players, None, seed=3)
    state["goods"][0] = 16
    with pytest.raises(AssertionError):
        check_numbers(state, GAME.setup(players, None, seed=3))
    state = GAME.setup(players, None, seed=3)
    state["discard"][1] = ["Truppen"]  # Truppen now both in hand and on the pile
    with pytest.raises(AssertionError):
        check_cards(state)
