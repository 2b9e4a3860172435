"""Build: the learner writes a function; it runs against the exercise's tests in a sandboxed process.

Code that could not be read, or was not run because no sandbox is available, is invalid: it costs no
attempt. Everything else that stops a run (a timeout, a crash, a tampered report) is incorrect."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from grader.exercise import CodeTest, Exercise, Where, code_tests
from grader.kinds.numeric import formula_problem
from grader.kinds.registry import COMMON_FIELDS, Findings, Hardware, Kind, no_findings, plain_label
from grader.verdict import Deadline, Verdict, correct, incorrect, invalid

if TYPE_CHECKING:
    from grader.sandbox.runner import TestResult


@dataclass(kw_only=True, repr=False)
class Build(Exercise):
    """Write a small function; graded by running it against `tests` in a sandbox."""

    kind: str = "build"
    function: str
    signature: str
    starter: str
    solution: str
    tests: tuple[CodeTest, ...]
    tolerance: float = 1e-6


def read(raw: dict[str, Any], common: dict[str, Any], hardware: Hardware) -> Build:
    return Build(**common, function=raw["function"], signature=raw["signature"], starter=raw["starter"],
                 solution=raw["solution"], tests=code_tests(raw["tests"]))


def problems(exercise: Build, where: Where) -> Findings:
    return code_test_problems(exercise.tests, where)


def code_test_problems(tests: tuple[CodeTest, ...], where: Where) -> Findings:
    """Each test's expected value must evaluate over its scalar args (a build's, or a debug's proof)."""
    found: Findings = []
    for i, test in enumerate(tests):
        names = test.scalar_args
        for expected in test.expected if isinstance(test.expected, list) else [test.expected]:
            message = formula_problem(expected, names)
            if message:
                found.append((where("tests", i, "expected"), f"expected {expected!r}: {message}"))
    return found


def describe(result: TestResult) -> str:
    """One test as a line a learner can act on: the call, what was expected, what came back."""
    call = ", ".join(f"{k}={v!r}" for k, v in result.args.items())
    expected = _number(result.expected)
    got = result.error or _number(result.got)
    mark = "✓" if result.passed else "✗"
    note = f"  ({result.note})" if result.note else ""
    printed = f"\n    printed: {result.printed.rstrip()}" if result.printed.strip() else ""
    return f"{mark} ({call}) expected {expected}, got {got}{note}{printed}"


def _number(value: object) -> str:
    if isinstance(value, (tuple, list)):
        return "(" + ", ".join(_number(v) for v in value) + ")"
    if isinstance(value, float):
        return f"{value:.6g}"
    return repr(value)


def judge(exercise: Build, text: str, deadline: Deadline) -> Verdict:
    from grader.sandbox.runner import run_tests  # its subprocess machinery loads when code is first run

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


SCHEMA: dict[str, Any] = {
    "description": "Write a small Python function; it runs against the tests.",
    "required": ["function", "signature", "starter", "solution", "tests"],
    "additionalProperties": False,
    "properties": {
        **COMMON_FIELDS,
        "function": {"$ref": "#/$defs/name", "description": "Name of the function the learner writes."},
        "signature": {"type": "string", "minLength": 1, "description": "The Python signature shown to the learner."},
        "starter": {"type": "string", "minLength": 1, "description": "Code the editor starts with."},
        "solution": {
            "type": "string",
            "minLength": 1,
            "description": "A reference solution; `ringbook content check` and the tests run it against the tests.",
        },
        "tests": {"type": "array", "minItems": 3, "items": {"$ref": "#/$defs/code_test"}},
    },
}


EXAMPLE = '''\
title: Write global_batch()
kind: build
prompt: |
  Write `global_batch(micro_batch, accum_steps, gpus)` returning the
  number of sequences one optimizer step sees.
hints:
  - Multiply all three factors.
function: global_batch
signature: "global_batch(micro_batch: int, accum_steps: int, gpus: int) -> int"
starter: |
  def global_batch(micro_batch: int, accum_steps: int, gpus: int) -> int:
      """Sequences seen by one optimizer step."""
      raise NotImplementedError
solution: |
  def global_batch(micro_batch: int, accum_steps: int, gpus: int) -> int:
      """Sequences seen by one optimizer step."""
      return micro_batch * accum_steps * gpus
tests:
  - args: {micro_batch: 4, accum_steps: 8, gpus: 16}
    expected: micro_batch*accum_steps*gpus
    note: the example from the chapter
  - args: {micro_batch: 2, accum_steps: 1, gpus: 8}
    expected: micro_batch*gpus
    note: "no accumulation: k = 1"
  - args: {micro_batch: 1, accum_steps: 32, gpus: 1}
    expected: accum_steps
    note: "one GPU: accumulation alone sets the batch"
explanation: |
  ```python
  return micro_batch * accum_steps * gpus
  ```

  Each factor multiplies the batch: more sequences per micro-batch,
  more micro-batches per step, or more GPUs per step.
'''


KIND = Kind(
    name="build", exercise=Build, read=read, problems=problems, warnings=no_findings, judge=judge, label=plain_label,
    expected_seconds=600.0, ways=("code",), way=lambda exercise: "code", runs_code=True,
    schema=SCHEMA, example=EXAMPLE,
)
