"""What sharing progress with a class (tui.progress.class_share) costs the learner's app: its UI thread must never
wait for the write, which runs on a thread of its own.

Run: uv run python benchmarks/class_share.py [--attempts N] [--runs R]

For a store of N attempts (N=3000 is a whole book answered about 25 times over), each run:
- 20 answers kept on the app's thread (StudySession.record_answer) with a class and 20 without one, in turn:
  the median of each and their ratio (the class adds a lock and a notify to a commit that waits for the disk);
- one share written on the sharing thread: its time (a second connection opened once, the export read,
  written under a temporary name, synced, renamed);
- a ticker on the main thread asking for a 1 ms sleep again and again, while a share is written and while
  nothing is: the longest and the 99th percentile of its gaps, and their ratio, which is what the sharing
  thread's Python work (holding the GIL) can cost a frame.
Medians over R runs, alternating, so a busy host's drift falls on both sides.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import threading
import time
from pathlib import Path

from grader.book.model import Book
from grader.verdict import Verdict
from tui.cli.common import load_or_report
from tui.progress.class_share import ClassShare
from tui.progress.clock import now
from tui.progress.session import StudySession
from tui.progress.store import ProgressStore

ANSWERS_A_RUN = 20   # answers kept each way in a run


def filled_store(folder: Path, attempts: int, book: Book) -> ProgressStore:
    store = ProgressStore.open(folder)
    ids = [exercise.id for exercise in book.exercises]
    for number in range(attempts):
        store.record_attempt(ids[number % len(ids)], f"{number}.5", "incorrect", feedback="x" * 200)
    return store


def answer_seconds(session: StudySession) -> float:
    start = time.perf_counter()
    session.record_answer("0.1", "0.875", Verdict("incorrect", "Not quite."), hints_used=0, seconds_taken=1.0,
                          seed=0, purpose="learn", explanation_shown=False, draft_key="0.1")
    return time.perf_counter() - start


def ticker_gaps(busy: threading.Thread | None) -> list[float]:
    """Gaps between 1 ms sleeps on this thread while `busy` runs (or for 0.3 s without it)."""
    gaps, last = [], time.perf_counter()
    end = last + 0.3
    if busy is not None:
        busy.start()
    while (busy.is_alive() if busy is not None else time.perf_counter() < end):
        time.sleep(0.001)
        now = time.perf_counter()
        gaps.append(now - last)
        last = now
    return gaps


def p99(values: list[float]) -> float:
    return sorted(values)[max(0, int(len(values) * 0.99) - 1)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--attempts", type=int, default=3000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temp:
        folder, inbox = Path(temp) / "data", Path(temp) / "inbox"
        inbox.mkdir()
        book = load_or_report(None)
        assert book is not None, "the built-in book loads"
        store = filled_store(folder, args.attempts, book)
        share = ClassShare(inbox, folder, quiet=3600.0)   # never on its own: the runs below write it
        shared, plain = StudySession(book, store, now, share=share), StudySession(book, store, now)
        with_class: list[float] = []
        without: list[float] = []
        writes: list[float] = []
        gaps_writing: list[list[float]] = []
        gaps_idle: list[list[float]] = []
        for _ in range(args.runs):
            for turn in range(ANSWERS_A_RUN):   # alternating which goes first
                pair = (plain, shared) if turn % 2 else (shared, plain)
                for session in pair:
                    (with_class if session is shared else without).append(answer_seconds(session))
            start = time.perf_counter()
            share.share_now()
            writes.append(time.perf_counter() - start)
            gaps_idle.append(ticker_gaps(None))
            gaps_writing.append(ticker_gaps(threading.Thread(target=share.share_now)))
        share.close()
        size = os.path.getsize(next(inbox.iterdir()))
        store.close()
    ms = 1000
    print(f"store of {args.attempts} attempts, shared file {size / 1e6:.1f} MB, {args.runs} runs (medians)")
    answer_with, answer_without = statistics.median(with_class), statistics.median(without)
    print(f"an answer kept on the app's thread: {answer_with * ms:.2f} ms with a class, {answer_without * ms:.2f} ms "
          f"without: ratio {answer_with / answer_without:.2f}")
    print(f"one share on the sharing thread: {statistics.median(writes) * ms:.0f} ms")
    worst_writing = statistics.median(max(g) for g in gaps_writing)
    worst_idle = statistics.median(max(g) for g in gaps_idle)
    p99_writing = statistics.median(p99(g) for g in gaps_writing)
    p99_idle = statistics.median(p99(g) for g in gaps_idle)
    print(f"main thread's 1 ms ticks while a share is written: longest gap {worst_writing * ms:.1f} ms, p99 "
          f"{p99_writing * ms:.1f} ms; idle: longest {worst_idle * ms:.1f} ms, p99 {p99_idle * ms:.1f} ms; "
          f"ratio (longest) {worst_writing / worst_idle:.2f}")


if __name__ == "__main__":
    main()
