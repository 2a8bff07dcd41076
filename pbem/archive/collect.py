"""Read the finished games out of the database into plain values.

The archive reads everything it needs first and writes only afterwards (as
Pelican does): :func:`collect` takes one cheap pass over every finished game
(the game rows and their seats, not the moves), which is enough for every
index and for the fingerprints that decide what must be rendered again;
:func:`load_moves` then reads the move logs of just the games to render.
Nothing else in the archive touches the database.

A finished game's move log never changes (the service refuses moves and
take-backs once a game is over), so a game's fingerprint covers its row and
its seats, with ``seq`` standing for the log, the sentences on its rows
included (they are written once, when a move is recorded).  Whatever would
ever write a finished game's rows again must raise ``ARCHIVE_FORMAT`` in
:mod:`pbem.archive.pipeline`, or rebuild with ``--full``.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from types import SimpleNamespace
from typing import Any, NamedTuple

import peewee as pw

from pbem.lifecycle.records import GameRecord
from pbem.models import Game, Move, Player, Seat, db

#: SQLite allows a limited number of bound variables per statement
_CHUNK = 500


@dataclass(frozen=True)
class SeatInfo:
    index: int
    #: the name the game record and the page use (``Seat.display``)
    name: str
    player_id: int | None
    #: the player's own name, for the player pages
    player_name: str | None
    bot: bool
    bot_replaced: bool

    @property
    def kind(self) -> str:
        if self.player_id is None:
            return "bot"
        if self.bot or self.bot_replaced:
            return "player, a bot took over"
        return "player"


@dataclass(frozen=True)
class GameSummary:
    """One finished game without its moves: enough for indexes and fingerprints."""

    id: int
    game: str
    options: dict[str, Any]
    seed: str
    rules_version: str
    data_version: str
    seq: int
    result: dict[str, Any] | None
    created_at: datetime | None
    started_at: datetime | None
    finished_at: datetime
    seats: tuple[SeatInfo, ...]
    fingerprint: str = field(default="", compare=False)
    #: already in the archive by an earlier build (``Game.archived_at``); not shown
    archived: bool = field(default=False, compare=False)

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.seats]

    @property
    def month(self) -> str:
        return self.finished_at.strftime("%Y-%m")

    @property
    def sort_key(self) -> tuple[datetime, int]:
        """Chronological order of the archive: by end, then by id."""
        return (self.finished_at, self.id)

    def ranks(self) -> list[int | None]:
        ranks = (self.result or {}).get("ranks") or []
        return [ranks[s] if s < len(ranks) else None for s in range(len(self.seats))]

    def scores(self) -> list[int | None]:
        scores = (self.result or {}).get("scores") or []
        return [scores[s] if s < len(scores) else None for s in range(len(self.seats))]

    def winners(self) -> list[int]:
        return [w for w in (self.result or {}).get("winners") or [] if 0 <= w < len(self.seats)]

    def source(self) -> dict[str, Any]:
        """Everything from the database a game page shows, as canonical JSON values."""
        return {
            "id": self.id,
            "game": self.game,
            "options": self.options,
            "seed": self.seed,
            "rules_version": self.rules_version,
            "data_version": self.data_version,
            "seq": self.seq,
            "result": self.result,
            "created_at": _stamp(self.created_at),
            "started_at": _stamp(self.started_at),
            "finished_at": _stamp(self.finished_at),
            "seats": [[s.index, s.name, s.player_id, s.player_name, s.bot, s.bot_replaced]
                      for s in self.seats],
        }


class LoggedMove(NamedTuple):
    """One row of a move log, as much of it as a page shows."""

    seat: int
    move: str
    #: ``Move.PLAYER``, ``BOT``, ``TIMEOUT`` or ``FORMALITY``
    kind: str
    #: the sentence its author (and the archive) reads, written when the move was
    #: recorded; "" for a row of an older pbem, which the page writes from the replay
    said: str = ""
    #: the seat's turn it was played in, and whether it ended that turn
    turn_seq: int = 0
    turn_end: bool = True


@dataclass(frozen=True)
class FinishedGame:
    """A finished game with its move log: what a game page is rendered from."""

    summary: GameSummary
    moves: tuple[LoggedMove, ...]

    def record(self) -> GameRecord:
        s = self.summary
        return GameRecord(
            game=s.game,
            players=s.names,
            seed=s.seed,
            options=dict(s.options),
            rules_version=s.rules_version,
            moves=[(m.seat, m.move) for m in self.moves],
        )


def _display(index: int, player_id: int | None, player_name: str | None, bot: bool) -> str:
    """``Seat.display`` (the name in the game record) from a plain row, by the model's rule."""
    player = SimpleNamespace(name=player_name)
    row = SimpleNamespace(index=index, player_id=player_id, player=player, bot=bool(bot))
    return Seat.display.fget(row)


