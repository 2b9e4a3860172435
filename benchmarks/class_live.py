"""`ringbook class live` under a class: 300 learners' exports replaced in an inbox every few seconds.

Run: uv run python benchmarks/class_live.py [--learners 300] [--every 3] [--seconds 30] [--runs N]
Target (issue 48): an update reaches the screen in <= 200 ms p99 on 2 cores, memory bounded.

A writer process plays the class: each learner has a store of their own (in memory) holding --history
attempts, and every --every seconds (spread evenly over the class) records one more attempt and writes its
whole export over its file in the inbox, as the learner's app does (a new file beside it, synced, renamed
over it, the folder synced: export_file.write_whole's steps). Most answers are ones the class shares (right
answers, the book's named slips), one in ten a number nobody gave before, which must be graded. It notes the
moment of each rename (not after the folder's sync: what a watcher can see first). Its own cost is about
1.2 ms of CPU a file, a tenth of one core at 300 learners every 3 s.

Three phases watch the same kind of stream for --seconds each, in this process, each on the inbox's watcher
(tui.watch, as the app uses it), each opened on the class's files once they are all written (an instructor
opening the view on a class under way: that first read is not timed, and no rename is made until it is done):
- bare read: each burst, the inbox listed and every file whose (inode, mtime, size) changed read whole, and
  nothing else: the baseline, what any watcher of these files must pay;
- model: class_live.ClassLive.refresh and a snapshot, as `class live --json`/`--lines` work;
- screen: the real app (ClassLiveApp, headless, 120x40), from a file's rename to the frame after the screen
  showed the learner's new attempt (a call_after_refresh once the snapshot is on the screen): the widgets'
  lines are rendered and composed as for a terminal; headless, only writing them out to one is left out.
Latency is from each rename to the first moment the phase had that learner's new attempt (the monotonic
clock is shared by the processes). The ratio of each phase's p50 and p99 to the bare read's is printed, since
a busy host moves all three, and the CPU this process used while the class wrote (the writer's own, about a
tenth of a core, is not in it). Memory: the process's RSS at the start and end of the screen phase (bounded:
the end should not grow with --seconds), and its peak.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import random
import resource
import shutil
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from datetime import timedelta
from multiprocessing import resource_tracker
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from grader.book.load import load_book
from tui.progress import clock
from tui.progress.class_live import WATCH_LONGEST_SECONDS, WATCH_QUIET_SECONDS, ClassLive
from tui.progress.export_file import inert_json, write_whole
from tui.progress.store import ProgressStore
from tui.progress.store_file import sync
from tui.watch import Watch

# (exercise, answer, status) a class gives: right answers and the book's named slips.
SHARED = [("0.1", "1.75", "correct"), ("0.1", "0.875", "incorrect"), ("0.1", "14", "incorrect"),
          ("0.2", "70", "correct"), ("0.2", "35", "incorrect"), ("0.3", "77.8", "correct"),
          ("0.3", "44", "incorrect"), ("1.1", "112", "correct"), ("1.1", "96", "incorrect"),
          ("5.3", "6.25", "correct"), ("5.3", "12.5", "incorrect")]
NOVEL_SHARE = 0.1   # answers nobody gave before, each graded once


def answer(rng: random.Random) -> tuple[str, str, str]:
    if rng.random() < NOVEL_SHARE:
        return ("0.1", f"{rng.uniform(2, 99):.3f}", "incorrect")
    return rng.choice(SHARED)


def export_text(store: ProgressStore, name: str) -> str:
    return inert_json({**store.export_data(), "student": {"name": name, "user": name, "host": "bench"}})


def play_class(inbox: str, learners: int, every: float, history: int, seconds: float, ready: Any, go: Any,
               renames: Any, seed: int) -> None:
    """The writer process: the class's files written whole; once the phase has read them (`go`), one learner's
    replaced every every/learners seconds; each rename's (learner, attempts in the file, monotonic time) put
    on `renames` at the end."""
    rng = random.Random(seed)
    now = clock.now()
    stores = []
    for n in range(learners):
        store = ProgressStore.in_memory()
        for k in range(history):
            store.record_attempt(*answer(rng), now=now - timedelta(minutes=history - k))
        stores.append(store)
        write_whole(Path(inbox) / f"learner{n:03}-bench.json", export_text(store, f"learner{n:03}"))
    ready.set()
    go.wait()
    gap = every / learners
    noted = []
    counts = [history] * learners
    start = time.monotonic()
    tick = 0
    while time.monotonic() - start < seconds:
        n = tick % learners
        tick += 1
        stores[n].record_attempt(*answer(rng))
        counts[n] += 1
        text = export_text(stores[n], f"learner{n:03}")
        noted.append((f"learner{n:03}", counts[n], replace_file(Path(inbox) / f"learner{n:03}-bench.json", text)))
        pause = start + tick * gap - time.monotonic()
        if pause > 0:
            time.sleep(pause)
    renames.put(noted)


def replace_file(target: Path, text: str) -> float:
    """export_file.write_whole's steps (a new file beside it, synced, renamed over it, the folder synced),
    returning the moment of the rename itself: what a watcher can see first."""
    temp = target.with_name(f".{target.name}.bench.partial")
    with open(temp, "wb") as out:
        out.write(text.encode("utf-8"))
        out.flush()
        os.fsync(out.fileno())
    renamed = time.monotonic()
    os.replace(temp, target)
    sync(target.parent)
    return renamed


def rss_mb() -> float:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


class Phase:
    """Runs the class writer for one phase while `watch_with(inbox, seen)` watches; `seen(name, attempts)`
    notes when the phase had a learner's file with that many attempts."""

    def __init__(self, args: argparse.Namespace, seed: int):
        self.args, self.seed = args, seed
        self.folder = Path(tempfile.mkdtemp(prefix="class-live-bench-"))
        self.inbox = self.folder / "inbox"
        self.inbox.mkdir()
        self.shown: dict[str, list[tuple[int, float]]] = {}
        self.cpu = 0.0   # this process's CPU while the class wrote, in cores (all threads: watcher, reader, UI)

    def cpu_from(self) -> None:
        self._cpu_start = (time.process_time(), time.monotonic())

    def cpu_to(self) -> None:
        cpu, wall = self._cpu_start
        self.cpu = (time.process_time() - cpu) / (time.monotonic() - wall)

    def seen(self, name: str, attempts: int) -> None:
        self.shown.setdefault(name, []).append((attempts, time.monotonic()))

    def seen_all(self, shown: list[tuple[str, int]]) -> None:
        for name, attempts in shown:
            self.seen(name, attempts)

    def start_writer(self) -> tuple[Any, Any, Any]:
        context = multiprocessing.get_context("spawn")
        ready, go, renames = context.Event(), context.Event(), context.Queue()
        writer = context.Process(target=play_class, args=(str(self.inbox), self.args.learners, self.args.every,
                                                          self.args.history, self.args.seconds, ready, go, renames,
                                                          self.seed))
        writer.start()
        ready.wait()
        return writer, go, renames

    def latencies(self, noted: list[tuple[str, int, float]]) -> list[float]:
        """Seconds from each rename to the first moment the phase had at least that many attempts of its learner."""
        found = []
        for name, attempts, renamed in noted:
            later = [t for count, t in self.shown.get(name, []) if count >= attempts and t >= renamed]
            if later:
                found.append(min(later) - renamed)
        return found


