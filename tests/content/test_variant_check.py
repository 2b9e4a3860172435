"""`ringbook content check` on variants: what breaks in some variant is reported at its line, with the seed
and numbers that break it, before a learner meets it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tui.cli.main import main

CHAPTER0 = "00-ring-allreduce/exercises.yaml"
VARY_N = "      N: {choices: [4, 8, 16, 32, 64]}\n"


@pytest.fixture
def book_copy(chapters_copy) -> Path:
    """Chapter 0 alone to break: a full check samples every varying exercise, so the whole book would make
    each test slow for nothing."""
    return chapters_copy("00-ring-allreduce")


def run_check(content: Path, capsys) -> tuple[int, str]:
    code = main(["content", "check", "--content", str(content)])
    return code, capsys.readouterr().out


def edit(root: Path, old: str, new: str) -> Path:
    path = root / CHAPTER0
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, 1))
    return path


def line_of(path: Path, needle: str, after: int = 0, *, whole: bool = False) -> int:
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if number > after and (line.strip() == needle if whole else needle in line):
            return number
    raise AssertionError(f"{needle!r} not in {path}")


def test_constraints_never_satisfiable_are_reported_at_the_constraints(book_copy, capsys):
    path = edit(book_copy, VARY_N, VARY_N + '    constraints: ["M == 1", "N == 8"]\n')
    code, out = run_check(book_copy, capsys)
    assert code == 1
    assert f"{CHAPTER0}:{line_of(path, 'constraints:')}: the constraints are never satisfiable" in out


def test_the_book_s_own_params_breaking_a_constraint_is_reported(book_copy, capsys):
    path = edit(book_copy, VARY_N, VARY_N + '    constraints: ["answer > 2"]\n')
    code, out = run_check(book_copy, capsys)
    assert code == 1
    assert f"{CHAPTER0}:{line_of(path, 'answer > 2')}: the book's own params break constraint 'answer > 2'" in out


def test_a_constraint_in_python_is_refused_by_the_schema_or_the_grammar(book_copy, capsys):
    edit(book_copy, VARY_N, VARY_N + "    constraints: [\"__import__('os').getpid() > 0\"]\n")
    code, out = run_check(book_copy, capsys)
    assert code == 1 and "constraint" in out


def test_a_mistake_that_equals_the_answer_in_some_variant_is_a_problem_with_its_seed(book_copy, capsys):
    path = edit(book_copy, VARY_N, "      N: {choices: [4, 8, 1000]}\n")   # 2M is within 0.5% of 2M*999/1000
    code, out = run_check(book_copy, capsys)
    assert code == 1
    line = line_of(path, "- answer: 2*M", after=line_of(path, 'id: "0.1"'), whole=True)
    found = rf"{re.escape(CHAPTER0)}:{line}: seed \d+ \(M=[\d.]+, N=1000\): mistake '2\*M' equals the answer"
    assert re.search(found, out), out


def test_two_mistakes_that_coincide_in_some_variant_are_a_warning(book_copy, capsys):
    path = edit(book_copy, VARY_N, "      N: {choices: [3, 8]}\n")   # at N = 3, 2M = (N-1)M
    code, out = run_check(book_copy, capsys)
    assert code == 0, out
    line = line_of(path, "- answer: 2*M", after=line_of(path, 'id: "0.1"'), whole=True)
    assert re.search(rf"{re.escape(CHAPTER0)}:{line}: warning: seed \d+ \(M=[\d.]+, N=3\): mistake '2\*M' gives the "
                     r"same value as mistake '\(N-1\)\*M'", out), out


def test_an_absurd_answer_in_some_variant_is_reported_at_the_vary_line_that_allows_it(book_copy, capsys):
    path = edit(book_copy, "      M: {from: 0.5, to: 8, step: 0.5}\n", "      M: {choices: [1, -2]}\n")
    code, out = run_check(book_copy, capsys)
    assert code == 1
    assert f"{CHAPTER0}:{line_of(path, 'M: {choices: [1, -2]}')}: seed" in out and "far from the book's 1.75" in out


def test_a_placeholder_that_names_no_param_is_reported_at_its_text(book_copy, capsys):
    path = edit(book_copy, "and run a ring\n", "and run a {{R}} ring\n")
    code, out = run_check(book_copy, capsys)
    assert code == 1
    line = line_of(path, "and run a {{R}} ring")   # the placeholder's own line, not the prompt's (issue 47)
    assert f"{CHAPTER0}:{line}: prompt: placeholder '{{{{R}}}}'" in out


def test_a_placeholder_left_open_is_reported_at_its_text(book_copy, capsys):
    path = edit(book_copy, "each step sends one chunk of M / N.", "each step sends one chunk of {{M / N.")
    code, out = run_check(book_copy, capsys)
    assert code == 1
    line = line_of(path, "each step sends one chunk of {{M")
    assert f"{CHAPTER0}:{line}: hints 2: a placeholder is left unrendered" in out


def test_a_bad_vary_rule_is_reported_at_its_param(book_copy, capsys):
    path = edit(book_copy, VARY_N, VARY_N + "      Q: {choices: [1, 2]}\n")
    code, out = run_check(book_copy, capsys)
    assert code == 1
    assert f"{CHAPTER0}:{line_of(path, 'Q: {choices')}: vary Q: Q is not one of the params" in out


def test_vary_with_a_range_going_down_is_refused(book_copy, capsys):
    path = edit(book_copy, "      M: {from: 0.5, to: 8, step: 0.5}\n", "      M: {from: 8, to: 0.5, step: 0.5}\n")
    code, out = run_check(book_copy, capsys)
    assert code == 1
    assert f"{CHAPTER0}:{line_of(path, 'M: {from: 8')}: vary M: from, to and step must be numbers" in out


# --- vary values no variant uses (issue 47) --------------------------------------------------------

def test_a_choice_that_divides_by_zero_is_reported_at_its_vary_line(book_copy, capsys):
    path = edit(book_copy, VARY_N, "      N: {choices: [0, 4, 8, 16, 32, 64]}\n")
    code, out = run_check(book_copy, capsys)
    assert code == 1
    assert (f"{CHAPTER0}:{line_of(path, 'N: {choices: [0')}: N: choice 0 is never drawn: 2*M*(N-1)/N divides by "
            "zero; remove it") in out, out


def test_a_choice_no_constraint_lets_through_is_reported_at_its_vary_line(book_copy, capsys):
    path = edit(book_copy, VARY_N, "      N: {choices: [3, 4, 8, 16, 32, 64]}\n    constraints: [\"N >= 4\"]\n")
    code, out = run_check(book_copy, capsys)
    assert code == 1
    assert (f"{CHAPTER0}:{line_of(path, 'N: {choices: [3')}: N: choice 3 is never drawn: no constraint lets it "
            "through (every draw with it breaks one, the first constraint 'N >= 4'); remove it or loosen the "
            "constraints") in out, out


def test_a_dead_end_of_a_range_is_reported_at_its_vary_line_but_not_a_hole_inside_it(book_copy, capsys):
    """A range whose first values no draw takes is wider than its numbers allow; a value skipped inside it
    (here M = 4) is how a constraint thins a range, and is no slip."""
    path = edit(book_copy, VARY_N, VARY_N + '    constraints: ["M >= 0.75", "abs(M - 4) >= 0.25"]\n')
    code, out = run_check(book_copy, capsys)
    assert code == 1
    line = line_of(path, "M: {from: 0.5, to: 8, step: 0.5}")
    assert (f"{CHAPTER0}:{line}: M: value 0.5 of the range is never drawn: no constraint lets it through "
            "(every draw with it breaks one, the first constraint 'M >= 0.75'); narrow the range or loosen the "
            "constraints") in out, out
    assert out.count("never drawn") == 1, out


def test_a_choice_a_derived_param_divides_by_is_reported_with_that_param_s_formula(book_copy, capsys):
    path = edit(book_copy, "    params: {M: 1, N: 8}\n", "    params: {M: 1, N: 8, chunk: M/(N-4)}\n")
    code, out = run_check(book_copy, capsys)
    assert code == 1
    assert (f"{CHAPTER0}:{line_of(path, 'N: {choices: [4, 8')}: N: choice 4 is never drawn: M/(N-4) divides by zero; "
            "remove it") in out, out
