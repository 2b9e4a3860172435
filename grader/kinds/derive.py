"""Derive: work a number or a formula out from the chapter. A number in the box's unit, or a formula over
the exercise's symbols.

The judges load the formula code on first use: a start from the book cache reads exercises, never grades.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import grader.kinds.numeric as numeric
from grader.exercise import NumericAnswer
from grader.kinds.registry import COMMON_FIELDS, Hardware, Kind, plain_label
from grader.verdict import TIME_BOUND, Deadline, Verdict, correct, incorrect, invalid

if TYPE_CHECKING:
    from grader.maths.parse import Node
    from grader.maths.symbolic import Agreement, Points

# What the points may spend settling a formula, in the grading thread's CPU: on a host where thirty learners
# answer at once the thread waits for a core, and that wait must not turn a right formula into "couldn't
# confirm". The proof, in its own process, has the grade's CPU budget in that process's CPU.
SETTLING_SECONDS = TIME_BOUND / 2


@dataclass(kw_only=True, repr=False)
class Derive(NumericAnswer):
    """Work a number or a formula out from the chapter."""

    kind: str = "derive"


def read(raw: dict[str, Any], common: dict[str, Any], hardware: Hardware) -> Derive:
    return Derive(**common, **numeric.read_fields(raw, hardware))


def judge(exercise: NumericAnswer, text: str, deadline: Deadline) -> Verdict:
    if exercise.is_formula:
        return judge_formula(exercise, text, deadline)
    return judge_number(exercise, text, exercise.value)


def needs_proof(exercise: NumericAnswer) -> bool:
    """Do right answers to `exercise` need the sympy proof? Yes when its answer is a formula that points cannot
    settle (floor, min, max...): its screen starts the proof worker as it opens, since a worker's start (a
    second or more) does not fit in the second a grade may take. Other formulas never wait for it."""
    if not exercise.is_formula or exercise.answer is None:
        return False
    from grader.maths.parse import parse
    from grader.maths.symbolic import why_points_cannot_decide

    return bool(why_points_cannot_decide(parse(exercise.answer, set(exercise.symbols) | set(exercise.env))))


def display(value: float) -> str:
    """A number as a teacher would write it: 1.75, 16,384, 2.4e-03."""
    if value == int(value) and abs(value) < 1e15:
        return f"{int(value):,}"
    if 1e-3 <= abs(value) < 1e6:
        return f"{value:,.4g}" if abs(value) >= 1 else f"{value:.4g}"
    return f"{value:.4g}"


def judge_number(exercise: NumericAnswer, text: str, answer: float) -> Verdict:
    """Compare a typed number with `answer` (in the box's unit), naming the kind of near miss."""
    from grader.maths.evaluate import EvaluationError, TooComplex
    from grader.maths.numeric import Closeness, nearness, read_number, within
    from grader.maths.parse import ParseError
    from grader.maths.units import UnitError

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
    if near.kind is Closeness.PERCENT_AS_FRACTION:  # not counted: the number was right, the form was not
        return invalid(f"This box is in percent: write {display(value * 100)} (or {display(value * 100)}%), "
                       f"not {display(value)}.")
    applicable = exercise.applicable_mistakes
    for mistake, wrong in zip(exercise.mistakes, exercise.mistake_values, strict=True):
        if mistake in applicable and within(value, wrong, exercise.tolerance):
            return incorrect(f"Not quite: {shown} is a common slip.", feedback=mistake.feedback, value=value)
    written = exercise.written  # the book's own numbers, for a one-number exercise posed with others
    if written is not None and written.answer is not None and within(value, written.value, exercise.tolerance):
        return incorrect(f"{shown} is the answer for the book's own numbers. These numbers are new: work it "
                         "through with them.", value=value)
    messages = {
        Closeness.CLOSE: "Close, but not within the tolerance: check your rounding and carry more digits.",
        Closeness.POWER_OF_TEN: f"Off by a factor of 10^{near.exponent}: check your units and powers of ten.",
        Closeness.SIGN: "Right size, wrong sign.",
        Closeness.FAR: f"Not quite: {shown} is not the answer.",
    }
    return incorrect(messages[near.kind], value=value)


def judge_formula(exercise: NumericAnswer, text: str, deadline: Deadline) -> Verdict:
    """Points first (fast, and they cannot hang), then a proof only where the points cannot settle it;
    `method` says which decided."""
    from grader.maths.parse import ParseError, names_in, parse
    from grader.maths.symbolic import compare_widely, same_function, sample_points

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
    if exercise.answer is None:
        raise TypeError(f"exercise {exercise.id} has no answer")   # content check refuses such an exercise
    answer = parse(exercise.answer, known)
    points = sample_points(symbols, exercise.env)
    agreement = compare_widely(tree, answer, points, symbols)
    typed = text.strip()
    if agreement.same is None:
        return invalid(f"That formula cannot be evaluated for typical positive values of {listed}.")
    if agreement.same:
        return _judge_agreeing(exercise, tree, answer, points, agreement, typed, deadline)
    for mistake in exercise.applicable_mistakes:
        if same_function(tree, parse(mistake.answer, known), points):
            return incorrect("Not quite: that is a common slip.", feedback=mistake.feedback, value=typed,
                             method="numeric")
    if not names_in(tree) & set(symbols):
        return incorrect(f"That is a single number; the answer is a formula in terms of {listed}.", value=typed,
                         method="numeric")
    return incorrect("That formula is not equivalent to the answer.", value=typed, method="numeric")


def _judge_agreeing(exercise: NumericAnswer, tree: Node, answer: Node, points: Points, agreement: Agreement,
                    typed: str, deadline: Deadline) -> Verdict:
    """A formula that agrees with the answer at every point: settled by the points where they can settle it
    (no sympy, no worker), else by a proof; without one it is undecided, and what the points saw says why
    (symbolic.py's docstring). Never correct without SAME or a proof: a busy host, whose proof comes later, must
    not give another verdict than a quiet one."""
    from grader.maths.symbolic import Settled, prove_equal, settle, why_points_cannot_decide
    from grader.maths.sympy_proof import Proof

    settled = settle(tree, answer, agreement, points, seconds=SETTLING_SECONDS)
    if settled is Settled.SAME:
        return correct("Correct.", value=typed, method="numeric")
    proof = prove_equal(tree, answer, exercise.symbols, exercise.env, agreement.points,
                        cpu_seconds=deadline.cpu_seconds, wall_seconds=deadline.remaining())
    if proof is Proof.PROVEN:
        return correct("Correct.", value=typed, method="symbolic")
    if proof is Proof.DIFFERENT:
        return incorrect("Not quite: that formula is very close to the answer at every value tried, but it is "
                         "not the same formula.", value=typed, method="symbolic")
    if settled is Settled.NEAR_MISS:
        return invalid("Couldn't confirm that formula. It is very close to the answer at every value tried, but "
                       "not equal to it in every digit, and the algebra could not show in time whether it is the "
                       "same formula. Check for a rounded number, and try again.", value=typed, method="numeric",
                       undecided=True)
    doubt = why_points_cannot_decide(tree) or why_points_cannot_decide(answer)
    if doubt or not agreement.widely_tested:
        reason = doubt or f"only {len(agreement.points)} of the values tried give it a value, too few to be sure"
        advice = "Write it with plain arithmetic and try again."
    elif settled is Settled.BELOW_PRECISION:
        reason, advice = "a term in it is too small for the values tried to show a difference", "Try again."
    else:   # UNSURE: smooth, but its terms cancel beyond the digits, or the precise arithmetic cannot compute it
        reason = "the digits the values carry cannot show every term in it"
        advice = "Write it without terms that cancel, or try again."
    return invalid(f"Couldn't confirm that formula. It matches the answer at every value tried, but {reason}; "
                   f"and the algebra could not show in time that it is the same formula. {advice}", value=typed,
                   method="numeric", undecided=True)


SCHEMA: dict[str, Any] = {
    "description": "Type a number (in the box's unit) or, with symbols, a formula.",
    "required": ["answer"],
    "$ref": "#/$defs/numeric_fields",
    "unevaluatedProperties": False,
    "properties": {**COMMON_FIELDS},
}


EXAMPLE = """\
title: Global batch from three factors
kind: derive
prompt: |
  Each of **N = 16** GPUs runs micro-batches of **b = 4** sequences and
  accumulates gradients over **k = 8** micro-batches before every
  optimizer step. How many sequences does one optimizer step see?
hints:
  - Count the sequences on one GPU first, then multiply by the number of GPUs.
  - Global batch = b × k × N.
params: {b: 4, k: 8, N: 16}
answer: b*k*N
unit: sequences
mistakes:
  - answer: b*N
    feedback: That leaves out accumulation; each GPU runs k micro-batches before the step.
  - answer: b*k
    feedback: That is one GPU's share; all N GPUs contribute to the same step.
explanation: |
  One GPU sees b × k = 4 × 8 = 32 sequences per step, and 16 GPUs see
  16 times as many:

  ```text
  global batch = b * k * N = 4 * 8 * 16 = 512 sequences
  ```
"""


KIND = Kind(
    name="derive", exercise=Derive, read=read, problems=numeric.problems, warnings=numeric.warnings, judge=judge,
    label=plain_label, expected_seconds=180.0, ways=("number",), way=lambda exercise: "number",
    schema=SCHEMA, example=EXAMPLE, notes=numeric.notes, answer_line=numeric.answer_line,
    data=numeric.data,
)
