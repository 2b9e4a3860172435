"""Every graded value in the book agrees with an independent recomputation (tests/expected/ch*.py),
every mistake differs from the answer, and the code exercises' reference code really behaves."""

from __future__ import annotations

import importlib.util
import math
import random
import re
from pathlib import Path

import pytest

from grader.exercise import NumericAnswer
from grader.kinds.build import Build
from grader.kinds.debug import Debug
from grader.kinds.design import Design
from grader.kinds.match import Match
from grader.kinds.registry import KINDS
from grader.kinds.trace import Trace
from grader.maths.evaluate import evaluate_text
from tests.built_in import builtin_book

EXPECTED_DIR = Path(__file__).resolve().parents[1] / "expected"
BOOK = builtin_book()


def _expected() -> dict[str, dict]:
    names = ("NUMERIC", "STEPS", "FORMULAS", "CHOICES", "ORDERS", "BUGGY_LINES", "MATCHES")
    tables: dict[str, dict] = {name: {} for name in names}
    for path in sorted(EXPECTED_DIR.glob("ch*.py")):
        spec = importlib.util.spec_from_file_location(path.stem, path)
        assert spec is not None and spec.loader is not None, path
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        for name, table in tables.items():
            table.update(getattr(module, name, {}))
    return tables


EXPECTED = _expected()


def _ids(predicate) -> list[str]:
    return [e.id for e in BOOK.exercises if predicate(e)]


def _numeric(e) -> bool:
    return isinstance(e, NumericAnswer) and not e.is_formula and e.answer is not None


def _formula(e) -> bool:
    return isinstance(e, NumericAnswer) and e.is_formula


def _steps(e) -> bool:
    return isinstance(e, Trace) and bool(e.steps)


def _choice(e) -> bool:
    return isinstance(e, Trace) and bool(e.options)


@pytest.mark.parametrize("exercise_id", _ids(_numeric))
def test_numeric_answer_matches_independent_recomputation(exercise_id):
    exercise = BOOK.exercise(exercise_id)
    assert exercise_id in EXPECTED["NUMERIC"], f"no independent value for {exercise_id}"
    assert exercise.value == pytest.approx(EXPECTED["NUMERIC"][exercise_id], rel=1e-9)


@pytest.mark.parametrize("exercise_id", _ids(_steps))
def test_step_table_matches_independent_recomputation(exercise_id):
    exercise = BOOK.exercise(exercise_id)
    assert list(exercise.step_values) == pytest.approx(EXPECTED["STEPS"][exercise_id], rel=1e-9)


@pytest.mark.parametrize("exercise_id", _ids(_formula))
def test_formula_answer_matches_independent_function(exercise_id):
    exercise = BOOK.exercise(exercise_id)
    reference = EXPECTED["FORMULAS"][exercise_id]
    rng = random.Random(exercise_id)
    for _ in range(20):
        point = {s: rng.uniform(1.5, 20.0) for s in exercise.symbols}
        env = {**exercise.env, **point}
        assert evaluate_text(exercise.answer, env) == pytest.approx(reference(**point), rel=1e-9)


@pytest.mark.parametrize("exercise_id", _ids(_choice))
def test_correct_option_matches_independent_choice(exercise_id):
    assert BOOK.exercise(exercise_id).correct_option.id == EXPECTED["CHOICES"][exercise_id]


@pytest.mark.parametrize("exercise_id", _ids(lambda e: isinstance(e, Design)))
def test_design_order_matches_independent_order(exercise_id):
    assert list(BOOK.exercise(exercise_id).order) == EXPECTED["ORDERS"][exercise_id]


@pytest.mark.parametrize("exercise_id", _ids(lambda e: isinstance(e, Debug)))
def test_debug_line_matches_independent_line(exercise_id):
    assert BOOK.exercise(exercise_id).buggy_line == EXPECTED["BUGGY_LINES"][exercise_id]


