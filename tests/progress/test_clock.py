"""RINGBOOK_NOW: every command and the app run as if it were that time, and a bad value stops them in a line."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest

from tui.cli.main import main
from tui.progress import clock
from tui.progress.store import ProgressStore


def test_the_clock_starts_at_ringbook_now_and_runs_on(monkeypatch):
    monkeypatch.setenv("RINGBOOK_NOW", "2026-12-01T09:00:00+01:00")
    moment = clock.now()
    start = datetime(2026, 12, 1, 8, tzinfo=UTC)
    assert start <= moment < start + timedelta(hours=1) and moment.utcoffset() == timedelta(hours=1)
    monkeypatch.delenv("RINGBOOK_NOW")
    assert abs(clock.now() - datetime.now(UTC)) < timedelta(minutes=1)


def test_the_store_and_its_export_use_ringbook_now(monkeypatch, tmp_path, capsys):
    monkeypatch.setenv("RINGBOOK_NOW", "2031-03-04T23:30:00-05:00")
    store = ProgressStore.open(tmp_path)
    attempt = store.record_attempt("0.1", "1.75", "correct")
    assert attempt.created_utc.startswith("2031-03-05T04:3") and attempt.local_date == "2031-03-04"
    assert attempt.utc_offset_minutes == -300 and store.streak().current == 1
    store.close()
    assert main(["--data-dir", str(tmp_path), "progress", "export"]) == 0
    assert json.loads(capsys.readouterr().out)["exported_utc"].startswith("2031-03-05T04:3")


@pytest.mark.parametrize("value, says", [
    ("tomorrow", "RINGBOOK_NOW is not an ISO 8601 time ('tomorrow')"),
    ("2026-12-01T09:00:00", "RINGBOOK_NOW has no UTC offset"),
    ("2026-13-01T09:00:00+01:00", "RINGBOOK_NOW is not an ISO 8601 time"),
    ("1999-12-31T23:00:00+00:00", "RINGBOOK_NOW is outside the years 2000 to 8999"),
])
def test_a_malformed_ringbook_now_is_one_line_and_exit_2(monkeypatch, tmp_path, capsys, value, says):
    monkeypatch.setenv("RINGBOOK_NOW", value)
    assert main(["--data-dir", str(tmp_path), "progress"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.splitlines()) == 1 and err.startswith(f"ringbook: {says}")
    assert not (tmp_path / "progress.sqlite3").exists()


def test_ringbook_now_starts_when_first_read_not_when_the_process_started(monkeypatch):
    """A long-lived process (a test worker) that sets RINGBOOK_NOW minutes after importing the clock must
    still see that moment, not that moment plus the minutes it had been running."""
    from datetime import datetime, timedelta

    from tui.progress import clock

    ticks = {"now": 5000.0}   # the monotonic clock, long after import
    monkeypatch.setattr(clock.time, "monotonic", lambda: ticks["now"])
    monkeypatch.setattr(clock, "_anchor", None)   # another test in this worker may have read the same value
    monkeypatch.setenv("RINGBOOK_NOW", "2026-12-01T09:00:00+01:00")
    start = datetime.fromisoformat("2026-12-01T09:00:00+01:00")
    assert clock.now() == start
    ticks["now"] += 2.5
    assert clock.now() == start + timedelta(seconds=2.5)
    monkeypatch.setenv("RINGBOOK_NOW", "2026-12-04T09:00:00+01:00")
    assert clock.now() == start + timedelta(days=3)
