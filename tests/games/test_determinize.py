"""``Rules.determinize`` over every game (and the suite's Ziehen): a searching bot plays on
states it draws from what its seat sees (``pbem.games.search``), so each drawn state

* looks the same to the seat as the true one (its view is equal);
* depends only on that view and the random generator: a state that differs from the true
  one only in what the seat cannot see (itself drawn by ``determinize``) gives the very
  same state for the same generator, so no hidden card can reach the bot;
* is a state of the game: its bots play it to the end;
* leaves the true state as it was.
"""

from __future__ import annotations

import copy
import random

import pytest
from games.draw_game import GAME as ZIEHEN

from pbem.games import all_games, registered

#: states checked per playout (spread over the game), so the test stays quick
CHECKS = 6


def _cases() -> list:
    cases = []
    with registered(ZIEHEN):
        for game in all_games():
            for players in range(game.min_players, game.max_players + 1):
                if players <= 4:
                    cases.append(pytest.param(game, players, id=f"{game.name}-{players}"))
    return cases


def _states(game, players: int, seed: str) -> list:
    """The states of one game played by its bots (the first option of each kind)."""
    state = game.setup(players, None, seed)
    rng = random.Random(seed)
    states = [state]
    while movers := game.to_move(state):
        seat = rng.choice(movers)
        state = game.apply(state, seat, game.bot_move(state, seat, rng))
        states.append(state)
    return states


@pytest.mark.parametrize("game, players", _cases())
def test_a_drawn_state_shows_the_seat_what_it_sees_and_nothing_more(game, players):
    seed = f"determinize-{game.name}-{players}"
    states = _states(game, players, seed)
    step = max(1, len(states) // CHECKS)
    rng = random.Random(seed)
    for at in range(0, len(states), step):
        state = states[at]
        kept = copy.deepcopy(state)
        for seat in range(players):
            where = f"{game.name}, {players} players, move {at}, seat {seat}"
            drawn = game.determinize(state, seat, random.Random(f"{seed}:{at}:{seat}"))
            assert state == kept, f"determinize changed its input ({where})"
            seen = game.view(state, seat)  # what the seat sees, made once for both draws
            assert game.view(drawn, seat) == seen, where
            other = game.determinize(state, seat, random.Random(rng.random()))
            assert game.view(other, seat) == seen, where
            again = game.determinize(other, seat, random.Random(f"{seed}:{at}:{seat}"))
            assert again == drawn, f"the drawn state depends on hidden parts ({where})"
            assert drawn["seed"] != state["seed"], f"the future draws are the true ones ({where})"
        if at % (2 * step) == 0:
            _play_out(game, game.determinize(state, 0, rng), rng)


def _play_out(game, state, rng: random.Random) -> None:
    while movers := game.to_move(state):
        seat = rng.choice(movers)
        state = game.apply(state, seat, game.bot_move(state, seat, rng))
    game.result(state)


def test_a_drawn_state_hides_the_rivals_cards():
    """The check above would pass for a determinize that copied the state: Ziehen's
    drawn states deal the rival other cards (sometimes) and the deck in another order."""
    state = ZIEHEN.setup(2, None, "hide")
    for _ in range(8):   # both seats have drawn a card
        seat = ZIEHEN.to_move(state)[0]
        state = ZIEHEN.apply(state, seat, ZIEHEN.legal_moves(state, seat)[0])
    drawn = [ZIEHEN.determinize(state, 0, random.Random(i)) for i in range(20)]
    assert all(d["hand"][0] == state["hand"][0] for d in drawn)
    assert any(d["hand"][1] != state["hand"][1] for d in drawn)
    assert any(d["deck"] != state["deck"] for d in drawn)
