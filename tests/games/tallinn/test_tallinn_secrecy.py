"""What a seat may not see, and what the sentences may not say.

Two kinds of check:

* structure: another seat's entry has no hand, no pending choice, no tower
  decision and no tower faces (until the final scoring); no view, text,
  picture or sentence holds the seed;
* non-interference: at every secret decision of random games, whatever the
  deciding seat chooses (a card and its half; a tower's card or none), every
  other seat and a spectator see the same view, the same plain text, the
  same picture and the same sentence.
"""

from __future__ import annotations

import json
import random

import msgspec
import pytest
from tallinn_helpers import NAMES, new_game, stack

from pbem.games.protocol import EVERYTHING, SPECTATOR
from pbem.games.tallinn import GAME

SEED = "0123456789abcdefSEEDTEXT"
PRIVATE = ("hand", "chosen", "tower_choice")


#: a view as canonical JSON, keys sorted: what ``json.dumps(view, sort_keys=True)`` writes
#: but for its spaces, which no check here reads, in a ninth of the time (a Riga view
#: 12 against 108 µs); that every game's views are JSON the contract test checks
_CANONICAL = msgspec.json.Encoder(order="sorted")


def as_json(view) -> str:
    return _CANONICAL.encode(view).decode()


def viewers(state, but=None):
    return [v for v in range(state["players"]) if v != but] + [SPECTATOR]


def everything_a_viewer_reads(state, viewer):
    names = NAMES[:state["players"]]
    view = GAME.view(state, viewer)
    return (as_json(view), GAME.render_text(view, names), GAME.picture(view, names),
            GAME.picture(view, names, "de"))


def check_structure(state) -> None:
    over = GAME.is_over(state)
    for viewer in viewers(state):
        view = GAME.view(state, viewer)
        assert view["you"] == viewer
        text = as_json(view)
        assert SEED not in text and '"draws"' not in text and '"pile"' not in text
        for entry in view["seats"]:
            s = entry["seat"]
            assert entry["hand_count"] == len(state["hand"][s])
            assert entry["pile_count"] == len(state["pile"][s])
            assert entry["tower_count"] == len(state["towers"][s])
            if s == viewer:
                assert [c["card"] for c in entry["hand"]] == state["hand"][s]
                continue
            assert not any(key in entry for key in PRIVATE), (viewer, entry)
            for tower in entry["towers"]:
                assert ("card" in tower) == over and ("halves" in tower) == over
    everything = GAME.view(state, EVERYTHING)
    assert [[c["card"] for c in e["hand"]] for e in everything["seats"]] == state["hand"]
    assert all(len(e["towers"]) == 0 or "card" in e["towers"][0] for e in everything["seats"])


def check_decision_is_secret(state, seat) -> int:
    """Every decision ``seat`` could make now looks the same to everyone else."""
    decisions = GAME.legal_moves(state, seat)
    afters = [GAME.apply(state, seat, move) for move in decisions]
    for viewer in viewers(state, seat):
        sentences = {GAME.describe(state, seat, move, after, viewer)
                     for move, after in zip(decisions, afters, strict=True)}
        assert len(sentences) == 1, sentences
    if any(a["decision"] != state["decision"] for a in afters):
        return 0  # this decision reveals the round: everything is open at once
    for viewer in viewers(state, seat):
        seen = {everything_a_viewer_reads(a, viewer) for a in afters}
        assert len(seen) == 1, f"seat {viewer} can tell what seat {seat} decided"
    for move, after in zip(decisions, afters, strict=True):
        mine = GAME.view(after, seat)["seats"][seat]
        assert mine["chosen"] or mine["tower_choice"], move
    return len(decisions)


@pytest.mark.parametrize("options", [{}, {"legat": True}])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_secret_decisions_are_invisible_to_the_others(players, options):
    compared = 0
    for seed in range(2):
        rng = random.Random(seed)
        state = GAME.setup(players, options, SEED)
        while not GAME.is_over(state):
            check_structure(state)
            seat = rng.choice(GAME.to_move(state))
            if GAME.is_secret(state):
                compared += check_decision_is_secret(state, seat)
            state = GAME.apply(state, seat, rng.choice(GAME.legal_moves(state, seat)))
        check_structure(state)
    assert compared > 40


