"""The instructor's app for `ringbook class live`: the live screen, kept up to date off the UI thread.

The inbox is watched with tui.watch (watchfiles): after each burst of changes, the watch's own thread reads
what changed (class_live.ClassLive.refresh, only the files whose inode, time or size changed) and works out
the snapshot, then hands it to the screen with call_from_thread. A timer does the same every TICK_SECONDS,
since "stuck now" and "slips now" change as time passes with no file changing. One lock keeps the two apart.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import datetime

from textual.app import App

from tui.progress import clock
from tui.progress.class_live import WATCH_LONGEST_SECONDS, WATCH_QUIET_SECONDS, ClassLive, Snapshot
from tui.screens.class_live import ClassLiveScreen
from tui.watch import Watch

TICK_SECONDS = 2.0   # stuck and slips move on with time; a change the watcher missed is read then


class ClassLiveApp(App[None]):
    TITLE = "ringbook class live"

    def __init__(self, live: ClassLive, *, chapter: str | None = None,
                 now: Callable[[], datetime] = clock.now):
        super().__init__()
        self.live = live
        self.chapter = chapter
        self.now = now
        self.updates = 0   # snapshots shown since the start: a test or a benchmark waits for the next
        self._lock = threading.Lock()
        self._watch = Watch(live.inbox, self._update, recursive=False, suffixes=(".json",),
                            quiet=WATCH_QUIET_SECONDS, longest=WATCH_LONGEST_SECONDS)

    def on_mount(self) -> None:
        with self._lock:
            snapshot = self.live.snapshot(self.now())
        self.push_screen(ClassLiveScreen(self.live.book, snapshot, self.chapter))
        try:
            self._watch.start()
        except OSError as exc:
            self.notify(f"The inbox cannot be watched ({exc}); the view is read again every "
                        f"{TICK_SECONDS:g} s.", severity="warning", timeout=30)
        self.set_interval(TICK_SECONDS, lambda: self.run_worker(self._update, thread=True, group="tick"))

    def on_unmount(self) -> None:
        self._watch.stop()

    def _update(self) -> None:
        """Off the UI thread: read what changed, and hand the new snapshot to the screen."""
        with self._lock:
            changed = self.live.refresh()
            snapshot = self.live.snapshot(self.now())
        try:
            self.call_from_thread(self._show, snapshot, changed)
        except RuntimeError:   # the app has ended meanwhile
            pass

    def _show(self, snapshot: Snapshot, changed: set[tuple[str, str]]) -> None:
        screen = next((s for s in self.screen_stack if isinstance(s, ClassLiveScreen)), None)
        if screen is not None:
            screen.show(snapshot, changed)
        self.updates += 1
