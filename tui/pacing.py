"""How the app paces itself on a shared host (docs/classroom.md, "Why the app paces itself"): garbage
collection paused while a screen opens, work ahead of need (the warm-up) done once a core is free, and work
that can wait put off while more tasks want a core than the host has. A test's app (`quiet_host`) does none of
it, so what it shows follows its keys alone."""

from __future__ import annotations

import asyncio
import gc
import math
import os
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from textual.app import App

PROOF_WORKER_START_SECONDS = 30.0  # how long a warm-up waits for the proof worker to load sympy
LOADAVG = Path("/proc/loadavg")    # Linux: its fourth field is "tasks runnable now/all tasks"
HOST_BUSY_RETRY_SECONDS = 0.5      # how often the screens' warm-up, waiting for a free core, looks again


class Pacing:
    """The app's pacing (tui.screens.navigator.Pacer); `quiet_host`: a test's app, which never waits for the
    host, warms nothing up ahead of need and never freezes what it collects (one process runs many apps)."""

    def __init__(self, app: App[object], *, quiet_host: bool = False):
        self.app = app
        self.quiet_host = quiet_host
        self.warmed: set[str] = set()

    def home_shown(self) -> None:
        """What waits for the frame that shows home's keys (HomeScreen calls this once): garbage collection,
        paused since start (cli.app.run_app), with start-up's objects frozen out of it first, as they live as
        long as the app; then the screens' warm-up, once a core is free, as it is work ahead of need. A learner
        who opens a screen meanwhile loads what it would have (show_screen), and then the warm-up does nothing."""
        if not self.quiet_host:
            gc.freeze()
        gc.enable()
        self.when_a_core_is_free(partial(self.warm_up, "screens"), HOST_BUSY_RETRY_SECONDS)

    def show_screen(self, open_it: Callable[[], object]) -> None:
        """Open a screen with garbage collection paused until its first frame is painted, so no full collection
        lands in the middle of an opening (as Textual pauses it for smooth scrolling: App.PAUSE_GC_ON_SCROLL)."""
        gc.disable()
        self.warmed.add("screens")   # they load as they open now: a warm-up still waiting for a core is moot
        open_it()
        self.app.call_after_refresh(self.resume_gc)  # runs after the new screen's first refresh

    def resume_gc(self) -> None:
        """gc.enable, for after a frame that collection was paused for. A method, not gc.enable itself: Textual
        counts a callback's parameters from its signature, for a builtin afresh on every call, for a method once."""
        gc.enable()

    def when_a_core_is_free(self, work: Callable[[], object], every: float, until: float = math.inf) -> None:
        """Do `work` once no more tasks want a core than the host has, looking again every `every` seconds, and
        at the monotonic time `until` whatever the host. At once in a test's app (host_is_busy)."""
        if not self._waits(work, every, until):
            work()

    def _waits(self, work: Callable[[], object], every: float, until: float) -> bool:
        """Whether `work` must wait; if so, the next look at the host is due in `every` seconds. Looks are on the
        event loop's own timer, which is cheaper than a Textual timer's tick through the app's messages."""
        if self.host_is_busy() and time.monotonic() < until:
            asyncio.get_running_loop().call_later(every, self._look_at_the_host, work, every, until)
            return True
        return False

    def _look_at_the_host(self, work: Callable[[], object], every: float, until: float) -> None:
        if self.app.is_running and not self._waits(work, every, until):
            self.app.call_later(work)   # a message, as a timer's was: its errors reach the app

    def host_is_busy(self) -> bool:
        """Whether more tasks want a core than the host has (a class starting or submitting together): work
        that can wait then waits. Never in a test's app."""
        return not self.quiet_host and more_runnable_than_cores()

    def warm_up(self, part: str) -> None:
        """Get a part ready in the background, after a frame is painted, so what first needs it is quick:
        "screens" (the chapter and exercise screens and numeric grading) once the home screen shows and the host
        has a core to spare; "units" (pint) once a unit is typed into an answer, since only such an answer needs
        it; "proofs" (the sympy proof worker, a process of its own) only when an exercise opens whose right
        answers need a proof (grader.kinds.derive.needs_proof), each time one does, since the worker goes when
        idle. Every other formula is settled without sympy, so reading and answering never pays for it."""
        if self.quiet_host or part in self.warmed:
            return
        if part != "proofs":   # the worker goes when idle: each exercise that needs it asks again
            self.warmed.add(part)
        self.app.run_worker(partial(_warm, part), thread=True, group="warm-up", description=f"warm up {part}")


def _warm(part: str) -> None:
    if part == "proofs":
        from grader.maths.prover import WORKER

        WORKER.wait_until_ready(PROOF_WORKER_START_SECONDS)
        return
    from grader.book.load import exercise_of_ours
    from grader.grade import grade

    grade(exercise_of_ours({"answer": "1.75", "unit": "GB"}), "1750 MB" if part == "units" else "1.75")
    if part == "screens":
        import tui.screens.chapter
        import tui.screens.exercise  # noqa: F401
    gc.freeze()  # what was just loaded lives for the whole session: keep it out of every GC pass


def more_runnable_than_cores() -> bool:
    """Whether more tasks are runnable right now than the host has cores (this one among them). False where
    the kernel does not say (no /proc/loadavg): then nothing waits."""
    try:   # read with the OS's calls: a learner waiting out a busy host looks often, and Path.read_text's text
        fd = os.open(LOADAVG, os.O_RDONLY)   # wrapper costs more than the look itself
        try:
            loadavg = os.read(fd, 256)
        finally:
            os.close(fd)
        runnable = int(loadavg.split()[3].split(b"/")[0])
    except (OSError, ValueError, IndexError):
        return False
    return runnable > (os.cpu_count() or 1)
