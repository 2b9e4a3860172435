"""The instructor's app for `ringbook class live`: the live screen, kept up to date off the UI thread.

The inbox is watched with tui.watch (watchfiles): after each burst of changes, the watch's own thread reads
what changed (class_live.ClassLive.refresh, only the files whose inode, time or size changed) and works out
the snapshot, then leaves it for the screen and posts a message (thread-safe, never waiting for the screen:
reading goes on while a frame is drawn). The screen takes the newest snapshot waiting, with every learner
changed since it last took one. A timer does the same every TICK_SECONDS, since "stuck now" and "slips now"
change as time passes with no file changing. One lock keeps the two readers apart.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Callable
from datetime import datetime

from textual.app import App
from textual.message import Message

from tui.progress import clock
from tui.progress.class_live import TICK_SECONDS, WATCH_LONGEST_SECONDS, WATCH_QUIET_SECONDS, ClassLive, Snapshot
from tui.screens.class_live import ClassLiveScreen
from tui.watch import Watch


class ClassLiveApp(App[None]):
    TITLE = "ringbook class live"

    class Updated(Message):
        """A snapshot waits for the screen."""

    def __init__(self, live: ClassLive, *, chapter: str | None = None,
                 now: Callable[[], datetime] = clock.now):
        super().__init__()
        self.live = live
        self.chapter = chapter
        self.now = now
        self.updates = 0   # snapshots shown since the start: a test or a benchmark waits for the next
        self._lock = threading.Lock()          # one reader of the inbox at a time
        self._handoff = threading.Lock()       # the snapshot waiting for the screen
        self._waiting: tuple[Snapshot, set[tuple[str, str]]] | None = None
        self._watch = Watch(live.inbox, self._update, recursive=False, suffixes=(".json",),
                            quiet=WATCH_QUIET_SECONDS, longest=WATCH_LONGEST_SECONDS)

    def on_mount(self) -> None:
        with self._lock:
            snapshot = self.live.snapshot(self.now())
        self.push_screen(ClassLiveScreen(self.live.book, snapshot, self.chapter))
        # The class as first read and Textual's own objects are left out of the collector's full passes while
        # the view runs: going over them took 50-60 ms every few seconds, a pause in a view that must update
        # within 200 ms. Cycles among them are collected once it stops.
        gc.freeze()
        try:
            self._watch.start()
        except OSError as exc:
            self.notify(f"The inbox cannot be watched ({exc}); the view is read again every "
                        f"{TICK_SECONDS:g} s.", severity="warning", timeout=30)
        self.set_interval(TICK_SECONDS, lambda: self.run_worker(self._update, thread=True, group="tick"))

    def on_unmount(self) -> None:
        self._watch.stop()
        gc.unfreeze()

    def _update(self) -> None:
        """Off the UI thread: read what changed, and leave the new snapshot for the screen."""
        with self._lock:
            changed = self.live.refresh()
            snapshot = self.live.snapshot(self.now())
        with self._handoff:
            first = self._waiting is None
            self._waiting = (snapshot, changed | (self._waiting[1] if self._waiting else set()))
        if first:
            self.post_message(self.Updated())

    def on_class_live_app_updated(self, _message: Updated) -> None:
        with self._handoff:
            waiting, self._waiting = self._waiting, None
        if waiting is None:
            return
        screen = next((s for s in self.screen_stack if isinstance(s, ClassLiveScreen)), None)
        if screen is not None:
            screen.show(*waiting)
        self.updates += 1
