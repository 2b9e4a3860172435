"""Expression tree -> number, with bounds.

Plain floats are enough to compare answers within a tolerance and are fast; the bounds keep a hostile
tree (`9^9^9`, `factorial(10^9)`) from costing more than a few operations. Where floats cancel
(`1 - x/(x+1)` is 0 at x = 1e24, not 1e-24), `evaluate_precisely` recomputes in 100 digits.
"""

from __future__ import annotations

import decimal
import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from decimal import Decimal
from typing import Generic, TypeVar

from grader.maths.parse import BinOp, Call, Name, Neg, Node, Num, ParseError, parse

Real = TypeVar("Real", float, Decimal)   # the two arithmetics: each function below is checked for both

MAX_MAGNITUDE = 1e300
MAX_FACTORIAL = 170


class EvaluationError(ValueError):
    """A tree that cannot be turned into a finite number."""


class TooComplex(EvaluationError):
    """A tree whose value is too large or too costly to compute."""

    def __init__(self, detail: str = ""):
        super().__init__(f"That is too large or complex to evaluate{': ' + detail if detail else ''}.")


def _log(x: float, base: float | None = None) -> float:
    if x <= 0 or (base is not None and (base <= 0 or base == 1)):
        raise EvaluationError("A logarithm needs a positive argument (and a positive base other than 1).")
    return math.log(x) if base is None else math.log(x, base)


def _sqrt(x: float) -> float:
    if x < 0:
        raise EvaluationError("The square root of a negative number is not a real number.")
    return math.sqrt(x)


def _factorial(x: float) -> float:
    if x != int(x) or x < 0:
        raise EvaluationError("factorial takes a whole number that is not negative.")
    if x > MAX_FACTORIAL:
        raise TooComplex(f"factorial is limited to {MAX_FACTORIAL}")
    return float(math.factorial(int(x)))


def _mod(a: float, b: float) -> float:
    """a - b*floor(a/b), with the sign of b: a position on a ring of b. Python's % is that, computed
    exactly (the formula itself loses it: floor(1e300/7) is no integer a float holds)."""
    if b == 0:
        raise EvaluationError("mod(a, b) needs b other than 0.")
    return float(a % b)


def _round(x: float, digits: float = 0) -> float:
    return float(round(x, int(digits)))


_FUNCTIONS: dict[str, tuple[int, int, Callable[..., float]]] = {
    "sqrt": (1, 1, _sqrt),
    "cbrt": (1, 1, lambda x: math.copysign(abs(x) ** (1 / 3), x)),
    "log": (1, 2, _log),
    "ln": (1, 1, _log),
    "log2": (1, 1, lambda x: _log(x, 2)),
    "log10": (1, 1, lambda x: _log(x, 10)),
    "exp": (1, 1, math.exp),
    "ceil": (1, 1, lambda x: float(math.ceil(x))),
    "floor": (1, 1, lambda x: float(math.floor(x))),
    "round": (1, 2, _round),
    "abs": (1, 1, abs),
    "min": (1, 16, lambda *xs: min(xs)),
    "max": (1, 16, lambda *xs: max(xs)),
    "factorial": (1, 1, _factorial),
    "mod": (2, 2, _mod),
}
_CONSTANTS = {"pi": math.pi, "e": math.e}


def evaluate(node: Node, env: Mapping[str, float]) -> float:
    """The value of `node` with names bound by `env`; raises EvaluationError (or TooComplex)."""
    try:
        value = _eval(node, env, _FLOATS)
    except OverflowError:
        raise TooComplex() from None
    except ZeroDivisionError:
        raise EvaluationError("That divides by zero.") from None
    if not math.isfinite(value) or abs(value) > MAX_MAGNITUDE:
        raise TooComplex()
    return value


