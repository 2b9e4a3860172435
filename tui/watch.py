"""Watching files for edits, for the live book (`--watch`) and `ringbook work`: watchdog's observer (inotify on
Linux, FSEvents on macOS), with each burst of events turned into one call once it has gone quiet.

An editor's save is several events (a temporary file written, renamed over the old one, its attributes set),
so `Watch` calls `changed` once no event has come for `quiet` seconds, on a thread of its own: the caller
hands the news to its own thread (the app's `call_from_thread`, a command's queue). Reading a file is no
edit: only writes, creations, deletions and renames count, so loading what changed never triggers itself.
Headless (no Textual): the app and the command line both use it.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Collection, Iterator
from pathlib import Path
from types import TracebackType
from typing import Any

from watchdog.events import FileSystemEvent, FileSystemEventHandler
from watchdog.observers import Observer
from watchdog.observers.api import BaseObserver

QUIET_SECONDS = 0.25
BOOK_FILES = (".yaml", ".yml", ".md", ".json")   # an edit to one of these under a book folder means a new book
WAKE_SECONDS = 1.0   # how often a command waiting for an edit wakes, so Ctrl+C is seen at once everywhere
EDITS = {"created", "modified", "deleted", "moved", "closed"}   # "closed": closed after writing; not opened, read


class Watch(FileSystemEventHandler):
    """Calls `changed()` after each burst of edits under `folder` (and its subfolders when `recursive`) to
    files with one of `suffixes` (all files when empty), or only to the file `only` (one in `folder`)."""

    def __init__(self, folder: Path, changed: Callable[[], None], *, recursive: bool = True,
                 suffixes: Collection[str] = (), only: Path | None = None, quiet: float = QUIET_SECONDS):
        self.folder = folder.resolve()   # events name paths under the folder as it is watched: compared whole
        self.changed = changed
        self.recursive = recursive
        self.suffixes = set(suffixes)
        self.only = str(self.folder / only.name) if only is not None else None
        self.quiet = quiet
        self._lock = threading.Lock()
        self._timer: threading.Timer | None = None
        self._observer: BaseObserver | None = None

    def start(self) -> None:
        """Start watching; edits from this moment on are seen. Raises OSError when the folder cannot be watched."""
        observer = Observer()
        observer.schedule(self, str(self.folder), recursive=self.recursive)
        observer.daemon = True
        observer.start()
        self._observer = observer

    def stop(self) -> None:
        with self._lock:
            if self._timer is not None:
                self._timer.cancel()
        if self._observer is not None:
            self._observer.stop()
            self._observer.join(timeout=5)
            self._observer = None

    def on_any_event(self, event: FileSystemEvent) -> None:
        if event.event_type not in EDITS or not self.concerns(event):
            return
        with self._lock:
            if self._timer is not None:
                self._timer.cancel()
            self._timer = threading.Timer(self.quiet, self.changed)
            self._timer.daemon = True
            self._timer.start()

    def concerns(self, event: FileSystemEvent) -> bool:
        """Whether `event` may change what is watched. Never a file in a `__pycache__`: no book file lives there
        (ringbook before issue 42 kept its checked copy of a book there, and seeing it written started the next
        check)."""
        paths = [p if isinstance(p, str) else p.decode(errors="replace") for p in (event.src_path, event.dest_path)
                 if p]
        paths = [p for p in paths if "__pycache__" not in Path(p).parts]
        if not paths:
            return False
        if self.only is not None:
            return self.only in paths
        if event.is_directory:
            return event.event_type in ("deleted", "moved")   # a chapter folder renamed away
        return not self.suffixes or any(Path(p).suffix in self.suffixes for p in paths)


class Edits:
    """For a command's main thread: `with Edits(folder, ...) as edits: for _ in edits: ...` runs the loop's body
    once per burst of edits, from the moment the `with` starts watching, until Ctrl+C. Raises OSError on
    entry when the folder cannot be watched."""

    def __init__(self, folder: Path, **options: Any):
        self._bursts: queue.Queue[None] = queue.Queue()
        self.watch = Watch(folder, lambda: self._bursts.put(None), **options)

    def __enter__(self) -> Edits:
        self.watch.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.watch.stop()

    def __iter__(self) -> Iterator[None]:
        while True:
            try:
                self._bursts.get(timeout=WAKE_SECONDS)
            except queue.Empty:
                continue
            yield None
