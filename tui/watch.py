"""Watching files for edits, for the live book (`--watch`) and `ringbook work`: watchfiles' Rust watcher (the
notify crate: inotify on Linux, FSEvents on macOS), which groups each burst of events into one set of changes.

An editor's save is several events (a temporary file written, renamed over the old one, its attributes set);
watchfiles returns them together once a step passes with no new one, and `Watch` calls `changed` once for a
burst that touches what it watches, on a thread of its own: the caller hands the news to its own thread (the
app's `call_from_thread`, a command's queue). Reading a file is no edit (watchfiles reports only additions,
changes and deletions), so loading what changed never triggers itself. Headless (no Textual): the app and the
command line both use it. Why a thread and not watchfiles' `awatch`: docs/contributing.md, "Watching files".
"""

from __future__ import annotations

import queue
import select
import threading
import time
from collections.abc import Callable, Collection, Iterator
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    from watchfiles import Change
    from watchfiles._rust_notify import RustNotify

QUIET_SECONDS = 0.25     # a burst ends once this long passes with no new change
LONGEST_BURST_MS = 1600  # a burst that goes on (a checkout writing many files) is reported after this long
BOOK_FILES = (".yaml", ".yml", ".md", ".json")   # an edit to one of these under a book folder means a new book
WAKE_SECONDS = 1.0   # how often a command waiting for an edit wakes, so Ctrl+C is seen at once everywhere


class Watch:
    """Calls `changed()` after each burst of edits under `folder` (and its subfolders when `recursive`) to
    files with one of `suffixes` (all files when empty), or only to the file `only` (one in `folder`)."""

    def __init__(self, folder: Path, changed: Callable[[], None], *, recursive: bool = True,
                 suffixes: Collection[str] = (), only: Path | None = None, quiet: float = QUIET_SECONDS,
                 longest: float = LONGEST_BURST_MS / 1000):
        self.folder = folder.resolve()   # changes name paths under the folder as it is watched: compared whole
        self.changed = changed
        self.recursive = recursive
        self.suffixes = set(suffixes)
        self.only = str(self.folder / only.name) if only is not None else None
        self.quiet = quiet
        self.longest = longest   # a burst that goes on is reported after this many seconds
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        """Start watching; edits from this moment on are seen. Raises OSError when the folder cannot be watched."""
        # RustNotify, watchfiles' documented Rust backend, rather than watchfiles.watch(): that generator makes its
        # watcher only when first iterated, on the watching thread, so an edit made just after start() returned
        # (or the reason the folder cannot be watched) would be lost.
        from watchfiles._rust_notify import RustNotify, WatchfilesRustInternalError

        try:
            notify = RustNotify([str(self.folder)], False, False, 300, self.recursive, False)
        except WatchfilesRustInternalError as exc:   # no watcher could be made (inotify's limits): not the folder's
            raise OSError(str(exc)) from exc
        self._thread = threading.Thread(target=self._report_bursts, args=(notify,), name="ringbook-watch",
                                        daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def _report_bursts(self, notify: RustNotify) -> None:
        from watchfiles import Change

        with notify:
            while True:
                burst = notify.watch(round(self.longest * 1000), round(self.quiet * 1000), 0, self._stop)
                if burst == "stop":
                    return
                if isinstance(burst, set) and any(self.concerns(Change(change), path) for change, path in burst):
                    self.changed()

    def concerns(self, change: Change, path: str) -> bool:
        """Whether a change to `path` may change what is watched. Never a file in a `__pycache__`: no book file
        lives there (ringbook before issue 42 kept its checked copy of a book there, and seeing it written
        started the next check)."""
        from watchfiles import Change

        if "__pycache__" in Path(path).parts:
            return False
        if self.only is not None:
            return path == self.only
        if change is Change.deleted and not Path(path).suffix:
            return True   # a chapter folder removed or renamed away (its files report nothing)
        return not self.suffixes or Path(path).suffix in self.suffixes


class Edits:
    """For a command's main thread: `with Edits(folder, ...) as edits: for _ in edits: ...` runs the loop's body
    once per burst of edits, from the moment the `with` starts watching, and with `every`, also once `every`
    seconds have passed without one (for what changes with time alone); until Ctrl+C, or until nobody reads
    `output` any more (reader_gone: over `ssh -T`, a closed connection is otherwise seen only at the next line
    printed, which may never come). Raises OSError on entry when the folder cannot be watched."""

    def __init__(self, folder: Path, *, output: TextIO | None = None, every: float | None = None, **options: Any):
        self._bursts: queue.Queue[None] = queue.Queue()
        self._output = output
        self._every = every
        self.watch = Watch(folder, lambda: self._bursts.put(None), **options)

    def __enter__(self) -> Edits:
        self.watch.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.watch.stop()

    def __iter__(self) -> Iterator[None]:
        last = time.monotonic()
        while self._output is None or not reader_gone(self._output):
            try:
                self._bursts.get(timeout=WAKE_SECONDS)
            except queue.Empty:
                if self._every is None or time.monotonic() - last < self._every:
                    continue
            last = time.monotonic()
            yield None


def reader_gone(stream: TextIO) -> bool:
    """Whether nobody reads `stream` any more: poll says so of a pipe or socket whose reading end has closed (an
    error, or a hang-up), and of a terminal hung up; of a file, or a pipe still read, neither."""
    try:
        descriptor = stream.fileno()
    except (OSError, ValueError):
        return False
    poller = select.poll()
    poller.register(descriptor, 0)   # an error and a hang-up are reported whatever is asked for
    return any(events & (select.POLLERR | select.POLLHUP) for _, events in poller.poll(0))
