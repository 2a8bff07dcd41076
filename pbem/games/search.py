"""A searching bot for every game: information-set Monte Carlo tree search.

It plays one seat from what that seat may see.  Each iteration draws a full state the
seat cannot tell from the true one (``Rules.determinize``: every hidden card dealt
anew, a rival's pending secret choice drawn, a new seed for the draws and dice to come),
walks one tree of moves down that state (UCB1 among the moves legal in it, counting how
often each was available: single-observer ISMCTS, as OpenSpiel's ``ismcts.cc`` and
Cowling, Powley and Whitehouse 2012), adds one node, and plays on with the game's own
bot (``Rules.bot_move``) as the playout policy, to the end or the game's
``search_horizon`` moves, where its ``estimate`` of the final scores stands in for the
result.  The move played is the root's most visited
one: a vote of all the drawn states.

A game may ask instead (``Rules.search_paired``) that each drawn state try every move
of the seat with the same luck after it, the game's bot playing on for everyone: no
tree, but the moves compared on the same draws, by the margin of the final scores
(Tallinn, whose moves differ by a few points that the luck of the draws hides).

The tree holds the seat's own decisions only: rivals play by their bot, in the tree as in
the playouts (the opponent model of the search, and a best reply to the game's own bot
where it meets one), and their moves lead to the same node whichever they were, as
hidden cards do.  So a rival's secret choice made at the same time as the seat's
(Visby's cards, Tallinn's card and towers) never chooses knowing the seat's: the bot
reads its own view only.

Pure like every game: no clock.  How long to think is the caller's :class:`Budget`: a
number of iterations (deterministic per seed: tests and benches) and/or a ``stop``
callable the caller's clock answers (the server's time per move, ``LEVELS``).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field

from pbem.games.protocol import IllegalMoveError, Rules, State

#: UCB1's exploration constant for rewards in [0, 1]
EXPLORATION = 0.7


@dataclass(frozen=True)
class Budget:
    """How long a search may think: at most ``iterations`` (None: no count), and until
    ``stop()`` says so (None: never).  At least one of the two must be given."""

    iterations: int | None = None
    stop: Callable[[], bool] | None = None

    def __post_init__(self) -> None:
        if self.iterations is None and self.stop is None:
            raise ValueError("a budget needs a number of iterations or a stop")


@dataclass(frozen=True)
class Level:
    """A bot's strength: ``seconds`` of thought per move on the server (the caller turns
    them into a ``Budget.stop``), or ``iterations`` where results must repeat (tests,
    ``bench/bots.py``).  ``seconds == 0``: no search, the game's own bot."""

    name: str
    seconds: float
    iterations: int

    @property
    def searches(self) -> bool:
        return self.seconds > 0


#: the levels a bot seat plays at; "easy" is each game's own bot
LEVELS: dict[str, Level] = {
    "easy": Level("easy", 0.0, 0),
    "normal": Level("normal", 0.1, 25),
    "strong": Level("strong", 0.5, 100),
}
#: the level of a bot the server seats by itself (the demo, after timeouts), where the
#: game says none (``Rules.default_bot_level``: a game whose search is not yet measured
#: better than its own bot says "easy")
DEFAULT_LEVEL = "normal"


def default_level(rules: Rules) -> str:
    """The level of a bot the server seats by itself in a game of ``rules``."""
    level = getattr(rules, "default_bot_level", DEFAULT_LEVEL)
    return level if level in LEVELS else DEFAULT_LEVEL


@dataclass
class _Node:
    """What the tree knows of one move: ``reward`` summed for the seat that made it."""

    seat: int
    visits: int = 0
    reward: float = 0.0
    available: int = 0
    children: dict[tuple[int, str], _Node] = field(default_factory=dict)


def choose(rules: Rules, state: State, seat: int, rng: random.Random, budget: Budget,
           horizon: int | None = None) -> str:
    """The move ``seat`` plays in ``state`` after searching within ``budget``; a playout
    plays ``horizon`` moves (by default the game's ``search_horizon``) before the
    game's estimate judges."""
    horizon = rules.search_horizon if horizon is None else horizon
    moves = rules.legal_moves(state, seat)
    if not moves:
        raise IllegalMoveError(f"seat {seat} has no move to make")
    if len(moves) == 1:
        return moves[0]
    if not rules.searched(state, seat) or budget.stop is not None and budget.stop():
        return rules.bot_move(state, seat, rng)
    if rules.search_paired:
        return _paired(rules, state, seat, rng, budget, horizon, moves)
    root = _Node(seat)
    done = 0
    while budget.iterations is None or done < budget.iterations:
        if done and budget.stop is not None and budget.stop():
            break
        _iterate(rules, rules.determinize(state, seat, rng), seat, root, rng, horizon)
        done += 1
    best = max(root.children.items(), key=lambda kv: (kv[1].visits, kv[1].reward, kv[0][1]))
    return best[0][1]


