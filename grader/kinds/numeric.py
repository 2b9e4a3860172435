"""What the kinds answered by numbers (derive, trace) share: reading their formulas, params and card from
the YAML, and what a check finds wrong with them. The variants of such an exercise (`vary`, placeholders)
are the book's business: grader.book.variants, checked by grader.book.variant_check.

The checks load the formula code on first use: a start from the book cache reads exercises, never checks.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable
from itertools import repeat
from typing import TYPE_CHECKING, Any

from grader.exercise import Mistake, NumericAnswer, Where, guarded_text, resolve_params
from grader.kinds.registry import Figure, Findings, Hardware

if TYPE_CHECKING:
    from grader.maths.symbolic import Points

AnswerProblems = Callable[[Any, dict[str, float], Where], Findings]


def read_fields(raw: dict[str, Any], hardware: Hardware) -> dict[str, Any]:
    """The NumericAnswer fields of an exercise as the YAML writes them. The card is param `gpu`, an index
    into `gpus`, drawn like any other when there are several."""
    gpus, params, vary = gpus_of(raw.get("gpu")), dict(raw.get("params", {})), dict(raw.get("vary", {}))
    if gpus:
        params = {"gpu": 0, **params}
        if len(gpus) > 1:
            vary["gpu"] = {"choices": list(range(len(gpus)))}
    return dict(
        params=params, answer=formula(raw.get("answer")), unit=str(raw.get("unit", "")),
        symbols=tuple(raw.get("symbols", ())),
        mistakes=tuple(Mistake(str(m["answer"]), guarded_text(m["feedback"]), _conditions(m.get("when")))
                       for m in raw.get("mistakes", ())),
        vary=vary, constraints=tuple(str(c) for c in raw.get("constraints", ())),
        hardware=hardware, gpus=gpus, fits=formula(raw.get("fits")), overflows=formula(raw.get("overflows")),
    )


def gpus_of(value: Any) -> tuple[str, ...]:
    return (value,) if isinstance(value, str) else tuple(str(v) for v in value) if isinstance(value, list) else ()


def formula(value: Any) -> str | None:
    return None if value is None else str(value)


def _conditions(value: Any) -> tuple[str, ...]:
    return () if value is None else (str(value),) if isinstance(value, (str, int, float)) else tuple(map(str, value))


def problems(ex: NumericAnswer, where: Where, answer_problems: AnswerProblems | None = None) -> Findings:
    """The params, then the answer (`answer_problems`, by default one number or formula), then the
    conditions: each reported only when what it builds on evaluates."""
    from grader.maths.evaluate import EvaluationError
    from grader.maths.parse import ParseError

    try:
        env = resolve_params(ex.params, ex.figures)
    except (ParseError, EvaluationError) as exc:
        return [(where("params"), f"params do not evaluate: {exc}")]
    found = (answer_problems or answer_problems_of)(ex, env, where)
    return found or _condition_problems(ex, env, where)


def answer_problems_of(ex: NumericAnswer, env: dict[str, float], where: Where) -> Findings:
    """The answer, one number or a formula over `symbols`, and each mistake, which must differ from it."""
    if ex.answer is None:
        return [(where("kind"), "a numeric exercise needs an answer")]
    if ex.is_formula:
        return _formula_answer_problems(ex, ex.answer, env, where)
    from grader.maths.evaluate import evaluate_text
    from grader.maths.numeric import BOX_EXAMPLES

    message = formula_problem(ex.answer, env)
    if message:
        return [(where("answer"), f"answer {ex.answer!r}: {message}")]
    found: Findings = []
    value = evaluate_text(ex.answer, env)
    for example in BOX_EXAMPLES:
        if close(evaluate_text(example, {}), value, ex.tolerance):
            found.append((where("answer"), f"the answer equals {example}, which the empty answer box shows as an "
                                           "example (grader/maths/numeric.py BOX_EXAMPLES): change the numbers"))
    for i, mistake in enumerate(ex.mistakes):
        line = where("mistakes", i, "answer")
        message = formula_problem(mistake.answer, env)
        if message:
            found.append((line, f"mistake {mistake.answer!r}: {message}"))
        elif close(evaluate_text(mistake.answer, env), value, ex.tolerance):
            found.append((line, f"mistake {mistake.answer!r} equals the answer {ex.answer!r} within the tolerance"))
    return found


def _formula_answer_problems(ex: NumericAnswer, answer: str, env: dict[str, float], where: Where) -> Findings:
    from grader.maths.symbolic import sample_points

    found: Findings = []
    overlap = set(ex.symbols) & set(env)
    if overlap:
        found.append((where("symbols"), f"{', '.join(sorted(overlap))} cannot be both a param and a symbol"))
    points = sample_points(ex.symbols, env, random.Random(ex.id))  # as the grader compares, reproducibly
    message = formula_problem(answer, env, ex.symbols, points)
    if message:
        return [(where("answer"), f"answer {answer!r}: {message}")]
    for i, mistake in enumerate(ex.mistakes):
        line = where("mistakes", i, "answer")
        message = formula_problem(mistake.answer, env, ex.symbols, points)
        if message:
            found.append((line, f"mistake {mistake.answer!r}: {message}"))
        elif same_formula(answer, mistake.answer, points):
            found.append((line, f"mistake {mistake.answer!r} is equivalent to the answer {answer!r}"))
    return found


def _condition_problems(ex: NumericAnswer, env: dict[str, float], where: Where) -> Findings:
    """A mistake's `when` and the `fits` and `overflows` formulas must evaluate over the params (and `answer`)."""
    from grader.maths.evaluate import EvaluationError, evaluate_text, holds
    from grader.maths.parse import ParseError

    names = dict(env, answer=evaluate_text(ex.answer, env)) if ex.answer is not None and not ex.is_formula else env
    found: Findings = []
    for i, mistake in enumerate(ex.mistakes):
        for condition in mistake.when:
            try:
                holds(condition, lambda side: evaluate_text(side, names))
            except (ParseError, EvaluationError, ValueError) as exc:
                found.append((where("mistakes", i, "when"),
                              f"mistake {mistake.answer!r}: when constraint {condition!r}: {exc}"))
    for key, written in (("fits", ex.fits), ("overflows", ex.overflows)):
        message = formula_problem(written, names) if written is not None else None
        if message:
            found.append((where(key), f"{key} {written!r}: {message}"))
    return found


