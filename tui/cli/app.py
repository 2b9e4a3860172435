"""Plain `ringbook`: the app in this terminal, on the book and progress store the options name; or the
plain-line face (tui/lines) where it is asked for or a full-screen app cannot work (tui.lines.mode)."""

from __future__ import annotations

import gc
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from grader.book.model import Book
    from tui.progress.store import ProgressStore


def run_app(content: Path | None, data_dir: Path | None, *, screen_reader: bool = False) -> int:
    # What start-up allocates lives as long as the app, so collecting garbage before the first frame only
    # costs time (3% of the start). RingbookApp turns it back on once the home screen has been painted.
    gc.disable()
    try:
        from tui.cli.common import load_or_report, open_store_or_report

        store = open_store_or_report(data_dir)
        if store is None:
            return 1
        book = load_or_report(content, cache_dir=None if store.read_only or store.path is None else store.path.parent)
        if book is None:
            store.close()
            return 1
        from tui.lines.mode import SETTING_KEY, lines_reason

        why = lines_reason(flag=screen_reader, environ=os.environ, setting=store.state(SETTING_KEY),
                           terminal=sys.stdin.isatty() and sys.stdout.isatty())
        try:
            if why is not None:
                gc.enable()
                return run_lines(book, store, why)
            from tui.app import RingbookApp  # Textual loads only when the app really starts

            RingbookApp(book, store).run()
        finally:
            store.close()
        return 0
    finally:
        gc.enable()


def run_lines(book: Book, store: ProgressStore, why: str) -> int:
    import shutil

    from tui.lines.session import run_session
    from tui.progress.clock import now

    size = shutil.get_terminal_size()
    return run_session(book, store, sys.stdin, sys.stdout, why=why, clock=now, echo=not sys.stdin.isatty(),
                       screen=(size.columns, size.lines) if sys.stdout.isatty() else None)