def _paired(rules: Rules, state: State, seat: int, rng: random.Random, budget: Budget,
            horizon: int, moves: list[str]) -> str:
    """Each drawn state tries every move, the seat playing on by its game's bot like
    everyone, with the same draws and dice after each: the moves are compared on the same
    luck, so a small difference shows in few drawn states, where the tree's one move per
    drawn state needs many.  On the same luck most moves win or lose alike, so a playout
    is judged by the margin of the final scores (``_margins``), not by who won.  The move
    with the best mean is played; on a tie the game's own bot's.  A rival choosing in
    secret after the seat sees the seat's choice in the state only through its bot,
    which reads its own view."""
    totals = dict.fromkeys(moves, 0.0)
    drawn = 0
    while drawn == 0 or budget.iterations is None or \
            (drawn + 1) * len(moves) <= budget.iterations:
        if drawn and budget.stop is not None and budget.stop():
            break
        luck = rng.random()
        for move in moves:
            chance = random.Random(luck)
            start = rules.apply(rules.determinize(state, seat, chance), seat, move)
            end = _playout(rules, start, chance, horizon)
            totals[move] += _margins(rules, end)[seat]
        drawn += 1
    own = rules.bot_move(state, seat, random.Random(rng.random()))
    return max(moves, key=lambda m: (totals[m], m == own, m))


def _secret_rival(rules: Rules, state: State, movers: list[int], searcher: int) -> int | None:
    """A rival choosing in secret at the same time as the searcher, or None."""
    if searcher not in movers or len(movers) < 2 or not rules.is_secret(state):
        return None
    return next(s for s in movers if s != searcher)


def _iterate(rules: Rules, state: State, searcher: int, root: _Node, rng: random.Random,
             horizon: int) -> None:
    node, path = root, [root]
    expanded = False
    while not rules.is_over(state):
        movers = rules.to_move(state)
        if searcher not in movers or _secret_rival(rules, state, movers, searcher) is not None:
            rival = next(s for s in movers if s != searcher)
            state = rules.bot_plays(state, rival, rng)
            continue
        actor = searcher
        if not rules.searched(state, actor):  # the game's bot decides here: no node
            state = rules.bot_plays(state, actor, rng)
            continue
        legal = rules.legal_moves(state, actor)
        if len(legal) == 1:  # nothing to choose: no node
            state = rules.apply(state, actor, legal[0])
            continue
        keys = [(actor, m) for m in legal]
        for key in keys:
            child = node.children.get(key)
            if child is not None:
                child.available += 1
        untried = [k for k in keys if k not in node.children]
        if untried:
            key = untried[rng.randrange(len(untried))]
            node.children[key] = child = _Node(actor, available=1)
            node, state = child, rules.apply(state, actor, key[1])
            path.append(node)
            expanded = True
            break
        key = max(keys, key=lambda k: _ucb(node.children[k]))
        node, state = node.children[key], rules.apply(state, actor, key[1])
        path.append(node)
    if expanded or not rules.is_over(state):
        state = _playout(rules, state, rng, horizon)
    rewards = _rewards(rules, state)
    for n in path:
        n.visits += 1
        n.reward += rewards[n.seat]


def _ucb(child: _Node) -> float:
    return (child.reward / child.visits
            + EXPLORATION * math.sqrt(math.log(max(child.available, 1)) / child.visits))


def _playout(rules: Rules, state: State, rng: random.Random, horizon: int) -> State:
    for _ in range(horizon):
        movers = rules.to_move(state)
        if not movers:
            break
        state = rules.bot_plays(state, movers[0], rng)
    return state


def _rewards(rules: Rules, state: State) -> list[float]:
    """Per seat in [0, 1]: a share of the win at the end, else how far its estimated
    final score (``Rules.estimate``) leads the best rival's (``_margins``)."""
    if rules.is_over(state):
        winners = rules.result(state).winners
        return [1.0 / len(winners) if s in winners else 0.0
                for s in range(len(rules.scores(state)))]
    return _margins(rules, state)


def _margins(rules: Rules, state: State) -> list[float]:
    """Per seat in [0, 1]: how far its final score (estimated where the game is not
    over, ``Rules.estimate``) leads the best rival's, a soft step wider for games of
    large scores."""
    scores = (rules.scores(state) if rules.is_over(state) else rules.estimate(state))
    scale = 2.0 + 0.1 * max(abs(x) for x in scores)
    out = []
    for s, mine in enumerate(scores):
        best = max(x for t, x in enumerate(scores) if t != s)
        out.append(1.0 / (1.0 + math.exp(-(mine - best) / scale)))
    return out
