"""`ringbook content check --watch`: the check again at each save, as an author fixes a book beside it."""

from __future__ import annotations

import os
import subprocess

from tests.helpers import RINGBOOK, ROOT, STACKS_ON_ABORT, LineReader, stop_with_ctrl_c

CHAPTER = "00-ring-allreduce"


def test_each_save_is_checked_again(chapters_copy):
    root = chapters_copy(CHAPTER)
    exercises = root / CHAPTER / "exercises.yaml"
    good = exercises.read_text()
    child = subprocess.Popen([*RINGBOOK, "content", "check", "--watch", "--content", str(root)], cwd=ROOT,
                             stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             env={**os.environ, **STACKS_ON_ABORT})
    output = LineReader(child)
    try:
        assert output.until("ok: ")[-1].startswith("ok: ")
        output.until("Watching ")
        exercises.write_text(good.replace("exercises:", "exercises: [", 1))
        heading = output.until(str(exercises))   # its problem, path:line: message (outside the current folder)
        assert any(line.endswith("the book changed: checking again") for line in heading)
        assert "invalid YAML" in heading[-1]
        exercises.write_text(good)
        assert output.until("ok: ")[-1].startswith("ok: ")
        output.until("Watching ")   # the check is done: its status is the one Ctrl+C exits with
    finally:
        stop_with_ctrl_c(child)
    assert child.stderr is not None and child.returncode == 0, child.stderr.read()
