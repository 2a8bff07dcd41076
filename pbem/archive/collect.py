"""Read the finished games out of the database into plain values.

The archive reads everything it needs first and writes only afterwards (as
Pelican does).  A full build reads every finished game's summary in one
pass (:func:`collect`: the game rows and their seats, not the moves), which
is enough for every index and for the fingerprints that decide what must be
rendered again; :func:`load_moves` then reads the move logs of just the
games to render.  An incremental build keeps the summaries of the games it
built in its manifest, and asks the database only which games are finished
now (:func:`finished_games`: a few small columns per game) and what the
players are called (:func:`player_names`); it reads the summaries of the
games that are new or changed since, ``collect(ids)``.  Nothing else in the
archive touches the database but the tables its pages show, kept in it by
:mod:`pbem.archive.drawn`, and the mark of the games archived.

A finished game's move log never changes (the service refuses moves and
take-backs once a game is over), so a game's fingerprint covers its row and
its seats, with ``seq`` standing for the log, the sentences on its rows
included (they are written once, when a move is recorded).  An incremental
build sees a game leave (no longer finished), a game's ``seq``, end, rules
or data version change (:attr:`FinishedRow.check`) and a player's new name;
whatever would ever write a finished game's other columns, its seats or its
rows again must raise ``ARCHIVE_FORMAT`` in :mod:`pbem.archive.pipeline`, or
rebuild with ``--full``.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Collection, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from types import SimpleNamespace
from typing import Any, NamedTuple

import peewee as pw
from peewee import fn

from pbem.gamelog.history import told
from pbem.gamelog.records import GameRecord
from pbem.models import Game, Move, Player, Rating, RatingChange, Seat, Talk, db, shown_rating

#: SQLite allows a limited number of bound variables per statement
_CHUNK = 500
#: what the indexes read of a game's result
_STANDING = ("scores", "ranks", "winners")


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
        return f"{self.finished_at.year:04d}-{self.finished_at.month:02d}"

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

    def kept(self) -> list[Any]:
        """What the manifest keeps of this game for the indexes, the feed and the checks.

        A compact list: the ids, end, versions, standing and seats, not the options,
        the result's details, nor the seed (published on the game's page and in its
        record and nowhere else: the manifest is served with the site).
        """
        result = None if self.result is None else \
            {k: self.result[k] for k in _STANDING if k in self.result}
        return [self.id, self.game, self.seq, self.finished_at.isoformat(), self.rules_version,
                self.data_version, result, [_kept_seat(s) for s in self.seats]]

    @classmethod
    def from_kept(cls, kept: list[Any], archived: bool = True) -> GameSummary:
        """The summary :meth:`kept` kept: enough for the indexes and the feed (which reads
        the seeds of its few games from the database), not for a game page."""
        game_id, game, seq, finished, rules_version, data_version, result, seats = kept
        return cls(
            id=game_id, game=game, options={}, seed="", rules_version=rules_version,
            data_version=data_version, seq=seq, result=result, created_at=None,
            started_at=None, finished_at=datetime.fromisoformat(finished),
            seats=tuple(_seat_info(index, seat) for index, seat in enumerate(seats)),
            archived=archived,
        )

    @property
    def check(self) -> tuple[int, str, str, str]:
        """What :attr:`FinishedRow.check` reads of this game."""
        return (self.seq, self.finished_at.isoformat(), self.rules_version, self.data_version)

    @staticmethod
    def kept_check(kept: list[Any]) -> tuple[int, str, str, str]:
        """:attr:`check` of the game :meth:`kept` kept."""
        return (kept[2], kept[3], kept[4], kept[5])

    @staticmethod
    def kept_players(kept: list[Any]) -> Iterator[tuple[int, str | None]]:
        """``(player id, player's name)`` of each seat a player holds in what :meth:`kept`
        kept."""
        for seat in kept[7]:
            if len(seat) > 1:
                yield seat[1], seat[-1] if len(seat) == 3 else seat[0]


def _kept_seat(seat: SeatInfo) -> list[Any]:
    """``[name]`` for a seat without a player, ``[name, player id]`` when the player's
    name is the seat's, else ``[name, player id, player's name]``."""
    if seat.player_id is None:
        return [seat.name]
    if seat.player_name == seat.name:
        return [seat.name, seat.player_id]
    return [seat.name, seat.player_id, seat.player_name]


#: the seats made from a manifest, shared (most players sit at the same places again)
_seats: dict[tuple[Any, ...], SeatInfo] = {}


def _seat_info(index: int, kept: list[Any]) -> SeatInfo:
    """The seat :func:`_kept_seat` kept (its bot flags are for the game page only)."""
    key = (index, *kept)
    seat = _seats.get(key)
    if seat is None:
        if len(kept) == 1:
            seat = SeatInfo(index, kept[0], None, None, False, False)
        else:
            seat = SeatInfo(index, kept[0], kept[1], kept[-1] if len(kept) == 3 else kept[0],
                            False, False)
        if len(_seats) < 100_000:
            _seats[key] = seat
    return seat


class FinishedRow(NamedTuple):
    """The few columns of a finished game that tell whether its archived page is current."""

    id: int
    #: ``(seq, end, rules version, data version)``, as :attr:`GameSummary.check`
    check: tuple[int, str, str, str]
    archived: bool


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
    #: recorded with no sentence in any language: the game does not tell it (menu
    #: navigation; ``pbem.gamelog.history.is_told``), not a row of an older pbem
    untold: bool = False


@dataclass(frozen=True)
class FinishedGame:
    """A finished game with its move log: what a game page is rendered from."""

    summary: GameSummary
    moves: tuple[LoggedMove, ...]
    #: the table talk, as (the move it followed, seat, text), in order
    talk: tuple[tuple[int, int, str], ...] = ()
    #: the tables of its page as an earlier build drew them, packed
    #: (:mod:`pbem.archive.drawn`), or None: the page draws them
    tables: bytes | None = None

    def record(self) -> GameRecord:
        s = self.summary
        return GameRecord(
            game=s.game,
            players=s.names,
            seed=s.seed,
            options=dict(s.options),
            rules_version=s.rules_version,
            moves=[(m.seat, m.move) for m in self.moves],
            data_version=s.data_version,
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


def finished_games() -> list[FinishedRow]:
    """Every finished game's id, with what tells whether its page is current (one query).

    Read from the cursor as they are (ten thousand rows through the model's
    converters took half a second): SQLite gives the time as text, PostgreSQL
    as a ``datetime``.
    """
    query = (Game.select(Game.id, Game.seq,
                         fn.COALESCE(Game.finished_at, Game.started_at, Game.created_at),
                         Game.rules_version, Game.data_version, Game.archived_at.is_null(False))
             .where(Game.status == Game.FINISHED)
             .order_by(Game.id))
    return [FinishedRow(game_id, (seq, _iso(end), rules_version, data_version), bool(archived))
            for game_id, seq, end, rules_version, data_version, archived
            in db.execute(query).fetchall()]


def _iso(moment: datetime | str) -> str:
    """A stored time as :meth:`datetime.isoformat` writes it (SQLite stores text)."""
    if isinstance(moment, datetime):
        return moment.isoformat()
    if len(moment) in (19, 26) and moment[10] == " ":  # as peewee writes it
        return moment.replace(" ", "T", 1)
    return datetime.fromisoformat(moment).isoformat()


def player_names() -> dict[int, str]:
    """Every player's name, by id (one query)."""
    return dict(Player.select(Player.id, Player.name).tuples())


