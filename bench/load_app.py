"""pbem's web app with one extra route, for the load benches (``bench/load.py``) only.

``POST /bench-bare`` writes one row through ``pbem.models.write_transaction`` and
answers 204: the cheapest write a request can do, on the same server, the same
database, the same connection handling per request and (on SQLite) the same
writer lock as a move.  pbem itself never serves this route.

    gunicorn --workers 4 --pythonpath bench 'load_app:build_app()'
    python bench/load_app.py serve --host 127.0.0.1 --port 5001   # `pbem serve` + the route

Settings come from ``PBEM_*`` variables as for pbem itself.  The table of the
bare route (``bench_row``) is created by the bench before the server starts.
"""

from __future__ import annotations

import sys

import peewee as pw
from flask import Flask

from pbem.models import BaseModel, write_transaction

BARE_PATH = "/bench-bare"


class BenchRow(BaseModel):
    """The one row the bare route writes."""

    value = pw.IntegerField()

    class Meta:
        table_name = "bench_row"


def add_bare_route(app: Flask) -> Flask:
    @app.post(BARE_PATH)
    def bench_bare():
        with write_transaction():
            BenchRow.create(value=1)
        return "", 204

    return app


def build_app() -> Flask:
    """pbem's app (``pbem.web.create_app()``) with the bare route."""
    from pbem.web import create_app

    return add_bare_route(create_app())


def serve(argv: list[str]) -> None:
    """``pbem serve`` itself (the development server, threaded), its app given the route."""
    import pbem.web
    from pbem.cli import main

    create_app = pbem.web.create_app
    pbem.web.create_app = lambda ctx=None: add_bare_route(create_app(ctx))
    main(["serve", *argv], prog_name="pbem")


if __name__ == "__main__":
    if sys.argv[1:2] != ["serve"]:
        raise SystemExit(__doc__)
    serve(sys.argv[2:])
