"""Visby's answers to the server: menus, secrecy, formalities, turns, the timeout default.

The timeout default must change nothing for the other seats (issue 9, item 13).
The test plays rounds from many states of random games twice: once with the
absent seat's cards chosen by ``default_move``, once with the absent seat
having played none of them (its cards chosen by hand, if any, stay; the
round is resolved without the defaults), and compares what the other seats
end the round with.  The same harness finds the difference the old default
(Bettelmönch, then the latest card in printed order: the Kaufmann) made, so
it can fail.
"""

from __future__ import annotations

import random

import pytest

from pbem.games.protocol import MENU_CAP, OptionError
from pbem.games.visby import DEFAULT_TIMEOUT_NOTE, GAME, rules
from pbem.games.visby.data import KARTEN, KARTENTEXT
from pbem.games.visby.moves import parse


def trade_state(goods: int = 6):
    """Two merchants, the purse on field 9 moved back to 7 (rate 3:2)."""
    state = GAME.setup(2, None, 1)
    state["tracks"]["Markt"] = 9
    state["goods"] = [goods, 2]
    for seat in (0, 1):
        state = GAME.apply(state, seat, "play Kaufmann")
        state = GAME.apply(state, seat, "play Schmied")
    assert state["phase"] == "trade" and state["kurs_feld"] == 7
    return state


def random_states(players: int, seed: int, target: int = 30):
    """Every state of a random game, the final one included."""
    rng = random.Random(seed)
    state = GAME.setup(players, {"target": target}, seed)
    yield state
    while not GAME.is_over(state):
        seat = rng.choice(GAME.to_move(state))
        state = GAME.apply(state, seat, rng.choice(GAME.legal_moves(state, seat)))
        yield state


# -- menus ---------------------------------------------------------------------------


def test_card_menu_in_english_and_german():
    state = GAME.setup(2, None, 1)
    en = GAME.menu(state, 0, "en")
    de = GAME.menu(state, 0, "de")
    assert [c.move for c in en] == [c.move for c in de] == [f"play {k}" for k in KARTEN]
    ritter = en[1]
    assert ritter.label == "Play Ritter (knight)"
    assert (ritter.group, ritter.help) == ("Your card", KARTENTEXT["Ritter"].en)
    assert "at most 5" in ritter.help
    assert [c.label for c in de][:2] == ["Truppen ausspielen", "Ritter ausspielen"]
    assert {c.group for c in de} == {"Deine Karte"}
    assert de[2].help == KARTENTEXT["Schmied"].de and "Vorrat" in de[2].help
    # a language Visby does not speak reads English
    assert GAME.menu(state, 0, "fr") == en


def test_trade_menu_in_english_and_german():
    state = trade_state(goods=6)
    en = GAME.menu(state, 0, "en")
    de = GAME.menu(state, 0, "de")
    assert [c.move for c in en] == ["trade 3:2", "trade 2:1", "trade 3:1", "trade 4:1", "done"]
    # 3:2 is printed (field 7); the others stand only on fields pbem reconstructed
    assert [c.label for c in en] == ["Trade 3 goods for 2 seals", "Trade 2 goods for 1 seal◇",
                                     "Trade 3 goods for 1 seal◇", "Trade 4 goods for 1 seal◇",
                                     "Stop trading"]
    assert [c.label for c in de] == ["3 Waren gegen 2 Siegel tauschen",
                                     "2 Waren gegen 1 Siegel tauschen◇",
                                     "3 Waren gegen 1 Siegel tauschen◇",
                                     "4 Waren gegen 1 Siegel tauschen◇", "Handel beenden"]
    assert {c.group for c in en} == {"Trade at the Markt"}
    assert {c.group for c in de} == {"Handel am Markt"}
    assert en[0].help == "At the Markt rate 3:2; you have 6 goods."
    assert de[0].help == "Kurs 3:2 am Markt; du hast 6 Waren."
    assert en[1].help == ("At the Markt rate 2:1◇; you have 6 goods. ◇ Rate reconstructed: "
                          "printed in no public source, chosen by pbem to fit the rulebook.")
    assert de[1].help.startswith("Kurs 2:1◇ am Markt; du hast 6 Waren. ◇ Kurs rekonstruiert")


