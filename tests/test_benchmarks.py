"""The classroom benchmark keeps working: one learner through a shortened lesson in a real pseudo-terminal,
and `ringbook serve` with one tab, end to end. Only that it completes, prints a figure in every row and
leaves no process behind: its times are figures, never asserted."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.helpers import ROOT

CLASSROOM = [sys.executable, str(ROOT / "benchmarks" / "classroom.py")]
ROWS = [
    "time to home (s)", "N hello worlds started alike (s)", "time to home / hello world", "  each round's (p50)",
    "verdict: number (ms)", "verdict: formula (ms)", "verdict: formula, N at once (ms)", "verdict: build run (ms)",
    "  build runs under way at once (most)", "verdict: review card (ms)", "formula at once: its explanation (ms)",
    "formula at once: not right (of N)",
    "hello worlds: a line at once (ms)",
    "formula at once / hello world",
    "PSS per learner at home (MB)", "PSS per learner after lesson (MB)", "  of which the app (MB)",
    "  of which its workers (MB)", "PSS of the whole class (MB)", "CPU per learner to home (s)",
    "CPU per learner, whole lesson (s)", "idle CPU per learner (% of a core)",
    "serve: tab's first frame (s)", "serve: tab's home screen (s)", "serve: PSS per tab (MB)",
    "serve: the server itself (MB)",
]


def processes_under(folder: Path) -> list[str]:
    """Processes working in `folder` or naming it on their command line: the benchmark's learners, their
    workers and sandboxed runs (in the learners' homes, under TMPDIR) and the server (its --data-dir)."""
    found = []
    for proc in Path("/proc").glob("[0-9]*"):
        try:
            cwd = os.readlink(proc / "cwd")
            command = (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if cwd.startswith(str(folder)) or str(folder) in command:
            found.append(f"{proc.name} {command}")
    return found


def benchmark_env(folder: Path) -> dict[str, str]:
    return {**os.environ, "TMPDIR": str(folder)}


def test_the_classroom_benchmark_runs_a_short_lesson_and_prints_every_row(tmp_path: Path):
    done = subprocess.run([*CLASSROOM, "--learners", "1", "--short"], capture_output=True, text=True, cwd=ROOT,
                          env=benchmark_env(tmp_path), timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    for row in ROWS:
        [line] = [line for line in lines if line.startswith(row + "  ")]
        figure = line[len(row):].strip()
        assert figure and figure != "-", f"{row!r} has no figure:\n{done.stdout}"
        if row == "formula at once: not right (of N)":
            assert figure == "0", done.stdout
        if row == "  build runs under way at once (most)":
            assert figure == "1", done.stdout   # one learner
    assert processes_under(tmp_path) == []


def test_the_most_build_runs_under_way_at_once_counts_overlapping_spans_only(monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))
    from classroom import most_at_once

    assert most_at_once([(0, 2), (1, 3), (2.5, 4)]) == 2   # the first has ended when the third starts
    assert most_at_once([(0, 10), (1, 2), (3, 4), (5, 9), (6, 7)]) == 3
    assert most_at_once([(0, 1)]) == 1
