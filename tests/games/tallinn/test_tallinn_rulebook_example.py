"""The rulebook's final-scoring example ("Beispiel für eine Schlusswertung"),
played to its end through the engine.

The rulebook: Malte triggered 4 contests and scored 8 points in them; Heike
held contests for the Ritter twice, the Mönche and the Kaufleute and has 4
points.  At the end Malte's display holds 9 Kaufleute, 3 Ritter, 6 Mönche and
his one tower card 1 Ritter, 1 Kaufmann, 4 Mönche; Heike's display 3
Kaufleute, 7 Ritter, 6 Mönche and her two tower cards 5 Ritter, 4 Kaufleute,
1 Mönch.  Kaufleute: Malte 4 and 1 from Heike (5 more); Ritter: Heike 4;
Mönche: a tie, 2 each; "Zwischenstand: Malte 15 Punkte, Heike 9 Punkte".
Towers: Malte's 4 Mönche against Heike's 5 Ritter, Heike 6.  "Heike gewinnt
mit 16 zu 15."

What the engine does instead, following the rules:

* Everyone starts with 4 points ("Silbermünze auf das Feld 4"); the example
  leaves them out (its "Zwischenstand" 15 = 8 + 7 and 9 = 4 + 5 count only
  what was scored).  With them the two players stand at 12 and 8 before the
  final scoring.
* The printed total is wrong even without them: 9 + 6 is 15, not 16.
* So by the rules the game ends in a tie on points, 19 : 19 (15 : 15 without
  the start points), and the rulebook's tie-breaker decides: the persons on
  the tower cards, Heike 10 against Malte 6.  Heike wins, as printed, but on
  the tie-breaker.

The deal is stacked (which start card, which order the cards come in); every
move after that goes through ``GAME.apply``.  Which cards and halves were
played is our choice (the rulebook does not say); they reach exactly the
rulebook's displays, towers and contest points.
"""

from __future__ import annotations

from tallinn_helpers import new_game, play_round, stack

from pbem.games.protocol import EVERYTHING
from pbem.games.tallinn import GAME, rules

MALTE, HEIKE = 0, 1
# each seat's cards in the order they are used (played, or built from the hand)
MALTE_CARDS = ["3", "7", "1", "6", "4", "5", "10", "8", "9", "2"]
HEIKE_CARDS = ["4", "3", "10", "1", "2", "6", "7", "8", "5", "9"]
# round by round: the card and its active half
MALTE_PLAYS = ["3b", "1a", "6b", "4a", "5b", "10a", "8a", "9a", "2b"]
HEIKE_PLAYS = ["4b", "3a", "10b", "1b", "2a", "6b", "7a", "8b", "5b", "9a"]
MALTE_TOWERS = {1: ("hand", "7")}
HEIKE_TOWERS = {6: ("display", "10"), 9: ("display", "8")}


def play_the_example():
    state = new_game(2)
    stack(state, MALTE, "S2", MALTE_CARDS)  # 2 Ritter, 1 Kaufmann
    stack(state, HEIKE, "S5", HEIKE_CARDS)  # 2 Ritter, 1 Mönch
    contests = {MALTE: [], HEIKE: []}
    for r in range(1, 11):
        plays = {seat: plays[r - 1] for seat, plays in ((MALTE, MALTE_PLAYS),
                                                        (HEIKE, HEIKE_PLAYS))
                 if r <= len(plays)}
        before = list(state["points"])
        towers = {MALTE: MALTE_TOWERS.get(r), HEIKE: HEIKE_TOWERS.get(r)}
        state = play_round(state, plays, {s: t for s, t in towers.items() if t})
        for seat, half in plays.items():
            h = rules.half_of(half[:-1], half[-1])
            if h.muenze:
                contests[seat].append((h.coin_estate(), state["points"][seat] - before[seat]))
        if r == 9:
            penultimate = state
    return penultimate, state, contests


def test_the_contests_during_play_are_the_rulebooks():
    _, _, contests = play_the_example()
    # "Malte hat 4x einen Wettstreit ausgelöst und dabei 8 Punkte erzielt"
    assert len(contests[MALTE]) == 4 and sum(p for _, p in contests[MALTE]) == 8
    # "Heike hat 2x Ritter, 1x Mönche und 1x Kaufleute gewertet und bereits 4 Punkte"
    assert sorted(e for e, _ in contests[HEIKE]) == ["K", "M", "R", "R"]
    assert sum(p for _, p in contests[HEIKE]) == 4


def test_the_position_before_the_final_scoring_is_the_rulebooks():
    _, state, _ = play_the_example()
    assert GAME.is_over(state)
    final = state["final"]
    assert final["before"] == [4 + 8, 4 + 4]  # with the 4 start points each
    assert final["counts"][MALTE] == {"K": 9, "R": 3, "M": 6}
    assert final["counts"][HEIKE] == {"K": 3, "R": 7, "M": 6}
    assert final["towers"][MALTE] == {"K": 1, "R": 1, "M": 4}
    assert final["towers"][HEIKE] == {"K": 4, "R": 5, "M": 1}
    assert [len(t) for t in state["towers"]] == [1, 2]


def test_the_final_scoring_follows_the_rules_where_the_printed_sum_does_not():
    _, state, _ = play_the_example()
    final = state["final"]
    # Kaufleute 4 + 1 (Heike pays for 5 fewer), Mönche a tie 2: Malte +7 ("15" = 8 + 7)
    # Ritter 4, Mönche 2, pays 1: Heike +5 ("9" = 4 + 5); towers 5 Ritter beat 4 Mönche: +6
    assert final["tower_value"] == [4, 5]
    assert final["tower_estate"] == ["M", "R"]
    assert final["gain"] == [7, 5 + 6]
    # the rulebook prints "16 zu 15"; by the rules it is 15 : 15 without the start
    # points and 19 : 19 with them, and the tie-breaker gives Heike the game
    assert GAME.scores(state) == [19, 19]
    result = GAME.result(state)
    assert result.tiebreak_names == ["persons on tower cards"]
    assert result.tiebreaks == [[6], [10]]
    assert result.ranks == [2, 1] and result.winners == [HEIKE]


def test_a_player_without_cards_sits_out_while_the_other_plays_on():
    # Malte built his tower from the hand, so he has played everything after round 9
    penultimate, state, _ = play_the_example()
    assert penultimate["round"] == 10 and penultimate["phase"] == "choose"
    assert penultimate["hand"][MALTE] == [] and penultimate["pile"][MALTE] == []
    assert GAME.to_move(penultimate) == [HEIKE]
    assert GAME.legal_moves(penultimate, MALTE) == []
    assert "out of cards" in GAME.render_text(GAME.view(penultimate, MALTE), ["M", "H"])
    assert any("{0} has no card left" in e for e in GAME.view(state, EVERYTHING)["events"])


def test_the_result_reads_in_words():
    _, state, _ = play_the_example()
    details = "\n".join(GAME.result(state).details)
    assert "{0}: 12 points before the final scoring +7 = 19" in details
    assert "Kaufleute (merchants) 9 against {1} 3: +4, and {1} pays 1" in details
    assert "Towers: 5 Ritter against {0} 4: +6" in details
