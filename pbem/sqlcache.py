"""Hot queries whose SQL text is built once per kind of database, then run with new values.

Peewee builds a query's SQL anew on every run, walking every column and condition: for a
wide row (a game, a table of seats with their players) that costs about a millisecond,
more than SQLite takes to answer, and a click runs dozens of queries.  A
:class:`Prepared` query is built once with marker values; its SQL and the places of the
markers among its parameters are kept per kind of database (the SQL differs only by
dialect), and each run sends that SQL with the values in those places.  Rows come back
as the query's own models (joins included), through peewee's cursor wrapper.

Only for queries whose shape never changes and whose values are whole numbers (ids,
move numbers, seat indexes, limits); a value of another kind is converted by peewee,
which a marker cannot stand for.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import peewee as pw

#: the first marker; the n-th value is ``_MARK - n`` (no id or move number comes near)
_MARK = -7_301_946_557


class Prepared:
    """A query of ``model`` (``build(*values)`` returns it), run by :meth:`rows`."""

    def __init__(self, model: type[pw.Model], build: Callable[..., pw.BaseQuery],
                 arity: int):
        self.model = model
        self.build = build
        self.arity = arity
        self._made: dict[type, tuple[pw.BaseQuery, str, list[tuple[bool, Any]]]] = {}
        self._lock = threading.Lock()

    def _made_for(self, database: pw.Database) -> tuple[pw.BaseQuery, str, list[Any]]:
        made = self._made.get(type(database))
        if made is None:
            marks = [_MARK - i for i in range(self.arity)]
            query = self.build(*marks)
            sql, params = query.sql()
            # each parameter: the value given at that mark's place, or a constant of the shape
            slots = [(True, marks.index(p)) if type(p) is int and p in marks else (False, p)
                     for p in params]
            if {i for is_mark, i in slots if is_mark} != set(range(self.arity)):
                raise ValueError("every value must reach the SQL as a whole number")
            made = (query, sql, slots)
            with self._lock:
                self._made[type(database)] = made
        return made

    def rows(self, *values: int) -> list[Any]:
        """The rows of the query with ``values`` in the markers' places."""
        if len(values) != self.arity or not all(type(v) is int for v in values):
            raise TypeError(f"{self.arity} whole numbers expected, not {values!r}")
        database = self.model._meta.database
        database = getattr(database, "obj", None) or database  # behind a DatabaseProxy
        template, sql, slots = self._made_for(database)
        params = [values[v] if is_mark else v for is_mark, v in slots]
        cursor = database.execute_sql(sql, params)
        return list(template._get_cursor_wrapper(cursor))

    def first(self, *values: int) -> Any:
        found = self.rows(*values)
        return found[0] if found else None
