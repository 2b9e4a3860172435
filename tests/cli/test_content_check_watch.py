"""`ringbook content check --watch`: the check again at each save, as an author fixes a book beside it."""

from __future__ import annotations

import os
import signal
import subprocess

from tests.helpers import RINGBOOK, ROOT, WAIT_SECONDS, LineReader

CHAPTER = "00-ring-allreduce"


def test_each_save_is_checked_again(chapters_copy):
    root = chapters_copy(CHAPTER)
    exercises = root / CHAPTER / "exercises.yaml"
    good = exercises.read_text()
    child = subprocess.Popen([*RINGBOOK, "content", "check", "--watch", "--content", str(root)], cwd=ROOT,
                             stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             env=dict(os.environ))
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
        child.send_signal(signal.SIGINT)
        child.wait(timeout=WAIT_SECONDS)
    assert child.stderr is not None and child.returncode == 0, child.stderr.read()
