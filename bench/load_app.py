"""pbem's web app with bench-only routes, for ``bench/load.py`` and ``bench/move_latency.py``.

The **floor click** is the cheapest click a player could make on this stack, in
the shape of a real one (confirm page, POST, the page it redirects to), served by
the same app, server, database and connection handling per request:

``GET /bench-floor/<id>``  reads one row and renders pbem's base template around it
``POST /bench-floor``      inserts one row and commits it through
                           ``pbem.models.write_transaction`` (on SQLite the same
                           writer lock as a move), then redirects (303) to the GET
                           of the new row

Every response carries ``X-Bench-Statements``: the SQL statements the request sent
(peewee's query hook, plus BEGIN, COMMIT and ROLLBACK, which peewee sends without
it), and ``X-Bench-Engine``: the seconds the request spent in the games' engines
(every public method of each registered game's ``Rules``: rules, menus, views, sentences,
text and pictures; a call inside another one counted once, in the outermost), and
``X-Bench-GC``: the request's CPU seconds in the server, the CPU seconds of the cyclic
garbage collector's collections in it (of them, those inside an engine call) and the
collections of each generation.  pbem itself never serves any of this.

    gunicorn --workers 4 --pythonpath bench 'load_app:build_app()'
    python bench/load_app.py serve --host 127.0.0.1 --port 5001   # `pbem serve` + the route

Settings come from ``PBEM_*`` variables as for pbem itself.  The table of the
bare route (``bench_row``) is created by the bench before the server starts.
"""

from __future__ import annotations

import gc
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import peewee as pw
from flask import Blueprint, Flask, redirect, render_template, url_for

from pbem.models import BaseModel, db, write_transaction

FLOOR_PATH = "/bench-floor"
STATEMENTS_HEADER = "X-Bench-Statements"
ENGINE_HEADER = "X-Bench-Engine"
GC_HEADER = "X-Bench-GC"


class BenchRow(BaseModel):
    """The one row the bare route writes."""

    value = pw.IntegerField()

    class Meta:
        table_name = "bench_row"


floor = Blueprint("bench_floor", __name__,
                  template_folder=str(Path(__file__).resolve().parent / "templates"))


@floor.get(f"{FLOOR_PATH}/<int:row_id>")
def read(row_id: int) -> Any:
    return render_template("bench_floor.html", row=BenchRow.get_by_id(row_id))


@floor.post(FLOOR_PATH)
def write() -> Any:
    with write_transaction():
        row = BenchRow.create(value=2)
    return redirect(url_for("bench_floor.read", row_id=row.id), code=303)


#: statements of the request each thread is serving
_counts = threading.local()


def _count(*_args: Any) -> None:
    _counts.n = getattr(_counts, "n", 0) + 1


def count_statements(app: Flask) -> None:
    """Count what each request sends to the database; the count in a response header."""
    database = db.obj
    database.query_hooks.append(_count)
    for name in ("begin", "commit", "rollback"):  # sent on the cursor, past the hook
        method = getattr(database, name)

        def counted(*args: Any, _method: Any = method, **kwargs: Any) -> Any:
            _count()
            return _method(*args, **kwargs)

        setattr(database, name, counted)

    @app.before_request
    def _start() -> None:
        _counts.n = 0

    @app.after_request
    def _tell(response: Any) -> Any:
        response.headers[STATEMENTS_HEADER] = str(getattr(_counts, "n", 0))
        return response


#: seconds in the engines of the request each thread is serving, and the depth of calls
_engine = threading.local()


def _timed(method: Any) -> Any:
    def timed(*args: Any, **kwargs: Any) -> Any:
        depth = getattr(_engine, "depth", 0)
        _engine.depth = depth + 1
        started = time.perf_counter()
        try:
            return method(*args, **kwargs)
        finally:
            _engine.depth = depth
            if depth == 0:  # the outermost engine call: the inner ones are inside it
                _engine.seconds = (getattr(_engine, "seconds", 0.0)
                                   + time.perf_counter() - started)
    return timed


