"""Every worked example of the Visby rulebook, played through the engine's own API.

Each test sets a game up with ``GAME.setup``, puts the board and the players
where the example starts (the state is a plain dict), and plays the example's
cards with ``GAME.apply``.  The reveal happens inside ``apply`` when the last
seat has chosen, and the next round's Nachschub right after a round ends, so
the tests assert on seals and goods, and on a track only where the Nachschub
that follows adds a known number of steps.

Quotes are from /work/shared/rules/visby-de.md.
"""

from __future__ import annotations

import pytest

from pbem.games.protocol import IllegalMoveError, OptionError
from pbem.games.visby import GAME
from pbem.games.visby.data import KARTEN

NACHSCHUB = {2: 3, 3: 5, 4: 3, 5: 4, 6: 5}  # "Spieleranzahl 2 3 4 5 6 / Schritte 3 5 3 4 5"
HEIKE, MALTE = 0, 1


def new_game(players: int, **options):
    return GAME.setup(players, options or None, seed=1)


def choose(state, cards_by_seat):
    """Every seat chooses its cards, seat by seat; the last choice reveals the round."""
    for seat, cards in enumerate(cards_by_seat):
        for card in cards:
            assert not GAME.is_over(state)
            state = GAME.apply(state, seat, f"play {card}")
    return state


def all_done(state):
    """Every merchant still trading says 'done'."""
    while state["phase"] == "trade":
        state = GAME.apply(state, GAME.to_move(state)[0], "done")
    return state


def neutral_cards(players: int) -> list[list[str]]:
    """Cards that gain nothing: no Ritter/Truppen for a Schmied, no Schiff/Flotte for a Zöllner."""
    if players <= 3:
        return [["Schmied", "Zöllner"] for _ in range(players)]
    return [["Schmied"] for _ in range(players)]


# -- Feldzug -------------------------------------------------------------------------


def test_feldzug_example_1_truppen_first_then_knights_share_and_one_seal_stays():
    # "Auf der Leiste Feldzug befinden sich 9 Siegel. Es werden 2 Ritter und einmal
    # Truppen gespielt. ... jeder 3 Siegel. Das letzte Siegel ... bleibt auf der Leiste."
    state = new_game(4)
    state["tracks"]["Feldzug"] = 9
    state = choose(state, [["Ritter"], ["Ritter"], ["Truppen"], ["Flotte"]])
    assert state["seals"] == [3, 3, 2, 0]
    assert state["round"] == 2
    assert state["tracks"]["Feldzug"] == 1 + NACHSCHUB[4]


def test_feldzug_example_2_truppen_take_two_of_six():
    # "6 Siegel ... keine Ritter, aber eine Karte Truppen ... 2 Siegel, die übrigen 4 bleiben"
    state = new_game(4)
    state["tracks"]["Feldzug"] = 6
    state = choose(state, [["Truppen"], ["Flotte"], ["Schiff"], ["Flotte"]])
    assert state["seals"] == [2, 0, 0, 0]
    assert state["tracks"]["Feldzug"] == 4 + NACHSCHUB[4]


def test_feldzug_example_3_a_lone_knight_takes_at_most_five():
    # "10 Siegel. Es wird nur ein Ritter gespielt ... erhält 5 Siegel (Limit)"
    state = new_game(4)
    state["tracks"]["Feldzug"] = 10
    state = choose(state, [["Flotte"], ["Ritter"], ["Schiff"], ["Flotte"]])
    assert state["seals"] == [0, 5, 0, 0]
    assert state["tracks"]["Feldzug"] == 5 + NACHSCHUB[4]


def test_feldzug_example_4_three_truppen_share_and_the_knight_takes_the_rest():
    # "Bei 5 Siegeln werden 3 Truppen und 1 Ritter gespielt. Zuerst nehmen die Truppen je
    # 1 Siegel ... Danach nimmt der Ritter einzeln die verbliebenen 2 Siegel."
    state = new_game(4)
    state["tracks"]["Feldzug"] = 5
    state = choose(state, [["Truppen"], ["Ritter"], ["Truppen"], ["Truppen"]])
    assert state["seals"] == [1, 2, 1, 1]
    assert state["tracks"]["Feldzug"] == 0 + NACHSCHUB[4]