def test_every_card_has_a_line_of_help_in_both_languages():
    assert set(KARTENTEXT) == set(KARTEN)
    for card, text in KARTENTEXT.items():
        for line in (text.gloss, text.en, text.de):
            assert line and "\n" not in line, card
        assert len(text.en) <= 100 and len(text.de) <= 110, card


@pytest.mark.parametrize("players", range(2, 7))
def test_menus_follow_the_legal_moves_within_the_cap(players):
    checked = 0
    for state in random_states(players, seed=players):
        for seat in range(players):
            moves = GAME.legal_moves(state, seat)
            for lang in ("en", "de"):
                menu = GAME.menu(state, seat, lang)
                assert [c.move for c in menu] == moves
                assert len(menu) <= MENU_CAP
                assert all(c.label and c.group and c.help for c in menu)
                checked += len(menu)
    assert checked > 200


# -- secret or not, formalities ----------------------------------------------------


def test_the_card_choice_is_secret_and_the_trades_are_not():
    state = GAME.setup(3, None, 1)
    assert GAME.is_secret(state)
    assert GAME.is_secret(GAME.apply(state, 0, "play Ritter"))
    assert not GAME.is_secret(trade_state())


def test_a_merchant_without_goods_enough_has_the_formality_done():
    poor = trade_state(goods=1)
    assert GAME.legal_moves(poor, 0) == ["done"]
    assert GAME.formality(poor, 0) == "done"
    assert GAME.formality(trade_state(goods=2), 0) is None  # 2:1 is still possible
    assert GAME.formality(GAME.setup(2, None, 1), 0) is None  # choosing is a real choice
    # seat 1 has 2 goods plus the Schmied's nothing: it can trade 2:1
    assert GAME.formality(poor, 1) is None
    # a seat that is not to move has no formality either
    after = GAME.apply(poor, 0, "done")
    assert GAME.formality(after, 0) is None


# -- turns and commit points -----------------------------------------------------------


def step(state, seat, move):
    after = GAME.apply(state, seat, move)
    return (GAME.turn_over(state, seat, move, after),
            GAME.is_commit_point(state, seat, move, after), after)


def test_turns_in_a_two_player_round():
    state = GAME.setup(2, None, 1)
    assert step(state, 0, "play Ritter")[:2] == (False, False)
    state = GAME.apply(state, 0, "play Ritter")
    # seat 0 has chosen both cards: its turn is over, but it may still take them
    # back until the reveal
    assert step(state, 0, "play Schiff")[:2] == (True, False)
    state = GAME.apply(state, 0, "play Schiff")
    turn, commit, state = step(state, 1, "play Flotte")
    assert (turn, commit) == (False, False)
    turn, commit, state = step(state, 1, "play Truppen")
    assert (turn, commit) == (True, True)  # the reveal
    assert state["round"] == 2


def test_the_reveal_ends_the_turn_of_a_seat_that_trades_next():
    state = GAME.setup(4, None, 1)
    state["tracks"]["Markt"] = 9
    state["goods"] = [6, 6, 6, 6]
    for seat, card in enumerate(["Schmied", "Kaufmann", "Schmied"]):
        turn, commit, state = step(state, seat, f"play {card}")
        assert (turn, commit) == (True, False)
    turn, commit, state = step(state, 3, "play Kaufmann")
    # seat 3 is to move again, as a merchant, in a new (public) decision
    assert state["phase"] == "trade" and 3 in GAME.to_move(state)
    assert (turn, commit) == (True, True)
    turn, commit, state = step(state, 3, "trade 3:2")
    assert (turn, commit) == (False, False)  # a trade step can be taken back until "done"
    turn, commit, state = step(state, 3, "done")
    assert (turn, commit) == (True, True)
    turn, commit, state = step(state, 1, "done")
    assert (turn, commit) == (True, True)
    assert state["round"] == 2


# -- the 45-seal variant -------------------------------------------------------------


