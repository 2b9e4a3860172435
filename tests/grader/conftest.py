"""Fixtures for the engine's tests."""

import pytest

from grader import verdict


@pytest.fixture
def unhurried(monkeypatch: pytest.MonkeyPatch) -> None:
    """A minute for each grade instead of the learner's second, for tests of what a proof decides rather than
    how long it may take: on a loaded machine the sympy worker can miss the second, and the test would then
    race the clock (seen: 2 to 4 of the suite's proofs at a load average of 20)."""
    monkeypatch.setattr(verdict, "TIME_BOUND", 60.0)