# -- Handelsfahrt --------------------------------------------------------------------


def _handelsfahrt_with_8_goods():
    state = new_game(4)
    state["tracks"]["Handelsfahrt"] = 8
    state["goods"] = [0, 0, 0, 0]
    return state


def test_handelsfahrt_example_1_three_fleets_and_a_ship():
    # "3 Flotten, 1 Schiff: Jede Flotte erhält 2 Waren, die verbleibenden 2 Waren nimmt
    # das Schiff."
    state = choose(_handelsfahrt_with_8_goods(), [["Flotte"], ["Schiff"], ["Flotte"], ["Flotte"]])
    assert state["goods"] == [2, 2, 2, 2]
    assert state["tracks"]["Handelsfahrt"] == 0 + NACHSCHUB[4]


def test_handelsfahrt_example_2_a_fleet_and_two_ships_leave_one_good():
    # "1 Flotte, 2 Schiffe: Die Flotte nimmt 3 Waren, jedes Schiff nimmt 2 Waren, eine
    # Ware bleibt liegen."
    state = choose(_handelsfahrt_with_8_goods(), [["Schiff"], ["Truppen"], ["Flotte"], ["Schiff"]])
    assert state["goods"] == [2, 0, 3, 2]
    assert state["tracks"]["Handelsfahrt"] == 1 + NACHSCHUB[4]


def test_handelsfahrt_example_3_a_lone_ship_takes_everything():
    # "1 Schiff: Das einzelne Schiff nimmt alle 8 Waren." (ships have no limit)
    state = choose(_handelsfahrt_with_8_goods(), [["Truppen"], ["Ritter"], ["Truppen"], ["Schiff"]])
    assert state["goods"] == [0, 0, 0, 8]
    assert state["tracks"]["Handelsfahrt"] == 0 + NACHSCHUB[4]


def test_goods_overflow_example_two_fleets_share_five_and_malte_keeps_only_fifteen():
    # "Auf der Leiste Handelsfahrt befinden sich 5 Waren. Malte und Heike haben jeder ihre
    # Flotte gespielt. Jeder erhält 2 Waren, eine Ware bleibt auf dem Plan. Malte hat
    # bereits 14 Waren ... seine zweite gerade erworbene Ware verfällt."
    state = new_game(2)
    state["tracks"]["Handelsfahrt"] = 5
    state["goods"] = [4, 14]
    state = choose(state, [["Flotte", "Schmied"], ["Flotte", "Schmied"]])
    assert state["goods"][HEIKE] == 6
    assert state["goods"][MALTE] == 15
    # both goods were taken from the board, even the one that was lost
    assert state["tracks"]["Handelsfahrt"] == 1 + NACHSCHUB[2]
    assert any("{1}" in e and "1 lost above 15" in e for e in state["events"])


# -- Kaufmann ------------------------------------------------------------------------


def test_kaufmann_example_two_merchants_purse_9_back_to_7_and_heikes_trades():
    # "Der Geldbeutel steht auf Feld 9 (Kurs 2:2). Heike und Malte haben beide einen
    # Kaufmann gespielt. Der Geldbeutel geht somit um 2 Felder zurück. Der gültige
    # Tauschkurs beträgt jetzt 3:2. Heike hat 11 Waren. Sie tauscht 9 Waren in 6 Siegel
    # und die verbleibenden 2 Waren zum Kurs 2:1 in 1 Siegel."
    state = new_game(2)
    state["tracks"]["Markt"] = 9
    state["goods"] = [11, 2]
    assert GAME.view(state, HEIKE)["kurs"] == "2:2"
    state = choose(state, [["Kaufmann", "Schmied"], ["Kaufmann", "Schmied"]])
    assert state["phase"] == "trade"
    assert sorted(GAME.to_move(state)) == [HEIKE, MALTE]
    assert state["kurs_feld"] == 7
    assert GAME.view(state, HEIKE)["kurs"] == "3:2"
    menu = GAME.legal_moves(state, HEIKE)
    assert "trade 3:2" in menu and "trade 2:1" in menu and "done" in menu
    assert "trade 2:2" not in menu  # the purse's old field is no longer reachable
    with pytest.raises(IllegalMoveError):
        GAME.apply(state, HEIKE, "trade 2:2")
    for _ in range(3):
        state = GAME.apply(state, HEIKE, "trade 3:2")
    assert (state["goods"][HEIKE], state["seals"][HEIKE]) == (2, 6)
    assert "trade 3:2" not in GAME.legal_moves(state, HEIKE)  # 2 goods are not enough
    state = GAME.apply(state, HEIKE, "trade 2:1")
    assert (state["goods"][HEIKE], state["seals"][HEIKE]) == (0, 7)
    assert GAME.legal_moves(state, HEIKE) == ["done"]
    state = GAME.apply(state, HEIKE, "done")
    assert GAME.to_move(state) == [MALTE]
    state = GAME.apply(state, MALTE, "done")
    assert state["seals"] == [7, 0]
    assert state["goods"] == [0, 2]
    # "Wurde mindestens ein Kaufmann gespielt, wird der Geldbeutel anschließend auf das
    # Feld 0 gesetzt": 0, then the next Nachschub
    assert state["round"] == 2
    assert state["tracks"]["Markt"] == 0 + NACHSCHUB[2]


