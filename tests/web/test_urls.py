"""The templates' ``url_for`` (``pbem.web.urls``) writes every address as Flask's does:
kept, by pattern, or Flask's own, under any application root."""

from __future__ import annotations

import pytest
from flask import url_for as flask_url_for

from pbem.web import create_app

#: values of each kind: plain ones (a pattern's) and ones Werkzeug quotes (Flask's)
STRINGS = ["eyJnIjoyNSwicyI6Mn0.awA2QA.YQ1X-Sa_x", "riga", "a b", "ä", "x/y", "1", "%41"]
NUMBERS = [0, 7, 123456, -3]


def _values(rule, n: int) -> dict:
    values = {}
    for i, (name, converter) in enumerate(sorted(rule._converters.items())):
        numbers = type(converter).__name__ == "IntegerConverter"
        pool = NUMBERS if numbers else STRINGS
        value = pool[(n + i) % len(pool)]
        if numbers and value < 0:
            value = 5  # the integer converter refuses a sign
        if not numbers and "/" in value and type(converter).__name__ != "PathConverter":
            value = "x%2Fy"
        values[name] = value
    return values


@pytest.mark.parametrize("root", ["/", "/pbem/"])
def test_every_endpoint_is_written_as_flask_writes_it(ctx, sqlite_database, root):
    app = create_app(ctx)
    ours = app.jinja_env.globals["url_for"]
    rules = [r for r in app.url_map.iter_rules() if r.endpoint != "static"]
    assert len(rules) > 30
    with app.test_request_context("/", base_url=f"http://localhost{root}"):
        for rule in rules:
            for n in range(len(STRINGS)):
                values = _values(rule, n)
                for extra in ({}, {"r": "north-1"}, {"r": "a b"}):
                    asked = {**values, **extra}
                    # twice: made, then from its pattern
                    assert ours(rule.endpoint, **asked) == flask_url_for(rule.endpoint,
                                                                         **asked)
                    assert ours(rule.endpoint, **asked) == flask_url_for(rule.endpoint,
                                                                         **asked)
        for name in ("style.css", "favicon.svg", "missing.css"):
            assert ours("static", filename=name) == flask_url_for("static", filename=name)
