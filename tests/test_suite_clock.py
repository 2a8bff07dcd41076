"""The suite's own clock: pytest times the tests by the real one, whatever a test froze."""

from __future__ import annotations

from _pytest import timing
from freezegun import freeze_time


def test_pytest_times_a_test_by_the_real_clock_while_freezegun_holds_it():
    """``--durations`` and the longest tests' list read ``_pytest.timing``: a test whose
    fixture froze the clock took 1.8 billion seconds there (tests/conftest.py)."""
    before = timing.Instant()
    with freeze_time("2001-02-03 04:05:06"):
        during = timing.Instant()
    assert abs(during.time - before.time) < 600
    assert 0 <= during.perf_count - before.perf_count < 600
