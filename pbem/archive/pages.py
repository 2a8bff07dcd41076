"""The files of one game's page: Markdown, HTML, the score chart and the record.

``render_game`` is pure: a :class:`FinishedGame` in, ``{path: text}`` out.
It replays the record once with two visitors (the Markdown page and the
score track), as played, without checking each move again (``_replayed``): the
moves read as the sentences stored on their rows, and the replay gives the state
after each round and the scores.  The tables of those states are drawn, or read as
an earlier build drew them (``FinishedGame.tables``), and handed back for keeping
with the replay's course (rounds, scores, result) when the page drew any
(``Rendered.tables``).  A page whose course and tables are kept is told from them
without a replay (``_retold``), the same page.  A game whose record
no longer replays (an old rules version, a game no longer registered) still
gets a page, with its moves as recorded and the result stored when it ended.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from json.encoder import encode_basestring
from typing import Any

from pbem.archive import chart, drawn, paths
from pbem.archive.about import page as about_page
from pbem.archive.collect import FinishedGame
from pbem.archive.markdown import CHART_TITLE, GamePage, degraded_document, game_title
from pbem.archive.render import Renderer
from pbem.archive.text import one_line
from pbem.archive.visit import walk
from pbem.gamelog.records import GameRecord, RecordError
from pbem.games import UnknownGameError, get_game
from pbem.games.protocol import Rules, State

_RESULT_KEYS = ("scores", "ranks", "winners")
#: what stands for the moves in a record dumped without them (:func:`_record_text`)
_MOVES_MARK = "\x00moves\x00"


@dataclass
class Rendered:
    files: dict[str, str] = field(default_factory=dict)
    #: why the page shows less than usual (the record does not replay…), or ""
    problem: str = ""
    #: the page's tables packed for keeping (:mod:`pbem.archive.drawn`) when it drew
    #: any of them itself; None when every one was kept already (or none replayed, or
    #: they cannot be packed)
    tables: bytes | None = None


def game_or_none(name: str) -> Rules | None:
    try:
        return get_game(name)
    except UnknownGameError:
        return None


def game_display_title(name: str) -> str:
    game = game_or_none(name)
    return game.title if game is not None else name


def record_json(finished: FinishedGame) -> str:
    """The game record as ``pbem replay`` reads it, with ``<>&`` as JSON escapes.

    Those characters can stand only inside JSON strings, so escaping them
    keeps the record valid and the same, while no name in it can ever read
    as markup, whatever a browser or a host makes of the file.
    """
    text = _record_text(finished.record())
    return text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")


def _record_text(record: GameRecord) -> str:
    """``record.dumps()``, the same bytes, with the moves written by hand.

    ``json.dumps`` with ``indent`` runs in pure Python, and the moves are
    most of a record: they are a list of ``{"move", "seat"}`` objects, one
    key per line at a fixed depth, each string dumped by the C encoder.  The
    record is dumped with a marker for the moves, which the list then replaces
    (the first one: of the keys sorted, only ``data_version`` and ``game``,
    the server's own words, come before ``moves``).
    """
    data = record.to_json()
    data["moves"] = _MOVES_MARK
    text = json.dumps(data, indent=1, ensure_ascii=False, sort_keys=True)
    marker = json.dumps(_MOVES_MARK)
    if not record.moves:
        block = "[]"
    else:
        # ``encode_basestring`` is what ``json.dumps(text, ensure_ascii=False)`` calls
        items = ",\n".join(f'  {{\n   "move": {encode_basestring(move)},\n'
                           f'   "seat": {int(seat)}\n  }}' for seat, move in record.moves)
        block = f"[\n{items}\n ]"
    return text.replace(marker, block, 1) + "\n"


def page_title(finished: FinishedGame, title: str) -> str:
    s = finished.summary
    return f"{game_title(s, title)}: {', '.join(one_line(n) for n in s.names)}"


def render_game(finished: FinishedGame, renderer: Renderer) -> Rendered:
    s = finished.summary
    page = paths.game_page(s.id)
    game = game_or_none(s.game)
    title = game.title if game is not None else s.game
    out = Rendered()
    out.files[f"{page}.json"] = record_json(finished)
    text = None
    if game is None:
        out.problem = f"no game called {s.game!r} is registered"
    else:
        course, kept = drawn.unpack(finished.tables) if finished.tables else (None, {})
        told = _retold(game, finished, title, course, kept)
        try:
            visitor, points, final, known, taken = told or _replayed(game, finished, title,
                                                                     kept)
        except RecordError as exc:
            out.problem = str(exc)
        else:
            result, notes = _final_result(game, final, s.result, known)
            svg_file = f"{s.id}.svg"
            text = visitor.document(result, points, svg_file, notes)
            out.files[f"{page}.svg"] = chart.svg(points, s.names, CHART_TITLE)
            folder = page.rsplit("/", 1)[0]
            for name, svg in visitor.pictures.items():
                out.files[f"{folder}/{name}"] = svg
            # kept anew when the page drew a table, or has a course to keep the row lacks
            # (one that cannot be kept, :meth:`drawn.Course.text`, would be each build)
            if visitor.drew or (course is None and taken is not None
                                and taken.text() is not None):
                out.tables = drawn.pack(visitor.tables, taken)
    if text is None:
        text = degraded_document(s, title, game, finished.moves, out.problem)
    out.files[f"{page}.md"] = text
    out.files[f"{page}.html"] = renderer.page(
        page, page_title(finished, title), text, kind="game",
        downloads=[("Game record (JSON)", f"{s.id}.json")]
        + ([(f"About the data of {title}", paths.rel(page, paths.html(about_page(s.game))))]
           if game is not None else []),
    )
    return out


#: what a page takes of its replay: the Markdown page's visitor, the score track's
#: points, the final state (None: not replayed), the engine's result of it where the
#: replay asked it already (else None), and the course to keep (None: none to keep)
Told = tuple[GamePage, drawn.Points, State | None, dict[str, Any] | None, drawn.Course | None]


def _retold(game: Rules, finished: FinishedGame, title: str, course: drawn.Course | None,
            kept: drawn.Tables) -> Told | None:
    """The page told from its kept course and tables, without a replay, or None where
    they do not tell it (none kept, a table or a sentence missing, or a result that is
    not the one stored: the replay's second, checked run decides that page)."""
    if course is None or not _stored_result_agrees(course.result, finished.summary.result):
        return None
    s = finished.summary
    visitor = GamePage(s, title, finished.moves, finished.talk, kept)
    if not visitor.retell(game, course.rounds):
        return None
    return visitor, course.points, None, course.result, None


def _replayed(game: Rules, finished: FinishedGame, title: str, kept: drawn.Tables) -> Told:
    """The page's visitors over one replay of the game's log, its final state, and
    the engine's result of it where the replay asked it already (else None), with the
    course to keep: of a replay as played that ends as the game did (the only one a
    course is kept of: a page told from it needs no check again).

    The log is a finished game's, each move of which ``apply`` accepted when it was
    played: it replays without checking each move again (``apply_played``; checking
    costs as much as playing), which ``pbem verify`` does for every stored log.  Should
    that replay fail, or end where the game did not (not over, or with another result
    than the one stored), the log replays once more through ``apply``, whose refusal of
    a move says which and why (:class:`RecordError`).
    """
    s = finished.summary
    record = finished.record()
    visitor, track = GamePage(s, title, finished.moves, finished.talk, kept), chart.ScoreTrack()
    rounds = drawn.RoundsTaken()
    try:
        final = walk(game, record, [visitor, track, rounds], played=True)
        if game.is_over(final):
            result = game.result(final).to_json()
            if _stored_result_agrees(result, s.result):
                course = drawn.Course(rounds.rounds, track.points, result)
                return visitor, track.points, final, result, course
    except Exception:  # an unchecked move that was not legal may fail in any way
        pass
    visitor, track = GamePage(s, title, finished.moves, finished.talk, kept), chart.ScoreTrack()
    final = walk(game, record, [visitor, track])
    return visitor, track.points, final, None, None


def _stored_result_agrees(result: dict[str, Any], stored: dict[str, Any] | None) -> bool:
    return not stored or all(stored.get(k) == result[k] for k in _RESULT_KEYS)


def _final_result(game: Rules, final: State | None, stored: dict[str, Any] | None,
                  known: dict[str, Any] | None = None) -> tuple[dict[str, Any], list[str]]:
    """The engine's result of the replayed game (``known``: of a game over, asked
    already or kept; else ``final`` is the state replayed), with a note if the stored
    one differs."""
    result = known
    if result is None:
        assert final is not None
        if not game.is_over(final):
            return dict(stored or {}), ["The move log ends before the game does; the result "
                                        "shown is the one stored when the game was closed."]
        result = game.result(final).to_json()
    notes = []
    if not _stored_result_agrees(result, stored):
        notes.append("The result stored when the game ended differed from this replay "
                     f"(stored scores {stored.get('scores')}); the replay is shown.")
    return result, notes
