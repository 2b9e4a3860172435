"""Plain `ringbook`: the app in this terminal, on the book and progress store the options name."""

from __future__ import annotations

import gc
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from grader.book.model import Book
    from grader.problems import Problem


def run_app(content: Path | None, data_dir: Path | None, *, watch: bool = False) -> int:
    """`watch`: read the book again at each save of its files, and show its problems in the app instead of
    refusing to start (tui.app, "a live book")."""
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
        cache_dir = None if store.read_only or store.path is None else store.path.parent
        book, problems = book_to_watch(content, cache_dir) if watch else (load_or_report(content, cache_dir), [])
        if book is None:
            store.close()
            return 1
        from tui.app import RingbookApp  # Textual loads only when the app really starts

        try:
            RingbookApp(book, store, watch=book.root if watch else None, problems=problems).run()
        finally:
            store.close()
        return 0
    finally:
        gc.enable()


def book_to_watch(content: Path | None, cache_dir: Path | None) -> tuple[Book | None, list[Problem]]:
    """The book and no problems; or, when it does not load, an empty stand-in and its problems, shown in the app
    until a save fixes them. (None when `content` names no book at all, after saying so.)"""
    from grader.book.load import BUILTIN_CONTENT, BookError, load_book
    from grader.book.model import Book
    from tui.cli.common import folder_problem

    problem = folder_problem(content)
    if problem:
        print(f"ringbook: {problem}", file=sys.stderr)
        return None, []
    root = content if content is not None else BUILTIN_CONTENT
    try:
        return load_book(root, cache_dir=cache_dir), []
    except BookError as exc:
        return Book(f"{root.name} (not loaded: see its problems)", "", root, ()), exc.problems
