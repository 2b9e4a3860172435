"""The one clock ringbook reads, so that `RINGBOOK_NOW` can move it.

`RINGBOOK_NOW=2026-12-01T09:00:00+01:00` starts the clock at that moment when ringbook first reads it (in a
test process that sets it again and again, each new value starts afresh), and it runs on from there at
the usual pace (attempts made a second apart stay a second apart, in order). Tests,
demos and instructors use it to show what review looks like days later without waiting for them.
"""

from __future__ import annotations

import os
import time
from datetime import datetime, timedelta

ENVIRONMENT = "RINGBOOK_NOW"
EARLIEST_YEAR, LATEST_YEAR = 2000, 8999   # the years a stored time may have (tui.progress.store)

_anchor: tuple[str, float] | None = None   # RINGBOOK_NOW as last read, and when it was first read


class ClockError(ValueError):
    """RINGBOOK_NOW is set to something that is not a time with its offset; the message says so in a line."""


def now() -> datetime:
    """The current time with its UTC offset: the machine's, or RINGBOOK_NOW's moved on by the time since start."""
    global _anchor
    text = os.environ.get(ENVIRONMENT)
    if not text:
        return datetime.now().astimezone()
    if _anchor is None or _anchor[0] != text:   # runs on from the first read of this value, not from import
        _anchor = (text, time.monotonic())
    return start_time(text) + timedelta(seconds=time.monotonic() - _anchor[1])


def start_time(text: str) -> datetime:
    """RINGBOOK_NOW's moment; raises ClockError for text that is not an ISO 8601 time with an offset."""
    example = "such as 2026-12-01T09:00:00+01:00"
    try:
        moment = datetime.fromisoformat(text.strip())
    except ValueError:
        raise ClockError(f"{ENVIRONMENT} is not an ISO 8601 time ({text[:40]!r}); give one {example}.") from None
    if moment.tzinfo is None:
        raise ClockError(f"{ENVIRONMENT} has no UTC offset ({text[:40]!r}); give one {example}.")
    if not EARLIEST_YEAR <= moment.year <= LATEST_YEAR:
        raise ClockError(f"{ENVIRONMENT} is outside the years {EARLIEST_YEAR} to {LATEST_YEAR} ({text[:40]!r}).")
    return moment


def problem() -> str | None:
    """What is wrong with RINGBOOK_NOW, in a line, or None when it is unset or a time."""
    text = os.environ.get(ENVIRONMENT)
    try:
        if text:
            start_time(text)
    except ClockError as exc:
        return str(exc)
    return None