def _stamp(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment else None


def fingerprint(value: Any) -> str:
    """A checksum of a JSON-able value (key order and spacing do not matter)."""
    text = json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def collect() -> list[GameSummary]:
    """Every finished game, oldest first, with its seats (one read transaction)."""
    finished = Game.select(Game.id).where(Game.status == Game.FINISHED)
    with db.atomic():
        games = list(
            Game.select(Game.id, Game.game, Game.options, Game.seed, Game.rules_version,
                        Game.data_version, Game.seq, Game.result, Game.created_at,
                        Game.started_at, Game.finished_at, Game.archived_at)
            .where(Game.status == Game.FINISHED)
            .order_by(Game.id)
            .namedtuples()
        )
        seats: dict[int, list[SeatInfo]] = {}
        query = (Seat.select(Seat.game, Seat.index, Seat.player, Seat.bot, Seat.bot_replaced,
                             Player.name)
                 .join(Player, pw.JOIN.LEFT_OUTER)
                 .where(Seat.game.in_(finished))
                 .order_by(Seat.game, Seat.index)
                 .tuples())
        for game_id, index, player_id, bot, bot_replaced, player_name in query:
            seats.setdefault(game_id, []).append(SeatInfo(
                index=index,
                name=_display(index, player_id, player_name, bot),
                player_id=player_id,
                player_name=player_name,
                bot=bool(bot),
                bot_replaced=bool(bot_replaced),
            ))
    out = []
    for g in games:
        summary = GameSummary(
            id=g.id, game=g.game, options=dict(g.options or {}), seed=str(g.seed),
            rules_version=g.rules_version, data_version=g.data_version, seq=g.seq,
            result=g.result, created_at=g.created_at, started_at=g.started_at,
            # a finished game always has an end; fall back on its start for odd rows
            finished_at=g.finished_at or g.started_at or g.created_at,
            seats=tuple(seats.get(g.id, ())),
            archived=g.archived_at is not None,
        )
        out.append(_with_fingerprint(summary))
    out.sort(key=lambda s: s.sort_key)
    return out


def _with_fingerprint(summary: GameSummary) -> GameSummary:
    object.__setattr__(summary, "fingerprint", fingerprint(summary.source()))
    return summary


def load_moves(summaries: Iterable[GameSummary]) -> list[FinishedGame]:
    """The move logs of ``summaries``, read in a few queries."""
    wanted = list(summaries)
    ids = [s.id for s in wanted]
    logs: dict[int, list[LoggedMove]] = {i: [] for i in ids}
    intern: dict[str, str] = {}  # the same few move texts recur in every game
    with db.atomic():
        for start in range(0, len(ids), _CHUNK):
            chunk = ids[start:start + _CHUNK]
            rows = (Move.select(Move.game, Move.seat, Move.move, Move.kind, Move.said_author,
                                Move.turn_seq, Move.turn_end)
                    .where(Move.game.in_(chunk))
                    .order_by(Move.game, Move.seq)
                    .tuples())
            for game_id, seat, move, kind, said, turn_seq, turn_end in rows:
                logs[game_id].append(LoggedMove(
                    seat, intern.setdefault(move, move), intern.setdefault(kind, kind),
                    said or "", turn_seq or 0, bool(turn_end)))
    return [FinishedGame(s, tuple(logs[s.id])) for s in wanted]
