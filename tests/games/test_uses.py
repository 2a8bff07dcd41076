"""Each game reads from its finished log which named cards, buildings or offices each seat
took, played or built, and who began (issue 26, item 4: the archive's statistics never
replay).  Pure functions of the notation; the contract's random games check that every
use names a seat of the game and a card the moves named."""

from __future__ import annotations

import pytest

from pbem.gamelog.selfplay import play_random_game
from pbem.games import all_games, get_game
from pbem.games.macao.data import CARDS
from pbem.games.protocol import BUILD, PLAY, TAKE, Use
from pbem.games.ziehen import GAME as ZIEHEN


def test_visby_counts_each_card_played():
    log = [(0, "play Ritter"), (1, "play Zöllner"), (1, "trade 3:2"), (1, "done"),
           (0, "play Ritter")]
    assert get_game("visby").uses(log) == [Use(0, PLAY, "Ritter"), Use(1, PLAY, "Zöllner"),
                                           Use(0, PLAY, "Ritter")]
    assert get_game("visby").start_seat(log) is None


def test_riga_builds_a_project_when_it_is_finished_not_when_cancelled():
    log = [(0, "start 2"), (1, "keep Kontor-Visby"), (1, "take Kran-Visby"),
           (1, "build Kran-Visby"), (1, "add Kontor-Visby"), (1, "pay Tuch"), (1, "finish"),
           (0, "build Festung-Danzig"), (0, "cancel"), (0, "end")]
    assert get_game("riga").uses(log) == [
        Use(1, TAKE, "Kontor-Visby"), Use(1, TAKE, "Kran-Visby"),
        Use(1, BUILD, "Kran-Visby"), Use(1, BUILD, "Kontor-Visby")]
    assert get_game("riga").start_seat(log) == 1
    assert get_game("riga").start_seat([(0, "end")]) is None


def test_tallinn_plays_cards_and_builds_towers():
    log = [(0, "play 7a"), (1, "play Lb"), (1, "legat Ritter"), (0, "tower 7"),
           (1, "no tower")]
    assert get_game("tallinn").uses(log) == [Use(0, PLAY, "Karte 7"), Use(1, PLAY, "Legat"),
                                             Use(0, BUILD, "Karte 7")]


def test_macao_takes_and_activates_its_cards_by_name_and_id():
    card = sorted(CARDS)[0]
    name = f"{CARDS[card].name} ({card})"
    log = [(0, f"take {card}"), (0, f"activate {card}"), (1, "one r"), (1, f"discard {card}")]
    assert get_game("macao").uses(log) == [Use(0, TAKE, name), Use(0, PLAY, name)]


def test_the_example_game_takes_a_secret_card_and_seat_0_begins():
    log = [(0, "step"), (0, "draw"), (0, "step"), (0, "end"), (1, "step"), (1, "draw")]
    assert ZIEHEN.uses(log) == [Use(0, TAKE, "Karte"), Use(1, TAKE, "Karte")]
    assert ZIEHEN.start_seat(log) == 0


@pytest.mark.parametrize("name", [g.name for g in all_games()])
def test_every_use_of_a_random_game_names_a_seat_and_a_card_its_moves_named(name):
    game = get_game(name)
    options = {"riga": True} if name == "riga" else None
    record, _state = play_random_game(name, game.max_players, 3, options)
    uses = game.uses(record.moves)
    assert uses, f"a whole game of {name} took, played or built nothing"
    played = " ".join(move for _seat, move in record.moves)
    for use in uses:
        assert 0 <= use.seat < game.max_players and use.verb in (TAKE, PLAY, BUILD)
        assert use.name.split(" (")[0] in played or use.name.split()[-1].strip("()") in played \
            or use.name in ("Legat",), use
    start = game.start_seat(record.moves)
    assert start is None or 0 <= start < game.max_players
