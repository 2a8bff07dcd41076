"""Fixtures of the lifecycle's tests."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from pbem.cli import main


@pytest.fixture
def cli(tmp_path, monkeypatch, sqlite_database):
    """``pbem`` on the test's own database (the ``ctx`` fixture's instance folder)."""
    monkeypatch.setenv("PBEM_SERVER_INSTANCE", str(tmp_path / "instance"))
    monkeypatch.setenv("PBEM_SERVER_BASE_URL", "http://pbem.test")
    monkeypatch.setenv("PBEM_ARCHIVE_SITE_DIR", str(tmp_path / "site"))
    monkeypatch.setenv("PBEM_DATABASE_URL", "")
    monkeypatch.delenv("DATABASE_URL", raising=False)
    runner = CliRunner()
    return lambda *args: runner.invoke(main, list(args), catch_exceptions=False)
