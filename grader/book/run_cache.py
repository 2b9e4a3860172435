"""The outcomes of the sandbox runs `content check` makes (grader.book.code_runs), kept so that a run whose
code, tests and runner have not changed is not made again: a repeated check of an unchanged book starts no
sandbox at all.

Each outcome is keyed by a hash of what decides it: the code, the function's name, the tests, the tolerance,
and the runner's own version (the bytes of runner.py and harness.py, and the Python that runs them). The file
lives in the reader's cache folder beside the book cache (grader.book.cache, read and written the same
guarded way), never in the book, and is shared by every book the reader checks, so a copy of a book reuses
its original's runs. Only outcomes that cannot change between two runs are kept: every test ran, or the code
could not be read. A timeout, a crash or a refused sandbox is run again next time.
"""

from __future__ import annotations

import functools
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from grader.book import cache as book_cache
from grader.exercise import CodeTest
from grader.sandbox import harness, runner
from grader.sandbox.runner import RunResult, TestResult

# The author's code gets more time than a learner's (runner.WALL_SECONDS): a check runs every build and debug
# at once, often beside other work (a test suite, an editor), and a reference solution stopped by a busy
# machine is not the author's slip. Code that loops for ever is still stopped, and reported.
CHECK_WALL_SECONDS = 10.0
NAME = "code-runs.json"
FORMAT = 1
KEPT = 2000  # outcomes; past this the oldest are dropped (a few hundred bytes each)


@functools.cache
def runner_version() -> str:
    """Changes whenever the runner, the harness or the Python that runs them does."""
    digest = hashlib.sha256(sys.version.encode())
    for module in (runner, harness):
        digest.update(Path(module.__file__ or "").read_bytes())
    return digest.hexdigest()


def run_key(code: str, function: str, tests: tuple[CodeTest, ...], tolerance: float) -> str:
    what = [FORMAT, runner_version(), code, function, [[t.args, t.expected] for t in tests], tolerance]
    return hashlib.sha256(json.dumps(what, sort_keys=True).encode()).hexdigest()


class RunCache:
    """The kept outcomes in `folder`, read once; `save` writes them back only when a run was added. `refused`
    says a run was wanted but no sandbox could start (and the reader has not allowed running without one)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.outcomes = _read(folder)
        self.added = False
        self.refused = False

    def run(self, code: str, function: str, tests: tuple[CodeTest, ...], tolerance: float) -> RunResult:
        """The kept outcome of this run, else the run itself, made now in the sandbox as a learner's is."""
        key = run_key(code, function, tests, tolerance)
        kept = self.outcomes.get(key)
        if kept is not None:
            outcome = _outcome(kept, tests)
            if outcome is not None:
                return outcome
        result = runner.run_tests(code, function, tests, tolerance, wall_seconds=CHECK_WALL_SECONDS)
        self.refused |= not result.ran
        if result.ran and (not result.problem or result.unreadable):
            self.outcomes[key] = _stored(result)
            self.added = True
        return result

    def save(self) -> None:
        if self.added:
            newest = dict(list(self.outcomes.items())[-KEPT:])
            book_cache.write_own(self.folder, NAME, json.dumps({"format": FORMAT, "outcomes": newest}).encode())
            self.added = False


def _read(folder: Path) -> dict[str, Any]:
    payload = book_cache.read_own(folder, NAME)
    try:
        kept = json.loads(payload) if payload is not None else {}
    except ValueError:
        return {}
    if not isinstance(kept, dict) or kept.get("format") != FORMAT or not isinstance(kept.get("outcomes"), dict):
        return {}
    return kept["outcomes"]


def _stored(result: RunResult) -> dict[str, Any]:
    return {"problem": result.problem, "unreadable": result.unreadable, "sandboxed": result.sandboxed,
            "tests": [[t.passed, t.got, t.error] for t in result.tests]}


def _outcome(kept: Any, tests: tuple[CodeTest, ...]) -> RunResult | None:
    """The RunResult a kept outcome stands for, or None for one this version cannot read (it is run again)."""
    try:
        rows = kept["tests"]
        if len(rows) != (0 if kept["problem"] else len(tests)):
            return None
        results = tuple(TestResult(test.args, test.expected_value, got, str(error), bool(passed), test.note)
                        for test, (passed, got, error) in zip(tests, rows, strict=True))
        return RunResult(results, str(kept["problem"]), bool(kept["unreadable"]), sandboxed=bool(kept["sandboxed"]))
    except (KeyError, TypeError, ValueError):
        return None
