"""The statistics' running totals: what each game adds, added and taken away again.

The statistics pages (:mod:`pbem.archive.statistics`) show counts, sums and
histograms of the games' seats and of the cards they used, and nothing of a
single game that a total would lose.  So a build keeps the totals of every game
name in its manifest (:meth:`Totals.to_json`), and an incremental build takes the
contribution of each changed or departed game away (from what the manifest kept
of it) and adds that of each new or changed one, instead of going through every
game again.  Every number kept is an integer count or sum, so the totals come out
the same in whatever order games were added and taken away, as a full build's
would; a result with a number that is not an integer (no game of the protocol
writes one) makes the totals :attr:`Totals.exact` false, and such totals are not
kept (the next build gathers them from every game again).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from pbem.archive.collect import GameSummary

#: the seat under which a count keeps the start player's results
START = -1


@dataclass
class Seats:
    """Final places and scores of a set of seats: how many seats (``refs``), how many
    seats had each place, and the number and sum of their scores."""

    refs: int = 0
    places: Counter[int] = field(default_factory=Counter)
    scored: int = 0
    score_sum: int = 0

    def add(self, place: Any, score: Any, sign: int = 1) -> bool:
        """Add (``sign`` 1) or take away (-1) one seat; whether its numbers are integers."""
        self.refs += sign
        if place is not None:
            self.places[place] += sign
            if not self.places[place]:
                del self.places[place]
        if score is not None:
            self.scored += sign
            self.score_sum += sign * score
        return _whole(place) and _whole(score)

    @property
    def placed(self) -> int:
        return sum(self.places.values())

    @property
    def place_sum(self) -> int:
        return sum(place * n for place, n in self.places.items())

    @property
    def wins(self) -> int:
        return self.places.get(1, 0)

    def to_json(self) -> list[Any]:
        return [self.refs, sorted([place, n] for place, n in self.places.items()),
                self.scored, self.score_sum]

    @classmethod
    def from_json(cls, kept: list[Any]) -> Seats:
        refs, places, scored, score_sum = kept
        return cls(refs, Counter({place: n for place, n in places}), scored, score_sum)


def _whole(value: Any) -> bool:
    return value is None or isinstance(value, int)


@dataclass
class Card:
    name: str
    times: Counter[str] = field(default_factory=Counter)
    #: per verb, the seats that did it (each game's seat once)
    by_verb: dict[str, Seats] = field(default_factory=dict)
    #: every seat that did anything with it, once (``anyhow.refs``: none, no card)
    anyhow: Seats = field(default_factory=Seats)

    def to_json(self) -> list[Any]:
        return [dict(self.times), {verb: seats.to_json() for verb, seats in self.by_verb.items()},
                self.anyhow.to_json()]

    @classmethod
    def from_json(cls, name: str, kept: list[Any]) -> Card:
        times, by_verb, anyhow = kept
        return cls(name, Counter(times),
                   {verb: Seats.from_json(seats) for verb, seats in by_verb.items()},
                   Seats.from_json(anyhow))


@dataclass
class GameStats:
    name: str
    games: int = 0
    #: player count → seat → its results; the start player's under :data:`START`
    seats: dict[int, dict[int, Seats]] = field(default_factory=dict)
    starts: int = 0
    cards: dict[str, Card] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"games": self.games, "starts": self.starts,
                "seats": sorted([count, seat, seats.to_json()]
                                for count, by_seat in self.seats.items()
                                for seat, seats in by_seat.items()),
                "cards": {name: card.to_json() for name, card in self.cards.items()}}

    @classmethod
    def from_json(cls, name: str, kept: dict[str, Any]) -> GameStats:
        stats = cls(name, kept["games"], {}, kept["starts"],
                    {card: Card.from_json(card, value) for card, value in kept["cards"].items()})
        for count, seat, seats in kept["seats"]:
            stats.seats.setdefault(count, {})[seat] = Seats.from_json(seats)
        return stats


class Totals:
    """Every game name's :class:`GameStats`, to which games are added and taken away."""

    def __init__(self, stats: dict[str, GameStats] | None = None) -> None:
        self.stats: dict[str, GameStats] = stats or {}
        #: every number added was an integer (else the totals depend on the order)
        self.exact = True

    def add(self, s: GameSummary, kept: dict[str, Any] | None, sign: int = 1) -> None:
        """Add (``sign`` 1) or take away (-1) the game ``s`` and what ``statistics.of_game``
        kept of it."""
        stats = self.stats.get(s.game)
        if stats is None:
            stats = self.stats[s.game] = GameStats(s.game)
        stats.games += sign
        places, scores = s.ranks(), s.scores()
        count = len(s.seats)
        by_seat = stats.seats.setdefault(count, {})
        for seat in range(count):
            self._seat(by_seat, seat, places[seat], scores[seat], sign)
        game = kept or {}
        start = game.get("start")
        if isinstance(start, int) and 0 <= start < count:
            stats.starts += sign
            self._seat(by_seat, START, places[start], scores[start], sign)
        if not by_seat:
            del stats.seats[count]
        self._uses(stats.cards, game.get("uses") or [], count, places, scores, sign)
        if not stats.games:
            del self.stats[s.game]

    def _seat(self, by_seat: dict[Any, Seats], seat: Any, place: Any, score: Any,
              sign: int) -> None:
        seats = by_seat.get(seat)
        if seats is None:
            seats = by_seat[seat] = Seats()
        self.exact &= seats.add(place, score, sign)
        if not seats.refs:
            del by_seat[seat]

    def _uses(self, cards: dict[str, Card], uses: Sequence[Sequence[Any]], count: int,
              places: list[Any], scores: list[Any], sign: int) -> None:
        """One game's uses: each seat once per verb, and once for any verb."""
        seen: set[tuple[str, str, int]] = set()
        anyhow: set[tuple[str, int]] = set()
        for seat, verb, name, times in uses:
            if not 0 <= seat < count:
                continue
            card = cards.get(name)
            if card is None:
                card = cards[name] = Card(name)
            card.times[verb] += sign * times
            if not card.times[verb]:
                del card.times[verb]
            if (name, verb, seat) not in seen:
                seen.add((name, verb, seat))
                self._seat(card.by_verb, verb, places[seat], scores[seat], sign)
            if (name, seat) not in anyhow:
                anyhow.add((name, seat))
                self.exact &= card.anyhow.add(places[seat], scores[seat], sign)
        for name in {name for name, _seat in anyhow}:  # after all: a card may recur
            if not cards[name].anyhow.refs:
                del cards[name]

    def to_json(self) -> dict[str, Any]:
        return {name: stats.to_json() for name, stats in self.stats.items()}

    @classmethod
    def from_json(cls, kept: dict[str, Any]) -> Totals:
        return cls({name: GameStats.from_json(name, value) for name, value in kept.items()})


def gather(summaries: Sequence[GameSummary],
           kept: dict[int, dict[str, Any] | None]) -> Totals:
    """The totals of ``summaries`` (oldest first), from what ``statistics.of_game`` kept of
    each (by game id)."""
    totals = Totals()
    for s in summaries:
        totals.add(s, kept.get(s.id))
    return totals