@pytest.mark.parametrize("players", [4, 5, 6])
def test_45_seals_is_for_two_or_three_players_only(players):
    with pytest.raises(OptionError, match="2 or 3 players"):
        GAME.setup(players, {"target": 45}, 1)
    with pytest.raises(OptionError):
        GAME.resolve_options({"target": 45}, players)
    assert GAME.setup(players, {"target": 30}, 1)["options"] == {"target": 30}


@pytest.mark.parametrize("players", [2, 3])
def test_45_seals_with_two_or_three_players(players):
    assert GAME.setup(players, {"target": 45}, 1)["options"] == {"target": 45}


# -- the timeout default changes nothing for the others -----------------------------


def old_default(state, seat):
    """The default before issue 9: Bettelmönch, then the latest card in printed order."""
    moves = GAME.legal_moves(state, seat)
    if state["phase"] == "trade":
        return "done"
    return "play Bettelmönch" if "play Bettelmönch" in moves else moves[-1]


def finish_trading(state):
    while state["phase"] == "trade":
        state = GAME.apply(state, rules.to_move(state)[0], "done")
    return state


def play_absent_round(state, absent: int, rng: random.Random, default=GAME.default_move):
    """The round from ``state`` (card choice) with ``absent`` timing out, twice.

    The rivals choose at random, then the absent seat's clock runs out and its
    remaining cards are chosen by ``default``.  Returns the round played so
    (``world``), the same round resolved without those default cards
    (``without``), and the cards the default chose, each with whether the seat
    had no card of ``TIMEOUT_CARDS`` left to choose.
    """
    for rival in rules.to_move(state):
        if rival == absent:
            continue
        while rival in rules.to_move(state):
            state = GAME.apply(state, rival, rng.choice(GAME.legal_moves(state, rival)))
    without = rules.copy_state(state)  # the absent seat's cards chosen by hand only
    picked = []
    world = state
    while world["phase"] == "choose" and absent in rules.to_move(world):
        move = default(world, absent)
        forced = not any(f"play {card}" in GAME.legal_moves(world, absent)
                         for card in rules.TIMEOUT_CARDS)
        picked.append((parse(move).karte, forced))
        world = GAME.apply(world, absent, move)
    rules._reveal_and_resolve(without)  # the round as if the defaults were never played
    return finish_trading(world), finish_trading(without), picked


def differences(world, without, absent: int) -> list[str]:
    """What the other seats (and the board they share) end the round with differently."""
    found = []
    for key in ("round", "phase", "tracks"):
        if world[key] != without[key]:
            found.append(f"{key}: {world[key]} / {without[key]}")
    for seat in range(world["players"]):
        if seat == absent:
            continue
        for key in ("goods", "seals", "hand", "discard", "played"):
            if world[key][seat] != without[key][seat]:
                found.append(f"seat {seat} {key}: {world[key][seat]} / {without[key][seat]}")
    return found


def absent_rounds(players: int, games: int, default=GAME.default_move):
    """``(picked, world, without, absent)`` for many absent seats in random games."""
    rng = random.Random(players)
    target = 45 if players <= 3 else 30
    for seed in range(games):
        for state in random_states(players, seed, target):
            if state["phase"] != "choose":
                continue
            absent = rng.choice(rules.to_move(state))
            world, without, picked = play_absent_round(state, absent, rng, default)
            yield picked, world, without, absent


@pytest.mark.parametrize("players", range(2, 7))
def test_the_timeout_default_changes_nothing_for_the_other_seats(players):
    neutral = zoellner_ended = last_resort = 0
    for choices, world, without, absent in absent_rounds(players, games=6):
        found = differences(world, without, absent)
        picked = {card for card, _forced in choices}
        if picked <= {"Bettelmönch", "Schmied"}:
            assert not found, (picked, found)
            neutral += 1
        elif picked <= set(rules.TIMEOUT_CARDS):
            # the Zöllner's seals are the absent seat's own; they can only end the
            # game a round sooner (then the next round's Nachschub does not happen)
            if found:
                assert world["phase"] == "over" and without["phase"] != "over", found
                assert all(d.startswith(("round", "phase", "tracks")) for d in found), found
                zoellner_ended += 1
            else:
                neutral += 1
        else:
            # the documented last resort, only where no card of the three was left
            # (the seat played Schmied and Zöllner itself and holds the Bettelmönch
            # or chose it): every two cards of the rest touch a track or the purse
            for card, forced in choices:
                assert card in rules.TIMEOUT_CARDS or forced, choices
            last_resort += 1
    assert neutral > 150
    # never with 4-6 players: one card a round, and the Bettelmönch is always in
    # hand when a round starts (it takes itself back with the discard pile)
    if players >= 4:
        assert last_resort == zoellner_ended == 0