def test_three_merchants_move_the_purse_back_four_fields():
    # "Werden also 3 Kaufleute gespielt, zieht ihr den Geldbeutel um 4 Felder zurück."
    state = new_game(4)
    state["tracks"]["Markt"] = 11
    state = choose(state, [["Kaufmann"], ["Kaufmann"], ["Schmied"], ["Kaufmann"]])
    assert state["kurs_feld"] == 7
    assert state["tracks"]["Markt"] == 7
    assert sorted(GAME.to_move(state)) == [0, 1, 3]


def test_many_merchants_move_the_purse_back_no_further_than_field_0():
    # "höchstens bis zum Feld 0"
    state = new_game(6)
    state["tracks"]["Markt"] = 5
    state = choose(state, [["Kaufmann"]] * 4 + [["Schmied"]] * 2)
    assert state["kurs_feld"] == 0
    assert state["tracks"]["Markt"] == 0


def test_a_single_merchant_trades_at_the_purse_field_itself():
    state = new_game(4)
    state["tracks"]["Markt"] = 9
    state["goods"] = [5, 0, 0, 0]
    state = choose(state, [["Kaufmann"], ["Schmied"], ["Schmied"], ["Schmied"]])
    assert state["kurs_feld"] == 9
    assert "trade 2:2" in GAME.legal_moves(state, 0)
    state = GAME.apply(state, 0, "trade 2:2")
    assert (state["goods"][0], state["seals"][0]) == (3, 2)


def test_the_purse_resets_to_0_after_a_kaufmann_round_even_without_trades():
    state = new_game(4)
    state["tracks"]["Markt"] = 12
    state = choose(state, [["Kaufmann"], ["Schmied"], ["Schmied"], ["Schmied"]])
    state = all_done(state)
    assert state["tracks"]["Markt"] == 0 + NACHSCHUB[4]


def test_without_a_merchant_the_purse_stays_and_advances():
    state = new_game(4)
    state["tracks"]["Markt"] = 10
    state = choose(state, neutral_cards(4))
    assert state["tracks"]["Markt"] == 10 + NACHSCHUB[4]


# -- Schmied and Zöllner ---------------------------------------------------------------


def test_schmied_counts_only_other_players_cards_and_takes_from_the_supply():
    # "Jeder Schmied erhält pro fremdem Ritter (nicht für einen eigenen) ... je 2 Waren und
    # pro fremden Truppen je 4 Waren ... aus dem allgemeinen Vorrat"
    state = new_game(2)
    state["goods"] = [0, 0]
    state["tracks"]["Handelsfahrt"] = 5
    state["tracks"]["Feldzug"] = 0  # the knights' and troops' success does not matter
    state = choose(state, [["Ritter", "Schmied"], ["Truppen", "Schmied"]])
    assert state["goods"] == [4, 2]  # seat 0: rival Truppen 4; seat 1: rival Ritter 2
    assert state["seals"] == [0, 0]
    assert state["tracks"]["Handelsfahrt"] == 5 + NACHSCHUB[2]