@pytest.mark.parametrize("exercise_id", _ids(lambda e: isinstance(e, Match)))
def test_match_pairs_match_independent_pairs(exercise_id):
    """Each item's option is the id recomputed, or its text states the number recomputed."""
    exercise = BOOK.exercise(exercise_id)
    expected = EXPECTED["MATCHES"][exercise_id]
    assert sorted(expected) == sorted(exercise.pairs)
    for item, option in exercise.pairs.items():
        if isinstance(expected[item], str):
            assert option == expected[item], item
        else:
            assert _stated(exercise.text_of(option)) == pytest.approx(expected[item], rel=5e-3), item


def _stated(text: str) -> float:
    """The number an option's text states: `5.5 bytes`, `65,504`, `about 3.39 × 10^38`."""
    found = re.search(r"([0-9][0-9,]*(?:\.[0-9]+)?)(?:\s*× 10\^([0-9]+))?", text)
    assert found is not None, text
    return float(found[1].replace(",", "")) * 10 ** int(found[2] or 0)


@pytest.mark.parametrize("kind", KINDS)
def test_every_kind_is_in_the_book_with_independent_answers(kind):
    """A kind the book does not use is not proven by it; one whose exercises have no entry in tests/expected
    is graded by nothing but its own YAML. (A build's reference code is run against its tests below.)"""
    exercises = [e for e in BOOK.exercises if e.kind == kind]
    assert exercises, f"the book has no exercise of kind {kind!r}"
    if KINDS[kind].runs_code:
        return
    tabled = {exercise_id for table in EXPECTED.values() for exercise_id in table}
    missing = [e.id for e in exercises if e.id not in tabled]
    assert missing == [], f"no independent answers in tests/expected for {kind} exercise(s) {', '.join(missing)}"


@pytest.mark.parametrize("exercise_id", _ids(lambda e: isinstance(e, NumericAnswer) and e.mistakes))
def test_every_mistake_differs_from_the_answer(exercise_id):
    exercise = BOOK.exercise(exercise_id)
    rng = random.Random(exercise_id)
    points = [{s: rng.uniform(1.5, 20.0) for s in exercise.symbols} for _ in range(5)] if exercise.is_formula else [{}]
    for mistake in exercise.mistakes:
        differs = False
        for point in points:
            env = {**exercise.env, **point}
            right, wrong = evaluate_text(exercise.answer, env), evaluate_text(mistake.answer, env)
            differs |= not math.isclose(right, wrong, rel_tol=exercise.tolerance)
        assert differs, f"mistake {mistake.answer!r} grades like the answer {exercise.answer!r}"


def _call(source: str, function: str, args: dict):
    namespace: dict = {}
    exec(compile(source, "<content>", "exec"), namespace)  # our own content, not learner text
    return namespace[function](**args)


def _matches(got, expected, tolerance: float) -> bool:
    if isinstance(expected, tuple):
        return isinstance(got, (tuple, list)) and len(got) == len(expected) and all(
            _matches(g, e, tolerance) for g, e in zip(got, expected, strict=True))
    return isinstance(got, (int, float)) and math.isclose(got, expected, rel_tol=tolerance, abs_tol=1e-12)


@pytest.mark.parametrize("exercise_id", _ids(lambda e: isinstance(e, Build)))
def test_build_exercises_have_enough_tests(exercise_id):
    assert len(BOOK.exercise(exercise_id).tests) >= 4   # the sandbox tests run solution and starter


@pytest.mark.parametrize("exercise_id", _ids(lambda e: isinstance(e, Debug)))
def test_debug_listing_has_exactly_the_declared_bug(exercise_id):
    exercise = BOOK.exercise(exercise_id)
    assert exercise.tests, "a debug exercise proves its bug with tests"
    fixed = [_matches(_call(exercise.fixed_code, exercise.function, t.args), t.expected_value, 1e-9)
             for t in exercise.tests]
    buggy = [_matches(_call(exercise.code, exercise.function, t.args), t.expected_value, 1e-9) for t in exercise.tests]
    assert all(fixed), "the fixed listing fails a test"
    assert not all(buggy), "the buggy listing passes every test: the bug is not real"


def test_every_exercise_has_an_independent_entry():
    covered = set().union(*(table.keys() for table in EXPECTED.values()))
    gradable = set(_ids(lambda e: not isinstance(e, Build)))
    assert gradable - covered == set()
    assert covered - {e.id for e in BOOK.exercises} == set(), "expected values for exercises not in the book"