def attempts_in(raw: bytes) -> int:
    return raw.count(b'"exercise_id"')


def bare_read(phase: Phase) -> Callable[[], None]:
    known: dict[str, tuple[int, int, int]] = {}

    def changed() -> None:
        for entry in os.scandir(phase.inbox):
            if entry.name.endswith(".json") and not entry.name.startswith("."):
                info = entry.stat(follow_symlinks=False)
                key = (info.st_ino, info.st_mtime_ns, info.st_size)
                if known.get(entry.path) != key:
                    known[entry.path] = key
                    with open(entry.path, "rb") as file:
                        phase.seen(entry.name.split("-")[0], attempts_in(file.read()))
    changed()
    return changed


def model(phase: Phase, book: Any) -> Callable[[], None]:
    live = ClassLive(book, phase.inbox)

    def changed() -> None:
        touched = live.refresh()
        snapshot = live.snapshot(clock.now())
        counts = {s.key: sum(t.attempts for t in s.exercises.values()) for s in snapshot.learners}
        for key in touched:
            if key in counts:
                phase.seen(key[0], counts[key])
    changed()
    return changed


def run_watched(phase: Phase, watching: Callable[[Phase], Callable[[], None]]) -> list[float]:
    """The class's files written, read whole by `watching(phase)` (a view opened on a class under way: not
    timed), then their changes timed as `watching`'s callback sees them."""
    writer, go, renames = phase.start_writer()
    changed = watching(phase)
    watch = Watch(phase.inbox, changed, recursive=False, suffixes=(".json",), quiet=WATCH_QUIET_SECONDS,
                  longest=WATCH_LONGEST_SECONDS)
    watch.start()
    go.set()
    phase.cpu_from()
    noted = renames.get()
    writer.join()
    phase.cpu_to()
    time.sleep(1.0)   # the last bursts
    watch.stop()
    return phase.latencies(noted)