def test_every_schmied_gets_the_full_amount():
    # "egal ... wie viele Schmiede aktiv sind. Jeder Schmied bekommt immer die abgebildeten
    # Waren."
    state = new_game(4)
    state["goods"] = [0, 0, 0, 0]
    state = choose(state, [["Ritter"], ["Schmied"], ["Truppen"], ["Schmied"]])
    assert state["goods"] == [0, 6, 0, 6]


def test_zoellner_counts_only_other_players_cards_and_takes_from_the_supply():
    # "Jeder Zöllner erhält pro fremdem Schiff ... je 1 Siegel und pro fremder Flotte je 3
    # Siegel ... nicht aus der Leiste Feldzug, sondern aus dem allgemeinen Vorrat"
    state = new_game(2)
    state["tracks"]["Feldzug"] = 7
    state["tracks"]["Handelsfahrt"] = 0
    state = choose(state, [["Schiff", "Zöllner"], ["Flotte", "Zöllner"]])
    assert state["seals"] == [3, 1]  # seat 0: rival Flotte 3; seat 1: rival Schiff 1
    assert state["tracks"]["Feldzug"] == 7 + NACHSCHUB[2]


def test_every_zoellner_gets_the_full_amount():
    state = new_game(4)
    state = choose(state, [["Zöllner"], ["Schiff"], ["Zöllner"], ["Flotte"]])
    assert state["seals"] == [4, 0, 4, 0]


def test_schmied_goods_are_capped_at_15():
    state = new_game(4)
    state["goods"] = [13, 0, 0, 0]
    state = choose(state, [["Schmied"], ["Truppen"], ["Ritter"], ["Flotte"]])
    assert state["goods"][0] == 15


# -- Bettelmönch ---------------------------------------------------------------------

BETTELMOENCH_TABLE = {1: 1, 2: 1, 3: 2, 4: 2, 5: 3, 6: 3, 7: 4, 8: 4}


@pytest.mark.parametrize("on_discard", range(8))
def test_bettelmoench_table_counts_discard_and_this_rounds_card(on_discard):
    # "Dabei zählen alle Karten auf dem Ablagestapel und die in dieser Runde gespielte(n)
    # Karte(n), einschließlich Bettelmönch."  Table: 1-2 -> 1, 3-4 -> 2, 5-6 -> 3, 7-8 -> 4.
    state = new_game(4)
    state["goods"] = [0, 0, 0, 0]
    state["discard"][0] = list(KARTEN[:on_discard])
    state["hand"][0] = list(KARTEN[on_discard:])
    state = choose(state, [["Bettelmönch"], ["Schmied"], ["Schmied"], ["Schmied"]])
    assert state["goods"][0] == BETTELMOENCH_TABLE[on_discard + 1]
    # "nimmt anschließend alle Karten vom Ablagestapel auf die Hand"
    assert state["hand"][0] == list(KARTEN)
    assert state["discard"][0] == []


def test_bettelmoench_counts_both_cards_of_a_two_card_round():
    state = new_game(2)
    state["goods"] = [0, 0]
    state["discard"][0] = ["Truppen", "Ritter"]
    state["hand"][0] = [k for k in KARTEN if k not in ("Truppen", "Ritter")]
    state = choose(state, [["Schmied", "Bettelmönch"], ["Schmied", "Zöllner"]])
    assert state["goods"][0] == BETTELMOENCH_TABLE[4]
    assert state["hand"][0] == list(KARTEN) and state["discard"][0] == []
    # the others keep playing with what is left in their hands
    assert state["hand"][1] == [k for k in KARTEN if k not in ("Schmied", "Zöllner")]
    assert state["discard"][1] == ["Schmied", "Zöllner"]


def test_bettelmoench_gets_two_goods_per_rival_kaufmann():
    # "Für jeden in diesem Durchgang gespielten fremden Kaufmann ... 2 Waren"
    state = new_game(4)
    state["goods"] = [0, 0, 0, 0]
    state = choose(state, [["Bettelmönch"], ["Kaufmann"], ["Kaufmann"], ["Schmied"]])
    state = all_done(state)
    assert state["goods"][0] == 1 + 2 * 2


def test_bettelmoench_does_not_count_its_own_kaufmann():
    state = new_game(2)
    state["goods"] = [0, 0]
    state = choose(state, [["Kaufmann", "Bettelmönch"], ["Kaufmann", "Schmied"]])
    state = all_done(state)
    assert state["goods"][0] == BETTELMOENCH_TABLE[2] + 2 * 1


