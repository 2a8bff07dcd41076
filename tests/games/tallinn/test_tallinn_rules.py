"""Tallinn's rules, one at a time: contests, the final scoring, towers, the
Legat, the tower-order variant.

Positions for the final scoring are laid out directly (start card, display,
towers) and scored by ``rules.final_scoring``; everything that happens during
play goes through ``GAME.apply`` from a stacked deal.
"""

from __future__ import annotations

import pytest
from tallinn_helpers import new_game, play_round, stack

from pbem.games.protocol import SPECTATOR
from pbem.games.tallinn import GAME, rules


def position(starts, displays, towers=None, legat=False):
    """A finished table: start cards, displays as "7a" strings, towers as card lists."""
    state = new_game(len(starts), legat=legat)
    state["start"] = list(starts)
    state["display"] = [[[h[:-1], h[-1]] for h in d] for d in displays]
    state["towers"] = [[{"card": c, "from": "hand", "round": 1} for c in t]
                       for t in (towers or [[] for _ in starts])]
    return state, rules.final_scoring(state)


# -- contests during play ---------------------------------------------------------


def test_a_contest_scores_2_for_more_1_for_a_tie_0_for_fewer_and_only_for_its_trigger():
    state = new_game(3)
    # Ritter at the start: seat 0 one (S1), seat 1 two (S2), seat 2 one (S6)
    stack(state, 0, "S1", ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10"])
    stack(state, 1, "S2", ["10", "2", "3", "4", "5", "6", "7", "8", "9", "1"])
    stack(state, 2, "S6", ["2", "1", "3", "4", "5", "6", "7", "8", "9", "10"])
    # seat 0: 1 Ritter with a coin -> 2 Ritter; seat 1 adds none (2 Kaufleute);
    # seat 2 adds none with a coin of its own (1 Mönch, contest for the Mönche)
    state = play_round(state, {0: "1b", 1: "10a", 2: "2b"})
    assert rules.display_counts(state, 0)["R"] == 2
    assert rules.display_counts(state, 1)["R"] == 2
    assert rules.display_counts(state, 2)["R"] == 1
    # seat 0: tie with seat 1 (+1), more than seat 2 (+2); seat 1 triggered nothing
    # and scores nothing in seat 0's contest although it has as many
    # seat 2's Mönche contest: 1 against seat 0's 2 (0) and seat 1's 0 (+2)
    assert state["points"] == [4 + 3, 4, 4 + 2]
    events = "\n".join(state["events"])
    assert "Contest for the Ritter (knights): {0} has 2; {1} 2: +1, {2} 1: +2; {0} scores 3" in (
        events)
    assert "Contest for the Mönche (monks): {2} has 1; {0} 2: +0, {1} 0: +2; {2} scores 2" in (
        events)


def test_two_contests_for_the_same_estate_are_held_separately():
    state = new_game(2)
    stack(state, 0, "S1", ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10"])
    stack(state, 1, "S6", ["4", "2", "3", "1", "5", "6", "7", "8", "9", "10"])
    state = play_round(state, {0: "1b", 1: "4b"})  # both hold a contest for the Ritter
    # Ritter: seat 0 has 1 + 1 = 2, seat 1 has 1 + 1 = 2: each scores a tie, 1
    assert state["points"] == [5, 5]


def test_a_tie_at_zero_scores_nothing():
    state, _ = position(["S1", "S5"], [[], []])  # neither has a Kaufmann
    assert rules.contest(state, 0, "K") == (0, ["{1} 0: +0"])
    state, final = position(["S1", "S5"], [[], []])
    # Kaufleute 0 : 0 scores nothing; Ritter 1 : 2 and Mönche 2 : 1; no towers: nothing
    assert final["counts"] == [{"K": 0, "R": 1, "M": 2}, {"K": 0, "R": 2, "M": 1}]
    assert final["gain"] == [4, 4]
    assert final["tower_value"] == [0, 0]


def test_a_tie_with_persons_scores_2_in_the_final_scoring():
    _, final = position(["S1", "S4"], [[], []])  # Mönche 2 : 2, Ritter 1 : 0, Kaufleute 0 : 1
    assert final["gain"] == [2 + 4, 2 + 4]


# -- the 5-person transfer ----------------------------------------------------------


@pytest.mark.parametrize("more, paid", [(4, 0), (5, 1), (6, 1)])
def test_at_least_5_more_persons_take_a_point_from_the_other(more, paid):
    # seat 0: start 2 Kaufleute (S3) and Kaufleute from cards 2a, 4a, 10a (2 each)
    displays = {4: ["2a"], 5: ["2a", "3b"], 6: ["2a", "4a"]}[more]
    state, final = position(["S3", "S1"], [displays, []])
    assert final["counts"][0]["K"] - final["counts"][1]["K"] == more
    ritter = final["counts"][1]["R"] - final["counts"][0]["R"]
    moenche = final["counts"][1]["M"] - final["counts"][0]["M"]
    assert ritter < 5 and moenche < 5  # only the Kaufleute transfer
    assert final["gain"][0] == 4 + paid + (0 if ritter > 0 else 2) + (0 if moenche > 0 else 2)
    assert any("pays 1 to {0}" in line for line in final["lines"][1]) == bool(paid)


def test_the_transfer_runs_in_every_pair_of_three_players():
    # seat 0: 8 Kaufleute; seat 1: 2; seat 2: 3
    state, final = position(["S3", "S6", "S4"], [["2a", "4a", "10a"], [], ["9b"]])
    k = [c["K"] for c in final["counts"]]
    assert k == [8, 2, 3]
    points = {s: final["gain"][s] for s in range(3)}
    # recount Kaufleute alone: seat 0 beats both (+8) and takes 1 from each
    lines0 = [line for line in final["lines"][0] if line.startswith("Kaufleute")]
    assert lines0 == ["Kaufleute (merchants) 8 against {1} 2: +4, and {1} pays 1 (at least 5 more)",
                      "Kaufleute (merchants) 8 against {2} 3: +4, and {2} pays 1 (at least 5 more)"]
    assert points[0] >= 10


# -- towers ------------------------------------------------------------------------


def test_a_tower_from_the_display_takes_the_card_out_of_it():
    state = new_game(2)
    stack(state, 0, "S1", ["1", "7", "2", "3", "4", "5", "6", "8", "9", "10"])
    stack(state, 1, "S6", ["10", "2", "3", "1", "5", "6", "7", "8", "9", "4"])
    state = GAME.apply(state, 0, "play 1b")
    state = GAME.apply(state, 1, "play 10a")
    assert state["phase"] == "tower" and GAME.to_move(state) == [0]
    # this round's card, in the display; the hand's cards; or none
    assert GAME.legal_moves(state, 0) == ["tower 1", "tower 2", "tower 7", "no tower"]
    assert GAME.formality(state, 0) is None
    state = GAME.apply(state, 0, "tower 1")
    assert state["round"] == 2 and state["display"][0] == []
    assert state["towers"][0] == [{"card": "1", "from": "display", "round": 1}]
    assert state["hand"][0] == ["2", "3", "7"]  # played one, drew one
    assert "{0} builds a tower from a card of the display" in state["events"]


def test_a_tower_from_the_hand_means_one_card_fewer_to_play():
    state = new_game(2)
    stack(state, 0, "S1", ["1", "7", "2", "3", "4", "5", "6", "8", "9", "10"])
    stack(state, 1, "S6", ["10", "2", "3", "1", "5", "6", "7", "8", "9", "4"])
    state = play_round(state, {0: "1b", 1: "10a"}, {0: ("hand", "7")})
    assert state["towers"][0] == [{"card": "7", "from": "hand", "round": 1}]
    assert state["display"][0] == [["1", "b"]]
    assert state["hand"][0] == ["2", "3"] and len(state["hand"][1]) == 3
    rounds = {0: 1, 1: 1}
    while not GAME.is_over(state):
        plays = {s: f"{state['hand'][s][0]}a" for s in GAME.to_move(state)}
        for s in plays:
            rounds[s] += 1
        state = play_round(state, plays)
    assert rounds == {0: 9, 1: 10}


def test_no_tower_without_a_contest():
    state = new_game(2)
    stack(state, 0, "S1", ["1", "7", "2", "3", "4", "5", "6", "8", "9", "10"])
    stack(state, 1, "S6", ["10", "2", "3", "1", "5", "6", "7", "8", "9", "4"])
    state = play_round(state, {0: "1a", 1: "10a"})
    assert state["round"] == 2 and state["towers"] == [[], []]


def test_tower_scoring_counts_both_halves_and_its_strongest_estate():
    # seat 0: cards 7 (4 Mönche) and 1 (2 Mönche, 1 Ritter): 6 Mönche
    # seat 1: card 8 (4 Ritter): 4; seat 2: no tower
    _, final = position(["S1", "S2", "S3"], [[], [], []], [["7", "1"], ["8"], []])
    assert final["tower_value"] == [6, 4, 0]
    assert final["tower_persons"] == [9, 6, 0]
    tower_lines = [line for line in final["lines"][0] if line.startswith("Towers")]
    assert tower_lines == ["Towers: 6 Mönche against {1} 4: +6",
                           "Towers: 6 Mönche against {2} 0: +6"]
    assert "Towers: no tower against {0} 6: +0" in final["lines"][2]


def test_equal_towers_score_3_each():
    _, final = position(["S1", "S2"], [[], []], [["1"], ["2"]])  # 2 Mönche / 2 Kaufleute
    assert final["tower_value"] == [2, 2]
    tower_lines = [line for s in (0, 1) for line in final["lines"][s] if "Towers" in line]
    assert tower_lines == ["Towers: 2 Mönche against {1} 2: +3",
                           "Towers: 2 Kaufleute against {0} 2: +3"]


# -- Der Legat des Kaisers ------------------------------------------------------------


def legat_game():
    state = new_game(2, legat=True)
    stack(state, 0, "S6", ["2", "3", "4", "1", "5", "6", "7", "8", "9", "10"])  # K2 R1
    stack(state, 1, "S2", ["2", "3", "4", "1", "5", "6", "7", "8", "9", "10"])  # R2 K1
    return state


def test_with_the_legat_each_hand_holds_four_cards_and_the_game_lasts_11_rounds():
    state = GAME.setup(3, {"legat": True}, "x")
    assert all(len(h) == 4 and "L" in h for h in state["hand"])
    assert all(len(p) == 7 for p in state["pile"])
    assert GAME.view(state, 0)["max_rounds"] == 11
    rounds = 0
    while not GAME.is_over(state):
        state = play_round(state, {s: f"{state['hand'][s][0]}a" for s in GAME.to_move(state)})
        rounds += 1
    assert rounds == 11


def test_the_legats_three_persons_count_one_of_each_estate():
    state = play_round(legat_game(), {0: "La", 1: "2a"})
    assert rules.display_counts(state, 0) == {"K": 3, "R": 2, "M": 1}
    assert state["points"] == [4, 4]  # no coin, no contest


def test_the_wappen_holds_a_contest_of_the_players_choice_with_two_extra_persons():
    state = legat_game()
    state = GAME.apply(state, 0, "play Lb")
    state = GAME.apply(state, 1, "play 2a")
    assert state["phase"] == "legat" and GAME.to_move(state) == [0]
    assert not GAME.is_secret(state)
    assert GAME.legal_moves(state, 0) == ["legat Kaufleute", "legat Ritter", "legat Mönche"]
    labels = [c.label for c in GAME.menu(state, 0)]
    assert labels[1] == "Contest for the Ritter (knights) (1 + 2 persons)"
    state = GAME.apply(state, 0, "legat Ritter")
    # Ritter: 1 + 2 = 3 against seat 1's 2: +2; the two persons count for that contest only
    assert state["points"] == [6, 4]
    assert rules.display_counts(state, 0) == {"K": 2, "R": 1, "M": 0}
    assert "Contest for the Ritter (knights): {0} has 1 + 2 from the Legat; {1} 2: +2" in (
        state["events"][2])
    # the contest allows a tower, as any contest does
    assert state["phase"] == "tower" and GAME.to_move(state) == [0]


def test_two_wappen_in_one_round_choose_at_the_same_time():
    state = legat_game()
    state = GAME.apply(state, 0, "play Lb")
    state = GAME.apply(state, 1, "play Lb")
    assert GAME.to_move(state) == [0, 1]
    state = GAME.apply(state, 1, "legat Mönche")
    assert GAME.to_move(state) == [0] and state["points"] == [4, 4]  # not yet resolved
    assert GAME.view(state, 0)["seats"][1]["legat"] == "M"  # public once chosen
    state = GAME.apply(state, 0, "legat Mönche")
    # Mönche 0 + 2 against 0: +2 each
    assert state["points"] == [6, 6]


def test_at_the_end_a_wappen_in_the_display_adds_two_persons_to_the_weakest_estate():
    # seat 0: Kaufleute 2, Ritter 1, Mönche 0 (S6) and the Wappen: Mönche get 2
    _, final = position(["S6", "S2"], [["Lb"], []], legat=True)
    assert final["legat_bonus"] == ["M", None]
    assert final["counts"][0] == {"K": 2, "R": 1, "M": 2}


def test_the_legat_in_the_display_gives_its_two_persons_whichever_half_shows():
    """Tallinn, "Der Legat des Kaisers", Spielende: "Liegt die Karte „Legat des Kaisers“
    bei Spielende in Deiner Auslage, addierst Du sofort deren beiden Personen zu dem
    Stand mit den wenigsten Personen in Deiner Auslage": the card, not one half."""
    # S6 (Kaufleute 2, Ritter 1) and the Legat's three persons: K 3, R 2, M 1 -> M 3
    _, final = position(["S6", "S2"], [["La"], []], legat=True)
    assert final["legat_bonus"] == ["M", None]
    assert final["counts"][0] == {"K": 3, "R": 2, "M": 3}


def test_a_game_of_rules_version_1_keeps_the_legat_at_the_end_to_its_wappen_half():
    """Rules version 1 read the Spielende paragraph as the Wappen half's: a game started
    under it replays with that reading."""
    state = GAME.setup_version(2, {"legat": True}, "test-seed", None, "1")
    assert state["rules_version"] == "1"
    state["start"] = ["S6", "S2"]
    state["display"] = [[["L", "a"]], []]
    final = rules.final_scoring(state)
    assert final["legat_bonus"] == [None, None]
    assert final["counts"][0] == {"K": 3, "R": 2, "M": 1}
    state["display"] = [[["L", "b"]], []]
    assert rules.final_scoring(state)["legat_bonus"] == ["M", None]


def test_when_estates_tie_for_fewest_the_wappen_goes_where_it_scores_most():
    # seat 0: Kaufleute 2, Ritter 1 (S6), Mönche 1 (card 5b): Ritter and Mönche tie
    # seat 1: Ritter 4, Kaufleute 1 (S2 + 3a), Mönche 2 (1a)
    # Ritter 1 + 2 = 3 loses to 4, Mönche 1 + 2 = 3 beats 2: the Mönche get the two
    _, final = position(["S6", "S2"], [["5b", "Lb"], ["3a", "1a"]], legat=True)
    assert final["counts"][1] == {"K": 1, "R": 4, "M": 2}
    assert final["legat_bonus"][0] == "M"
    assert final["counts"][0] == {"K": 2, "R": 1, "M": 3}


def test_the_legat_as_a_tower_counts_its_three_persons_and_two_on_the_weakest():
    # towers: Legat (1 of each) alone: 2 more on the first weakest -> 3 Kaufleute
    _, final = position(["S6", "S2"], [[], []], [["L"], []], legat=True)
    assert final["towers"][0] == {"K": 3, "R": 1, "M": 1}
    assert final["tower_value"][0] == 3 and final["tower_persons"][0] == 5
    # with card 8 (2 Kaufleute, 4 Ritter): 3, 5, 1 -> Mönche 3; the value stays 5 Ritter
    _, final = position(["S6", "S2"], [[], []], [["L", "8"], []], legat=True)
    assert final["towers"][0] == {"K": 3, "R": 5, "M": 3}
    assert final["tower_value"][0] == 5 and final["tower_estate"][0] == "R"


def test_a_legat_can_be_built_from_the_display_through_play():
    state = legat_game()
    state = play_round(state, {0: "Lb", 1: "2a"}, {0: ("display", "L")}, {0: "Ritter"})
    assert state["towers"][0] == [{"card": "L", "from": "display", "round": 1}]
    assert ["L", "b"] not in state["display"][0]


# -- the tower-order variant -----------------------------------------------------------


def variant_game(tower_of_seat_1: bool):
    """Three seats; round 2: all three hold contests; seats 0 and 1 tie on points."""
    state = new_game(3, tower_order=True)
    stack(state, 0, "S1", ["1", "3", "4", "2", "5", "6", "7", "8", "9", "10"])
    stack(state, 1, "S5", ["1", "3", "4", "2", "5", "6", "7", "8", "9", "10"])
    stack(state, 2, "S2", ["1", "2", "4", "3", "5", "6", "7", "8", "9", "10"])
    towers = {1: ("display", "1")} if tower_of_seat_1 else {}
    state = play_round(state, {0: "1a", 1: "1b", 2: "1a"}, towers)
    state["points"] = [8, 8, 20]  # the scores are set for this test
    for seat, half in ((0, "3b"), (1, "3b"), (2, "2b")):
        state = GAME.apply(state, seat, f"play {half}")
    return state


def test_the_variant_orders_by_points_then_towers():
    state = variant_game(tower_of_seat_1=True)
    assert state["points"] == [10, 10, 22]  # two ties each for 0 and 1; seat 2 beat seat 1
    assert state["tower_queue"] == [2, 1, 0]
    assert GAME.to_move(state) == [2]
    assert not GAME.is_secret(state)
    assert "Towers are decided in this order: {2}, {1}, {0}" in state["events"]


def test_the_variant_orders_by_seat_at_last():
    state = variant_game(tower_of_seat_1=False)
    assert state["tower_queue"] == [2, 0, 1]


def test_in_the_variant_decisions_are_made_one_after_another_in_the_open():
    state = variant_game(tower_of_seat_1=True)
    with pytest.raises(Exception, match="seat 2 decides first"):
        GAME.apply(state, 1, "no tower")
    before = state
    state = GAME.apply(state, 2, f"tower {state['hand'][2][0]}")
    assert GAME.describe(before, 2, f"tower {before['hand'][2][0]}", state, SPECTATOR) == (
        "{2} builds a tower from their hand")
    assert GAME.is_commit_point(before, 2, f"tower {before['hand'][2][0]}", state)
    # it took effect at once: the next one sees the tower (face down)
    assert GAME.to_move(state) == [1]
    view = GAME.view(state, 1)
    assert view["seats"][2]["tower_count"] == 1 and "card" not in view["seats"][2]["towers"][0]
    assert view["seats"][2]["tower_public"] == "hand" and "hand" not in view["seats"][2]
    state = GAME.apply(state, 1, "tower 3")
    # seat 1 built its display's card 3 (card 1 went to a tower in round 1)
    assert state["display"][1] == [] and GAME.to_move(state) == [0]
    state = GAME.apply(state, 0, "no tower")
    assert state["round"] == 3


# -- notation and refused moves -------------------------------------------------------


@pytest.mark.parametrize("move, canonical", [
    ("  PLAY   7 A ", "play 7a"), ("play 10b", "play 10b"), ("play lb", "play Lb"),
    ("legat moenche", "legat Mönche"), ("Legat K", "legat Kaufleute"),
    ("legat knights", "legat Ritter"),
    ("tower l", "tower L"), ("Tower  10", "tower 10"), ("NO tower", "no tower"),
])
def test_notation_is_case_and_space_tolerant_and_canonical(move, canonical):
    assert GAME.parse(move) == canonical


@pytest.mark.parametrize("move", ["", "  ", "fly away", "play", "play 11a", "play 7c",
                                  "play 7", "legat Bauern", "legat", "tower", "tower roof",
                                  "no", "no towers", "tower 7 8",
                                  "tower display", "tower hand"])
def test_malformed_moves_are_refused_as_malformed(move):
    from pbem.games.protocol import IllegalMoveError, MalformedMoveError
    state = new_game(2)
    with pytest.raises(MalformedMoveError) as caught:
        GAME.apply(state, 0, move)
    assert not isinstance(caught.value, IllegalMoveError)


def test_the_view_gives_the_contests_of_the_last_reveal_as_data():
    """3. Wettstreit: each contest, its estate, persons and the points against each
    rival, as data beside the events' words (the Legat's two persons counted)."""
    state = new_game(3)
    stack(state, 0, "S1", ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10"])
    stack(state, 1, "S2", ["10", "2", "3", "4", "5", "6", "7", "8", "9", "1"])
    stack(state, 2, "S6", ["2", "1", "3", "4", "5", "6", "7", "8", "9", "10"])
    state = play_round(state, {0: "1b", 1: "10a", 2: "2b"})
    contests = GAME.view(state, SPECTATOR)["contests"]
    assert contests == [
        {"seat": 0, "estate": "R", "persons": 2, "legat": 0, "points": 3,
         "against": [{"seat": 1, "persons": 2, "points": 1},
                     {"seat": 2, "persons": 1, "points": 2}]},
        {"seat": 2, "estate": "M", "persons": 1, "legat": 0, "points": 2,
         "against": [{"seat": 0, "persons": 2, "points": 0},
                     {"seat": 1, "persons": 0, "points": 2}]}]
    assert GAME.view(state, 1)["contests"] == contests
    old = GAME.setup_version(2, None, "x", None, "1")
    assert "contests" not in old and GAME.view(old, SPECTATOR)["contests"] == []
