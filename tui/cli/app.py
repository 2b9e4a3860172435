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
    from grader.problems import Problem
    from tui.progress.class_share import ClassShare
    from tui.progress.store import ProgressStore

# Textual writes each frame from a thread of its own, which needs the interpreter lock for each step of a write;
# while the app computes (the review line just after home's first frame, a verdict, the warm-up), a thread
# asking for the lock waits the switch interval, 5 ms by default, at each step: home's first frame reached the
# terminal 5 to 18 ms after it was drawn, half the runs (a hello world's, idle after it, in 0.3 ms). At 1 ms the
# writer waits at most that, and the lock changes hands more often only while two threads both compute.
FRAME_WRITER_WAIT = 0.001


def run_app(content: Path | None, data_dir: Path | None, *, screen_reader: bool = False, watch: bool = False,
            speech: bool = False, class_dir: Path | None = None) -> int:
    """`watch`: read the book again at each save of its files, and show its problems in the app instead of
    refusing to start (tui.app, "a live book"); the plain-line face reads the book once. `speech`: the plain
    lines said in words (--speech). `class_dir`: the class inbox progress is shared with as the learner answers."""
    # What start-up allocates lives as long as the app, so collecting garbage before the first frame only
    # costs time (3% of the start). RingbookApp turns it back on once the home screen has been painted.
    gc.disable()
    try:
        from tui.cli.common import kind_parts_missing, load_or_report, open_store_or_report, said_missing, shared_with
        from tui.lines.mode import SETTING_KEY, lines_reason

        terminal = sys.stdin.isatty() and sys.stdout.isatty()
        # What a kind lacks in either face is said before anything opens where the plain lines will run whatever
        # the store's setting says; where the app may start, just after its first frame, which importing the
        # kinds would hold back (RingbookApp.check_kinds), or as the plain lines start after all.
        lines_anyway = lines_reason(flag=screen_reader, environ=os.environ, setting="", terminal=terminal) is not None
        if lines_anyway and kind_parts_missing():
            return 1
        store = open_store_or_report(data_dir)
        if store is None:
            return 1
        book, problems = book_to_watch(content) if watch else (load_or_report(content), [])
        if book is None:
            store.close()
            return 1
        why = lines_reason(flag=screen_reader, environ=os.environ, setting=store.state(SETTING_KEY),
                           terminal=terminal)
        share = shared_with(class_dir, store)
        try:
            if why is not None:
                gc.enable()
                if not lines_anyway and kind_parts_missing():
                    return 1
                return run_lines(book, store, why, problems, content, speech=speech, share=share)
            from tui.app import RingbookApp  # Textual loads only when the app really starts

            switch_interval = sys.getswitchinterval()
            sys.setswitchinterval(FRAME_WRITER_WAIT)
            try:
                app = RingbookApp(book, store, watch=book.root if watch else None, problems=problems, share=share,
                                  check_kinds=True)
                app.run()
            finally:
                sys.setswitchinterval(switch_interval)
        finally:
            store.close()
        return 1 if said_missing(app.kind_parts_missing) else 0
    finally:
        gc.enable()


def run_lines(book: Book, store: ProgressStore, why: str, problems: list[Problem], content: Path | None, *,
              speech: bool, share: ClassShare | None = None) -> int:
    import shutil

    from tui.cli.common import report_problems
    from tui.lines.mode import SPEECH_KEY, speech_wanted
    from tui.lines.session import run_session
    from tui.progress.clock import now

    if problems:   # --watch on a broken book: the plain-line face has no live book to show them in
        report_problems(problems, content)
        return 1
    size = shutil.get_terminal_size()
    return run_session(book, store, sys.stdin, sys.stdout, why=why, clock=now, echo=not sys.stdin.isatty(),
                       screen=(size.columns, size.lines) if sys.stdout.isatty() else None,
                       speech=speech_wanted(flag=speech, environ=os.environ, setting=store.state(SPEECH_KEY)),
                       share=share)


def book_to_watch(content: Path | None) -> tuple[Book | None, list[Problem]]:
    """The book and no problems; or, when it does not load, an empty stand-in and its problems, shown in the app
    until a save fixes them. (None when `content` names no book at all, after saying so.)"""
    from grader.book.cache import default_folder
    from grader.book.load import BUILTIN_CONTENT, BookError, load_book
    from grader.book.model import Book
    from tui.cli.common import folder_problem

    problem = folder_problem(content)
    if problem:
        print(f"ringbook: {problem}", file=sys.stderr)
        return None, []
    root = content if content is not None else BUILTIN_CONTENT
    try:
        return load_book(root, cache_dir=default_folder()), []
    except BookError as exc:
        return Book(f"{root.name} (not loaded: see its problems)", "", root, ()), exc.problems