def formula_problem(written: str, env: dict[str, float], symbols: Iterable[str] = (),
                    points: Points | None = None) -> str | None:
    """Why `written` does not parse or evaluate over params (and symbols), or None when it does."""
    from grader.maths.evaluate import EvaluationError, evaluate
    from grader.maths.parse import ParseError, names_in, parse

    known = set(env) | set(symbols)
    try:
        tree = parse(written, known)
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


def same_formula(a: str, b: str, points: Points) -> bool:
    """Whether the grader, comparing at `points`, would take formula `a` for formula `b`."""
    from grader.maths.parse import parse
    from grader.maths.symbolic import same_function

    names = points.typical[0].keys()
    return bool(same_function(parse(a, names), parse(b, names), points))


def close(a: float, b: float, tolerance: float) -> bool:
    return math.isclose(a, b, rel_tol=tolerance, abs_tol=1e-12)


def warnings(ex: NumericAnswer, where: Where) -> Findings:
    """Mistakes the grader cannot tell apart: the first one listed always wins (grader.kinds.derive), and
    an answer rounded to three significant figures may be up to one tolerance away from its exact value.
    Call only on an exercise `problems` passes."""
    if not ex.mistakes or ex.answer is None:
        return []
    env = resolve_params(ex.params, ex.figures)
    if ex.is_formula:
        return _formula_mistake_warnings(ex, env, where)
    from grader.maths.evaluate import evaluate_text

    found: Findings = []
    applicable = ex.applicable_mistakes  # a mistake whose `when` does not hold here is not graded here
    answer = evaluate_text(ex.answer, env)
    values = [evaluate_text(m.answer, env) for m in ex.mistakes]
    for j, (later, value) in enumerate(zip(ex.mistakes, values, strict=True)):
        line = where("mistakes", j, "answer")
        if later not in applicable:
            continue
        if close(value, answer, 2 * ex.tolerance):      # within one tolerance is a problem, reported already
            found.append((line, f"mistake {later.answer!r} is within twice the tolerance of the answer "
                                f"{ex.answer!r}: rounded to three significant figures, this slip can be graded "
                                "correct"))
        for i, earlier in enumerate(ex.mistakes[:j]):
            if earlier not in applicable:
                continue
            if close(value, values[i], ex.tolerance):
                found.append((line, f"mistake {later.answer!r} gives the same value as mistake {earlier.answer!r} "
                                    f"(line {where('mistakes', i, 'answer')}): a learner who makes it is always "
                                    "given the earlier one's feedback"))
                break
            if close(value, values[i], 2 * ex.tolerance):
                found.append((line, f"mistake {later.answer!r} is within twice the tolerance of mistake "
                                    f"{earlier.answer!r} (line {where('mistakes', i, 'answer')}): rounded to three "
                                    "significant figures, it can be given the earlier one's feedback"))
                break
    return found


