"""What a schema cannot say about an exercise: formulas that do not parse or evaluate, a mistake equal
to the answer, a debug line outside the listing, design items that repeat.

Only reading a book from its files runs these checks; a start from the book cache does not need them.
"""

from __future__ import annotations

import math
import random
from typing import Iterable

from grader.evaluate import EvaluationError, evaluate, evaluate_text
from grader.model import Build, Debug, Derive, Design, Exercise, Trace, resolve_params
from grader.parse import ParseError, names_in, parse

def exercise_problems(exercise: Exercise, where) -> list[tuple[int, str]]:
    """(line, message) for each problem; `where(*keys)` gives the line of a field of the exercise."""
    if isinstance(exercise, (Derive, Trace)):
        return _numeric_problems(exercise, where)
    if isinstance(exercise, (Build, Debug)):
        return _code_problems(exercise, where)
    if isinstance(exercise, Design):
        return _design_problems(exercise, where)
    return []


def _numeric_problems(ex: Derive | Trace, where) -> list[tuple[int, str]]:
    found: list[tuple[int, str]] = []
    try:
        env = resolve_params(ex.params)
    except (ParseError, EvaluationError) as exc:
        return [(where("params"), f"params do not evaluate: {exc}")]
    if isinstance(ex, Trace) and ex.options:
        correct = [o.id for o in ex.options if o.correct]
        if len(correct) != 1:
            found.append((where("options"), f"exactly one option must be correct (found {len(correct)})"))
        ids = [o.id for o in ex.options]
        if len(set(ids)) != len(ids):
            found.append((where("options"), "option ids must be unique"))
        return found
    if isinstance(ex, Trace) and ex.steps:
        for i, step in enumerate(ex.steps):
            message = _formula_problem(step.answer, env)
            if message:
                found.append((where("steps", i, "answer"), f"step answer {step.answer!r}: {message}"))
        return found
    if ex.answer is None:
        return [(where("kind"), "a numeric exercise needs an answer")]
    if ex.is_formula:
        overlap = set(ex.symbols) & set(env)
        if overlap:
            found.append((where("symbols"), f"{', '.join(sorted(overlap))} cannot be both a param and a symbol"))
        points = _sample_points(ex.symbols, env)
        message = _formula_problem(ex.answer, env, ex.symbols, points)
        if message:
            return [(where("answer"), f"answer {ex.answer!r}: {message}")]
        for i, mistake in enumerate(ex.mistakes):
            line = where("mistakes", i, "answer")
            message = _formula_problem(mistake.answer, env, ex.symbols, points)
            if message:
                found.append((line, f"mistake {mistake.answer!r}: {message}"))
            elif _same_formula(ex.answer, mistake.answer, points, ex.tolerance):
                found.append((line, f"mistake {mistake.answer!r} is equivalent to the answer {ex.answer!r}"))
        return found
    message = _formula_problem(ex.answer, env)
    if message:
        return [(where("answer"), f"answer {ex.answer!r}: {message}")]
    value = evaluate_text(ex.answer, env)
    for i, mistake in enumerate(ex.mistakes):
        line = where("mistakes", i, "answer")
        message = _formula_problem(mistake.answer, env)
        if message:
            found.append((line, f"mistake {mistake.answer!r}: {message}"))
        elif _close(evaluate_text(mistake.answer, env), value, ex.tolerance):
            found.append((line, f"mistake {mistake.answer!r} equals the answer {ex.answer!r} within the tolerance"))
    return found


def _formula_problem(formula: str, env: dict[str, float], symbols: Iterable[str] = (),
                     points: list[dict[str, float]] | None = None) -> str | None:
    """Why `formula` does not parse or evaluate over params (and symbols), or None when it does."""
    known = set(env) | set(symbols)
    try:
        tree = parse(formula, known)
    except ParseError as exc:
        return f"does not parse: {exc}"
    unknown = names_in(tree) - known
    if unknown:
        return f"uses undefined name(s) {', '.join(sorted(unknown))}"
    try:
        for point in points or [env]:
            evaluate(tree, point)
    except EvaluationError as exc:
        return f"does not evaluate: {exc}"
    return None


def _sample_points(symbols: Iterable[str], env: dict[str, float], count: int = 5) -> list[dict[str, float]]:
    """Deterministic positive values for symbols: quantities in this book are positive."""
    rng = random.Random(1234)
    return [{**env, **{s: rng.uniform(1.5, 9.5) for s in symbols}} for _ in range(count)]


def _same_formula(a: str, b: str, points: list[dict[str, float]], tolerance: float) -> bool:
    ta, tb = parse(a, points[0].keys()), parse(b, points[0].keys())
    return all(_close(evaluate(ta, p), evaluate(tb, p), min(tolerance, 1e-9)) for p in points)


def _close(a: float, b: float, tolerance: float) -> bool:
    return math.isclose(a, b, rel_tol=tolerance, abs_tol=1e-12)


def _code_problems(ex: Build | Debug, where) -> list[tuple[int, str]]:
    found: list[tuple[int, str]] = []
    if isinstance(ex, Debug):
        count = len(ex.lines)
        if not 1 <= ex.buggy_line <= count:
            found.append((where("buggy_line"), f"buggy_line {ex.buggy_line} is outside the listing (1-{count})"))
        elif ex.fixed_line.strip() == ex.lines[ex.buggy_line - 1].strip():
            found.append((where("fixed_line"), "fixed_line is the same as the buggy line"))
        for line in ex.line_feedback:
            if not 1 <= line <= count:
                found.append((where("line_feedback"), f"line_feedback for line {line}, outside the listing (1-{count})"))
    for i, test in enumerate(ex.tests):
        names = test.scalar_args
        for expected in test.expected if isinstance(test.expected, list) else [test.expected]:
            message = _formula_problem(expected, names)
            if message:
                found.append((where("tests", i, "expected"), f"expected {expected!r}: {message}"))
    return found


def _design_problems(ex: Design, where) -> list[tuple[int, str]]:
    found: list[tuple[int, str]] = []
    ids = [item.id for item in ex.items]
    texts = [item.text for item in ex.items]
    if len(set(ids)) != len(ids):
        found.append((where("items"), "duplicate design item ids"))
    if len(set(texts)) != len(texts):
        found.append((where("items"), "duplicate design item texts"))
    if sorted(ex.order) != sorted(set(ids)) or len(ex.order) != len(ids):
        found.append((where("order"), "order must list every item id exactly once"))
    return found
