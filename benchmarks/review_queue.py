"""Opening a long store and computing its review queue: `uv run python benchmarks/review_queue.py`.

Builds a store of 20,000 attempts (122 exercises, a learner who reviews for years, with practice and
wrong tries), then prints the median of several runs for opening it and for the due queue. Targets:
the due queue under 50 ms. Both are timed as the app meets them day to day: the store opened before, and
the due queue computed before (the cards are kept in the store; the first ever computation replays all).
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tui.progress.review import due_cards
from tui.progress.store import ATTEMPT_FIELDS, FILE_NAME, ProgressStore, _insert

ATTEMPTS = 20_000
RUNS = 7
START = datetime(2026, 1, 1, 9, tzinfo=UTC)


def build(folder: Path) -> datetime:
    """A store with ATTEMPTS attempts written in one transaction (the store's own rows, as it writes them)."""
    store = ProgressStore.open(folder)
    rows = []
    purposes = ("learn", "review", "review", "review", "practice")
    for n in range(ATTEMPTS):
        moment = START + timedelta(hours=3 * n)
        status = "incorrect" if n % 4 == 3 else "correct"
        purpose = "learn" if n < 244 else purposes[n % len(purposes)]
        rows.append((f"uid{n:06d}", f"{n % 122 // 8}.{n % 8 + 1}", "1.75", status, "", "", n % 3 == 0, 0, 60.0,
                     moment.strftime("%Y-%m-%dT%H:%M:%S.%fZ"), 0, moment.date().isoformat(), n % 1000, purpose))
    store._write([(_insert("attempts", ATTEMPT_FIELDS), row) for row in rows])
    store.close()
    return START + timedelta(hours=3 * ATTEMPTS)


def median_ms(action: Callable[[], object]) -> float:
    times = []
    for _ in range(RUNS):
        started = time.perf_counter()
        action()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        now = build(Path(folder))
        open_ms = median_ms(lambda: ProgressStore.open(Path(folder)).close())
        store = ProgressStore.open(Path(folder))
        import fsrs  # noqa: F401  (imported once, as in the app)

        started = time.perf_counter()
        due_cards(store, now)   # the first time ever: every card replayed, then kept in the store
        first_ms = (time.perf_counter() - started) * 1000
        queue_ms = median_ms(lambda: due_cards(store, now))
        cards = len(due_cards(store, now + timedelta(days=3650)))
        store.close()
        size = (Path(folder) / FILE_NAME).stat().st_size // 1024
    print(f"store of {ATTEMPTS:,} attempts ({size:,} KB), median of {RUNS} runs:")
    print(f"  open the store        {open_ms:7.1f} ms")
    print(f"  first due queue       {first_ms:7.1f} ms   (once per store: every card replayed)")
    print(f"  due queue             {queue_ms:7.1f} ms   ({cards} cards; target < 50 ms)")


if __name__ == "__main__":
    main()
