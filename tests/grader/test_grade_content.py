"""Generated from the book: every answer, in many honest spellings, grades correct; every declared
mistake grades incorrect with its own feedback."""

from __future__ import annotations

import math

import pytest

from grader.book.load import load_book
from grader.exercise import NumericAnswer
from grader.grade import grade
from grader.kinds.debug import Debug
from grader.kinds.design import Design
from grader.kinds.trace import Trace
from tests.built_in import builtin_book

BOOK = builtin_book()
DATA_UNITS = {"GB": ("MB", 1e3), "MB": ("KB", 1e3), "ms": ("s", 1e-3), "s": ("ms", 1e3), "minutes": ("s", 60.0),
              "days": ("hours", 24.0)}


def ids(predicate):
    return [e.id for e in BOOK.exercises if predicate(e)]


def numeric_forms(value: float, unit: str) -> list[str]:
    """At least five ways a learner may write `value` in a box of `unit`."""
    exponent = math.floor(math.log10(abs(value))) if value else 0
    mantissa = value / 10 ** exponent
    forms = [
        f"{value:.12g}",
        f"  {value:.12g}  ",
        f"{value:.8e}",
        f"{mantissa:.10g}×10^{exponent}",
        f"{mantissa:.10g} x 10^{exponent}",
        f"{mantissa:.10g}*10**{exponent}",
        f"{value * 4:.12g}/4",
        f"2*{value / 2:.12g}",
    ]
    if value < 0:
        forms.append(f"−{abs(value):.12g}")
    if unit:
        forms.append(f"{value:.12g} {unit}" if unit != "%" else f"{value:.12g}%")
    if unit in DATA_UNITS:
        other, factor = DATA_UNITS[unit]
        forms.append(f"{value * factor:.12g} {other}")
    if unit == "dollars":
        forms.append(f"${value:.12g}")
    if abs(value) >= 10_000 and value == int(value):
        forms.append(f"{int(value):,}")
    return forms


def is_number(e) -> bool:
    return isinstance(e, NumericAnswer) and not e.is_formula and e.answer is not None


@pytest.mark.parametrize("exercise_id", ids(is_number))
def test_answer_and_equivalent_forms_grade_correct(exercise_id):
    exercise = BOOK.exercise(exercise_id)
    forms = numeric_forms(exercise.value, exercise.unit)
    assert len(forms) >= 6
    for form in forms:
        verdict = grade(exercise, form)
        assert verdict.status == "correct", (form, verdict.message)


@pytest.mark.parametrize("exercise_id", ids(lambda e: isinstance(e, NumericAnswer) and e.mistakes))
def test_each_mistake_grades_incorrect_with_feedback(exercise_id):
    exercise = BOOK.exercise(exercise_id)
    applicable = exercise.applicable_mistakes  # a mistake whose `when` does not hold is not graded here
    for mistake, index in zip(exercise.mistakes, range(len(exercise.mistakes)), strict=True):
        if mistake not in applicable:
            continue
        if exercise.is_formula:
            typed = mistake.answer
            same = [m.feedback for m in applicable]
        else:
            wrong = exercise.mistake_values[index]
            typed = f"{wrong:.12g}"
            same = [m.feedback for m, v in zip(exercise.mistakes, exercise.mistake_values, strict=True)
                    if m in applicable and math.isclose(v, wrong, rel_tol=exercise.tolerance)]
        verdict = grade(exercise, typed)
        assert verdict.status == "incorrect", (typed, verdict.message)
        assert verdict.feedback in same and verdict.feedback, (typed, verdict.feedback)


def formula_forms(answer: str) -> list[str]:
    import sympy

    from grader.maths.parse import parse
    from grader.maths.sympy_proof import _to_sympy

    expanded = str(sympy.expand(_to_sympy(parse(answer, _names(answer)), frozenset(_names(answer)), {})))
    return [answer, f"({answer})", f"2*({answer})/2", f"({answer}) + 0", f"({answer})^1",
            expanded.replace("**", "^"), f" {answer.replace('*', ' * ')} "]


def _names(answer: str) -> set[str]:
    from grader.maths.parse import names_in, parse

    return names_in(parse(answer, set()))


