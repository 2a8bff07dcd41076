"""The searching bot (``pbem.games.search``): it plays from its seat's view only, repeats
itself for a seed and a number of iterations, and keeps to its budget."""

from __future__ import annotations

import random

import pytest
from games.draw_game import GAME as ZIEHEN

from pbem.games import all_games, get_game, search

#: a few iterations: enough to search, quick for the suite
ITERATIONS = 6


def _decisions(game, players: int, seed: str, count: int) -> list[tuple[dict, int]]:
    """States of a game its bots play, each with a seat that has a choice to make."""
    state, rng = game.setup(players, None, seed), random.Random(seed)
    found = []
    while (movers := game.to_move(state)) and len(found) < count:
        seat = rng.choice(movers)
        if len(game.legal_moves(state, seat)) > 1 and rng.random() < 0.2:
            found.append((state, seat))
        state = game.apply(state, seat, game.bot_move(state, seat, rng))
    return found


def _choose(game, state, seat, seed: str) -> str:
    return search.choose(game, state, seat, random.Random(seed),
                         search.Budget(iterations=ITERATIONS))


@pytest.mark.parametrize("game", [pytest.param(g, id=g.name) for g in all_games()])
def test_the_bot_cannot_see_what_its_seat_may_not(game):
    """Two states that differ only in what the seat cannot see (rivals' hands, a rival's
    secret choice, the piles, the seed) give the same move for the same seed."""
    for players in (2, 3):
        for state, seat in _decisions(game, players, f"hidden-{game.name}", 3):
            other = game.determinize(state, seat, random.Random("another table"))
            assert other != state
            move = _choose(game, state, seat, "think")
            assert move in game.legal_moves(state, seat)
            assert _choose(game, other, seat, "think") == move


def test_a_rival_s_pending_secret_card_makes_no_difference():
    """Visby: the rival has chosen its card for the round; whichever it is, the bot
    chooses the same."""
    visby = get_game("visby")
    state = visby.setup(2, None, "secret")
    rivals = [visby.apply(state, 1, card) for card in visby.legal_moves(state, 1)]
    assert len({str(r["chosen"][1]) for r in rivals}) == 8
    assert all(visby.view(r, 0) == visby.view(rivals[0], 0) for r in rivals)
    assert len({_choose(visby, rival, 0, "think") for rival in rivals}) == 1


def test_the_same_seed_and_iterations_give_the_same_move():
    riga = get_game("riga")
    state, seat = _decisions(riga, 2, "again", 1)[0]
    assert len({_choose(riga, state, seat, "seed") for _ in range(2)}) == 1


def test_the_search_stops_when_its_budget_says_so():
    visby = get_game("visby")
    state = visby.setup(3, None, "stop")
    calls = []

    def stop() -> bool:
        calls.append(1)
        return len(calls) > 5

    search.choose(visby, state, 0, random.Random(1), search.Budget(stop=stop))
    assert len(calls) == 6  # asked before each iteration after the first, and at the start
    # a stop that says "enough" at once: the game's own bot answers, without a search
    assert search.choose(visby, state, 0, random.Random(1),
                         search.Budget(stop=lambda: True)) == visby.bot_move(
        state, 0, random.Random(1))
    with pytest.raises(ValueError):
        search.Budget()


def test_a_seat_with_one_move_plays_it_without_searching():
    state = ZIEHEN.setup(2, None, "one")

    def stop() -> bool:
        raise AssertionError("a seat with one move has nothing to think about")

    assert search.choose(ZIEHEN, state, 0, random.Random(1), search.Budget(stop=stop)) == "step"
