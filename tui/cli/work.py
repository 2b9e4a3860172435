"""`ringbook work [ID]`: a build exercise as a file the learner edits in their own editor or IDE, Rustlings style.

The code (the learner's draft, else the starter) is written to `<data folder>/work/ID.py`, unless the file holds
code edited there while no run watched it: that is the learner's newest, and becomes the draft (work_files keeps
any code displaced, numbered). Without an ID it opens the next build not yet solved, in book order. The tests
run at once and at every save, as the app's Ctrl+R does: the same grader and sandbox, each run recorded in the
same store (tui.progress.answering) and kept as the draft the app opens with, and shared with the learner's class
as the app shares it (--class, RINGBOOK_CLASS: tui.progress.class_share). The watch itself (keys, runs,
moving on) is work_watch.py; what it shows, a status block in a terminal or plain lines in a pipe, is
work_screen.py.
"""

from __future__ import annotations

import sys
from pathlib import Path

from grader.kinds.build import Build
from grader.safe_text import printable
from tui.cli.common import load_or_report, open_store_or_report, shared_with

EXIT_UNKNOWN_ID = 3


def work_on(exercise_id: str | None, content: Path | None, data_dir: Path | None, *, allow_unsandboxed: bool,
            class_dir: Path | None = None) -> int:
    from grader.sandbox.runner import allow_unsandboxed as allow
    from grader.sandbox.runner import prepare_runs, sandbox_status
    from tui.cli.work_watch import Watcher, next_unsolved

    store = open_store_or_report(data_dir)
    if store is None:
        return 1
    try:
        book = load_or_report(content)
        if book is None:
            return 1
        if exercise_id is None:
            exercise = next_unsolved(book, store)
            if exercise is None:
                print("Every build exercise is solved. `ringbook work ID` opens one again "
                      "(`ringbook content list` lists them).")
                return 0
        else:
            found = book.exercise(exercise_id)
            if found is None:
                print(f"ringbook work: no exercise {printable(exercise_id, one_line=True)!r} "
                      "(`ringbook content list` lists them).", file=sys.stderr)
                return EXIT_UNKNOWN_ID
            if not isinstance(found, Build):
                print(f"ringbook work: {found.id} is a {found.kind} exercise; work takes a build exercise (one that "
                      "asks for code). Answer this one in the app or with `ringbook check`.", file=sys.stderr)
                return 2
            exercise = found
        if allow_unsandboxed:
            allow()
        sandbox = sandbox_status()
        notice = sandbox.notice("Add --allow-unsandboxed to allow that.")
        if notice:
            print(f"ringbook work: {notice}", file=sys.stderr)
        if sandbox.mode == "refused":
            return 2
        prepare_runs()
        share = shared_with(class_dir, store)
        try:
            return Watcher(book, store, exercise, share).run()
        finally:
            if share is not None:
                share.close()   # what came since the last run is shared too, as the app shares on quitting
    finally:
        store.close()