@pytest.mark.parametrize("players", [2, 3])
def test_the_harness_finds_what_the_old_default_changed(players):
    """Bettelmönch and Kaufmann moved the purse back for the others or reset it."""
    changed = [found for choices, world, without, absent
               in absent_rounds(players, games=2, default=old_default)
               if ("Kaufmann", False) in choices
               for found in [differences(world, without, absent)] if found]
    assert len(changed) > 10
    assert any("tracks" in d for found in changed for d in found)


def test_the_default_reads_only_the_seats_own_hand():
    """Rivals' pending choices do not change the default (it would tell the absent
    seat something about them)."""
    rng = random.Random(7)
    for players in (2, 3, 4):
        for state in random_states(players, seed=players):
            if state["phase"] != "choose":
                continue
            for seat in rules.to_move(state):
                default = GAME.default_move(state, seat)
                other = rules.copy_state(state)
                for rival in range(players):
                    if rival != seat:
                        free = [k for k in other["hand"][rival] if k not in other["chosen"][rival]]
                        need = rules.cards_per_round(other) - len(other["chosen"][rival])
                        other["chosen"][rival] += rng.sample(free, need)
                assert GAME.default_move(other, seat) == default


def test_the_default_plays_bettelmoench_and_schmied_in_a_fresh_two_player_round():
    state = GAME.setup(2, None, 1)
    state = GAME.apply(state, 0, GAME.default_move(state, 0))
    assert state["chosen"][0] == ["Bettelmönch"]
    assert GAME.default_move(state, 0) == "play Schmied"
    assert "Schmied" in DEFAULT_TIMEOUT_NOTE and "Kaufmann" in DEFAULT_TIMEOUT_NOTE
    assert GAME.default_move_note == DEFAULT_TIMEOUT_NOTE


def test_the_default_falls_back_to_zoellner_then_the_last_resort():
    state = GAME.setup(3, None, 1)
    for seat in range(3):
        state["hand"][seat] = [k for k in KARTEN if k not in ("Schmied", "Zöllner")]
        state["discard"][seat] = ["Schmied", "Zöllner"]
    state = GAME.apply(state, 0, "play Bettelmönch")
    assert GAME.default_move(state, 0) == "play Schiff"
    state["hand"][0].remove("Schiff")
    state["discard"][0].append("Schiff")
    assert GAME.default_move(state, 0) == "play Ritter"
    state = GAME.setup(3, None, 1)
    state["hand"][0].remove("Schmied")
    state["discard"][0].append("Schmied")
    state = GAME.apply(state, 0, "play Bettelmönch")
    assert GAME.default_move(state, 0) == "play Zöllner"


def test_the_last_card_to_choose_from_is_a_formality():
    """A seat with one card left that it can choose must choose it: the server plays it
    (issue 22: no click for a step with one sensible outcome)."""
    import random

    state, rng, seen = GAME.setup(3, None, 7), random.Random(7), 0
    while not GAME.is_over(state):
        seat = GAME.to_move(state)[0]
        legal = GAME.legal_moves(state, seat)
        if state["phase"] == "choose" and len(legal) == 1:
            assert GAME.formality(state, seat) == legal[0]
            assert GAME.is_secret(state)      # played in secret, like any choice
            seen += 1
        elif state["phase"] == "choose":
            assert GAME.formality(state, seat) is None
        state = GAME.apply(state, seat, GAME.bot_move(state, seat, rng))
    assert seen
