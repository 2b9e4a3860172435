"""`ringbook work ID`, as a learner runs it beside their editor: a real process whose output is a pipe. The
test saves the file as an editor would and reads what is printed, waiting for each line, never a fixed time."""

from __future__ import annotations

import os
import pwd
import signal
import subprocess
from pathlib import Path

import pytest

from tests.face.test_shared_progress import attempts_shared
from tests.helpers import RINGBOOK, ROOT, STACKS_ON_ABORT, LineReader, ringbook_subprocess, stop_with_ctrl_c
from tui.cli.work_watch import builds
from tui.progress import clock
from tui.progress.class_live import ClassLive
from tui.progress.store import ProgressStore

EXERCISE = "0.5"


def test_each_save_is_run_printed_and_recorded_as_in_the_app(book, data_dir, tmp_path):
    exercise = book.exercise(EXERCISE)
    child = subprocess.Popen([*RINGBOOK, "work", EXERCISE], cwd=ROOT, stdin=subprocess.DEVNULL,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             env={**os.environ, **STACKS_ON_ABORT, "RINGBOOK_DATA_DIR": str(data_dir)})
    output = LineReader(child)
    try:
        task = output.until("Each save runs the tests.")
        at_start = output.until("builds solved:")   # the starter's run, shown at once and not recorded
        path = data_dir / "work" / f"{EXERCISE}.py"
        assert task[0] == f"{EXERCISE} · {exercise.title}" and f"Edit {path}" in task
        assert f"def {exercise.signature}" in task and "builds solved: 0 of 5" in task
        assert at_start[-2] == f"✗ 0 of {len(exercise.tests)} tests pass." or "NotImplementedError" in at_start[-2]
        assert path.read_text() == exercise.starter

        path.write_text(exercise.solution.replace("* 1000", "* 100", 1))   # a unit slip
        wrong = output.until("✗ ")
        feedback = output.until("✗ (")
        path.write_text(exercise.solution)
        right = output.until("✓ All")
        tests = output.until("Explanation:")
        done = output.until("builds solved: 1 of 5")
    finally:
        stop_with_ctrl_c(child)
    assert child.stderr is not None and child.returncode == 0, child.stderr.read()
    stopped = output.until("Stopped.")
    assert wrong[-1].startswith("✗ ") and "tests pass" in wrong[-1] and feedback
    first_run = output.seen[output.seen.index(wrong[-1]):]
    first_run = first_run[:next(i for i, line in enumerate(first_run) if line.startswith("Running the tests"))]
    assert sum(line.startswith(("✗ (", "✓ (")) for line in first_run) == len(exercise.tests)   # each test once
    assert right[-1] == f"✓ All {len(exercise.tests)} tests pass."
    assert sum(line.startswith("✓ (") for line in tests) == len(exercise.tests)
    assert done[-2] == "done: type n and Enter for the next build"   # keys are lines when not from a terminal
    assert stopped[-1] == f"Stopped. Your code is kept in {path} and is your draft in the app."
    assert "\x1b" not in "\n".join(output.seen)

    store = ProgressStore.open(data_dir)
    try:
        attempts = store.attempts(EXERCISE)
        assert [a.status for a in attempts] == ["incorrect", "correct"]
        assert attempts[1].answer == exercise.solution and attempts[0].message == wrong[-1][2:]
        assert store.draft(EXERCISE) == exercise.solution
    finally:
        store.close()


def test_work_takes_only_a_build_of_the_book(ringbook, data_dir):
    unknown = ringbook("work", "9.99")
    assert unknown.returncode == 3 and "no exercise '9.99'" in unknown.stderr
    derive = ringbook("work", "0.1")
    assert derive.returncode == 2 and "0.1 is a derive exercise" in derive.stderr
    assert not (data_dir / "work").exists()


def test_work_without_an_id_says_when_every_build_is_solved(book, ringbook, store):
    for exercise in builds(book):
        store.record_attempt(exercise.id, exercise.solution, "correct")
    store.close()
    done = ringbook("work")
    assert done.returncode == 0 and done.stdout.startswith("Every build exercise is solved.")


