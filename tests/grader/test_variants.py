"""Variants: (exercise id, seed) fixes the numbers on every machine; draws stay inside their rules and
constraints; texts are rendered from the variant's own numbers; a variant is graded against itself."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from grader.book.load import exercise_from_spec
from grader.book.variants import Draws, VariantError, check_constraint, draw, format_number, render, variant
from grader.grade import grade

RING = {
    "id": "9.1", "prompt": "Each of **{{N}}** GPUs holds **{{M}} GB**.", "params": {"M": 1, "N": 8},
    "vary": {"M": {"from": 0.5, "to": 8, "step": 0.5}, "N": {"choices": [4, 8, 16, 32, 64]}},
    "answer": "2*M*(N-1)/N", "unit": "GB",
    "mistakes": [{"answer": "M*(N-1)/N", "feedback": "One phase of {{N-1}} steps only."}],
    "hints": ["Each step sends {{M}}/{{N}} GB."],
    "explanation": "2 * {{M}} * {{N-1}} / {{N}} = {{answer}} GB",
}


def exercise(**changes):
    built, problems = exercise_from_spec({**RING, **changes})
    assert built is not None, problems
    return built


def test_seed_zero_is_the_book_s_own_numbers_rendered():
    ex = exercise()
    assert ex.prompt == "Each of **8** GPUs holds **1 GB**."
    assert ex.explanation == "2 * 1 * 7 / 8 = 1.75 GB"
    assert variant(ex, 0).prompt == ex.prompt and variant(ex, 0).value == 1.75


def test_a_variant_draws_inside_its_rules_and_renders_every_text_with_its_own_numbers():
    ex = exercise()
    for seed in range(1, 60):
        v = variant(ex, seed)
        m, n = v.params["M"], v.params["N"]
        assert n in (4, 8, 16, 32, 64) and 0.5 <= m <= 8 and (m * 2).is_integer()
        assert v.value == pytest.approx(2 * m * (n - 1) / n)
        assert v.prompt == f"Each of **{n:g}** GPUs holds **{format_number(m)} GB**."
        assert v.explanation.endswith(f"= {format_number(v.value)} GB")
        assert v.hints == (f"Each step sends {format_number(m)}/{n:g} GB.",)
        assert v.mistakes[0].feedback == f"One phase of {n - 1:g} steps only."


def test_the_title_is_a_template_too():
    ex = exercise(title="Traffic per GPU on a {{N}}-GPU ring")
    assert ex.title == "Traffic per GPU on a 8-GPU ring"
    for seed in range(1, 20):
        v = variant(ex, seed)
        assert v.title == f"Traffic per GPU on a {v.params['N']:g}-GPU ring"


def test_a_variant_never_poses_the_canonical_answer_again():
    ex = exercise()
    for seed in range(1, 100):
        assert variant(ex, seed).value != pytest.approx(1.75, rel=0.01)


def test_a_variant_is_graded_against_its_own_numbers():
    ex = exercise()
    v = variant(ex, 3)
    assert grade(v, format_number(v.value, "3")).status == "correct"
    assert grade(v, "1.75").status == "incorrect"
    one_phase = v.mistakes[0]
    verdict = grade(v, format_number(v.value / 2, "4"))
    assert verdict.status == "incorrect" and one_phase.feedback in verdict.feedback


def test_the_same_seed_gives_the_same_numbers_in_another_process_with_another_hash_seed():
    code = ("from grader.book.load import exercise_from_spec; from grader.book.variants import variant; "
            f"ex, _ = exercise_from_spec({RING!r}); print([variant(ex, s).params for s in (1, 2, 77)])")
    outputs = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                              env={**os.environ, "PYTHONHASHSEED": seed}).stdout for seed in ("1", "2")}
    assert len(outputs) == 1
    here = [variant(exercise(), s).params for s in (1, 2, 77)]
    assert outputs.pop().strip() == repr(here)


def test_different_exercises_draw_differently_for_the_same_seed():
    assert [variant(exercise(), s).params for s in range(1, 6)] != \
           [variant(exercise(id="9.2"), s).params for s in range(1, 6)]


def test_constraints_hold_in_every_variant():
    ex = exercise(constraints=["M >= N/8", "answer < 4"])
    for seed in range(1, 80):
        v = variant(ex, seed)
        assert v.params["M"] >= v.params["N"] / 8 and v.value < 4


def test_an_unsatisfiable_constraint_is_a_clear_error_after_bounded_tries():
    ex = exercise(constraints=["M == 1", "N == 8"])  # only the book's own numbers, which a variant must not repeat
    with pytest.raises(VariantError, match="no numbers satisfy the constraints"):
        draw(ex.written, 1)


def test_a_param_written_as_a_formula_follows_the_drawn_values():
    ex = exercise(params={"M": 1, "N": 8, "K": "N-1"}, answer="2*M*K/N")
    for seed in range(1, 20):
        v = variant(ex, seed)
        assert v.params["K"] == v.params["N"] - 1


@pytest.mark.parametrize("constraint", ["__import__('os').system('true') > 0", "M", "M >= N >= 1", "open(1) < 2"])
def test_a_constraint_is_our_grammar_never_python(constraint):
    with pytest.raises(VariantError):
        check_constraint(constraint, {"M": 1.0, "N": 8.0})


@pytest.mark.parametrize("value, spec, shown", [
    (1.75, "", "1.75"), (0.875, "", "0.875"), (233.3333, "", "233.3"), (77.777, "3", "77.8"), (16384, "", "16384"),
    (16384, ",", "16,384"), (2.0, "", "2"), (0.07, ".3", "0.070"), (405e9, "", "405000000000"), (-3.5, "", "-3.5"),
    (0.000123456, "3", "0.000123"), (0.0024, "3e", "2.4e-3"), (8.4853e-4, "3e", "8.49e-4"), (1.2e6, "e", "1.2e6"),
])
def test_numbers_are_shown_to_sensible_figures(value, spec, shown):
    assert format_number(value, spec) == shown


def test_a_placeholder_that_does_not_evaluate_names_itself():
    with pytest.raises(VariantError, match=r"\{\{Q\+1\}\}"):
        render("x = {{Q+1}}", {"M": 1.0})
    with pytest.raises(VariantError, match="format"):
        render("{{M:abc}}", {"M": 1.0})


def test_a_placeholder_naming_no_param_is_a_problem_of_the_spec():
    built, problems = exercise_from_spec({**RING, "prompt": "Each of {{GPUs}} GPUs."})
    assert built is None and any("GPUs" in p for p in problems)


def test_a_formula_varies_through_a_param_it_names_beside_its_symbols():
    spec = {**RING, "answer": "2*m*(n-1)/(n*B)", "symbols": ["m", "n"], "params": {"B": 50},
            "vary": {"B": {"choices": [25, 50, 100]}}, "mistakes": [], "explanation": "x",
            "prompt": "links of {{B}} GB/s", "hints": []}
    ex, problems = exercise_from_spec(spec)
    assert ex is not None and problems == []
    posed = variant(ex, 1)
    assert posed.params["B"] in (25, 100) and posed.prompt == f"links of {posed.params['B']:g} GB/s"
    assert grade(posed, f"2*m*(n-1)/(n*{posed.params['B']:g})").status == "correct"
    assert grade(posed, "2*m*(n-1)/(n*50)").status == "incorrect"
    built, problems = exercise_from_spec({**spec, "vary": {"m": {"choices": [1, 2]}}})   # a symbol is not a param
    assert built is None and any("vary m" in p for p in problems), problems


def test_a_choice_may_be_a_formula_without_names_but_not_a_name_or_python():
    ex = exercise(params={"M": "1e9", "N": 8}, answer="2*M*(N-1)/N/1e9", vary={"M": {"choices": ["5e8", "2e9"]}},
                  prompt="{{M/1e9}} GB", hints=[], explanation="{{answer}}", mistakes=[])
    assert {variant(ex, s).params["M"] for s in range(1, 30)} == {5e8, 2e9}
    for bad in ("N", "__import__('os')", "1/0"):
        built, problems = exercise_from_spec({**RING, "vary": {"M": {"choices": [bad]}}})
        assert built is None and any("vary M" in p for p in problems), (bad, problems)


def test_a_start_from_the_book_cache_shows_the_canonical_texts_without_rendering(tmp_path):
    """The cache keeps each templated exercise's canonical texts, so the app's first frame pays for no
    formula: the same texts, and grader.book.variants is not even imported."""
    code = ("import sys; from pathlib import Path; from grader.book.load import load_book; "
            f"b = load_book(cache_dir=Path({str(tmp_path)!r})); e = b.exercise('0.1'); "
            "print(repr((e.prompt, e.explanation, e.hints, e.mistakes[3].feedback)), "
            "'grader.book.variants' in sys.modules)")
    runs = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
            for _ in range(2)]  # the first run checks the book and writes the cache; the second reads it
    assert runs[1].rstrip().endswith("False")
    assert runs[0].rsplit(" ", 1)[0] == runs[1].rsplit(" ", 1)[0]
    assert "{{" not in runs[1] and "**M = 1 GB**" in runs[1]
    from grader.book.load import load_book
    cached = load_book(cache_dir=tmp_path).exercise("0.1")
    assert variant(cached, 4).prompt == variant(load_book().exercise("0.1"), 4).prompt


def test_the_book_s_answer_to_a_variant_is_called_what_it_is(book):
    """A remembered 31.9 for 9.6's 32.6 was told to "carry more digits", as if nearly right."""
    for exercise_id in ("0.1", "9.6"):
        exercise = book.exercise(exercise_id)
        posed = next(variant(exercise, seed) for seed in range(1, 50)
                     if variant(exercise, seed).value != exercise.value)
        verdict = grade(posed, format_number(exercise.value, "4"))
        assert verdict.status == "incorrect" and "the answer for the book's own numbers" in verdict.message
        assert grade(exercise, format_number(exercise.value, "4")).status == "correct"


def test_never_drawn_names_each_value_no_variant_can_use_and_why():
    """N = 1 divides by N - 1 in a derived param; N = 2 no constraint lets through; N = 3 cannot evaluate a
    constraint (a log of 0); N = 8 is the book's own and is not dead, though no other seed draws it."""
    ex = exercise(params={"M": 1, "N": 8, "per": "M/(N-1)"}, vary={"N": {"choices": [1, 2, 3, 8, 16]}},
                  constraints=["N >= 2.5", "log(N - 3) > -1"])
    assert Draws(ex).never_drawn() == [
        ("N", 1.0, "M/(N-1) divides by zero"),
        ("N", 2.0, "constraint 'N >= 2.5'"),
        ("N", 3.0, "constraint 'log(N - 3) > -1': A logarithm needs a positive argument (and a positive base "
                   "other than 1)."),
    ]