# -- setup, Nachschub, cards per round -------------------------------------------------


@pytest.mark.parametrize("players", range(2, 7))
def test_start_goods_equal_the_number_of_players(players):
    # "Ihr besitzt also zu Spielbeginn so viele Waren wie Spieler teilnehmen, aber noch
    # keine Siegel."
    state = new_game(players)
    assert state["goods"] == [players] * players
    assert state["seals"] == [0] * players
    assert all(sorted(hand) == sorted(KARTEN) for hand in state["hand"])
    # markers start on field 1 and round 1 begins with a Nachschub
    assert state["round"] == 1
    assert state["tracks"] == {t: 1 + NACHSCHUB[players]
                               for t in ("Feldzug", "Handelsfahrt", "Markt")}


@pytest.mark.parametrize("players", range(2, 7))
def test_nachschub_steps_by_player_count(players):
    state = new_game(players)
    state["tracks"] = {"Feldzug": 2, "Handelsfahrt": 0, "Markt": 6}
    state = choose(state, neutral_cards(players))
    assert state["round"] == 2
    step = NACHSCHUB[players]
    assert state["tracks"] == {"Feldzug": 2 + step, "Handelsfahrt": step, "Markt": 6 + step}


@pytest.mark.parametrize("players", range(2, 7))
def test_nachschub_stops_at_field_15(players):
    # "Wenn ein Anzeigestein das letzte Feld 15 seiner Leiste erreicht, verfallen etwaige
    # weitere Schritte."
    state = new_game(players)
    state["tracks"] = {"Feldzug": 14, "Handelsfahrt": 13, "Markt": 15}
    state = choose(state, neutral_cards(players))
    assert state["tracks"] == {"Feldzug": 15, "Handelsfahrt": 15, "Markt": 15}


@pytest.mark.parametrize("players", range(2, 7))
def test_two_or_three_players_choose_two_cards_four_to_six_choose_one(players):
    state = new_game(players)
    per_round = 2 if players <= 3 else 1
    state = GAME.apply(state, 0, "play Ritter")
    if per_round == 2:
        assert 0 in GAME.to_move(state)
        assert "play Ritter" not in GAME.legal_moves(state, 0)
        state = GAME.apply(state, 0, "play Schiff")
    assert 0 not in GAME.to_move(state)
    assert GAME.legal_moves(state, 0) == []
    for seat in range(1, players):
        for card in ("Flotte", "Truppen")[:per_round]:
            state = GAME.apply(state, seat, f"play {card}")
    assert state["round"] == 2  # revealed and resolved
    assert all(len(cards) == per_round for cards in state["played"])
    assert all(len(hand) == 8 - per_round for hand in state["hand"])


# -- the end of the game -------------------------------------------------------------


def test_game_ends_when_someone_reaches_30_at_the_end_of_the_round():
    state = new_game(2)
    state["seals"] = [28, 0]
    state["tracks"]["Feldzug"] = 2
    state = GAME.apply(state, 0, "play Truppen")
    state = GAME.apply(state, 0, "play Schmied")
    state = GAME.apply(state, 1, "play Schmied")
    assert not GAME.is_over(state)
    state = GAME.apply(state, 1, "play Zöllner")
    assert state["seals"] == [30, 0]
    assert GAME.is_over(state)
    assert GAME.to_move(state) == []
    assert state["round"] == 1  # no Nachschub after the last round
    assert state["tracks"]["Feldzug"] == 0


def test_29_seals_do_not_end_the_game():
    state = new_game(2)
    state["seals"] = [29, 29]
    state = choose(state, neutral_cards(2))
    assert not GAME.is_over(state)
    assert state["round"] == 2


