"""Build: the learner writes a function; it runs against the exercise's tests in a sandboxed process.

Code that could not be read, or was not run because no sandbox is available, is invalid: it costs no
attempt. Everything else that stops a run (a timeout, a crash, a tampered report) is incorrect."""

from __future__ import annotations

from grader.book.model import Build
from grader.sandbox.runner import TestResult, run_tests
from grader.verdict import Deadline, Verdict, correct, incorrect, invalid


def describe(result: TestResult) -> str:
    """One test as a line a learner can act on: the call, what was expected, what came back."""
    call = ", ".join(f"{k}={v!r}" for k, v in result.args.items())
    expected = _number(result.expected)
    got = result.error or _number(result.got)
    mark = "✓" if result.passed else "✗"
    note = f"  ({result.note})" if result.note else ""
    printed = f"\n    printed: {result.printed.rstrip()}" if result.printed.strip() else ""
    return f"{mark} ({call}) expected {expected}, got {got}{note}{printed}"


def _number(value) -> str:
    if isinstance(value, (tuple, list)):
        return "(" + ", ".join(_number(v) for v in value) + ")"
    if isinstance(value, float):
        return f"{value:.6g}"
    return repr(value)


def judge(exercise: Build, text: str, deadline: Deadline) -> Verdict:
    run = run_tests(text, exercise.function, exercise.tests, exercise.tolerance)
    if run.problem:
        return invalid(run.problem, value=run) if run.unreadable or not run.ran else incorrect(run.problem, value=run)
    rows = tuple((correct if t.passed else incorrect)(describe(t)) for t in run.tests)
    total = len(run.tests)
    if run.passed == total:
        return correct(f"All {total} tests pass.", rows=rows, value=run)
    first = next(t for t in run.tests if not t.passed)
    return incorrect(f"{run.passed} of {total} tests pass.", feedback=describe(first), rows=rows, value=run,
                     score=run.passed / total)
