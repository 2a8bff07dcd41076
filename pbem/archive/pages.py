"""The files of one game's page: Markdown, HTML, the score chart and the record.

``render_game`` is pure: a :class:`FinishedGame` in, ``{path: text}`` out.
It replays the record once with two visitors (the Markdown page and the
score track), as played, without checking each move again (``_replayed``): the
moves read as the sentences stored on their rows, and the replay gives the state
after each round and the scores.  The tables of those states are drawn, or read as
an earlier build drew them (``FinishedGame.tables``), and handed back for keeping
when the page drew any (``Rendered.tables``).  A game whose record
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
        try:
            visitor, track, final, known = _replayed(game, finished, title)
        except RecordError as exc:
            out.problem = str(exc)
        else:
            result, notes = _final_result(game, final, s.result, known)
            svg_file = f"{s.id}.svg"
            text = visitor.document(result, track.points, svg_file, notes)
            out.files[f"{page}.svg"] = chart.svg(track.points, s.names, CHART_TITLE)
            folder = page.rsplit("/", 1)[0]
            for name, svg in visitor.pictures.items():
                out.files[f"{folder}/{name}"] = svg
            if visitor.drew:
                out.tables = drawn.pack(visitor.tables)
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


def _replayed(game: Rules, finished: FinishedGame, title: str,
              ) -> tuple[GamePage, chart.ScoreTrack, State, dict[str, Any] | None]:
    """The page's two visitors over one replay of the game's log, its final state, and
    the engine's result of it where the replay asked it already (else None).

    The log is a finished game's, each move of which ``apply`` accepted when it was
    played: it replays without checking each move again (``apply_played``; checking
    costs as much as playing), which ``pbem verify`` does for every stored log.  Should
    that replay fail, or end where the game did not (not over, or with another result
    than the one stored), the log replays once more through ``apply``, whose refusal of
    a move says which and why (:class:`RecordError`).
    """
    s = finished.summary
    record = finished.record()
    kept = drawn.unpack(finished.tables) if finished.tables else None
    visitor, track = GamePage(s, title, finished.moves, finished.talk, kept), chart.ScoreTrack()
    try:
        final = walk(game, record, [visitor, track], played=True)
        if game.is_over(final):
            result = game.result(final).to_json()
            if _stored_result_agrees(result, s.result):
                return visitor, track, final, result
    except Exception:  # an unchecked move that was not legal may fail in any way
        pass
    visitor, track = GamePage(s, title, finished.moves, finished.talk, kept), chart.ScoreTrack()
    return visitor, track, walk(game, record, [visitor, track]), None


def _stored_result_agrees(result: dict[str, Any], stored: dict[str, Any] | None) -> bool:
    return not stored or all(stored.get(k) == result[k] for k in _RESULT_KEYS)


def _final_result(game: Rules, final: dict[str, Any], stored: dict[str, Any] | None,
                  known: dict[str, Any] | None = None) -> tuple[dict[str, Any], list[str]]:
    """The engine's result of the replayed game (``known``: of a game over, asked
    already), with a note if the stored one differs."""
    if known is None and not game.is_over(final):
        return dict(stored or {}), ["The move log ends before the game does; the result "
                                    "shown is the one stored when the game was closed."]
    result = known if known is not None else game.result(final).to_json()
    notes = []
    if not _stored_result_agrees(result, stored):
        notes.append("The result stored when the game ended differed from this replay "
                     f"(stored scores {stored.get('scores')}); the replay is shown.")
    return result, notes