def test_the_secrecy_check_would_catch_a_leak(monkeypatch):
    from pbem.games.tallinn import view as tallinn_view

    honest = tallinn_view.build

    def leaky(state, seat):
        view = honest(state, seat)
        for entry in view["seats"]:
            entry["leak"] = state["chosen"][entry["seat"]]
        return view

    state = GAME.setup(3, None, SEED)
    assert check_decision_is_secret(state, 0) > 1
    monkeypatch.setattr(tallinn_view, "build", leaky)
    with pytest.raises(AssertionError, match="can tell what seat 0 decided"):
        check_decision_is_secret(state, 0)


def test_the_author_and_the_archive_read_the_whole_sentence():
    state = new_game(2)
    stack(state, 0, "S1", ["1", "7", "2", "3", "4", "5", "6", "8", "9", "10"])
    after = GAME.apply(state, 0, "play 7a")
    for viewer in (0, EVERYTHING):
        assert GAME.describe(state, 0, "play 7a", after, viewer) == (
            "{0} chooses card 7 with 1 Ritter, 2 Mönche active")
    for viewer in (1, SPECTATOR):
        assert GAME.describe(state, 0, "play 7a", after, viewer) == (
            "{0} chooses a card in secret")
    last = GAME.apply(after, 1, f"play {after['hand'][1][0]}a")
    assert GAME.describe(after, 1, f"play {after['hand'][1][0]}a", last, SPECTATOR) == (
        "{1} chooses a card in secret; all cards are revealed")
    assert "{0} plays card 7: 1 Ritter, 2 Mönche" in last["events"]


def test_tower_sentences_and_faces():
    state = new_game(2)
    stack(state, 0, "S1", ["1", "7", "2", "3", "4", "5", "6", "8", "9", "10"])
    stack(state, 1, "S6", ["3", "2", "10", "1", "5", "6", "7", "8", "9", "4"])
    state = GAME.apply(GAME.apply(state, 0, "play 1b"), 1, "play 3b")  # both hold contests
    built = GAME.apply(state, 0, "tower 7")
    for viewer in (0, EVERYTHING):
        assert GAME.describe(state, 0, "tower 7", built, viewer) == (
            "{0} builds a tower from card 7 of their hand")
    for viewer in (1, SPECTATOR):
        assert GAME.describe(state, 0, "tower 7", built, viewer) == (
            "{0} decides about a tower in secret")
    # seat 0's own pending tower is in its view only
    assert GAME.view(built, 0)["seats"][0]["tower_choice"] == {"from": "hand", "card": "7"}
    assert "tower_choice" not in GAME.view(built, 1)["seats"][0]
    done = GAME.apply(built, 1, "no tower")
    assert GAME.describe(built, 1, "no tower", done, 0) == (
        "{1} decides about a tower in secret; the tower decisions are revealed")
    assert "{0} builds a tower from a hand card" in done["events"]
    # a face-down tower: its source is public, its face is not
    other = GAME.view(done, 1)["seats"][0]["towers"]
    assert other == [{"from": "hand", "round": 1}]
    assert "Mönche" not in json.dumps(other)
    own = GAME.view(done, 0)["seats"][0]["towers"]
    assert own[0]["card"] == "7" and own[0]["halves"][0]["persons"] == {"K": 0, "R": 1, "M": 2}
    text = GAME.render_text(GAME.view(done, 1), NAMES[:2])
    assert "1 tower: face down (from the hand)" in text


def test_the_towers_are_turned_up_at_the_final_scoring():
    rng = random.Random(5)
    state = GAME.setup(2, None, SEED)
    while not GAME.is_over(state):
        seat = GAME.to_move(state)[0]
        moves = GAME.legal_moves(state, seat)
        state = GAME.apply(state, seat, "tower display" if "tower display" in moves
                           else rng.choice(moves))
    view = GAME.view(state, SPECTATOR)
    towers = [t for e in view["seats"] for t in e["towers"]]
    assert towers and all("card" in t and "text" in t for t in towers)
