"""Fixtures for the web tests: an app per test on the test database, its clients.

``ctx`` and ``smtp_ctx`` are the root fixtures' with the archive folder moved
into the test's temporary folder too (a tick that sees a finished game builds
the archive).
"""

from __future__ import annotations

import pytest

from pbem.context import Context, make_context
from pbem.web import create_app


def _ctx(tmp_path, **sections: dict[str, str]) -> Context:
    return make_context(
        server={"instance": str(tmp_path / "instance"), "base_url": "http://pbem.test"},
        archive={"site_dir": str(tmp_path / "site")},
        **sections,
    )


@pytest.fixture
def ctx(tmp_path) -> Context:
    return _ctx(tmp_path)


@pytest.fixture
def smtp_ctx(tmp_path, smtp_server) -> Context:
    return _ctx(tmp_path, mail={"transport": "smtp", "smtp_host": smtp_server.host,
                                "smtp_port": str(smtp_server.port), "backoff_seconds": "60"})


@pytest.fixture
def app(ctx, database):
    return create_app(ctx)


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def sqlite_client(ctx, sqlite_database):
    """A client on SQLite only, for tests about pages rather than the database."""
    return create_app(ctx).test_client()