def _eval(node: Node, env: Mapping[str, float], a: _Arithmetic[Real]) -> Real:
    """One walk for both arithmetics: floats, or the 100-digit decimals of evaluate_precisely."""
    match node:
        case Num(text):
            return _bounded(a.number(text))
        case Name(name):
            if name in env:
                return a.number(float(env[name]))
            if name in a.constants:
                return a.constants[name]
            raise EvaluationError(f"Unknown name {name!r}.")
        case Neg(operand):
            return -_eval(operand, env, a)
        case BinOp(op, left, right):
            x, y = _eval(left, env, a), _eval(right, env, a)
            if op in "+-":
                total = x + y if op == "+" else x - y
                if a.on_sum is not None:
                    a.on_sum(x, y, total)
                return total
            if op == "*":
                return _bounded(x * y)
            if op == "/":
                return _bounded(x / y)
            power = _power(x, y)
            if a.on_call is not None:
                a.on_call("^", (x, y), power)
            return power
        case Call(func, args):
            low, high, _ = _FUNCTIONS[func]
            if not low <= len(args) <= high:
                raise EvaluationError(f"{func} takes {low if low == high else f'{low} to {high}'} argument(s).")
            values = tuple(_eval(arg, env, a) for arg in args)
            result = _bounded(a.functions[func](*values))
            if a.on_call is not None:
                a.on_call(func, values, result)
            return result
    raise EvaluationError("Unsupported expression.")  # unreachable for trees from parse()


def _bounded(value: Real) -> Real:
    if abs(value) > MAX_MAGNITUDE:
        raise TooComplex()
    return value


def _power(base: Real, exponent: Real) -> Real:
    """base ** exponent for floats or decimals alike, refused before it could cost more than it says. 0^0 is
    undefined in both: floats call it 1 and decimals refuse it, and a formula that hid a term behind it
    (`(M+M/10^20-M)*10^20*0^0`) agreed with the answer in floats where the precise check could not look."""
    if base == 0 and exponent == 0:
        raise EvaluationError("0^0 is undefined.")
    if base == 0 and exponent < 0:
        raise ZeroDivisionError
    if base < 0 and exponent != int(exponent):
        raise EvaluationError("A negative number to a fractional power is not a real number.")
    if base != 0 and float(exponent) * math.log10(abs(base)) > 300:  # tiny results just underflow to 0
        raise TooComplex()
    return _bounded(base ** exponent)


PRECISE_DIGITS = 100
_PI = Decimal("3.14159265358979323846264338327950288419716939937510582097494459230781640628620899862803482534211706798")


def evaluate_precisely(node: Node, env: Mapping[str, float], digits: int = PRECISE_DIGITS,
                       on_sum: Callable[[Decimal, Decimal, Decimal], None] | None = None,
                       on_call: Callable[[str, tuple[Decimal, ...], Decimal], None] | None = None) -> Decimal:
    """The value of `node` in `digits`-digit decimal arithmetic (100 by default), at the same point (floats
    are exact in Decimal); raises EvaluationError (or TooComplex) where `evaluate` would. pi and e carry
    100 digits whatever `digits` is: an identity holds for their values as written as much as for the
    true ones. `on_sum` is told each sum and difference as it is computed, and `on_call` each function
    and power ("^") with its arguments and result, in this context."""
    context = decimal.Context(prec=digits, Emax=10**6, Emin=-(10**6),
                              traps=[decimal.InvalidOperation, decimal.DivisionByZero, decimal.Overflow])
    try:
        with decimal.localcontext(context):
            value = _eval(node, env, replace(_DECIMALS, on_sum=on_sum, on_call=on_call))
    except decimal.Overflow:
        raise TooComplex() from None
    except ZeroDivisionError:  # decimal's DivisionByZero is one too
        raise EvaluationError("That divides by zero.") from None
    except decimal.InvalidOperation:
        raise EvaluationError("That is not a real number.") from None
    return _bounded(value)


def _precise_log(x: Decimal, base: Decimal | None = None) -> Decimal:
    if x <= 0 or (base is not None and (base <= 0 or base == 1)):
        raise EvaluationError("A logarithm needs a positive argument (and a positive base other than 1).")
    return x.ln() if base is None else x.ln() / base.ln()


def _precise_sqrt(x: Decimal) -> Decimal:
    if x < 0:
        raise EvaluationError("The square root of a negative number is not a real number.")
    return x.sqrt()


