"""The sympy side of a formula proof: our parse tree rebuilt with sympy's constructors, and a verdict.

This runs only in the proof worker (grader/maths/prover.py), never in the app's process: a proof that takes
too long or too much memory dies with the worker, not with the learner's session.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from enum import Enum
from fractions import Fraction
from typing import Any

from grader.maths.parse import BinOp, Call, Name, Neg, Node, Num, names_in

MAX_SYMBOLIC_EXPONENT = 64
MAX_NUMBER_DIGITS = 400  # a literal like 1e-999999999 is not built exactly (10^999999999 would be)


class Proof(Enum):
    """What sympy says about a == b: proven, shown different (an exact disproof), or nothing in time."""

    PROVEN = "proven"
    DIFFERENT = "different"
    UNDECIDED = "undecided"


def sympy_verdict(a: Node, b: Node, symbols: Iterable[str], env: Mapping[str, float],
                  points: Sequence[Mapping[str, float]]) -> str:
    """Runs in the proof worker: "proven", "different" or "undecided" (a Proof's value).

    cancel() settles rational functions in milliseconds, and for them it is a decision: a difference
    it does not cancel to 0 is not 0. Otherwise a point where the difference is certainly not 0 (30
    digits, exactly evaluated: sympy's strict evalf) disproves; simplify() is the slow general case.
    Params are floats, close to what the author meant but not exact, so a formula that uses one is
    never called different: it may differ from its exact spelling in the 17th digit.
    """
    import sympy

    names = frozenset(symbols)
    difference = _to_sympy(a, names, env) - _to_sympy(b, names, env)
    if difference == 0 or sympy.cancel(difference) == 0:
        return Proof.PROVEN.value
    exact = not (names_in(a) | names_in(b)) & set(env)
    if exact and _rational(a) and _rational(b):
        return Proof.DIFFERENT.value
    for point in points if exact else ():
        if _certainly_differ(a, b, difference, names, env, point):
            return Proof.DIFFERENT.value
    if sympy.simplify(difference) == 0:
        return Proof.PROVEN.value
    return Proof.UNDECIDED.value


def _rational(node: Node) -> bool:
    """A rational function: + - * / and whole-number powers only, no function calls."""
    match node:
        case Num() | Name():
            return True
        case Neg(operand):
            return _rational(operand)
        case BinOp("^", base, exponent):
            return _rational(base) and _whole_number(exponent)
        case BinOp(_, left, right):
            return _rational(left) and _rational(right)
    return False


def _whole_number(node: Node) -> bool:
    match node:
        case Num(text):
            return _exact(text).denominator == 1
        case Neg(operand):
            return _whole_number(operand)
    return False


def _certainly_differ(a: Node, b: Node, difference: Any, symbols: frozenset[str], env: Mapping[str, float],
                      point: Mapping[str, float]) -> bool:
    """Is a - b provably not 0 at `point`, where both sides are real (sympy's cbrt of a negative
    number is complex, ours is real: such a point decides nothing)?"""
    import sympy
    from sympy.core.evalf import PrecisionExhausted

    values = {sympy.Symbol(name, positive=True): sympy.Rational(*Fraction(point[name]).as_integer_ratio())
              for name in symbols}
    try:
        sides = [_to_sympy(side, symbols, env).evalf(30, subs=values, strict=True) for side in (a, b)]
        if not all(side.is_real for side in sides):
            return False
        gap = difference.evalf(30, subs=values, strict=True)
    except PrecisionExhausted:  # no digit of it could be certified: it may well be 0
        return False
    return bool(gap.is_real and gap != 0)


def _exact(text: str) -> Fraction:
    mantissa, _, exponent = text.lower().partition("e")
    if exponent and abs(int(exponent)) > MAX_NUMBER_DIGITS:
        raise _NotSymbolic
    return Fraction(text)


class _NotSymbolic(Exception):
    """A tree sympy should not be asked about (a huge exponent, a function sympy lacks)."""


def _to_sympy(node: Node, symbols: frozenset[str], env: Mapping[str, float]) -> Any:
    """The sympy expression for a tree, built with constructors only (no sympify, no parser). (sympy has no
    types: its expressions are Any to mypy.)"""
    import sympy

    match node:
        case Num(text):
            value = _exact(text)
            return sympy.Rational(value.numerator, value.denominator)
        case Name(name):
            if name in symbols:
                return sympy.Symbol(name, positive=True)  # a plain symbol, whatever sympy calls N, S, E, I
            if name in env:
                value = Fraction(repr(float(env[name])))  # the decimal the author wrote, as near as a float says
                return sympy.Rational(value.numerator, value.denominator)
            return {"pi": sympy.pi, "e": sympy.E}[name]
        case Neg(operand):
            return -_to_sympy(operand, symbols, env)
        case BinOp(op, left, right):
            x, y = _to_sympy(left, symbols, env), _to_sympy(right, symbols, env)
            if op == "+":
                return x + y
            if op == "-":
                return x - y
            if op == "*":
                return x * y
            if op == "/":
                return x / y
            if y.is_number and abs(y) > MAX_SYMBOLIC_EXPONENT:
                raise _NotSymbolic
            if x == 0 and y == 0:   # sympy calls it 1; the points call it undefined (evaluate._power)
                raise _NotSymbolic
            return x ** y
        case Call(func, args):
            values = [_to_sympy(arg, symbols, env) for arg in args]
            functions = {
                "sqrt": sympy.sqrt, "cbrt": sympy.cbrt, "exp": sympy.exp, "ln": sympy.log, "ceil": sympy.ceiling,
                "floor": sympy.floor, "abs": sympy.Abs, "min": sympy.Min, "max": sympy.Max,
                "factorial": sympy.factorial, "mod": lambda a, b: a - b * sympy.floor(a / b),
                "log": lambda x, base=None: sympy.log(x) if base is None else sympy.log(x, base),
                "log2": lambda x: sympy.log(x, 2), "log10": lambda x: sympy.log(x, 10),
            }
            if func not in functions:
                raise _NotSymbolic
            return functions[func](*values)
    raise _NotSymbolic
