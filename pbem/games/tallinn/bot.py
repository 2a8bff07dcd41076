"""A bot for Tallinn that plays from what its seat may see (its view), never more.

It scores every move by a one-step estimate and plays the best:

* the points a contest brings now, against the displays as they lie;
* how the final scoring would stand with the displays as they are, counted
  as a difference to every rival (what I score against them minus what they
  score against me), so that persons where a rival is close count most;
* for towers, the value of the strongest estate on its tower cards against
  a guess for each rival's face-down towers.

It never declines a tower (a tower only adds to the final scoring; the best
card to give up is chosen instead) and never plays a coin half that scores
nothing when a half that adds more persons is at hand.  Ties between equal
moves are broken by ``rng``.
"""

from __future__ import annotations

import functools
import math
import random

from pbem.games.protocol import IllegalMoveError, State
from pbem.games.tallinn import data, rules
from pbem.games.tallinn.moves import Move, Tower

Counts = dict[str, int]

#: a small value per person beyond the comparisons: more persons rarely hurt
PERSON_VALUE = 1.0
#: what a rival's face-down towers are guessed to be worth: the mean strongest
#: estate of one card of the set is 2.4 (see data)
TOWER_GUESS = (0.0, 2.4, 3.9, 5.2, 6.3, 7.3)


def _add(counts: Counts, persons: Counts, sign: int = 1) -> Counts:
    return {c: counts[c] + sign * persons.get(c, 0) for c in data.STAENDE}


def _soft(diff: float, spread: float) -> float:
    """The chance of ending ahead by ``diff``, the end still ``spread`` persons away."""
    return 1.0 / (1.0 + math.exp(-diff / spread))


def estate_net(mine: Counts, others: list[Counts], spread: float) -> float:
    """Final estate contests as a soft difference to every rival."""
    total = 0.0
    for theirs in others:
        for c in data.STAENDE:
            p = _soft(mine[c] - theirs[c], spread)
            # 4 points for being ahead, the rival's 4 when behind: difference 8
            total += data.SCHLUSS_MEHR * (2 * p - 1)
    return total + PERSON_VALUE * sum(mine.values())


def tower_net(cards: list[str], others: list[int]) -> float:
    if not cards:
        return -data.TURM_MEHR * len(others) * 0.9
    value = _tower_value(tuple(cards), data.SETS.active.version)
    total = 0.0
    for k in others:
        guess = TOWER_GUESS[min(k, len(TOWER_GUESS) - 1)]
        total += data.TURM_MEHR * (2 * _soft(value - guess, 1.2) - 1)
    return total


@functools.lru_cache(maxsize=4096)
def _tower_value(cards: tuple[str, ...], version: str) -> int:
    """The strongest estate on these tower cards (asked again and again in a search),
    in the data version a game plays on (``version``: which one, for the cache)."""
    counts, _ = rules.tower_counts({"towers": [[{"card": c} for c in cards]]}, 0)
    return rules.tower_value(counts)[0]


class _Table:
    """The parts of the table the bot reasons about: what its seat's view shows (its
    own hand and towers; every display, and how many towers, hand and pile cards each
    seat has), read from the state directly, since a view's words cost a playout of
    the searching bot (``pbem.games.search``) more than the bot's own thinking."""

    def __init__(self, state: State, seat: int) -> None:
        n = state["players"]
        self.seat = seat
        self.counts: Counts = dict(rules.display_counts(state, seat))
        self.others: list[Counts] = [dict(rules.display_counts(state, s))
                                     for s in range(n) if s != seat]
        self.other_towers = [len(state["towers"][s]) for s in range(n) if s != seat]
        self.hand = list(state["hand"][seat])
        self.towers = [t["card"] for t in state["towers"][seat]]
        self.display = [(card, half) for card, half in state["display"][seat]]
        # the Legat in the display (either half) gives two persons at the end
        self.wappen = any(card == data.LEGAT for card, _ in self.display)
        left = sum(len(state["hand"][s]) + len(state["pile"][s]) for s in range(n))
        # the further the end, the less a one-person lead decides anything
        self.spread = 0.8 + 0.05 * left

    def net(self, counts: Counts, towers: list[str], wappen: bool | None = None) -> float:
        if self.wappen if wappen is None else wappen:
            # at the end the Legat's two persons join the weakest estate
            weakest = min(data.STAENDE, key=lambda c: counts[c])
            counts = _add(counts, {weakest: data.LEGAT_PERSONEN})
        return estate_net(counts, self.others, self.spread) + tower_net(towers,
                                                                        self.other_towers)

    def contest_points(self, counts: Counts, code: str, extra: int = 0) -> int:
        mine = counts[code] + extra
        return sum(rules._pair_points(mine, o[code], data.WETTSTREIT_MEHR,
                                      data.WETTSTREIT_GLEICH) for o in self.others)

    def best_tower(self, counts: Counts, hand: list[str]) -> tuple[float, str]:
        """(gain, card) of the best tower to build now, from the display or the hand."""
        base = self.net(counts, self.towers)
        options = []
        for card, half in self.display:
            gone = rules.half_of(card, half)
            after = _add(counts, gone.persons(), -1)
            wappen = self.wappen and not gone.wappen
            options.append((self.net(after, self.towers + [card], wappen) - base, card))
        for card in hand:
            # a hand card built is a card not played: give up its better half
            lost = max(self.net(_add(counts, rules.half_of(card, h).persons()), self.towers)
                       - base for h in rules.HALVES)
            options.append((self.net(counts, self.towers + [card]) - base - max(lost, 0), card))
        return max(options, key=lambda o: o[0])


def choose(state: State, seat: int, rng: random.Random) -> Move:
    moves = rules.legal(state, seat)
    if not moves:
        raise IllegalMoveError(f"seat {seat} has no move to make")
    table = _Table(state, seat)
    phase = state["phase"]
    if phase == "legat":
        return max(moves, key=lambda m: (table.contest_points(
            table.counts, m.stand, data.LEGAT_PERSONEN), rng.random()))
    if phase == "tower":
        return Tower(table.best_tower(table.counts, table.hand)[1])
    scored = []
    base = table.net(table.counts, table.towers)
    for move in moves:
        card, half = move.card, move.half
        h = rules.half_of(card, half)
        after = _add(table.counts, h.persons())
        value = table.net(after, table.towers, table.wappen or h.wappen) - base
        contest = None
        if h.muenze:
            contest = table.contest_points(after, h.coin_estate() or "K")
        elif h.wappen:
            contest = max(table.contest_points(after, c, data.LEGAT_PERSONEN)
                          for c in data.STAENDE)
        if contest is not None:
            value += contest
            table.display.append((card, half))
            hand = [c for c in table.hand if c != card]
            value += max(0.0, table.best_tower(after, hand)[0])
            table.display.pop()
        # the notation breaks a tie of value and chance, as it always has
        scored.append((value, rng.random(), move.notation(), move))
    return max(scored, key=lambda s: s[:3])[3]