def watching(data_dir) -> tuple[subprocess.Popen[str], LineReader]:
    """`ringbook work 0.5` started on `data_dir`, its output read line by line. A hangup ends it as it ends a
    learner's: a run started under `nohup` passed its ignored SIGHUP on, and a closed terminal then ended nothing."""
    child = subprocess.Popen([*RINGBOOK, "work", EXERCISE], cwd=ROOT, stdin=subprocess.DEVNULL,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             env={**os.environ, **STACKS_ON_ABORT, "RINGBOOK_DATA_DIR": str(data_dir)},
                             preexec_fn=lambda: signal.signal(signal.SIGHUP, signal.SIG_DFL))
    return child, LineReader(child)


def test_a_work_folder_that_is_a_link_is_refused_not_written_through(data_dir, tmp_path):
    """Found (issue 42): the file was checked for a link, its folder was not, so a `work/` linked to a folder
    elsewhere had the code written there."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    data_dir.mkdir(exist_ok=True)
    os.symlink(elsewhere, data_dir / "work")
    done = ringbook_subprocess("work", EXERCISE, env={"RINGBOOK_DATA_DIR": str(data_dir)}, timeout=60)
    assert done.returncode == 1, done.stdout
    assert f"{data_dir / 'work'} is a link" in done.stderr and "Traceback" not in done.stderr
    assert list(elsewhere.iterdir()) == []


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0,
                    reason="giving a folder to another account (os.chown) needs root")
def test_a_work_folder_of_another_account_is_refused(data_dir):
    other = next(entry for entry in pwd.getpwall() if entry.pw_uid != os.geteuid())
    folder = data_dir / "work"
    folder.mkdir(parents=True)
    os.chown(folder, other.pw_uid, other.pw_gid)
    done = ringbook_subprocess("work", EXERCISE, env={"RINGBOOK_DATA_DIR": str(data_dir)}, timeout=60)
    assert done.returncode == 1, done.stdout
    assert f"{folder} belongs to another account ({other.pw_name})" in done.stderr
    assert list(folder.iterdir()) == []


def test_a_work_file_swapped_for_a_fifo_is_said_and_the_next_save_is_run(book, data_dir):
    """Found (issue 42): a FIFO in the file's place blocked the watch in open() for ever, so no later save
    was graded."""
    exercise = book.exercise(EXERCISE)
    child, output = watching(data_dir)
    path = data_dir / "work" / f"{EXERCISE}.py"
    try:
        output.until("Each save runs the tests.")
        output.until("builds solved:")
        path.unlink()
        os.mkfifo(path)
        said = output.until(f"{path} is not a plain file")
        path.unlink()
        path.write_text(exercise.solution)
        right = output.until("✓ All")
    finally:
        stop_with_ctrl_c(child)
    assert said[-1] == f"{path} is not a plain file (a named pipe); waiting for the next save."
    assert right[-1] == f"✓ All {len(exercise.tests)} tests pass."
    assert child.returncode == 0


def kept_texts(path) -> list[str]:
    """The text of every copy kept beside the work file `path` (`ID.py.kept`, `ID.py.kept.2`, ...)."""
    return [copy.read_text() for copy in sorted(path.parent.glob(path.name + ".kept*"))]


def test_code_edited_while_work_is_not_running_is_taken_and_no_edit_is_lost(book, data_dir):
    """Found (issue 43): each start wrote the draft (else the starter) over the file, moving the learner's edit
    to ID.py.kept, and the next such start replaced that copy: the first edit existed nowhere. A file whose
    code the store does not have was written outside a run: it is the learner's newest code, run at the start
    and kept as an attempt (issue 46), so the next start has it and needs no copy of it."""
    exercise = book.exercise(EXERCISE)
    path = data_dir / "work" / f"{EXERCISE}.py"
    child, output = watching(data_dir)
    try:
        output.until("Each save runs the tests.")
    finally:
        stop_with_ctrl_c(child)
    edits = [exercise.starter + "\n# my first edit\n", exercise.starter + "\n# my second edit\n"]
    for edit in edits:
        path.write_text(edit)   # the learner's editor, while ringbook work is not running
        child, output = watching(data_dir)
        try:
            task = output.until("Each save runs the tests.")
            ran = output.until("builds solved:")   # the code taken is run at once
        finally:
            stop_with_ctrl_c(child)
        assert child.returncode == 0
        assert f"{path} changed since the last run: taking it as your code." in task
        assert path.read_text() == edit
        assert ran[-2].startswith("✗ (") or ran[-2].startswith("    line ")
    assert kept_texts(path) == []   # the first edit is an attempt already: the store has it
    store = ProgressStore.open(data_dir)
    try:
        assert store.draft(EXERCISE) == edits[1] and [a.answer for a in store.attempts(EXERCISE)] == edits
    finally:
        store.close()


def saving_endless_code(book, data_dir: Path):
    """`ringbook work` started, code that never ends saved, and its run begun: (the child, its output, the work
    file, the code). The run takes its 2 s; the caller signals it meanwhile, and stops the child however."""
    path = data_dir / "work" / f"{EXERCISE}.py"
    endless = f"def {book.exercise(EXERCISE).signature}:\n    while True:\n        pass\n"
    child, output = watching(data_dir)
    try:
        output.until("Each save runs the tests.")
        output.until("builds solved:")
        path.write_text(endless)
        output.until("Running the tests")
    except BaseException:
        stop_with_ctrl_c(child)
        raise
    return child, output, path, endless


def test_ctrl_c_during_a_run_leaves_the_saved_code_as_the_draft_it_says_it_is(book, data_dir):
    """Found (issue 43): Ctrl+C while the tests ran said the code "is your draft in the app" while the draft
    still held the code saved before (here: none). The code in the file is kept as the draft first."""
    child, output, path, endless = saving_endless_code(book, data_dir)
    stop_with_ctrl_c(child)
    stopped = output.until("Stopped.")
    assert stopped[-1] == f"Stopped. Your code is kept in {path} and is your draft in the app."
    assert child.returncode == 0
    store = ProgressStore.open(data_dir)
    try:
        assert store.draft(EXERCISE) == endless
    finally:
        store.close()


@pytest.mark.parametrize("fault", [signal.SIGKILL, signal.SIGHUP], ids=lambda s: s.name)
def test_a_kill_during_a_run_loses_no_code_the_next_start_takes_it(book, data_dir, fault):
    """A kill (or a closed terminal) while a save's tests run leaves no draft of it and no attempt; the code is
    in the file, which the next start takes as code edited outside a run (issue 43)."""
    child, output, path, endless = saving_endless_code(book, data_dir)
    try:
        child.send_signal(fault)
        child.wait(timeout=60)
    finally:
        if child.poll() is None:
            stop_with_ctrl_c(child)
    assert child.returncode == -fault
    child, output = watching(data_dir)
    try:
        task = output.until("Each save runs the tests.")
    finally:
        stop_with_ctrl_c(child)
    assert f"{path} changed since the last run: taking it as your code." in task
    assert path.read_text() == endless
    store = ProgressStore.open(data_dir)
    try:
        assert store.draft(EXERCISE) == endless
    finally:
        store.close()


def test_sigterm_during_a_run_ends_it_as_ctrl_c_does_and_says_where_the_code_is(book, data_dir):
    """Found (issue 46): SIGTERM (a closed session, `kill`) ended it without a word, the saved code not kept as
    the draft. It ends as Ctrl+C does, with the status a shell gives a program SIGTERM ended."""
    child, output, path, endless = saving_endless_code(book, data_dir)
    try:
        child.send_signal(signal.SIGTERM)
        child.wait(timeout=60)
    finally:
        if child.poll() is None:
            stop_with_ctrl_c(child)
    assert child.returncode == 128 + signal.SIGTERM
    stopped = output.until("Stopped.")
    assert stopped[-1] == f"Stopped. Your code is kept in {path} and is your draft in the app."
    store = ProgressStore.open(data_dir)
    try:
        assert store.draft(EXERCISE) == endless and store.attempts(EXERCISE) == []
    finally:
        store.close()


def test_in_a_pipe_keys_are_lines_and_every_run_is_appended_as_plain_text(book, data_dir):
    """Issue 46: with no terminal the keys are read as lines (h, x, l, n, q and Enter), each run's lines are
    appended, and the Markdown is read out as the plain-line face reads it: no escape code, no `**`."""
    first = book.exercise(EXERCISE)
    child = subprocess.Popen([*RINGBOOK, "work"], cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True,
                             env={**os.environ, **STACKS_ON_ABORT, "RINGBOOK_DATA_DIR": str(data_dir)})
    output = LineReader(child)
    path = data_dir / "work" / f"{EXERCISE}.py"
    assert child.stdin is not None

    def key(line: str, then: str) -> list[str]:
        assert child.stdin is not None
        child.stdin.write(line + "\n")
        child.stdin.flush()
        return output.until(then)

    try:
        task = output.until("Each save runs the tests.")
        output.until("builds solved: 0 of 5")
        hint = key("h", f"  {first.hints[0].split()[0]}")
        listing = key("list", "  · 8.6")
        before = key("n", "n goes on once this build passes")
        asked = key("x", "Show the worked answer?")
        shown = key("x", "Explanation:") + output.until("  Each of the 2(n - 1) steps")
        path.write_text(first.solution)
        done = output.until("builds solved: 1 of 5")
        following = key("n", "builds solved: 1 of 5")
        key("q", "Stopped.")
        child.wait(timeout=60)
    finally:
        if child.poll() is None:
            stop_with_ctrl_c(child)
    assert child.returncode == 0
    assert f"{EXERCISE} · {first.title}" == task[0] and not any("`" in line or "**" in line for line in task)
    assert hint[-2] == f"Hint 1 of {len(first.hints)}:"
    assert listing[-6:] == ["Build exercises:", f"> · 0.5  {first.title}  (new)",
                            *[f"  · {b.id}  {b.title}  (new)" for b in builds(book)[1:]]]
    assert before[-1].startswith("n goes on") and asked[-1].startswith("Show the worked answer?")
    assert "code (python, 2 lines):" in shown
    assert "done: type n and Enter for the next build" in done and "✓ All 5 tests pass." in done
    assert following[0] == "2.4 · Required accumulation steps"
    assert "\x1b" not in "\n".join(output.seen)
    store = ProgressStore.open(data_dir)
    try:
        assert [(a.status, a.hints_used) for a in store.attempts(EXERCISE)] == [("correct", 1)]
        assert store.exercise_states()[EXERCISE].solved_after_reveal
    finally:
        store.close()


def test_runs_are_shared_with_the_class_as_the_apps_answers_are(book, data_dir, tmp_path):
    """`ringbook work` kept every run in the store but shared none: a learner working in their editor was
    missing from the instructor's live view (--class, RINGBOOK_CLASS: tui.progress.class_share)."""
    exercise = book.exercise(EXERCISE)
    inbox = tmp_path / "inbox"
    inbox.mkdir(mode=0o3733)
    child = subprocess.Popen([*RINGBOOK, "work", EXERCISE, "--class", str(inbox)], cwd=ROOT,
                             stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             env={**os.environ, **STACKS_ON_ABORT, "RINGBOOK_DATA_DIR": str(data_dir)})
    output = LineReader(child)
    try:
        task = output.until("Each save runs the tests.")
        assert f"Shared with {pwd.getpwuid(os.getuid()).pw_name} as you answer." in " ".join(task)
        output.until("builds solved:")
        (data_dir / "work" / f"{EXERCISE}.py").write_text(exercise.solution)
        output.until("builds solved: 1 of 5")
    finally:
        stop_with_ctrl_c(child)   # shares what waits, as quitting the app does
    assert child.returncode == 0, child.stderr.read() if child.stderr else ""
    assert attempts_shared(inbox) == [exercise.solution]
    live = ClassLive(book, inbox)   # and the instructor's live view has it
    live.refresh()
    [learner] = live.snapshot(clock.now()).learners
    assert learner.exercises[EXERCISE].state == "solved"


def test_a_class_inbox_that_is_not_there_is_said_with_the_task(data_dir, tmp_path):
    child = subprocess.Popen([*RINGBOOK, "work", EXERCISE, "--class", str(tmp_path / "nowhere")], cwd=ROOT,
                             stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             env={**os.environ, **STACKS_ON_ABORT, "RINGBOOK_DATA_DIR": str(data_dir)})
    output = LineReader(child)
    try:
        task = output.until("Each save runs the tests.")
    finally:
        stop_with_ctrl_c(child)
    assert (f"Not shared with your class: the class inbox {tmp_path / 'nowhere'} does not exist; your answers are "
            "kept here as always.") in task
