"""Explanations state their result in a form the grader accepts, and every other figure the book states
about an exercise agrees with an independent recomputation (tests/expected/ch*.py, `STATED`).

An explanation that says "about 66 ms" when the grader rejects 66 teaches the wrong precision. So for
every numeric derive and trace exercise, the figures in the explanation are read the way a learner's
answer is read (a number with an optional unit, converted to the box's unit) and graded by the real
grader:

- the result is stated: at least one figure is graded correct (for a step table, one per row);
- where the explanation rounds, it rounds to what the grader accepts: a figure it marks as approximate
  ("about", "roughly", "≈", "~", ...) or as a result (bold) must be graded correct whenever it lies in
  the grader's near-miss band around the answer, the band where a learner is told to check their
  rounding.
"""

from __future__ import annotations

import importlib.util
import math
import re
from pathlib import Path

import pytest

from grader.exercise import NumericAnswer
from grader.grade import grade
from grader.kinds.trace import Trace, grade_step
from grader.maths.evaluate import EvaluationError, evaluate_text
from grader.maths.numeric import CLOSE_BAND, read_number, split_unit
from grader.maths.parse import ParseError
from grader.maths.units import UnitError
from tests.built_in import builtin_book
from tui.cli.main import main

BOOK = builtin_book()
EXPECTED_DIR = Path(__file__).resolve().parents[1] / "expected"

FIGURE = re.compile(r"(?<![\w.^/])\$?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:[eE][+-]?\d+)?")
UNIT_AFTER = re.compile(r"\s?(?:%|[A-Za-zµμ][A-Za-zµμ/-]*)")
MARKED = re.compile(r"(?:\babout|\broughly|\baround|\bnearly|\balmost|\bapproximately|≈|~|\*\*)[\s*]*$", re.I)

def _numeric(exercise) -> bool:
    if not isinstance(exercise, NumericAnswer) or exercise.is_formula:
        return False
    if isinstance(exercise, Trace) and exercise.options:
        return False
    return exercise.answer is not None or bool(getattr(exercise, "steps", ()))


def figures(exercise) -> list[tuple[str, float, bool]]:
    """(text as a learner would type it, value in the box's unit, marked as approximate or a result)."""
    found = []
    text = exercise.explanation
    for match in FIGURE.finditer(text):
        unit = UNIT_AFTER.match(text, match.end())
        for typed in ([match.group() + unit.group()] if unit else []) + [match.group()]:
            try:
                value = read_number(typed, exercise.unit)
            except UnitError as exc:
                if exc.incompatible:    # a quantity of another kind (seconds in a GB box): not a candidate
                    break
                continue                # a word that is not a unit follows: read the bare number
            except (ParseError, EvaluationError):
                continue
            found.append((typed, value, bool(MARKED.search(text[max(0, match.start() - 40):match.start()]))))
            break
    return found


def _keys(exercise) -> list[tuple[float, object]]:
    """Each value the exercise grades, with the function that grades a text against it."""
    if isinstance(exercise, Trace) and exercise.steps:
        return [(value, lambda text, i=i: grade_step(exercise, i, text))
                for i, value in enumerate(exercise.step_values)]
    return [(exercise.value, lambda text: grade(exercise, text))]


@pytest.mark.parametrize("exercise_id", [e.id for e in BOOK.exercises if _numeric(e)])
def test_explanation_states_its_result_as_the_grader_accepts_it(exercise_id):
    exercise = BOOK.exercise(exercise_id)
    stated = figures(exercise)
    for row, (key, judge) in enumerate(_keys(exercise), 1):
        accepted = [typed for typed, _, _ in stated if judge(typed).status == "correct"]
        assert accepted, f"row {row}: the explanation never states {key:g} {exercise.unit} in a form the grader accepts"
        rounded = [typed for typed, value, marked in stated
                   if marked and math.isclose(value, key, rel_tol=CLOSE_BAND) and judge(typed).status != "correct"]
        assert not rounded, f"row {row}: the explanation rounds to {rounded}, which the grader rejects for {key:g}"


