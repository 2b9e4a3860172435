"""`ringbook work ID`: a build exercise as a file the learner edits in their own editor or IDE, Rustlings style.

The code (the learner's draft, else the starter) is written to `<data folder>/work/ID.py`, the task is printed,
and every save runs the tests, as the app's Ctrl+R does: the same grader and sandbox, the same verdict and
per-test lines, each run recorded in the same store (tui.progress.answering) and kept as the draft the app
opens with. Everything is printed as plain lines, with anything from the book or the learner's code made
inert (no escape sequence reaches the terminal), so it works in a pipe, beside an editor and with a screen
reader. Ctrl+C ends it and says where the code is kept.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from grader.kinds.build import Build
from grader.safe_text import printable
from tui.cli.common import load_or_report, open_store_or_report
from tui.progress.store import ProgressStore, StoreError
from tui.progress.work_files import WorkFileError, read_work_file, work_file, work_folder, write_work_file

EXIT_UNKNOWN_ID = 3


def say(text: str = "", *, one_line: bool = False) -> None:
    """One line (or block) to stdout at once, as a pipe's reader waits for it, with control characters inert."""
    print(printable(text, one_line=one_line), flush=True)


def work_on(exercise_id: str, content: Path | None, data_dir: Path | None, *, allow_unsandboxed: bool) -> int:
    from grader.sandbox.runner import allow_unsandboxed as allow
    from grader.sandbox.runner import sandbox_status

    store = open_store_or_report(data_dir)
    if store is None:
        return 1
    try:
        book = load_or_report(content)
        if book is None:
            return 1
        exercise = book.exercise(exercise_id)
        if exercise is None:
            print(f"ringbook work: no exercise {printable(exercise_id, one_line=True)!r} "
                  "(`ringbook content list` lists them).", file=sys.stderr)
            return EXIT_UNKNOWN_ID
        if not isinstance(exercise, Build):
            print(f"ringbook work: {exercise.id} is a {exercise.kind} exercise; work takes a build exercise (one that "
                  "asks for code). Answer this one in the app or with `ringbook check`.", file=sys.stderr)
            return 2
        if allow_unsandboxed:
            allow()
        sandbox = sandbox_status()
        notice = sandbox.notice("Add --allow-unsandboxed to allow that.")
        if notice:
            print(f"ringbook work: {notice}", file=sys.stderr)
        if sandbox.mode == "refused":
            return 2
        try:
            path = work_file(work_folder(store.path), exercise.id)
            code = store.draft(exercise.id) or exercise.starter
            kept = write_work_file(path, code)
        except WorkFileError as exc:
            print(f"ringbook work: {exc}", file=sys.stderr)
            return 1
        show_task(exercise, path, kept)
        return watch_and_run(exercise, path, code, store)
    finally:
        store.close()


def show_task(exercise: Build, path: Path, kept: Path | None) -> None:
    say(f"{exercise.id} · {exercise.title}", one_line=True)
    say()
    say(exercise.prompt.rstrip("\n"))
    say()
    say(f"def {exercise.signature}", one_line=True)
    say()
    if kept is not None:
        say(f"The file held other code: it is kept as {kept}.", one_line=True)
    say(f"Edit {path}", one_line=True)


def watch_and_run(exercise: Build, path: Path, code: str, store: ProgressStore) -> int:
    """Run the tests on each save that changes the code, until Ctrl+C."""
    from tui.watch import Edits

    last, started = code, time.monotonic()
    try:
        with Edits(path.parent, recursive=False, only=path) as saves:
            say("Each save runs the tests. Ctrl+C stops.")
            for _ in saves:
                try:
                    code = read_work_file(path)
                except WorkFileError as exc:
                    say(f"{exc}; waiting for the next save.", one_line=True)
                    continue
                if code != last:
                    last = code
                    run_once(exercise, code, store, seconds=round(time.monotonic() - started, 1))
                    started = time.monotonic()
    except OSError as exc:
        print(f"ringbook work: cannot watch {path.parent}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        say()
        say(f"Stopped. Your code is kept in {path}" + ("" if store.read_only else " and is your draft in the app")
            + ".", one_line=True)
    return 0


def run_once(exercise: Build, code: str, store: ProgressStore, *, seconds: float) -> None:
    """Grade `code` as the app's Run does, record it, keep it as the draft, and print the verdict."""
    from grader.grade import grade
    from tui.progress.answering import record_answer
    from tui.progress.clock import now

    say()
    say(f"Running the tests ({time.strftime('%H:%M:%S')})…")
    verdict = grade(exercise, code)
    not_saved = ""
    try:
        record_answer(store, exercise.id, code, verdict, hints_used=0, seconds_taken=seconds, seed=0,
                      purpose="learn", explanation_shown=False, now=now(), draft_key=exercise.id)
    except StoreError as exc:
        not_saved = str(exc)
    if not store.read_only:
        try:
            store.save_draft(exercise.id, code)   # what the app opens with, as after a run there
        except StoreError:
            pass   # the store has said it cannot write: not_saved says so below
    for line in verdict.lines():
        say(line)
    if not_saved:
        say(f"Not saved: {not_saved}", one_line=True)
    if verdict.status == "correct":
        say()
        say("Explanation:")
        say(exercise.explanation.rstrip("\n"))
