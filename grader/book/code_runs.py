"""A build's and a debug's code run against their own tests, in the sandbox, during `content check`.

A learner who types a build's reference solution must pass, and one who submits the starter unchanged must
not; a debug's fixed listing must pass its tests and its buggy listing fail at least one, or the tests do not
show the bug. Nothing else states these: a wrong `expected` or a slip in the solution is otherwise found
only by a learner told that correct code fails. The runs go through grader.sandbox.runner exactly as a
learner's code does; grader.book.run_cache keeps their outcomes, so an unchanged exercise is not run again.
"""

from __future__ import annotations

from grader.book.cache import default_folder
from grader.book.run_cache import RunCache
from grader.exercise import Exercise, Where
from grader.kinds.build import Build
from grader.kinds.debug import Debug
from grader.safe_text import clipped, printable
from grader.sandbox.runner import RunResult, TestResult, sandbox_status

Found = list[tuple[int, str, bool]]   # (line, message, whether only a warning)


def code_run_problems(exercise: Exercise, where: Where) -> Found:
    """What running the exercise's code against its tests shows is wrong; [] for a kind that has none."""
    if not isinstance(exercise, (Build, Debug)) or not exercise.tests:
        return []
    if not exercise.function:
        return [(where("tests"), "tests call the listing's function: name it with `function`", False)]
    runs = RunCache(default_folder())
    found = _build_problems(exercise, where, runs) if isinstance(exercise, Build) else \
        _debug_problems(exercise, where, runs)
    runs.save()
    if runs.refused:
        return [(where("tests"), f"the code was not run against its tests: {sandbox_status().why}; set "
                                 "RINGBOOK_SANDBOX=optional to run your own book's code without a sandbox", True)]
    return found


def _build_problems(ex: Build, where: Where, runs: RunCache) -> Found:
    found = _failures(runs.run(ex.solution, ex.function, ex.tests, ex.tolerance), where, "solution",
                      "the reference solution", "so a learner who writes it is told",
                      "fix the test's expected or the solution")
    starter = runs.run(ex.starter, ex.function, ex.tests, ex.tolerance)
    if not starter.problem and starter.passed == len(ex.tests):
        found.append((where("starter"), f"the starter already passes all {len(ex.tests)} tests, so a learner who "
                                        "submits it unchanged is marked correct: make it fail them (for example "
                                        "raise NotImplementedError)", False))
    return found


def _debug_problems(ex: Debug, where: Where, runs: RunCache) -> Found:
    fixed = f"the fixed listing (line {ex.buggy_line} as fixed_line)"
    found = _failures(runs.run(ex.fixed_code, ex.function, ex.tests, ex.tolerance), where, "fixed_line", fixed,
                      "and the run says", "fix the test's expected or fixed_line")
    buggy = runs.run(ex.code, ex.function, ex.tests, ex.tolerance)
    if not buggy.problem and buggy.passed == len(ex.tests):
        found.append((where("tests"), f"the buggy listing passes all {len(ex.tests)} tests, so they do not show "
                                      f"the bug on line {ex.buggy_line}: add a test that the bug fails and "
                                      "the fixed listing passes", False))
    return found


def _failures(run: RunResult, where: Where, field: str, code: str, told: str, advice: str) -> Found:
    """Each test the code that should pass fails, at the test's line; or why it did not run at all. What the
    code said is the author's, but it reaches a terminal: made printable."""
    if run.problem:
        said = printable(run.problem, one_line=True)
        return [(where(field), f"{code} does not run, {told}: {said}", False)]
    return [(where("tests", i), f"test {i + 1} ({_call(t)}) expects {_value(t.expected)}; {code} "
                                f"{printable(_outcome(t), one_line=True)}: {advice}", False)
            for i, t in enumerate(run.tests) if not t.passed]


def _call(test: TestResult) -> str:
    return clipped(", ".join(f"{name}={value!r}" for name, value in test.args.items()), 120)


def _outcome(test: TestResult) -> str:
    return f"raises {test.error}" if test.error else f"returns {clipped(_value(test.got), 120)}"


def _value(value: object) -> str:
    if isinstance(value, (tuple, list)):
        return "(" + ", ".join(map(_value, value)) + ")"
    if isinstance(value, float):
        return f"{value:.6g}"
    return repr(value)
