"""`ringbook work ID`: a build exercise as a file the learner edits in their own editor or IDE, Rustlings style.

The code (the learner's draft, else the starter) is written to `<data folder>/work/ID.py`, unless the file holds
code edited there while no run watched it: that is the learner's newest, and becomes the draft (work_files keeps
any code displaced, numbered). The task is printed, and every save runs the tests, as the app's Ctrl+R does: the
same grader and sandbox, the same verdict and per-test lines, each run recorded in the same store
(tui.progress.answering) and kept as the draft the app opens with. Everything is printed as plain lines, with
anything from the book or the learner's code made inert (no escape sequence reaches the terminal), so it works
in a pipe, beside an editor and with a screen reader. Ctrl+C ends it, keeps the file's code as the draft (a save
made during a run was not run yet), and says where the code is.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from grader.kinds.build import Build
from grader.safe_text import printable
from tui.cli.common import load_or_report, open_store_or_report
from tui.progress.store import ProgressStore, StoreError
from tui.progress.work_files import Opened, WorkFileError, open_work_file, read_work_file, work_file, work_folder

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
            opened = open_work_file(path, code, {exercise.starter, *(a.answer for a in store.attempts(exercise.id))})
        except WorkFileError as exc:
            print(f"ringbook work: {exc}", file=sys.stderr)
            return 1
        show_task(exercise, path, opened)
        if opened.taken:
            keep_as_draft(store, exercise.id, opened.code)
        return watch_and_run(exercise, path, code, store)   # code, not the code taken: its next save runs it
    finally:
        store.close()


def show_task(exercise: Build, path: Path, opened: Opened) -> None:
    say(f"{exercise.id} · {exercise.title}", one_line=True)
    say()
    say(exercise.prompt.rstrip("\n"))
    say()
    say(f"def {exercise.signature}", one_line=True)
    say()
    if opened.taken:
        say(f"{path} changed since the last run: taking it as your code; save it to run the tests.", one_line=True)
        if opened.kept is not None:
            say(f"Your code before it is kept as {opened.kept}.", one_line=True)
    elif opened.kept is not None:
        say(f"The file held other code: it is kept as {opened.kept}.", one_line=True)
    say(f"Edit {path}", one_line=True)


def keep_as_draft(store: ProgressStore, exercise_id: str, code: str) -> bool:
    """Keep `code` as the draft the app opens with; whether the draft holds it now (a read-only store has said
    why not already; a draft the store refuses is said here)."""
    if store.read_only:
        return False
    try:
        store.save_draft(exercise_id, code)
    except StoreError as exc:
        if not store.read_only:
            say(f"Not kept as your draft: {exc}", one_line=True)
        return False
    return True


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
        say(f"Stopped. {where_the_code_is(exercise, path, store)}", one_line=True)
    return 0


def where_the_code_is(exercise: Build, path: Path, store: ProgressStore) -> str:
    """Where the code is, once the file's code (saved perhaps while a run went on, and not run) is the draft."""
    try:
        code = read_work_file(path)
    except WorkFileError as exc:
        return f"{exc}; your draft in the app is the code last run."
    if store.draft(exercise.id) == code or keep_as_draft(store, exercise.id, code):
        return f"Your code is kept in {path} and is your draft in the app."
    return f"Your code is kept in {path}."


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