def seeds(ids: Collection[int]) -> dict[int, str]:
    """The seeds of the games ``ids`` (a few, for the feed's ids), by game id."""
    out: dict[int, str] = {}
    for chunk in _chunks(sorted(ids)):
        out.update((i, str(seed)) for i, seed in
                   Game.select(Game.id, Game.seed).where(Game.id.in_(chunk)).tuples())
    return out


@dataclass(frozen=True)
class RatingNow:
    """A rating as the archive shows it (``pbem.lifecycle.ratings`` keeps them)."""

    kind: str
    player_id: int | None  # None: the bots of that game
    shown: float
    games: int


@dataclass(frozen=True)
class RatingMove:
    """What one finished game did to a seat's rating, as shown numbers."""

    before: float
    after: float
    #: "", "timeouts" or "dropped" (``RatingChange.marked``)
    marked: str


@dataclass
class Ratings:
    """The ratings the index pages show: every current one (one row per player and game
    kind, few), and what each game did to the ratings of the players whose pages are made."""

    current: list[RatingNow] = field(default_factory=list)
    #: ``(game id, player id)`` → its change
    changes: dict[tuple[int, int], RatingMove] = field(default_factory=dict)

    def of(self, player_id: int | None) -> list[RatingNow]:
        return [r for r in self.current if r.player_id == player_id]