def wrap_engines(wrap: Callable[[str, str, Any], Any]) -> None:
    """Every public method of each registered game's ``Rules`` replaced, on the
    registered instance (the one the server's code gets from the registry), by
    ``wrap(game, name, method)``."""
    from pbem.games import all_games

    for rules in all_games():
        for name in dir(type(rules)):
            if name.startswith("_"):
                continue
            method = getattr(rules, name, None)
            if callable(method) and not isinstance(method, type):
                setattr(rules, name, wrap(rules.name, name, method))


def time_engines(app: Flask) -> None:
    """Time what each request spends in the games' engines; the seconds in a header.

    Every public method of each registered game's ``Rules`` is wrapped on the registered
    instance (the one the server's code gets from the registry), pictures included."""
    wrap_engines(lambda _kind, _name, method: _timed(method))

    @app.before_request
    def _start() -> None:
        _engine.seconds, _engine.depth = 0.0, 0

    @app.after_request
    def _tell(response: Any) -> Any:
        response.headers[ENGINE_HEADER] = f"{getattr(_engine, 'seconds', 0.0):.6f}"
        return response


#: the cyclic garbage collector's work in the request each thread is serving
_gc = threading.local()


def _collecting(phase: str, info: dict[str, Any]) -> None:
    if phase == "start":
        _gc.started = time.thread_time()  # CPU: a busy machine's preemption left out
        return
    started = getattr(_gc, "started", None)
    if started is None or not hasattr(_gc, "seconds"):  # outside a request
        return
    seconds = time.thread_time() - started
    _gc.seconds += seconds
    if getattr(_engine, "depth", 0):  # counted in the engines' time too
        _gc.in_engine += seconds
    _gc.collections[info["generation"]] += 1


def time_collections(app: Flask) -> None:
    """Time the garbage collector's collections in each request (``gc.callbacks``), and
    the server's CPU seconds for it; in a header: ``cpu gc in_engine g0 g1 g2`` (CPU
    seconds of the request, of its collections, of those inside an engine call, then
    collections of each generation).  CPU, not wall time: on a busy machine a collection
    preempted midway would count another process's time."""
    gc.callbacks.append(_collecting)

    @app.before_request
    def _start() -> None:
        _gc.seconds, _gc.in_engine, _gc.collections = 0.0, 0.0, [0, 0, 0]
        _gc.cpu = time.thread_time()

    @app.after_request
    def _tell(response: Any) -> Any:
        n = getattr(_gc, "collections", [0, 0, 0])
        response.headers[GC_HEADER] = (
            f"{time.thread_time() - getattr(_gc, 'cpu', time.thread_time()):.6f} "
            f"{getattr(_gc, 'seconds', 0.0):.6f} {getattr(_gc, 'in_engine', 0.0):.6f} "
            f"{n[0]} {n[1]} {n[2]}")
        return response


def add_bench_routes(app: Flask) -> Flask:
    """The floor's routes, the statement count, the engines' time and the collector's
    on ``app``."""
    app.register_blueprint(floor)
    count_statements(app)
    time_engines(app)
    time_collections(app)
    return app


def build_app() -> Flask:
    """pbem's app as gunicorn serves it (``pbem.web.serving_app()``) with the bench's
    routes."""
    from pbem.web import serving_app

    return add_bench_routes(serving_app())


def serve(argv: list[str]) -> None:
    """``pbem serve`` itself (the development server, threaded), its app given the route
    (``serving_app`` calls ``create_app`` through the module, so the route is in the app
    before what it loaded is frozen)."""
    import pbem.web
    from pbem.cli import main

    create_app = pbem.web.create_app
    pbem.web.create_app = lambda ctx=None: add_bench_routes(create_app(ctx))
    main(["serve", *argv], prog_name="pbem")


if __name__ == "__main__":
    if sys.argv[1:2] != ["serve"]:
        raise SystemExit(__doc__)
    serve(sys.argv[2:])
