"""Day streaks, through the real store: each attempt is written with the clock and zone of its moment."""

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from tui.progress.store import ProgressStore

LONDON = ZoneInfo("Europe/London")
BERLIN = ZoneInfo("Europe/Berlin")
TOKYO = ZoneInfo("Asia/Tokyo")
NEW_YORK = ZoneInfo("America/New_York")


def at(zone, *parts, fold: int = 0) -> datetime:
    return datetime(*parts, fold=fold).replace(tzinfo=zone)


def answer(store: ProgressStore, moment: datetime, status: str = "correct") -> None:
    store.record_attempt("0.1", "1.75", status, now=moment)


def test_consecutive_days(store):
    for day in (10, 11, 12):
        answer(store, at(BERLIN, 2026, 3, day, 20, 0))
    streak = store.streak(now=at(BERLIN, 2026, 3, 12, 22, 0))
    assert (streak.current, streak.best, streak.done_today) == (3, 3, True)


def test_a_gap_breaks_the_run_but_not_the_best(store):
    for day in (1, 2, 3, 4, 6, 7):
        answer(store, at(BERLIN, 2026, 3, day, 9, 0))
    streak = store.streak(now=at(BERLIN, 2026, 3, 7, 23, 0))
    assert (streak.current, streak.best) == (2, 4)


def test_today_pending_keeps_yesterdays_streak(store):
    for day in (10, 11):
        answer(store, at(BERLIN, 2026, 3, day, 20, 0))
    streak = store.streak(now=at(BERLIN, 2026, 3, 12, 8, 0))
    assert (streak.current, streak.best, streak.done_today) == (2, 2, False)
    assert store.streak(now=at(BERLIN, 2026, 3, 13, 8, 0)).current == 0  # a whole day missed


def test_only_correct_answers_count(store):
    answer(store, at(BERLIN, 2026, 3, 10, 20, 0))
    answer(store, at(BERLIN, 2026, 3, 11, 20, 0), status="incorrect")
    assert store.streak(now=at(BERLIN, 2026, 3, 11, 21, 0)).current == 1


def test_several_answers_on_one_day_count_once(store):
    for hour in (8, 12, 23):
        answer(store, at(BERLIN, 2026, 3, 10, hour, 0))
    streak = store.streak(now=at(BERLIN, 2026, 3, 10, 23, 30))
    assert (streak.current, streak.best) == (1, 1)


def test_clock_moved_backwards_never_doubles_or_goes_negative(store):
    answer(store, at(BERLIN, 2026, 3, 12, 10, 0))
    answer(store, at(BERLIN, 2026, 3, 11, 10, 0))  # the clock was set back a day
    answer(store, at(BERLIN, 2026, 3, 12, 9, 0))   # and forward again: same day as the first
    streak = store.streak(now=at(BERLIN, 2026, 3, 12, 12, 0))
    assert (streak.current, streak.best) == (2, 2)
    earlier = store.streak(now=at(BERLIN, 2026, 3, 10, 12, 0))  # now the clock is before every answer
    assert earlier.current == 0 and earlier.best == 2


def test_time_zone_change_across_midnight(store):
    answer(store, at(LONDON, 2026, 6, 1, 23, 30))   # Monday night in London
    answer(store, at(TOKYO, 2026, 6, 2, 8, 30))     # flew east: Tuesday morning in Tokyo (Monday 23:30 UTC)
    streak = store.streak(now=at(TOKYO, 2026, 6, 2, 9, 0))
    assert (streak.current, streak.best) == (2, 2)


def test_flying_west_on_one_local_day_is_one_day(store):
    answer(store, at(TOKYO, 2026, 6, 2, 8, 0))
    answer(store, at(NEW_YORK, 2026, 6, 2, 9, 0))  # 13 hours later, still Tuesday locally
    streak = store.streak(now=at(NEW_YORK, 2026, 6, 2, 10, 0))
    assert (streak.current, streak.best) == (1, 1)


def test_dst_change_days_count_once_each(store):
    # Europe springs forward on 29 March 2026 (a 23-hour day) and falls back on 25 October (25 hours).
    for moment in (at(BERLIN, 2026, 3, 28, 23, 30), at(BERLIN, 2026, 3, 29, 0, 30), at(BERLIN, 2026, 3, 29, 23, 30),
                   at(BERLIN, 2026, 3, 30, 0, 30)):
        answer(store, moment)
    assert store.streak(now=at(BERLIN, 2026, 3, 30, 12, 0)).current == 3
    for moment in (at(BERLIN, 2026, 10, 25, 2, 30, fold=0), at(BERLIN, 2026, 10, 25, 2, 30, fold=1)):
        answer(store, moment)
    streak = store.streak(now=at(BERLIN, 2026, 10, 25, 23, 0))
    assert (streak.current, streak.best) == (1, 3)


def test_day_boundary_hour_moves_late_night_work_to_the_day_before(store):
    answer(store, at(BERLIN, 2026, 3, 10, 21, 0))
    answer(store, at(BERLIN, 2026, 3, 12, 2, 0))   # 2 am on the 12th: the night of the 11th
    assert store.streak(now=at(BERLIN, 2026, 3, 12, 10, 0)).current == 1
    store.set_day_boundary_hour(4)
    streak = store.streak(now=at(BERLIN, 2026, 3, 12, 3, 0))
    assert (streak.current, streak.best, streak.done_today) == (2, 2, True)
    with pytest.raises(ValueError):
        store.set_day_boundary_hour(24)


def test_an_empty_store_has_no_streak(store):
    streak = store.streak(now=at(BERLIN, 2026, 3, 10, 12, 0))
    assert (streak.current, streak.best, streak.done_today) == (0, 0, False)


def test_long_runs(store):
    start = at(BERLIN, 2026, 1, 1, 12, 0)
    for k in range(40):
        answer(store, start + timedelta(days=k))
    assert store.streak(now=start + timedelta(days=39, hours=1)).best == 40
