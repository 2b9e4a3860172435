"""Day streaks: consecutive study days with at least one correct answer.

A study day is the learner's local calendar day at the moment of the answer, shifted by the day
boundary hour (with a boundary of 4, work at 02:00 still counts for the day before). Each attempt keeps
its own UTC offset, so travel and DST move nothing already earned, and days form a set, so a clock set
back or a repeated day can never double a streak or make one negative.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime, timedelta


@dataclass(repr=False)
class Streak:
    """Study days in a row up to today (or yesterday, if today is not done yet), and the longest run."""

    current: int
    best: int
    done_today: bool


def study_day(utc: datetime, offset_minutes: int, boundary_hour: int = 0) -> date:
    """The study day of a moment given in UTC, at the learner's offset then."""
    return (utc + timedelta(minutes=offset_minutes) - timedelta(hours=boundary_hour)).date()


def today(now: datetime, boundary_hour: int = 0) -> date:
    """The study day now (`now` must carry its time zone)."""
    offset = now.utcoffset() or timedelta(0)
    return study_day(now.replace(tzinfo=None) - offset, int(offset.total_seconds() // 60), boundary_hour)


def streaks(days: Iterable[date], current_day: date) -> Streak:
    """Current and best run of consecutive `days`. The current run ends today, or yesterday when today
    is not done yet; days after `current_day` (a clock that ran ahead) do not extend it."""
    unique = sorted(set(days))
    best = run = 0
    previous: date | None = None
    for day in unique:
        run = run + 1 if previous is not None and day - previous == timedelta(days=1) else 1
        best = max(best, run)
        previous = day
    present = {d for d in unique if d <= current_day}
    done_today = current_day in present
    cursor = current_day if done_today else current_day - timedelta(days=1)
    current = 0
    while cursor in present:
        current += 1
        cursor -= timedelta(days=1)
    return Streak(current=current, best=max(best, current), done_today=done_today)