def _formula_mistake_warnings(ex: NumericAnswer, env: dict[str, float], where: Where) -> Findings:
    from grader.maths.symbolic import sample_points

    found: Findings = []
    applicable = ex.applicable_mistakes
    points = sample_points(ex.symbols, env, random.Random(ex.id))
    for j, later in enumerate(ex.mistakes):
        for i, earlier in enumerate(ex.mistakes[:j]):
            if later not in applicable or earlier not in applicable:
                continue
            if same_formula(earlier.answer, later.answer, points):
                found.append((where("mistakes", j, "answer"),
                              f"mistake {later.answer!r} is equivalent to mistake {earlier.answer!r} "
                              f"(line {where('mistakes', i, 'answer')}): a learner who makes it is always "
                              "given the earlier one's feedback"))
                break
    return found


def notes(exercise: NumericAnswer, figure: Figure) -> list[str]:
    """Each foreseen mistake's feedback for `content show --explain`, with its value for these numbers; one
    whose `when` rules it out here is left out, as the grader leaves it."""
    number = exercise.answer is not None and not exercise.is_formula
    applicable = exercise.applicable_mistakes
    return [f"Mistake {m.answer}" + (f" = {figure(value)}" if number else "") + f": {m.feedback}"
            for m, value in zip(exercise.mistakes, exercise.mistake_values if number else repeat(0.0), strict=False)
            if m in applicable]   # repeat(0.0) never ends


def answer_line(exercise: NumericAnswer, figure: Figure) -> str:
    """The graded answer with its unit: what the explanation's last figure must agree with."""
    if exercise.answer is None or exercise.is_formula:
        return ""
    unit = f" {exercise.unit}" if exercise.unit else ""
    return f"Answer: {figure(exercise.value)}{unit}"


def data(exercise: NumericAnswer) -> dict[str, Any]:
    """The numbers of one posed exercise, for `content show --json`: its params, answer and each mistake's
    value, and whether its `when` lets the grader use it with these numbers."""
    env = exercise.env
    number = exercise.answer is not None and not exercise.is_formula
    applicable = exercise.applicable_mistakes
    return {
        "gpu": exercise.gpu,
        "params": {name: (exercise.gpu if name == "gpu" else env[name]) for name in exercise.params},
        "unit": exercise.unit,
        "answer": {"formula": exercise.answer, "value": exercise.value if number else None,
                   "symbols": list(exercise.symbols)},
        "mistakes": [{"answer": m.answer, "value": value if number else None, "when": list(m.when),
                      "applies": m in applicable, "feedback": m.feedback}
                     for m, value in zip(exercise.mistakes, exercise.mistake_values if number else repeat(None),
                                         strict=False)],   # repeat(None) never ends
    }
