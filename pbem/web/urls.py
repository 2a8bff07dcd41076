"""The templates' ``url_for``, answering most addresses without building them again.

Flask's ``url_for`` costs tens of microseconds (its defaults, the adapter's build, the
quoting), and a click's three pages ask for about two dozen addresses.  What an address
is depends only on the endpoint, the names and kinds of the values, the application's
root and the values themselves (pbem has no ``url_defaults`` but the static files'
version, no subdomains or hosts):

* an address without values (the header's links) and a static file's (by its version,
  ``assets.Versions.named``) is built once per root and kept;
* an address whose values are all plain (whole numbers from 0, or strings of letters,
  digits, ``.``, ``_`` and ``-``, such as a link's token: nothing Werkzeug quotes) is
  built once per endpoint, names and root with marker values in their places, and each
  call puts the values in the markers' places: what Werkzeug's converters write for
  them (``str``, quoting nothing), in the path or the query alike.

Anything else (another converter, a rule with defaults or an endpoint with two, a value
to quote, an endpoint relative to the blueprint, a call outside a request) is Flask's.
``tests/web/test_urls.py`` compares the two for every endpoint of the app.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from flask import Flask, has_request_context, request
from werkzeug.routing.converters import IntegerConverter, UnicodeConverter

#: a value that Werkzeug writes as it is, in a path and in a query
_PLAIN = re.compile(r"[A-Za-z0-9._-]+")
#: the markers of a pattern: the n-th value's, by its kind (never in an address otherwise)
_INT_MARK = 7_301_946_557_000
_STR_MARK = "pbem0mark{}z"


try:  # Flask's context variable of the request: its ``request`` proxy costs several
    # times as much, and a page asks for a dozen addresses
    from flask.globals import _cv_request
except ImportError:  # a Flask with other names: its public proxies then
    _cv_request = None


def _request_context() -> Any:
    """The context of the request being answered, or None outside one."""
    if _cv_request is not None:
        return _cv_request.get(None)
    return _Answering(request.script_root) if has_request_context() else None


class _Answering:
    """What ``url_for`` reads of a request context, where Flask's is out of reach."""

    def __init__(self, script_root: str):
        self.request = self
        self.script_root = script_root


def _plain(value: Any) -> bool:
    kind = type(value)
    return (kind is int and value >= 0) or (kind is str and _PLAIN.fullmatch(value) is not None)


def _patterned_endpoints(app: Flask) -> set[str]:
    """The endpoints a pattern stands for: one rule, no defaults, values converted by
    ``str`` (Werkzeug's string converter quotes nothing plain; its integer converter,
    without fixed digits, writes the number)."""
    rules: dict[str, list[Any]] = {}
    for rule in app.url_map.iter_rules():
        rules.setdefault(rule.endpoint, []).append(rule)
    return {endpoint for endpoint, found in rules.items()
            if len(found) == 1 and not found[0].defaults and not found[0].host
            and not found[0].subdomain and all(
                type(c) is UnicodeConverter
                or (type(c) is IntegerConverter and not c.fixed_digits)
                for c in found[0]._converters.values())}


def install(app: Flask, named: Callable[[str], str | None]) -> None:
    """``url_for`` for ``app``'s templates; ``named``: a static file's current version."""
    flask_url_for = app.url_for
    patterned = _patterned_endpoints(app)
    made: dict[tuple[Any, ...], str] = {}
    patterns: dict[tuple[Any, ...], tuple[list[str], list[int]] | None] = {}

    def pattern(endpoint: str, values: dict[str, Any]) -> tuple[list[str], list[int]] | None:
        marks = {name: _INT_MARK + i if type(value) is int else _STR_MARK.format(i)
                 for i, (name, value) in enumerate(values.items())}
        try:
            built = flask_url_for(endpoint, **marks)
        except Exception:  # noqa: BLE001 - a value the rule refuses: Flask's, each time
            return None
        places = [str(mark) for mark in marks.values()]
        if any(built.count(place) != 1 for place in places):
            return None
        # the address cut at the markers: its pieces, and which value goes between them
        at = sorted((built.index(place), i, place) for i, place in enumerate(places))
        pieces, order, start = [], [], 0
        for index, i, place in at:
            pieces.append(built[start:index])
            order.append(i)
            start = index + len(place)
        pieces.append(built[start:])
        return pieces, order

    def url_for(endpoint: str, **values: Any) -> str:
        answering = _request_context()
        if endpoint.startswith(".") or answering is None:
            # relative to the request's blueprint; outside a request, an absolute URL
            return flask_url_for(endpoint, **values)
        root = answering.request.script_root
        if not values or (endpoint == "static" and len(values) == 1 and "filename" in values):
            filename = values.get("filename", "")
            key = (endpoint, filename, named(filename) if filename else None, root)
            url = made.get(key)
            if url is None:
                url = made[key] = flask_url_for(endpoint, **values)
            return url
        if endpoint not in patterned or not all(_plain(v) for v in values.values()):
            return flask_url_for(endpoint, **values)
        key = (endpoint, tuple(values), tuple(type(v) for v in values.values()), root)
        if key not in patterns:
            patterns[key] = pattern(endpoint, values)
        found = patterns[key]
        if found is None:
            return flask_url_for(endpoint, **values)
        pieces, order = found
        given = [str(value) for value in values.values()]
        url = pieces[0]
        for i, piece in zip(order, pieces[1:], strict=True):
            url += given[i] + piece
        return url

    app.jinja_env.globals["url_for"] = url_for
