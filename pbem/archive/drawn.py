"""A finished game's tables, drawn once and kept in the database (``RoundsDrawn``).

A game page shows the table at the setup and at the end of each round, each as the
game's picture (SVG) and its words (``render_text``) of ``view(state, EVERYTHING)``:
more than half of what a page costs to make.  They are a pure function of the game's
record (a finished game's log never changes: ``seq`` stands for it), its seats' names,
and the code that replays the record and draws the tables (:func:`drawing_sources`:
the game's package, the modules every game shares, the replay and its score track,
and this module), so
the archive keeps them under a fingerprint of exactly those (:func:`key`):

* the build that first renders a game's page (the scheduler's, at the game's end)
  draws the tables and writes them here, one row a game;
* a later build (a full one, new templates, a player's other game) reads the rows of
  the games it renders, a few hundred in one query, and draws only the tables a row
  of the same fingerprint does not have, then replaces that row;
* new code that replays or draws a game changes the fingerprint of all its games, so
  their tables are drawn again; a change to the archive's own page code or templates
  does not.  ``pbem build-site --redraw`` draws every table again whatever is kept.

With the tables the row keeps the replay's **course** (:class:`Course`): where each
round began and ended, the score track, the engine's result of the final state, all
the replay gives a page besides the states drawn.  A page with its course and its
tables kept is made without replaying the log at all; a page whose row has none (a
game whose replay needed a second, checked run, a course that does not come back from
its text as it was) replays as before.

A page made from kept tables is byte for byte the page drawn afresh.
"""

from __future__ import annotations

import hashlib
import json
import zlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import import_module
from pathlib import Path
from typing import Any

from pbem.archive.collect import GameSummary, fingerprint
from pbem.archive.visit import Visitor
from pbem.games.protocol import EVERYTHING, Rules, State
from pbem.models import RoundsDrawn, db, write_transaction

#: bump to draw every kept table again when what is drawn of a state changes for a
#: reason :func:`drawing_sources` cannot see
DRAWING_FORMAT = "2"
#: the archive's language: its tables are drawn in it
LANGUAGE = "en"
#: rows a query reads or an INSERT writes (SQLite's oldest limit is 999 variables)
_CHUNK = 300
_PACKAGE = Path(__file__).resolve().parent
_GAMES = _PACKAGE.parent / "games"

#: a table as a page shows it: ``[svg, text]`` (``svg`` "" for a game without pictures)
Table = list[str]
#: a page's tables by the name of the moment: "setup", "r1", "r2", …
Tables = dict[str, Table]
#: the score track's points: ``("start", scores)``, then each round's number and scores
Points = list[tuple[str, list[int]]]


@dataclass(frozen=True)
class Course:
    """What a page takes of its replay besides the tables: the rounds, each as its
    number, its moves (the log's next so many) and whether it ended (its table shown);
    the score track (:class:`pbem.archive.chart.ScoreTrack`); the engine's result of the
    final state, of a game over."""

    rounds: list[tuple[int, int, bool]]
    points: Points
    result: dict[str, Any]

    def text(self) -> str | None:
        """As JSON (NUL written as ``\\u0000``), or None where it would not come back
        as it is (:meth:`of_text`): then it is not kept."""
        text = json.dumps([self.rounds, self.points, self.result])
        return text if Course.of_text(text) == self else None

    @staticmethod
    def of_text(text: str) -> Course:
        rounds, points, result = json.loads(text)
        return Course([(n, moves, ended) for n, moves, ended in rounds],
                      [(label, scores) for label, scores in points], result)


class RoundsTaken(Visitor):
    """The rounds of a replay as :attr:`Course.rounds` has them."""

    def __init__(self) -> None:
        self.rounds: list[tuple[int, int, bool]] = []

    def begin_round(self, number: int, state: State) -> None:
        self.rounds.append((number, 0, False))

    def move(self, index: int, seat: int, move: str, before: State, after: State) -> None:
        number, moves, ended = self.rounds[-1]
        self.rounds[-1] = (number, moves + 1, ended)

    def end_round(self, number: int, state: State) -> None:
        self.rounds[-1] = (number, self.rounds[-1][1], True)


