"""Fixtures for the engine's tests."""

import pytest

from grader import verdict


@pytest.fixture
def unhurried(monkeypatch: pytest.MonkeyPatch) -> None:
    """A minute of the proof worker's CPU for each proof instead of the learner's second, for tests of what a
    proof decides rather than what it may spend. (The budget is CPU time, so a loaded machine no longer makes a
    proof miss it; before it was, 2 to 4 of the suite's proofs did at a load average of 20.)"""
    monkeypatch.setattr(verdict, "TIME_BOUND", 60.0)
