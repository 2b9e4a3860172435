"""`ringbook work ID`, as a learner runs it beside their editor: a real process whose output is a pipe. The
test saves the file as an editor would and reads what is printed, waiting for each line, never a fixed time."""

from __future__ import annotations

import os
import subprocess

from tests.helpers import RINGBOOK, ROOT, STACKS_ON_ABORT, LineReader, stop_with_ctrl_c
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
        path = data_dir / "work" / f"{EXERCISE}.py"
        assert task[0] == f"{EXERCISE} · {exercise.title}" and f"Edit {path}" in task
        assert f"def {exercise.signature}" in task
        assert path.read_text() == exercise.starter

        path.write_text(exercise.solution.replace("* 1000", "* 100", 1))   # a unit slip
        wrong = output.until("✗ ")
        feedback = output.until("✗ (")
        path.write_text(exercise.solution)
        right = output.until("✓ All")
        tests = output.until("Explanation:")
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
