"""Derive: a number in the box's unit, or a formula over the exercise's symbols."""

from __future__ import annotations

from grader.evaluate import EvaluationError, TooComplex
from grader.verdict import Deadline, Verdict, correct, incorrect, invalid
from grader.model import NumericAnswer
from grader.numeric import Closeness, nearness, read_number, within
from grader.parse import ParseError, names_in, parse
from grader.symbolic import prove_equal, same_function, sample_points
from grader.units import UnitError


def judge(exercise: NumericAnswer, text: str, deadline: Deadline) -> Verdict:
    if exercise.is_formula:
        return judge_formula(exercise, text, deadline)
    return judge_number(exercise, text, exercise.value)


def display(value: float) -> str:
    """A number as a teacher would write it: 1.75, 16,384, 2.4e-03."""
    if value == int(value) and abs(value) < 1e15:
        return f"{int(value):,}"
    if 1e-3 <= abs(value) < 1e6:
        return f"{value:,.4g}" if abs(value) >= 1 else f"{value:.4g}"
    return f"{value:.4g}"


def judge_number(exercise: NumericAnswer, text: str, answer: float) -> Verdict:
    """Compare a typed number with `answer` (in the box's unit), naming the kind of near miss."""
    unit = exercise.unit
    try:
        value = read_number(text, unit)
    except ParseError as exc:
        return invalid(f"Couldn't read that: {exc}", exc.column)
    except UnitError as exc:
        return incorrect(exc.message) if exc.incompatible else invalid(exc.message)
    except TooComplex:
        raise
    except EvaluationError as exc:
        return invalid(f"Couldn't evaluate that: {exc}")
    shown = f"{display(value)}{' ' + unit if unit and unit != '%' else unit}"
    near = nearness(value, answer, exercise.tolerance, unit)
    if near.kind is Closeness.EQUAL:
        return correct(f"Correct: {shown}.", value=value)
    for mistake, wrong in zip(exercise.mistakes, exercise.mistake_values):
        if within(value, wrong, exercise.tolerance):
            return incorrect(f"Not quite: {shown} is a common slip.", feedback=mistake.feedback, value=value)
    messages = {
        Closeness.CLOSE: "Close, but not within the tolerance: check your rounding and carry more digits.",
        Closeness.POWER_OF_TEN: f"Off by a factor of 10^{near.exponent}: check your units and powers of ten.",
        Closeness.PERCENT_AS_FRACTION: "This box is in percent: write 25 (or 25%), not 0.25.",
        Closeness.SIGN: "Right size, wrong sign.",
        Closeness.FAR: f"Not quite: {shown} is not the answer.",
    }
    return incorrect(messages[near.kind], value=value)


def judge_formula(exercise: NumericAnswer, text: str, deadline: Deadline) -> Verdict:
    symbols = exercise.symbols
    known = set(symbols) | set(exercise.env)
    listed = ", ".join(symbols)
    try:
        tree = parse(text, known)
    except ParseError as exc:
        return invalid(f"Couldn't read that: {exc}", exc.column)
    unknown = sorted(names_in(tree) - known)
    if unknown:
        return invalid(f"Unknown symbol {unknown[0]!r}: write the formula in terms of {listed}.")
    answer = parse(exercise.answer, known)
    points = sample_points(symbols, exercise.env, seed=exercise.id)
    same = same_function(tree, answer, points)
    if same is None:
        return invalid(f"That formula cannot be evaluated for typical positive values of {listed}.")
    if same:
        proof = prove_equal(tree, answer, symbols, exercise.env, budget=deadline.remaining() * 0.8)
        return correct("Correct.", value=text.strip(), method="symbolic" if proof else "numeric")
    for mistake in exercise.mistakes:
        if same_function(tree, parse(mistake.answer, known), points):
            return incorrect("Not quite: that is a common slip.", feedback=mistake.feedback, value=text.strip())
    if not names_in(tree) & set(symbols):
        return incorrect(f"That is a single number; the answer is a formula in terms of {listed}.", value=text.strip())
    return incorrect("That formula is not equivalent to the answer.", value=text.strip())


__all__ = ["judge", "judge_number", "judge_formula", "display"]
