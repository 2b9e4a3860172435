"""Plain `ringbook`: the app in this terminal, on the book and progress store the options name."""

from __future__ import annotations

import gc
import os
import sys
from pathlib import Path


def run_app(content: Path | None, data_dir: Path | None) -> int:
    # textual-serve drives the app through pipes and names its driver in TEXTUAL_DRIVER.
    if not (sys.stdin.isatty() and sys.stdout.isatty()) and "TEXTUAL_DRIVER" not in os.environ:
        print("ringbook needs an interactive terminal (run it in a terminal; over ssh use `ssh -t`).", file=sys.stderr)
        return 2
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
        from tui.app import RingbookApp  # Textual loads only when the app really starts

        try:
            RingbookApp(book, store).run()
        finally:
            store.close()
        return 0
    finally:
        gc.enable()