def draw(game: Rules, state: State, names: Sequence[str]) -> Table:
    """The table of ``state`` as the archive shows it: its picture and its words."""
    view = game.view(state, EVERYTHING)
    return [game.picture(view, list(names), LANGUAGE), game.render_text(view, list(names))]


@cache
def drawing_sources(game_name: str) -> list[Path] | None:
    """The files whose code or data replays a game's record or draws its tables
    (``None``: no such game): this module, the walk of the replay and the record's
    replay, the score track (``chart``: the course keeps its points), the modules every
    game shares (``pbem/games/*.py``) and the game's whole
    package (its rules make the states, its view, text and picture draw them, its data
    files and words fill them).  Not the archive's page code or templates."""
    try:
        module = import_module(f"pbem.games.{game_name}")
    except ImportError:
        return None
    folder = Path(module.__file__ or "").resolve().parent
    files = [_PACKAGE / "drawn.py", _PACKAGE / "visit.py", _PACKAGE / "chart.py",
             _PACKAGE.parent / "gamelog" / "records.py"]
    files += sorted(_GAMES.glob("*.py"))
    files += sorted(p for p in folder.rglob("*") if p.is_file() and "__pycache__" not in p.parts)
    return files


@cache
def drawing_fingerprint(game_name: str) -> str:
    """A checksum of :func:`drawing_sources` (of the game's name alone for no such game,
    whose page draws no table)."""
    digest = hashlib.sha256(f"{DRAWING_FORMAT}\0{LANGUAGE}\0{game_name}".encode())
    for path in drawing_sources(game_name) or []:
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def key(s: GameSummary) -> str:
    """What names the tables of the game ``s``: the code that draws them and the record
    (its log by its length: a finished game's log never changes) with its seats' names."""
    return fingerprint([drawing_fingerprint(s.game), s.game, s.names, s.seed, s.options,
                        s.rules_version, s.data_version, s.seq])


def pack(tables: Tables, course: Course | None = None) -> bytes | None:
    """The course (as JSON, "" for none) and the tables as zlib-compressed text: each
    moment, picture and words, apart by NUL (which neither SVG nor a table in words
    holds; where one would, None: not kept).  The tables not as JSON: its strings escape
    every quote of an SVG, and parsing them back cost twice what decompressing does."""
    parts = [(course.text() or "") if course is not None else ""]
    parts += [part for moment, (svg, text) in tables.items() for part in (moment, svg, text)]
    joined = "\0".join(parts)
    if joined.count("\0") != len(parts) - 1:
        return None
    return zlib.compress(joined.encode("utf-8"))


def unpack(data: bytes) -> tuple[Course | None, Tables]:
    """The course (None: not kept) and the tables of :func:`pack`."""
    parts = zlib.decompress(data).decode("utf-8").split("\0") if data else [""]
    course = Course.of_text(parts[0]) if parts[0] else None
    return course, {parts[i]: [parts[i + 1], parts[i + 2]] for i in range(1, len(parts) - 2, 3)}


def read(summaries: Iterable[GameSummary]) -> dict[int, bytes]:
    """The kept tables (packed) of those of ``summaries`` that have a row of their
    current :func:`key`, by game id: one query per few hundred games."""
    keys = {s.id: key(s) for s in summaries}
    ids = sorted(keys)
    out: dict[int, bytes] = {}
    for start in range(0, len(ids), _CHUNK):
        query = (RoundsDrawn.select(RoundsDrawn.game, RoundsDrawn.fingerprint,
                                    RoundsDrawn.tables)
                 .where(RoundsDrawn.game.in_(ids[start:start + _CHUNK])))
        for game_id, kept_key, data in db.execute(query):
            if kept_key == keys[game_id]:
                out[game_id] = bytes(data)  # PostgreSQL hands a memoryview
    return out


def write(rows: Sequence[tuple[int, str, bytes]]) -> None:
    """Keep ``(game id, key, packed tables)``, replacing what a game had."""
    for start in range(0, len(rows), _CHUNK):
        with write_transaction():
            (RoundsDrawn
             .insert_many([{"game": game_id, "fingerprint": kept_key, "tables": data}
                           for game_id, kept_key, data in rows[start:start + _CHUNK]])
             .on_conflict(conflict_target=[RoundsDrawn.game],
                          preserve=[RoundsDrawn.fingerprint, RoundsDrawn.tables])
             .execute())