def _precise_factorial(x: Decimal) -> Decimal:
    if x != x.to_integral_value() or x < 0:
        raise EvaluationError("factorial takes a whole number that is not negative.")
    if x > MAX_FACTORIAL:
        raise TooComplex(f"factorial is limited to {MAX_FACTORIAL}")
    return Decimal(math.factorial(int(x)))


def _precise_mod(a: Decimal, b: Decimal) -> Decimal:
    """As _mod. Decimal's % takes the sign of a, so a remainder of the other sign moves by b; a quotient
    with more digits than the context keeps has no exact remainder here."""
    if b == 0:
        raise EvaluationError("mod(a, b) needs b other than 0.")
    try:
        remainder = a % b
    except decimal.InvalidOperation:
        raise TooComplex("mod of a number that many times larger than its divisor") from None
    return remainder + b if remainder and (remainder < 0) != (b < 0) else remainder


def _precise_round(x: Decimal, digits: Decimal = Decimal(0)) -> Decimal:
    return x.quantize(Decimal(1).scaleb(-int(digits)), rounding=decimal.ROUND_HALF_EVEN)


_PRECISE_FUNCTIONS: dict[str, Callable[..., Decimal]] = {
    "sqrt": _precise_sqrt,
    "cbrt": lambda x: (abs(x) ** (Decimal(1) / 3)).copy_sign(x) if x else x,
    "log": _precise_log,
    "ln": _precise_log,
    "log2": lambda x: _precise_log(x, Decimal(2)),
    "log10": lambda x: _precise_log(x, Decimal(10)),
    "exp": lambda x: x.exp(),
    "ceil": lambda x: x.to_integral_value(rounding=decimal.ROUND_CEILING),
    "floor": lambda x: x.to_integral_value(rounding=decimal.ROUND_FLOOR),
    "round": _precise_round,
    "abs": abs,
    "min": lambda *xs: min(xs),
    "max": lambda *xs: max(xs),
    "factorial": _precise_factorial,
    "mod": _precise_mod,
}


@dataclass(frozen=True)
class _Arithmetic(Generic[Real]):
    number: Callable[[str | float], Real]
    constants: Mapping[str, Real]
    functions: Mapping[str, Callable[..., Real]]
    on_sum: Callable[[Real, Real, Real], None] | None = None  # told each (x, y, x ± y), to see what cancels
    on_call: Callable[[str, tuple[Real, ...], Real], None] | None = None  # each function and power, to see
                                                                          # what rounding drops


_FLOATS: _Arithmetic[float] = _Arithmetic(float, _CONSTANTS, {name: fn for name, (_, _, fn) in _FUNCTIONS.items()})
_E = Decimal("2.7182818284590452353602874713526624977572470936999595749669676277240766303535475945713821785251664274")
_DECIMALS: _Arithmetic[Decimal] = _Arithmetic(Decimal, {"pi": _PI, "e": _E}, _PRECISE_FUNCTIONS)


def evaluate_text(text: str | float | int, env: Mapping[str, float]) -> float:
    """Parse and evaluate an author's formula (content data, never learner text with unknown names)."""
    if isinstance(text, (int, float)) and not isinstance(text, bool):
        return float(text)
    return evaluate(parse(str(text), env.keys()), env)


_COMPARISON = re.compile(r"(<=|>=|==|!=|<|>)")
_COMPARE = {"<=": lambda a, b: a <= b, ">=": lambda a, b: a >= b, "==": lambda a, b: math.isclose(a, b),
            "!=": lambda a, b: not math.isclose(a, b), "<": lambda a, b: a < b, ">": lambda a, b: a > b}


def holds(condition: str, value: Callable[[str], float]) -> bool:
    """`m >= p` or `answer < 80` (a variant's constraint, a mistake's `when`): two formulas and one
    comparison, each side turned into a number by `value`, never eval'd. Raises ValueError when the text is
    not one comparison, and what `value` raises."""
    parts = _COMPARISON.split(condition)
    if len(parts) != 3:
        raise ValueError("write one comparison, such as `M >= P` or `answer < 80`")
    left, operator, right = parts
    return _COMPARE[operator](value(left.strip()), value(right.strip()))


__all__ = ["EvaluationError", "TooComplex", "ParseError", "evaluate", "evaluate_precisely", "evaluate_text", "holds"]
