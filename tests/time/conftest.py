"""Fixtures for the time tests: a context, a frozen clock, a tick driver (see ``time_helpers``)."""

from __future__ import annotations

import pytest
from freezegun import freeze_time
from time_helpers import REAL_TIME_FOR, Sim

from pbem.context import Context, make_context


@pytest.fixture
def ctx(tmp_path) -> Context:
    return make_context(
        server={"instance": str(tmp_path / "instance"), "base_url": "http://pbem.test"},
        archive={"site_dir": str(tmp_path / "site")},
    )


@pytest.fixture
def frozen():
    """Monday 2 March 2026, 09:00 UTC: 18:00 in Tokyo, 10:00 in Berlin, 01:00 in Los Angeles."""
    with freeze_time("2026-03-02 09:00:00", ignore=REAL_TIME_FOR) as f:
        yield f


@pytest.fixture
def sim(ctx, database, frozen) -> Sim:
    return Sim(ctx, frozen)