@pytest.mark.parametrize("exercise_id", ids(lambda e: isinstance(e, NumericAnswer) and e.is_formula))
def test_formula_answer_and_equivalent_forms_grade_correct(exercise_id):
    exercise = BOOK.exercise(exercise_id)
    for form in formula_forms(exercise.answer):
        verdict = grade(exercise, form)
        assert verdict.status == "correct", (form, verdict.message)


@pytest.mark.parametrize("exercise_id", ids(lambda e: isinstance(e, Trace) and e.steps))
def test_step_tables_grade_row_by_row(exercise_id):
    exercise = BOOK.exercise(exercise_id)
    values = [f"{v:.12g}" for v in exercise.step_values]
    assert grade(exercise, "; ".join(values)).status == "correct"
    assert grade(exercise, "\n".join(values)).status == "correct"
    wrong = values[:-1] + [f"{exercise.step_values[-1] * 3 + 1:.12g}"]
    verdict = grade(exercise, "; ".join(wrong))
    assert verdict.status == "incorrect"
    assert [row.status for row in verdict.rows][-1] == "incorrect"
    assert grade(exercise, "; ".join(values[:-1])).status == "invalid"


@pytest.mark.parametrize("exercise_id", ids(lambda e: isinstance(e, Trace) and e.options))
def test_choices_by_id_letter_and_number(exercise_id):
    exercise = BOOK.exercise(exercise_id)
    index = next(i for i, o in enumerate(exercise.presented_options) if o.correct)
    letter = chr(ord("a") + index)
    for typed in (exercise.presented_options[index].id, letter, letter.upper(), f"({letter})", str(index + 1)):
        assert grade(exercise, typed).status == "correct", typed
    for option in exercise.options:
        if not option.correct:
            verdict = grade(exercise, option.id)
            assert verdict.status == "incorrect" and verdict.feedback == option.feedback
    assert grade(exercise, "z").status == "invalid"


@pytest.mark.parametrize("exercise_id", ids(lambda e: isinstance(e, Design)))
def test_design_orders(exercise_id):
    exercise = BOOK.exercise(exercise_id)
    order = list(exercise.order)
    texts = {item.id: item.text for item in exercise.items}
    positions = {item.id: str(i) for i, item in enumerate(exercise.presented, 1)}
    assert grade(exercise, ", ".join(order)).status == "correct"
    assert grade(exercise, ", ".join(texts[i] for i in order)).status == "correct"
    assert grade(exercise, ", ".join(positions[i] for i in order)).status == "correct"
    swapped = order[:]
    swapped[1], swapped[2] = swapped[2], swapped[1]
    verdict = grade(exercise, ", ".join(swapped))
    assert verdict.status == "incorrect"
    assert verdict.message.startswith("Position 2 is wrong")
    assert verdict.score == pytest.approx((len(order) - 1) / len(order))
    assert grade(exercise, ", ".join(order[:-1])).status == "invalid"


@pytest.mark.parametrize("exercise_id", ids(lambda e: isinstance(e, Debug)))
def test_debug_lines(exercise_id):
    exercise = BOOK.exercise(exercise_id)
    line = exercise.buggy_line
    for typed in (str(line), f"line {line}", f"L{line}"):
        assert grade(exercise, typed).status == "correct"
    other = 1 if line != 1 else 2
    verdict = grade(exercise, str(other))
    assert verdict.status == "incorrect"
    assert verdict.feedback == exercise.line_feedback.get(other, "")
    assert grade(exercise, str(len(exercise.lines) + 1)).status == "invalid"


def test_options_are_shown_in_a_stable_shuffle():
    again = load_book()
    letters = set()
    for exercise in BOOK.exercises:
        if isinstance(exercise, Trace) and exercise.options:
            shown = exercise.presented_options
            assert sorted(o.id for o in shown) == sorted(o.id for o in exercise.options)
            assert [o.id for o in shown] == [o.id for o in again.exercise(exercise.id).presented_options]
            letters.add(next(i for i, o in enumerate(shown) if o.correct))
    assert len(letters) > 1, "the right answer always sits at the same letter"