def test_reaching_30_while_trading_finishes_the_round_first():
    # "Sobald mindestens einer von euch 30 oder mehr Siegel hat, spielt ihr den Durchgang
    # noch zu Ende ... (alle Phasen werden noch komplett gespielt)."
    state = new_game(2)
    state["seals"] = [29, 10]
    state["goods"] = [9, 6]
    state["tracks"]["Markt"] = 9
    state = choose(state, [["Kaufmann", "Schmied"], ["Kaufmann", "Bettelmönch"]])
    state = GAME.apply(state, 0, "trade 3:2")
    assert state["seals"][0] == 31
    assert not GAME.is_over(state)
    assert sorted(GAME.to_move(state)) == [0, 1]
    state = GAME.apply(state, 0, "trade 3:2")  # the winner may trade on, too
    state = GAME.apply(state, 0, "done")
    state = GAME.apply(state, 1, "trade 3:2")
    state = GAME.apply(state, 1, "trade 3:2")
    assert not GAME.is_over(state)
    state = GAME.apply(state, 1, "done")
    assert GAME.is_over(state)
    assert state["seals"] == [33, 14]
    # the Bettelmönch after the Kaufmann was still resolved: 2 cards -> 1, rival Kaufmann 2
    assert state["goods"] == [3, 0 + 1 + 2]
    assert state["hand"][1] == list(KARTEN)


def test_target_45_plays_on_past_30():
    state = new_game(2, target=45)
    state["seals"] = [30, 44]
    state = choose(state, neutral_cards(2))
    assert not GAME.is_over(state)
    state["seals"][0] = 45
    state = choose(state, [["Truppen", "Ritter"], ["Truppen", "Ritter"]])
    assert GAME.is_over(state)


def test_target_is_30_or_45_only():
    assert new_game(3)["options"]["target"] == 30
    with pytest.raises(OptionError):
        new_game(3, target=40)


# -- final scoring and tie-breakers ----------------------------------------------------


def finish(seals, goods, hands=None, players=None):
    """A game whose last round is neutral, ending with these seals and goods."""
    players = players or len(seals)
    state = new_game(players)
    state["seals"] = list(seals)
    state["goods"] = list(goods)
    for seat, hand in (hands or {}).items():
        state["hand"][seat] = list(hand)
        state["discard"][seat] = [k for k in KARTEN if k not in hand]
    state = choose(state, neutral_cards(players))
    assert GAME.is_over(state)
    assert state["seals"] == list(seals) and state["goods"] == list(goods)
    return GAME.result(state)


def test_final_conversion_3_to_1():
    # "tauscht ihr alle verbliebenen Waren ... im Verhältnis 3:1 in Siegel um"
    result = finish([30, 25], [2, 14])
    assert result.scores == [30, 29]
    assert result.winners == [0]
    assert result.ranks == [1, 2]


def test_the_conversion_can_turn_the_game():
    result = finish([30, 28], [0, 9])
    assert result.scores == [30, 31]
    assert result.winners == [1]


def test_tie_broken_by_goods_left_over_after_conversion():
    # "Bei Gleichstand entscheidet die höhere Anzahl an Restwaren."
    result = finish([30, 29], [2, 3])
    assert result.scores == [30, 30]
    assert [t[0] for t in result.tiebreaks] == [2, 0]
    assert result.ranks == [1, 2]
    assert result.winners == [0]


def test_tie_broken_by_cards_in_hand():
    # "Herrscht dann immer noch Gleichstand, gewinnt der Spieler mit mehr verbliebenen
    # Handkarten."  Seat 0 holds 6 cards before the last round, seat 1 all 8.
    result = finish([30, 30], [1, 1], hands={0: ["Schmied", "Flotte", "Schiff", "Zöllner",
                                                 "Kaufmann", "Bettelmönch"]})
    assert result.scores == [30, 30]
    assert [t[1] for t in result.tiebreaks] == [4, 6]
    assert result.ranks == [2, 1]
    assert result.winners == [1]


def test_otherwise_a_shared_victory():
    # "Ansonsten gibt es mehrere Gewinner."
    result = finish([31, 30, 31], [4, 7, 4])
    assert result.scores == [32, 32, 32]
    assert result.ranks == [1, 1, 1]
    assert result.winners == [0, 1, 2]


def test_ranks_are_competition_ranks():
    result = finish([31, 20, 20, 5], [0, 0, 0, 0])
    assert result.ranks == [1, 2, 2, 4]
    assert result.winners == [0]


def test_the_result_explains_each_score_in_words():
    result = finish([30, 25], [2, 14])
    assert result.details == ["{0}: 30 seals + 0 for 2 goods at 3:1 = 30",
                              "{1}: 25 seals + 4 for 14 goods at 3:1 = 29"]
