"""Formula equivalence: is the learner's expression the same function of the symbols as the answer?

Evaluating both trees at random points decides fast and cannot hang, so it runs first: a wrong formula
is rejected without touching sympy. The points are drawn afresh for every grade, from os.urandom, over
the symbols' whole plausible range (tiny to huge, whole numbers and not), so no formula can be tuned to
the points. When the points agree, sympy is asked to prove `a - b == 0` in a worker process that is
killed at the deadline (grader/prover.py). Agreement at points alone is trusted only for formulas made
of arithmetic and smooth functions, which cannot agree at many random points by accident; floor, round,
min, max, abs and factorial can (`floor(M/1e15)` is 0 at any point anyone would try), so a formula that
uses them is correct only when proven.
"""

from __future__ import annotations

import math
import os
import random
from dataclasses import dataclass
from decimal import Decimal
from enum import Enum
from fractions import Fraction
from typing import Iterable, Mapping, Sequence

from grader.evaluate import EvaluationError, TooComplex, evaluate, evaluate_precisely
from grader.parse import BinOp, Call, Name, Neg, Node, Num, names_in

TYPICAL_SAMPLES = 8  # values in [1.5, 9.5], where the book's quantities live
WIDE_SAMPLES = 56  # values over the whole plausible range; see wide_value
SMALLEST, LARGEST = 1e-4, 1e12  # the range of wide real values, drawn log-uniformly
LARGEST_COUNT = 10**6  # wide whole values (counts such as N) are drawn log-uniformly from 2 to this
MIN_VALID_SAMPLES = 3  # fewer points with values on both sides: the formula cannot be evaluated
WIDELY_TESTED = 12  # points with values on both sides needed to call a formula correct without a proof
EQUALITY_TOLERANCE = 1e-9  # relative
TINY = 1e-250  # values this small have lost precision (or underflowed); they decide nothing
MAX_SYMBOLIC_EXPONENT = 64
MAX_NUMBER_DIGITS = 400  # a literal like 1e-999999999 is not built exactly (10^999999999 would be)
POINTS_TO_DISPROVE = 3
PIECEWISE = frozenset({"floor", "ceil", "round", "abs", "min", "max", "factorial"})


class Proof(Enum):
    """What sympy says about a == b: proven, shown different (an exact disproof), or nothing in time."""

    PROVEN = "proven"
    DIFFERENT = "different"
    UNDECIDED = "undecided"


@dataclass(frozen=True)
class Points:
    """Where two formulas are compared: typical values first (a formula too large to evaluate there is
    refused as too complex), then wide ones (where being too large only skips the point)."""

    typical: tuple[dict[str, float], ...]
    wide: tuple[dict[str, float], ...]


@dataclass(frozen=True)
class Agreement:
    """`same`: False when the formulas differ at a point, None when too few points had values on both
    sides, else True; `points`: where both had (informative) values."""

    same: bool | None
    points: tuple[dict[str, float], ...] = ()

    @property
    def widely_tested(self) -> bool:
        return self.same is True and len(self.points) >= WIDELY_TESTED


def sample_points(symbols: Iterable[str], env: Mapping[str, float], rng: random.Random | None = None) -> Points:
    """Fresh points for one grade (params as given): unpredictable unless `rng` is passed."""
    rng = rng or random.Random(os.urandom(16))
    names = sorted(symbols)
    typical = tuple({**env, **{s: rng.uniform(1.5, 9.5) for s in names}} for _ in range(TYPICAL_SAMPLES))
    wide = tuple({**env, **{s: wide_value(rng) for s in names}} for _ in range(WIDE_SAMPLES))
    return Points(typical, wide)


def wide_value(rng: random.Random) -> float:
    """Half the time a whole number from 2 to a million (counts: GPUs, stages, steps), else any positive
    real from 1e-4 to 1e12; both log-uniform, so every order of magnitude is as likely as the next."""
    if rng.random() < 0.5:
        return float(round(math.exp(rng.uniform(math.log(2), math.log(LARGEST_COUNT)))))
    return math.exp(rng.uniform(math.log(SMALLEST), math.log(LARGEST)))


