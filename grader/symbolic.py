"""Formula equivalence: is the learner's expression the same function of the symbols as the answer?

Evaluating both trees at a handful of random points decides fast and cannot hang, so it runs first:
a wrong formula is rejected without touching sympy. When the points agree, sympy is asked to prove
`a - b == 0` (cancel, then simplify) within a time budget, in a daemon thread so a slow simplification can never hold
the grade past its bound; if it cannot decide in time, the agreement at random points stands.
"""

from __future__ import annotations

import random
import threading
from typing import Iterable, Mapping

from grader.evaluate import EvaluationError, TooComplex, evaluate
from grader.parse import BinOp, Call, Name, Neg, Node, Num

SAMPLES = 8
MIN_VALID_SAMPLES = 3
EQUALITY_TOLERANCE = 1e-9
MAX_SYMBOLIC_EXPONENT = 64


def sample_points(symbols: Iterable[str], env: Mapping[str, float], seed: str = "ringbook") -> list[dict[str, float]]:
    """Positive values for the symbols (the book's quantities are positive), params as given."""
    rng = random.Random(seed)
    names = sorted(symbols)
    return [{**env, **{s: rng.uniform(1.5, 9.5) for s in names}} for _ in range(SAMPLES)]


def same_function(a: Node, b: Node, points: list[dict[str, float]]) -> bool | None:
    """True/False when a and b agree/differ where both can be evaluated; None when too few points can be.
    Raises TooComplex when `a` is too large to evaluate."""
    compared = 0
    for point in points:
        try:
            left = evaluate(a, point)
        except TooComplex:
            raise
        except EvaluationError:
            continue
        try:
            right = evaluate(b, point)
        except EvaluationError:
            continue
        if abs(left - right) > EQUALITY_TOLERANCE * max(abs(left), abs(right), 1e-300):
            return False
        compared += 1
    return True if compared >= MIN_VALID_SAMPLES else None


def prove_equal(a: Node, b: Node, symbols: Iterable[str], env: Mapping[str, float], budget: float) -> bool | None:
    """sympy's verdict on a == b, or None when it cannot say within `budget` seconds."""
    outcome: list[bool | None] = []
    symbol_names = frozenset(symbols)

    def work():
        try:
            import sympy

            difference = _to_sympy(a, symbol_names, env) - _to_sympy(b, symbol_names, env)
            # cancel() settles rational functions in milliseconds; simplify() is the slow general case.
            proved = sympy.cancel(difference) == 0 or sympy.simplify(difference) == 0
            outcome.append(True if proved else None)
        except Exception:  # anything sympy cannot handle leaves the numeric verdict standing
            outcome.append(None)

    worker = threading.Thread(target=work, name="ringbook-sympy", daemon=True)
    worker.start()
    worker.join(max(budget, 0.0))
    return outcome[0] if outcome else None


class _NotSymbolic(Exception):
    """A tree sympy should not be asked about (a huge exponent, a function sympy lacks)."""


def _to_sympy(node: Node, symbols: frozenset[str], env: Mapping[str, float]):
    import sympy

    match node:
        case Num(text):
            return sympy.Rational(text)
        case Name(name):
            if name in symbols:
                return sympy.Symbol(name, positive=True)  # a plain symbol, whatever sympy calls N, S, E, I
            if name in env:
                return sympy.Rational(repr(float(env[name])))
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
