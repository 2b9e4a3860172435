"""What a schema cannot say about an exercise: formulas that do not parse or evaluate, a mistake equal
to the answer, a debug line outside the listing, design items that repeat (problems); and feedback a
learner would get for the wrong slip (warnings).

Only reading a book from its files runs these checks; a start from the book cache does not need them.
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Iterable

from grader.book.model import Build, Debug, Derive, Design, Exercise, NumericAnswer, Trace, resolve_params
from grader.maths.evaluate import EvaluationError, evaluate, evaluate_text
from grader.maths.numeric import BOX_EXAMPLES
from grader.maths.parse import ParseError, names_in, parse
from grader.maths.symbolic import Points, same_function, sample_points


def exercise_problems(exercise: Exercise, where) -> list[tuple[int, str]]:
    """(line, message) for each problem; `where(*keys)` gives the line of a field of the exercise."""
    if isinstance(exercise, (Derive, Trace)):
        return _numeric_problems(exercise, where)
    if isinstance(exercise, (Build, Debug)):
        return _code_problems(exercise, where)
    if isinstance(exercise, Design):
        return _design_problems(exercise, where)
    return []


def exercise_warnings(exercise: Exercise, where) -> list[tuple[int, str]]:
    """(line, message) for feedback a learner would get for the wrong slip. The grade itself is still
    right, so these do not fail a check; call only on an exercise `exercise_problems` passes."""
    if isinstance(exercise, NumericAnswer) and exercise.mistakes and exercise.answer is not None:
        return _mistake_warnings(exercise, where)
    if isinstance(exercise, Debug):
        return _line_feedback_warnings(exercise, where)
    return []


def _mistake_warnings(ex: NumericAnswer, where) -> list[tuple[int, str]]:
    """Mistakes the grader cannot tell apart: the first one listed always wins (grader.kinds.derive), and
    an answer rounded to three significant figures may be up to one tolerance away from its exact value."""
    found: list[tuple[int, str]] = []
    env = resolve_params(ex.params, ex.figures)
    applicable = ex.applicable_mistakes  # a mistake whose `when` does not hold here is not graded here
    if ex.is_formula:
        points = sample_points(ex.symbols, env, random.Random(ex.id))
        for j, later in enumerate(ex.mistakes):
            for i, earlier in enumerate(ex.mistakes[:j]):
                if later not in applicable or earlier not in applicable:
                    continue
                if _same_formula(earlier.answer, later.answer, points):
                    found.append((where("mistakes", j, "answer"),
                                  f"mistake {later.answer!r} is equivalent to mistake {earlier.answer!r} "
                                  f"(line {where('mistakes', i, 'answer')}): a learner who makes it is always "
                                  "given the earlier one's feedback"))
                    break
        return found
    answer = evaluate_text(ex.answer, env)
    values = [evaluate_text(m.answer, env) for m in ex.mistakes]
    for j, (later, value) in enumerate(zip(ex.mistakes, values)):
        line = where("mistakes", j, "answer")
        if later not in applicable:
            continue
        if _close(value, answer, 2 * ex.tolerance):      # within one tolerance is a problem, reported already
            found.append((line, f"mistake {later.answer!r} is within twice the tolerance of the answer "
                                f"{ex.answer!r}: rounded to three significant figures, this slip can be graded correct"))
        for i, earlier in enumerate(ex.mistakes[:j]):
            if earlier not in applicable:
                continue
            if _close(value, values[i], ex.tolerance):
                found.append((line, f"mistake {later.answer!r} gives the same value as mistake {earlier.answer!r} "
                                    f"(line {where('mistakes', i, 'answer')}): a learner who makes it is always "
                                    "given the earlier one's feedback"))
                break
            if _close(value, values[i], 2 * ex.tolerance):
                found.append((line, f"mistake {later.answer!r} is within twice the tolerance of mistake "
                                    f"{earlier.answer!r} (line {where('mistakes', i, 'answer')}): rounded to three "
                                    "significant figures, it can be given the earlier one's feedback"))
                break
    return found


def _line_feedback_warnings(ex: Debug, where) -> list[tuple[int, str]]:
    """Feedback for a line that quotes code from another line was written for that other line."""
    found: list[tuple[int, str]] = []
    for line, feedback in ex.line_feedback.items():
        for quoted in re.findall(r"`([^`]+)`", feedback):
            if quoted not in ex.lines[line - 1]:
                found.append((where("line_feedback", str(line)),
                              f"line_feedback for line {line} quotes `{quoted}`, which is not on that line"))
    return found


def _numeric_problems(ex: Derive | Trace, where) -> list[tuple[int, str]]:
    try:
        env = resolve_params(ex.params, ex.figures)
    except (ParseError, EvaluationError) as exc:
        return [(where("params"), f"params do not evaluate: {exc}")]
    found = _answer_problems(ex, env, where)
    if not found:
        found = _condition_problems(ex, env, where)
    if ex.is_template and not found:
        from grader.book.variant_check import template_problems

        found = template_problems(ex, where)
    return found


def unit_problems(ex: Derive | Trace, where) -> list[tuple[int, str]]:
    """The exercise's unit, and each size or bandwidth its texts write after a number (what a learner
    copies into the box), must be read as what it means. A full check only (`ringbook content check`): it
    loads pint, which grading a plain number never needs."""
    from grader.maths.units import misread_unit, size_spellings  # pint only when a book is checked

    found = [(where("unit"), message) for message in [misread_unit(ex.unit)] if message]
    spellings = sorted({spelling for text in ex.texts for spelling in size_spellings(text)} - {ex.unit})
    found += [(where("prompt"), f"{message} (written in the exercise's text)")
              for message in map(misread_unit, spellings) if message]
    return found


def _condition_problems(ex: Derive | Trace, env: dict[str, float], where) -> list[tuple[int, str]]:
    """A mistake's `when` and the `fits` and `overflows` formulas must evaluate over the params (and `answer`)."""
    from grader.book.variants import VariantError, check_constraint

    names = dict(env, answer=evaluate_text(ex.answer, env)) if ex.answer is not None and not ex.is_formula else env
    found: list[tuple[int, str]] = []
    for i, mistake in enumerate(ex.mistakes):
        for condition in mistake.when:
            try:
                check_constraint(condition, names)
            except VariantError as exc:
                found.append((where("mistakes", i, "when"), f"mistake {mistake.answer!r}: when {exc}"))
    for key, formula in (("fits", ex.fits), ("overflows", ex.overflows)):
        message = _formula_problem(formula, names) if formula is not None else None
        if message:
            found.append((where(key), f"{key} {formula!r}: {message}"))
    return found


