"""Ratings: a multiplayer rating per player per game kind, updated when a game ends.

openskill's Weng-Lin model (Plackett-Luce) takes the final places of every seat
(``Game.result["ranks"]``, shared places included) and moves each player's rating
(``Rating``); what it did to each seat is kept (``RatingChange``), so pages and the
archive show it without the model.  The bots of a game kind have one rating of their
own, rated apart from the people: a bot's seat counts as an opponent like any, and
its rating moves by the mean of what its seats gained.  A game in which a timeout
played a move, or a player dropped out, is rated but marked.  Not rated: games
without a person, and games in which one person held two seats.

Ratings depend on the order of games: ``rebuild`` rates every finished game again in
finish order (``pbem ratings``), idempotent, e.g. after an import.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

import peewee as pw
from openskill.models import PlackettLuce

from pbem.models import (
    Game,
    Move,
    Rating,
    RatingChange,
    Seat,
    db,
    utcnow,
    write_transaction,
)

MODEL = PlackettLuce()

#: ``RatingChange.marked``
TIMEOUTS, DROPPED = "timeouts", "dropped"

BOT = "bot"


def who_of(seat: Seat) -> str:
    """Whose rating a seat plays for: its player's (a dropped one too), or the bots'."""
    return BOT if seat.player_id is None else f"p{seat.player_id}"


def marked(game: Game, seats: list[Seat]) -> str:
    """Whether something other than play decided part of the game."""
    if any(s.bot and s.player_id is not None and not s.bot_replaced for s in seats):
        return DROPPED
    if Move.select().where(Move.game == game.id, Move.kind == Move.TIMEOUT).exists():
        return TIMEOUTS
    return ""


@dataclass
class _Ratings:
    """The ratings a run reads and writes, each read from the database once."""

    kind: str
    rows: dict[str, Rating] = field(default_factory=dict)

    def get(self, who: str) -> Rating:
        """The rating of ``who``, made at the model's start when it has none, and locked
        until the transaction ends: two games of one player that end at once are rated
        one after the other, neither losing the other's change."""
        if who not in self.rows:
            (Rating.insert(who=who, player=int(who[1:]) if who != BOT else None,
                           kind=self.kind, mu=MODEL.mu, sigma=MODEL.sigma, games=0)
             .on_conflict_ignore().execute())
            query = Rating.select().where(Rating.who == who, Rating.kind == self.kind)
            if not isinstance(db.obj, pw.SqliteDatabase):  # SQLite has one writer already
                query = query.for_update()
            self.rows[who] = query.get()
        return self.rows[who]


def rate(game: Game, seats: list[Seat], cache: dict[str, _Ratings] | None = None
         ) -> list[RatingChange]:
    """Rate a finished game once (a second call finds its changes and does nothing);
    inside the caller's transaction.  The changes written (none: not rated)."""
    result = game.result or {}
    ranks = result.get("ranks") or []
    whos = [who_of(seat) for seat in seats]
    people = [who for who in whos if who != BOT]
    if (game.status != Game.FINISHED or len(ranks) != len(seats) or len(seats) < 2
            or not people or len(set(people)) != len(people)):
        return []
    if RatingChange.select().where(RatingChange.game == game.id).exists():
        return []
    ratings = ({} if cache is None else cache).setdefault(game.game, _Ratings(game.game))
    for who in sorted(set(whos)):  # locked in one order: two such games never deadlock
        ratings.get(who)
    before = [ratings.get(who) for who in whos]
    teams = [[MODEL.rating(mu=row.mu, sigma=row.sigma)] for row in before]
    after = [team[0] for team in MODEL.rate(teams, ranks=list(ranks))]
    mark = marked(game, seats)
    changes = [RatingChange.create(
        game=game.id, seat=seat.index, who=who, player=seat.player_id, kind=game.game,
        rank=rank, mu_before=old.mu, sigma_before=old.sigma, mu_after=new.mu,
        sigma_after=new.sigma, marked=mark, finished_at=game.finished_at)
        for seat, who, rank, old, new in zip(seats, whos, ranks, before, after, strict=True)]
    _update(ratings, changes)
    return changes


def _update(ratings: _Ratings, changes: list[RatingChange]) -> None:
    by_who: dict[str, list[RatingChange]] = {}
    for change in changes:
        by_who.setdefault(change.who, []).append(change)
    for who, mine in by_who.items():
        row = ratings.get(who)
        # the bots' several seats of one game: the mean of where each one ended
        row.mu = sum(c.mu_after for c in mine) / len(mine)
        row.sigma = sum(c.sigma_after for c in mine) / len(mine)
        row.games += 1
        row.updated_at = utcnow()
        row.save()


def finished_in_order() -> Iterable[Game]:
    return (Game.select().where(Game.status == Game.FINISHED)
            .order_by(Game.finished_at, Game.id))


def _all_changes() -> list[tuple]:
    return list(RatingChange.select(
        RatingChange.game, RatingChange.seat, RatingChange.who, RatingChange.rank,
        RatingChange.mu_before, RatingChange.sigma_before, RatingChange.mu_after,
        RatingChange.sigma_after, RatingChange.marked)
        .order_by(RatingChange.game, RatingChange.seat).tuples())


def rebuild() -> tuple[int, bool]:
    """Every rating again from the finished games, oldest end first, in one transaction:
    the number of games rated, and whether any change of any game came out otherwise
    than it stood.  Running it twice gives the same ratings (and ``False`` the second
    time)."""
    with write_transaction():
        before = _all_changes()
        RatingChange.delete().execute()
        Rating.delete().execute()
        cache: dict[str, _Ratings] = {}
        rated = sum(1 for game in finished_in_order() if rate(game, Seat.of(game), cache))
        return rated, _all_changes() != before