# --- figures stated beside the answer, against tests/expected ----------------------------------------

def _stated() -> dict[str, dict[str, float]]:
    tables: dict[str, dict[str, float]] = {}
    for path in sorted(EXPECTED_DIR.glob("ch*.py")):
        spec = importlib.util.spec_from_file_location(path.stem, path)
        assert spec is not None and spec.loader is not None, path
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        for where, table in getattr(module, "STATED", {}).items():
            tables.setdefault(where, {}).update(table)
    return tables


STATED = _stated()


def _text_of(where: str) -> str:
    """`"9.6"` is that exercise's prompt and explanation; `"chapter 9"` is that chapter's narrative."""
    if where.startswith("chapter "):
        chapter = BOOK.chapter(where.removeprefix("chapter "))
        assert chapter is not None, where
        return chapter.narrative()
    exercise = BOOK.exercise(where)
    assert exercise is not None, where
    return exercise.prompt + "\n" + exercise.explanation


def _shown_value(figure: str) -> tuple[float, float]:
    """The number a figure shows, and half a unit in its last digit: how far rounding may have moved it."""
    number, _ = split_unit(figure)
    decimals = len(number.split(".")[1]) if "." in number else 0
    return evaluate_text(number.replace(",", ""), {}), 0.5 * 10.0 ** -decimals


@pytest.mark.parametrize("where, figure", [(w, f) for w, table in STATED.items() for f in table])
def test_stated_figure_is_the_recomputed_value_correctly_rounded(where, figure):
    text = _text_of(where)
    assert re.search(rf"(?<![\w.]){re.escape(figure)}(?![\w])", text), f"{figure!r} is not stated in {where}"
    shown, half_digit = _shown_value(figure)
    assert abs(shown - STATED[where][figure]) <= half_digit * (1 + 1e-9), \
        f"{where} states {figure}, but the recomputed value is {STATED[where][figure]:.6g}"


# --- where the readiness quiz sends a learner back to ------------------------------------------------

TAUGHT = {           # question -> terms its chapter must teach (the quiz sends a learner who misses it there)
    "q16": ["selective recomputation", "Korthikanti"],
    "q17": ["ZeRO-Offload", "ZeRO-Infinity", "NVMe"],
}


@pytest.mark.parametrize("question_id", sorted(TAUGHT))
def test_quiz_question_points_to_a_chapter_that_teaches_it(question_id):
    question = next(q for q in BOOK.quiz("readiness").questions if q.id == question_id)
    narrative = " ".join(BOOK.chapter(question.chapter).narrative().replace("*", "").split()).casefold()
    missing = [term for term in TAUGHT[question_id] if term.casefold() not in narrative]
    assert not missing, f"{question_id} points to chapter {question.chapter}, which never mentions {missing}"


def test_a_formula_answer_its_worked_example_contradicts_is_reported_at_the_example(chapters_copy, capsys):
    """A formula answer has no number a check could compare, but 2.6's explanation works the law with 2.3's
    numbers (b = 4, D = 8, ...) to 264.9 sequences/s: a wrong formula gives another figure (issue 47)."""
    book = chapters_copy("02-gradient-accumulation")
    path = book / "02-gradient-accumulation" / "exercises.yaml"
    text = path.read_text()
    assert "    answer: b*D*k/(k*t + r)\n" in text
    path.write_text(text.replace("    answer: b*D*k/(k*t + r)\n", "    answer: b*D*k/(k*t + 2*r)\n", 1))
    code = main(["content", "check", "--content", str(book)])
    out = capsys.readouterr().out
    line = next(n for n, row in enumerate(path.read_text().splitlines(), 1) if "Dividing top and bottom by k" in row)
    assert code == 1
    assert (f"02-gradient-accumulation/exercises.yaml:{line}: explanation: with b = 4, D = 8, k = 64, t = 0.12, "
            "r = 0.05 the answer b*D*k/(k*t + 2*r) gives 263.239, a figure this worked example never shows: check "
            "the answer's formula (or the example's numbers)") in out, out