def compare(a: Node, b: Node, points: Points) -> Agreement:
    """Evaluate both trees at every point. Raises TooComplex when `a` is too large to evaluate at any
    typical point, whether or not it differs first, so that `M^400` is refused the same way every time."""
    agreed, differs = [], False
    for typical, point in [(True, p) for p in points.typical] + [(False, p) for p in points.wide]:
        if differs and not typical:
            break
        try:
            left = evaluate(a, point)
        except TooComplex:
            if typical:
                raise
            continue
        except EvaluationError:
            continue
        if differs:
            continue
        try:
            right = evaluate(b, point)
        except EvaluationError:
            continue
        if max(abs(left), abs(right)) < TINY:  # e.g. both 0, as N-2 at N = 2: agreement, but no evidence
            continue
        same = _close(left, right) or _close_precisely(a, b, point)
        if same is None:
            continue
        differs = not same
        if same:
            agreed.append(point)
    if differs:
        return Agreement(False)
    return Agreement(True if len(agreed) >= MIN_VALID_SAMPLES else None, tuple(agreed))


def _close_precisely(a: Node, b: Node, point: Mapping[str, float]) -> bool | None:
    """Floats that cancel (1 - x/(x+1) at x = 1e24) can differ where the formulas do not: the same
    comparison in 100 digits; None when that cannot be computed."""
    try:
        return _close(evaluate_precisely(a, point), evaluate_precisely(b, point))
    except EvaluationError:
        return None


def _close(left: float | Decimal, right: float | Decimal) -> bool:
    tolerance = Decimal(EQUALITY_TOLERANCE) if isinstance(left, Decimal) else EQUALITY_TOLERANCE
    return abs(left - right) <= tolerance * max(abs(left), abs(right))


def same_function(a: Node, b: Node, points: Points) -> bool | None:
    """True/False when a and b agree/differ where both can be evaluated; None when too few points can be."""
    return compare(a, b, points).same


def why_points_cannot_decide(node: Node) -> str:
    """Why agreement at random points cannot stand in for a proof of `node`, in words for the learner;
    "" when it can: arithmetic and smooth functions of the symbols, with every number one that a float
    holds as written, cannot agree with another formula at many random points by accident."""
    piecewise = sorted(_calls(node) & PIECEWISE)
    if piecewise:
        named = " and ".join(f"{name}()" for name in piecewise)
        return f"{named} can hide a difference that none of the values tried shows"
    if not _faithful_numbers(node):
        return "a number in it is too large or too small for the values tried to show a difference"
    return ""


def _calls(node: Node) -> set[str]:
    match node:
        case Neg(operand):
            return _calls(operand)
        case BinOp(_, left, right):
            return _calls(left) | _calls(right)
        case Call(func, args):
            return {func}.union(*(_calls(arg) for arg in args))
    return set()


def _faithful_numbers(node: Node) -> bool:
    match node:
        case Num(text):
            value, mantissa = float(text), float(text.lower().partition("e")[0])
            return (value == 0 and mantissa == 0) or 1e-300 <= abs(value) <= 1e300
        case Neg(operand):
            return _faithful_numbers(operand)
        case BinOp(_, left, right):
            return _faithful_numbers(left) and _faithful_numbers(right)
        case Call(_, args):
            return all(_faithful_numbers(arg) for arg in args)
    return True


def prove_equal(a: Node, b: Node, symbols: Sequence[str], env: Mapping[str, float],
                points: Sequence[Mapping[str, float]], budget: float) -> Proof:
    """sympy's verdict on a == b from the proof worker, or UNDECIDED when it has none within `budget`
    seconds. `points` are where both sides have values, for a disproof in exact arithmetic."""
    from grader.prover import WORKER, request

    answer = WORKER.ask(request(a, b, symbols, env, points[:POINTS_TO_DISPROVE]), budget)
    try:
        return Proof(answer)
    except ValueError:
        return Proof.UNDECIDED


# --- in the proof worker ----------------------------------------------------------------------------

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


def _certainly_differ(a: Node, b: Node, difference, symbols: frozenset[str], env: Mapping[str, float],
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


def _to_sympy(node: Node, symbols: frozenset[str], env: Mapping[str, float]):
    """The sympy expression for a tree, built with constructors only (no sympify, no parser)."""
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
            return x ** y
        case Call(func, args):
            values = [_to_sympy(arg, symbols, env) for arg in args]
            functions = {
                "sqrt": sympy.sqrt, "cbrt": sympy.cbrt, "exp": sympy.exp, "ln": sympy.log, "ceil": sympy.ceiling,
                "floor": sympy.floor, "abs": sympy.Abs, "min": sympy.Min, "max": sympy.Max,
                "factorial": sympy.factorial,
                "log": lambda x, base=None: sympy.log(x) if base is None else sympy.log(x, base),
                "log2": lambda x: sympy.log(x, 2), "log10": lambda x: sympy.log(x, 10),
            }
            if func not in functions:
                raise _NotSymbolic
            return functions[func](*values)
    raise _NotSymbolic
