"""The shared formula grammar: what it reads, what it refuses, and where."""

import pytest

from grader.maths.evaluate import EvaluationError, TooComplex, evaluate_text
from grader.maths.parse import ParseError, parse


@pytest.mark.parametrize("text, env, value", [
    ("2*M*(N-1)/N", {"M": 1, "N": 8}, 1.75),
    ("2M(N-1)/N", {"M": 1, "N": 8}, 1.75),
    ("2MN", {"M": 2, "N": 3}, 12),
    ("7/4", {}, 1.75),
    ("2.4E-03", {}, 0.0024),
    ("2.4×10^-3", {}, 0.0024),
    ("6.1 x 10^-5", {}, 6.1e-5),
    ("2^-14", {}, 2 ** -14),
    ("2**3**2", {}, 512),
    ("−3 + 5", {}, 2),
    ("16,384", {}, 16384),
    ("sqrt(2*C*F)", {"C": 2, "F": 4}, 4),
    ("max(1, 2, 3)", {}, 3),
    ("ceil(2048/(3*8))", {}, 86),
    ("-2^2", {}, -4),
    ("mod(7, 3)", {}, 1),
    ("mod(x - 1, 4)", {"x": 0}, 3),          # a position on a ring: the sign of b, as a - b*floor(a/b)
    ("mod(7.5, 2)", {}, 1.5),
    ("mod(7, -3)", {}, -2),
    ("mod(10^300, 7)", {}, 1),               # exact, where 10^300 - 7*floor(10^300/7) in floats is not
])
def test_reads(text, env, value):
    assert evaluate_text(text, env) == pytest.approx(value)


def test_declared_names_are_plain_variables_even_when_sympy_has_them():
    assert evaluate_text("N + S + E + I + O + Q", dict(N=1, S=2, E=3, I=4, O=5, Q=6)) == 21


@pytest.mark.parametrize("text, fragment, column", [
    ("__import__('os').getcwd()", "strings", 12),
    ("a.b", "attribute access", 2),
    ("x[0]", "subscripts", 2),
    ("1,75", "decimal, use a point", 2),
    ("(1+2", "never closed", 1),
    ("1 2", "Two numbers side by side", 3),
    ("lambda: 1", "':'", 7),
])
def test_refuses_with_what_and_where(text, fragment, column):
    with pytest.raises(ParseError) as info:
        parse(text, {"a", "b", "x"})
    assert fragment in info.value.message
    assert info.value.column == column


@pytest.mark.parametrize("text", ["9^9^9", "9**9**9**9", "factorial(10^9)", "10^400"])
def test_huge_values_are_refused_quickly(text):
    with pytest.raises(TooComplex):
        evaluate_text(text, {})


def test_deep_nesting_is_refused():
    with pytest.raises(ParseError, match="nested too deeply"):
        parse("(" * 200 + "1" + ")" * 200)


def test_division_by_zero_is_an_evaluation_error():
    with pytest.raises(EvaluationError, match="divides by zero"):
        evaluate_text("1/(N-N)", {"N": 3})
def test_mod_by_zero_is_an_evaluation_error():
    with pytest.raises(EvaluationError, match="mod"):
        evaluate_text("mod(5, N - N)", {"N": 3})


@pytest.mark.parametrize("text", ["mod(5)", "mod(5, 2, 1)"])
def test_mod_takes_two_arguments(text):
    with pytest.raises(EvaluationError, match="mod takes 2"):
        evaluate_text(text, {})


def test_percent_is_not_an_operator():
    """`%` stays a unit in answers (`77.8%`): `mod` is a function only, so `7 % 3` is never read as 1."""
    with pytest.raises(ParseError):
        parse("7 % 3")


def test_tiny_powers_underflow_to_zero():
    assert evaluate_text("2^-200000", {}) == 0