def run_screen(phase: Phase, book: Any) -> tuple[list[float], float, float]:
    from tui.class_live_app import ClassLiveApp

    class Stamped(ClassLiveApp):
        """The real app, noting the frame after each snapshot is on the screen."""

        def on_class_live_app_updated(self, message: ClassLiveApp.Updated) -> None:
            """Runs before ClassLiveApp's own handler (Textual calls each class's in turn), which shows it."""
            with self._handoff:
                waiting = self._waiting
            if waiting is None:
                return
            snapshot, changed = waiting
            counts = {s.key: sum(t.attempts for t in s.exercises.values()) for s in snapshot.learners}
            shown = [(key[0], counts[key]) for key in changed if key in counts]
            self.call_after_refresh(phase.seen_all, shown)

    writer, go, renames = phase.start_writer()
    live = ClassLive(book, phase.inbox)
    live.refresh()
    app = Stamped(live)
    memory: list[float] = []

    async def drive() -> list[tuple[str, int, float]]:
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            memory.append(rss_mb())
            go.set()
            phase.cpu_from()
            noted = await asyncio.get_running_loop().run_in_executor(None, renames.get)
            await asyncio.get_running_loop().run_in_executor(None, writer.join)
            phase.cpu_to()
            await asyncio.sleep(1.0)
            memory.append(rss_mb())
            return noted

    noted = asyncio.run(drive())
    return phase.latencies(noted), memory[0], memory[1]


def figures(latencies: list[float]) -> tuple[float, float]:
    ordered = sorted(latencies)
    return statistics.median(ordered) * 1000, ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--learners", type=int, default=300)
    parser.add_argument("--every", type=float, default=3.0, help="seconds between one learner's writes")
    parser.add_argument("--seconds", type=float, default=30.0, help="how long each phase watches")
    parser.add_argument("--history", type=int, default=20, help="attempts in each file at the start")
    parser.add_argument("--runs", type=int, default=1)
    args = parser.parse_args()
    resource_tracker.ensure_running()   # now: started from inside the headless app, it cannot pass on its fds
    book = load_book()
    threading.excepthook = lambda hook: print(f"thread failed: {hook.exc_value!r}", file=sys.stderr)
    print(f"{args.learners} learners, one file replaced every {args.every / args.learners * 1000:.0f} ms "
          f"(each learner's every {args.every:g} s), {args.seconds:g} s per phase, {args.runs} run(s)")
    for run in range(1, args.runs + 1):
        phases = [Phase(args, run) for _ in range(3)]
        bare = run_watched(phases[0], bare_read)
        modelled = run_watched(phases[1], lambda phase: model(phase, book))
        screen, rss_start, rss_end = run_screen(phases[2], book)
        b50, b99 = figures(bare)
        print(f"run {run}:")
        for label, found, phase in zip(("bare read (baseline)", "model", "screen"), (bare, modelled, screen), phases,
                                       strict=True):
            p50, p99 = figures(found)
            print(f"  {label:<22} p50 {p50:6.1f} ms  p99 {p99:6.1f} ms  ({len(found)} updates)  "
                  f"ratio to bare: p50 {p50 / b50:5.2f}  p99 {p99 / b99:5.2f}  CPU {phase.cpu:4.0%} of a core")
        for phase in phases:
            shutil.rmtree(phase.folder)
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"  RSS during the screen phase: {rss_start:.0f} MB at its start, {rss_end:.0f} MB at its end; "
              f"peak of the process {peak:.0f} MB")


if __name__ == "__main__":
    main()
