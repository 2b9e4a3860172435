"""Formulas: equivalence by algebra, declared names as plain symbols, mistakes by their feedback."""

import pytest

from grader.grade import grade
from grader.load import exercise_from_spec


def formula(answer, symbols, **spec):
    built, problems = exercise_from_spec({"answer": answer, "symbols": symbols, **spec})
    assert built is not None, problems
    return built


RING = formula("2*M*(N-1)/N", ["M", "N"], mistakes=[
    {"answer": "M*(N-1)/N", "feedback": "That is one phase only; AllReduce has two."},
    {"answer": "2*M*(N-1)", "feedback": "Each step moves M/N, not M."},
])


@pytest.mark.parametrize("text", ["2M(N-1)/N", "2*M*(N-1)/N", "2M - 2M/N", "(2*M*N-2*M)/N", "2M(1-1/N)",
                                  "2 M (N − 1) / N", "M*2*(N-1)/N", "2*M*(N-1)*N^-1"])
def test_equivalent_forms_are_correct(text):
    verdict = grade(RING, text)
    assert verdict.status == "correct", verdict.message


@pytest.mark.parametrize("text", ["M(N-1)/N", "2M(N-1)", "2MN", "2M", "1.75"])
def test_different_formulas_are_incorrect(text):
    assert grade(RING, text).status == "incorrect"


def test_mistakes_carry_their_feedback():
    assert grade(RING, "M(N-1)/N").feedback == "That is one phase only; AllReduce has two."
    assert grade(RING, "2M(N-1)").feedback == "Each step moves M/N, not M."


def test_a_number_for_a_formula_says_so():
    assert "formula in terms of M, N" in grade(RING, "1.75").message


def test_undeclared_symbol_is_invalid_with_its_name():
    verdict = grade(RING, "2*M*(K-1)/K")
    assert verdict.status == "invalid" and "'K'" in verdict.message


@pytest.mark.parametrize("name", ["N", "S", "E", "I", "O", "Q"])
def test_names_sympy_reserves_are_plain_symbols(name):
    case = formula(f"2*{name}*(M+1)", [name, "M"])
    assert grade(case, f"2{name}M + 2{name}").status == "correct"
    assert grade(case, f"{name}M").status == "incorrect"


def test_symbolic_proof_is_used_when_warm():
    grade(RING, "2M(N-1)/N")  # sympy's first import may spend the budget
    assert grade(RING, "(2*M*N-2*M)/N").method == "symbolic"


def test_functions_and_constants():
    young = formula("sqrt(2*C*F)", ["C", "F"])
    assert grade(young, "(2CF)^(1/2)").status == "correct"
    assert grade(young, "sqrt(2)*sqrt(C)*sqrt(F)").status == "correct"
    assert grade(young, "sqrt(C*F)").status == "incorrect"
    eta = formula("eta*sqrt(B2/B1)", ["eta", "B1", "B2"])
    assert grade(eta, "etasqrt(B2/B1)").status == "correct"