def _answer_problems(ex: Derive | Trace, env: dict[str, float], where) -> list[tuple[int, str]]:
    found: list[tuple[int, str]] = []
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
        points = sample_points(ex.symbols, env, random.Random(ex.id))  # as the grader compares, reproducibly
        message = _formula_problem(ex.answer, env, ex.symbols, points)
        if message:
            return [(where("answer"), f"answer {ex.answer!r}: {message}")]
        for i, mistake in enumerate(ex.mistakes):
            line = where("mistakes", i, "answer")
            message = _formula_problem(mistake.answer, env, ex.symbols, points)
            if message:
                found.append((line, f"mistake {mistake.answer!r}: {message}"))
            elif _same_formula(ex.answer, mistake.answer, points):
                found.append((line, f"mistake {mistake.answer!r} is equivalent to the answer {ex.answer!r}"))
        return found
    message = _formula_problem(ex.answer, env)
    if message:
        return [(where("answer"), f"answer {ex.answer!r}: {message}")]
    value = evaluate_text(ex.answer, env)
    for example in BOX_EXAMPLES:
        if _close(evaluate_text(example, {}), value, ex.tolerance):
            found.append((where("answer"), f"the answer equals {example}, which the empty answer box shows as an "
                                           "example (grader/maths/numeric.py BOX_EXAMPLES): change the numbers"))
    for i, mistake in enumerate(ex.mistakes):
        line = where("mistakes", i, "answer")
        message = _formula_problem(mistake.answer, env)
        if message:
            found.append((line, f"mistake {mistake.answer!r}: {message}"))
        elif _close(evaluate_text(mistake.answer, env), value, ex.tolerance):
            found.append((line, f"mistake {mistake.answer!r} equals the answer {ex.answer!r} within the tolerance"))
    return found


def _formula_problem(formula: str, env: dict[str, float], symbols: Iterable[str] = (),
                     points: Points | None = None) -> str | None:
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
        for point in points.typical if points else [env]:
            evaluate(tree, point)
    except EvaluationError as exc:
        return f"does not evaluate: {exc}"
    return None


def _same_formula(a: str, b: str, points: Points) -> bool:
    """Whether the grader, comparing at `points`, would take formula `a` for formula `b`."""
    names = points.typical[0].keys()
    return bool(same_function(parse(a, names), parse(b, names), points))


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