def ratings(player_ids: Collection[int] | None) -> Ratings:
    """Every current rating, and the changes of the players ``player_ids`` (all: None)."""
    out = Ratings()
    for kind, player_id, mu, sigma, games in (
            Rating.select(Rating.kind, Rating.player, Rating.mu, Rating.sigma, Rating.games)
            .order_by(Rating.kind, Rating.who).tuples()):
        out.current.append(RatingNow(kind, player_id, shown_rating(mu, sigma), games))
    columns = (RatingChange.game, RatingChange.player, RatingChange.mu_before,
               RatingChange.sigma_before, RatingChange.mu_after, RatingChange.sigma_after,
               RatingChange.marked)
    queries = ([RatingChange.select(*columns).where(RatingChange.player.is_null(False))]
               if player_ids is None else
               [RatingChange.select(*columns).where(RatingChange.player.in_(chunk))
                for chunk in _chunks(sorted(player_ids))])
    for query in queries:
        for game_id, player_id, mu0, sigma0, mu1, sigma1, marked in query.tuples():
            out.changes[(game_id, player_id)] = RatingMove(
                shown_rating(mu0, sigma0), shown_rating(mu1, sigma1), marked)
    return out


def _chunks(ids: list[int]) -> Iterator[list[int]]:
    for start in range(0, len(ids), _CHUNK):
        yield ids[start:start + _CHUNK]


def collect(ids: Collection[int] | None = None) -> list[GameSummary]:
    """Every finished game (or those of ``ids``), oldest first, with its seats.

    One read transaction, of two queries (and two more per 500 ``ids``).
    """
    finished = Game.select(Game.id).where(Game.status == Game.FINISHED)
    columns = (Game.id, Game.game, Game.options, Game.seed, Game.rules_version,
               Game.data_version, Game.seq, Game.result, Game.created_at,
               Game.started_at, Game.finished_at, Game.archived_at)
    seat_columns = (Seat.game, Seat.index, Seat.player, Seat.bot, Seat.bot_replaced, Player.name)
    with db.atomic():
        if ids is None:
            games = list(Game.select(*columns).where(Game.status == Game.FINISHED)
                         .order_by(Game.id).namedtuples())
            seat_rows = list(Seat.select(*seat_columns)
                             .join(Player, pw.JOIN.LEFT_OUTER)
                             .where(Seat.game.in_(finished))
                             .order_by(Seat.game, Seat.index)
                             .tuples())
        else:
            games, seat_rows = [], []
            for chunk in _chunks(sorted(ids)):
                games.extend(Game.select(*columns)
                             .where(Game.status == Game.FINISHED, Game.id.in_(chunk))
                             .order_by(Game.id).namedtuples())
                seat_rows.extend(Seat.select(*seat_columns)
                                 .join(Player, pw.JOIN.LEFT_OUTER)
                                 .where(Seat.game.in_(chunk))
                                 .order_by(Seat.game, Seat.index)
                                 .tuples())
    seats: dict[int, list[SeatInfo]] = {}
    for game_id, index, player_id, bot, bot_replaced, player_name in seat_rows:
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
    """The move logs of ``summaries``, read in a few queries.

    The rows are read from the cursor as they are (every column is text, a
    number or a flag): the model's converters took most of the time.
    """
    wanted = list(summaries)
    ids = [s.id for s in wanted]
    logs: dict[int, list[LoggedMove]] = {i: [] for i in ids}
    talk: dict[int, list[tuple[int, int, str]]] = {i: [] for i in ids}
    intern: dict[str, str] = {}  # the same few move texts recur in every game
    with db.atomic():
        for chunk in _chunks(ids):
            rows = (Move.select(Move.game, Move.seat, Move.move, Move.kind, Move.said_author,
                                Move.turn_seq, Move.turn_end, Move.said_in)
                    .where(Move.game.in_(chunk))
                    .order_by(Move.game, Move.seq))
            for game_id, seat, move, kind, said, turn_seq, turn_end, said_in in db.execute(
                    rows):
                logs[game_id].append(LoggedMove(
                    seat, intern.setdefault(move, move), intern.setdefault(kind, kind),
                    said or "", turn_seq or 0, bool(turn_end), not told(said, said_in)))
            talk_rows = (Talk.select(Talk.game, Talk.after_move_seq, Talk.seat, Talk.text)
                         .where(Talk.game.in_(chunk))
                         .order_by(Talk.game, Talk.after_move_seq, Talk.id))
            for game_id, after, seat, text in db.execute(talk_rows):
                talk[game_id].append((after, seat, text))
    return [FinishedGame(s, tuple(logs[s.id]), tuple(talk[s.id])) for s in wanted]
