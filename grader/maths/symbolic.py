"""Formula equivalence: is the learner's expression the same function of the symbols as the answer?

Evaluating both trees at random points decides fast and cannot hang, so it runs first: a wrong formula
is rejected without touching sympy. The points are drawn afresh for every grade, from os.urandom, over
the symbols' whole plausible range (tiny to huge, whole numbers and not), so no formula can be tuned to
the points.

When the points agree, `settle` says whether that agreement is conclusive, and only when it is not is
sympy asked to prove `a - b == 0`, in a worker process with a budget of its own CPU time
(grader/maths/prover.py). Agreement settles the question when all of these hold:
- both formulas are arithmetic and smooth functions (sqrt, log, exp, powers) with every number one a float
  holds as written (`why_points_cannot_decide` is "" for both). Then a - b is real-analytic on the open
  set where both are defined (but for a set of measure zero, such as sqrt at 0), and an analytic function
  that is not 0 throughout a connected region is 0 there only on a set of measure zero: a point drawn
  with a density (every typical value, and the wide values that are not whole numbers) lands on one of
  its zeros with probability 0. So agreement at such a point means a - b is 0 throughout the region
  around it; what is left unproven is a difference outside the range the points are drawn from
  (`sqrt((M-1e-5)^2)` is `M-1e-5` for every M from 1e-4 up), where no exercise poses its numbers. The
  first settling point is a typical one whenever the formulas have values there. floor, round, min, max,
  abs and factorial are not analytic: `floor(M/1e15)` is 0 at any point anyone would try;
- they agree, within EQUALITY_TOLERANCE, at WIDELY_TESTED points or more, spread over the whole range (a
  formula with values over only part of it is tried at a second draw of wide points first: `compare_widely`);
- at SETTLING_POINTS of those points, drawn at random, they also agree in precise decimal arithmetic to all
  of the digits the arithmetic kept there but SLACK_DIGITS for rounding, and that is AGREED_DIGITS at least.
  Agreement within a tolerance is not equality: `M*(1+10^-15)` is within 1e-9 of `M` everywhere, and is
  not `M`. A difference too small for any precision to see (`M*(1+(10^-60)^20)`) can only come from
  something rounding drops: a sum whose terms are too many orders apart, exp() or a power too close to 1,
  a number with more digits than the arithmetic, a value that underflows. Where one of those happens the
  point is computed again with more digits (up to MOST_DIGITS), and it settles nothing if that is not enough.
Anything else goes to the proof, and nothing but SAME or a proof makes a formula correct: a near miss
(`Settled.NEAR_MISS`: different in precise arithmetic), a term below any precision (`Settled.BELOW_PRECISION`)
and agreement the points cannot vouch for (`Settled.UNSURE`: a piecewise function, terms that cancel beyond
the digits, a side the precise arithmetic cannot compute) are "couldn't confirm" when no proof comes. Unsure
once passed as correct, and `2*M*(N-1)/N + (M+M/10^20-M)*10^20*0^0` (3M - 2M/N where 0^0 is 1) did so on a
busy host, whose proof did not come in the second it then had.
"""

from __future__ import annotations

import decimal
import math
import os
import random
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from enum import Enum

from grader.maths.evaluate import PRECISE_DIGITS, EvaluationError, Real, TooComplex, evaluate, evaluate_precisely
from grader.maths.parse import BinOp, Call, Neg, Node, Num
from grader.maths.sympy_proof import Proof

TYPICAL_SAMPLES = 8  # values in [1.5, 9.5], where the book's quantities live
WIDE_SAMPLES = 56  # values over the whole plausible range; see wide_value
SMALLEST, LARGEST = 1e-4, 1e12  # the range of wide real values, drawn log-uniformly
LARGEST_COUNT = 10**6  # wide whole values (counts such as N) are drawn log-uniformly from 2 to this
MIN_VALID_SAMPLES = 3  # fewer points with values on both sides: the formula cannot be evaluated
WIDELY_TESTED = 12  # points with values on both sides needed to call a formula correct without a proof
EQUALITY_TOLERANCE = 1e-9  # relative
TINY = 1e-250  # values this small have lost precision (or underflowed); they decide nothing
KEPT_DIGITS = 30  # digits a value must keep through every sum for a difference in it to count
MOST_DIGITS = 1000  # values are at most 1e300 (grader.maths.evaluate.MAX_MAGNITUDE), results that decide at least TINY
POINTS_TO_DISPROVE = 3
SETTLING_POINTS = 4  # agreeing points computed again in precise arithmetic before agreement settles anything
AGREED_DIGITS = 40  # precise agreement that settles: far beyond the float tolerance's 9 digits
SLACK_DIGITS = 20  # what rounding may take from the last digits of a long formula's value
TYPICAL_LOW, TYPICAL_HIGH = 1.5, 9.5   # where typical values are drawn
PIECEWISE = frozenset({"floor", "ceil", "round", "abs", "min", "max", "factorial", "mod"})


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
    highest = {**env, **{s: TYPICAL_HIGH for s in names}}   # M^400 is too large here on every grade, not only
    typical = (highest, *({**env, **{s: rng.uniform(TYPICAL_LOW, TYPICAL_HIGH) for s in names}}  # when a draw
                          for _ in range(TYPICAL_SAMPLES - 1)))                                  # reached it
    return Points(typical, wide_points(names, env, rng))


def wide_points(names: Sequence[str], env: Mapping[str, float], rng: random.Random) -> tuple[dict[str, float], ...]:
    """WIDE_SAMPLES points with `names` drawn by wide_value and the parameters as `env` has them."""
    return tuple({**env, **{s: wide_value(rng) for s in names}} for _ in range(WIDE_SAMPLES))


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


def compare_widely(a: Node, b: Node, points: Points, symbols: Iterable[str],
                   rng: random.Random | None = None) -> Agreement:
    """compare(a, b, points), then, where the formulas agree at too few points to be called the same without a
    proof, at as many fresh wide points again. A formula with values over only part of the wide range
    (2^(2 - 2^(E-1)) underflows for E above about 10) agreed at fewer than WIDELY_TESTED points on about one
    grade in three hundred, which then needed a proof; a proof worker not yet running could not give one
    within the grade's second, and a right answer came back "Couldn't confirm"."""
    agreement = compare(a, b, points)
    if agreement.same is not True or agreement.widely_tested:
        return agreement
    rng = rng or random.Random(os.urandom(16))
    # typical[0] holds the parameters' values (its symbols' values are drawn again)
    more = compare(a, b, Points((), wide_points(sorted(symbols), points.typical[0], rng)))
    if more.same is False:
        return more
    return Agreement(True, agreement.points + more.points)


def _close_precisely(a: Node, b: Node, point: Mapping[str, float]) -> bool | None:
    """Floats that cancel (1 - x/(x+1) at x = 1e24) can differ where the formulas do not: the same
    comparison in 100 digits, or in as many more as the sums there lost (up to MOST_DIGITS). Big terms
    that cancel take their digits with them: `(M+N+1)^40 - (M+N+1)^40` at M+N = 10^6 left nothing of
    100 digits, and the attempt was graded wrong. A difference counts only where KEPT_DIGITS survived
    every sum; None when they cannot, or when the sides cannot be computed: the point decides nothing."""
    digits = PRECISE_DIGITS
    try:
        while True:
            left, right, lost = _precise_sides(a, b, point, digits)
            if _close(left, right):
                return True
            if lost + KEPT_DIGITS <= digits:
                return False
            if digits >= MOST_DIGITS:
                return None
            digits = MOST_DIGITS if math.isinf(lost) else min(MOST_DIGITS, max(2 * digits, int(lost) + KEPT_DIGITS))
    except EvaluationError:
        return None


def _precise_sides(a: Node, b: Node, point: Mapping[str, float], digits: int) -> tuple[Decimal, Decimal, float]:
    """Both sides in `digits` digits, and how many digits their sums lost to cancellation: a sum of
    rounded terms loses the orders of magnitude between its largest term and itself (all of them when
    it comes to 0); sums of exact terms, as in N - N, lose nothing."""
    lost = 0.0

    def on_sum(x: Decimal, y: Decimal, total: Decimal) -> None:
        nonlocal lost
        if not x or not y or not decimal.getcontext().flags[decimal.Inexact]:
            return
        lost += math.inf if not total else max(0, max(abs(x), abs(y)).adjusted() - total.adjusted())

    return (evaluate_precisely(a, point, digits, on_sum), evaluate_precisely(b, point, digits, on_sum), lost)


def _close(left: Real, right: Real) -> bool:
    tolerance = Decimal(EQUALITY_TOLERANCE) if isinstance(left, Decimal) else EQUALITY_TOLERANCE
    return abs(left - right) <= tolerance * max(abs(left), abs(right))


def same_function(a: Node, b: Node, points: Points) -> bool | None:
    """True/False when a and b agree/differ where both can be evaluated; None when too few points can be."""
    return compare(a, b, points).same


class Settled(Enum):
    """What agreement at the points says, before any proof (see the module's docstring)."""

    SAME = "same"  # conclusive: the same function
    NEAR_MISS = "near miss"  # within the tolerance everywhere, but different in precise arithmetic somewhere
    BELOW_PRECISION = "below precision"  # a term finer than MOST_DIGITS (or the time) can show: it may hide one
    UNSURE = "unsure"  # the points cannot tell (a piecewise function, too few points, terms that cancel)


def settle(a: Node, b: Node, agreement: Agreement, points: Points, seconds: float) -> Settled:
    """Whether agreement at `points` settles a == b without a proof; `agreement` is compare(a, b, points).
    Within `seconds` of this thread's CPU, not of the clock: a formula that needs more (many exps at a
    thousand digits) is BELOW_PRECISION, and a right one is SAME however long a loaded host (a class of
    thirty answering at once) keeps the thread waiting for a core."""
    if not agreement.widely_tested or why_points_cannot_decide(a) or why_points_cannot_decide(b):
        return Settled.UNSURE
    drawn = [point for point in agreement.points if point is not points.typical[0]]   # that one is fixed
    chosen = drawn[::max(1, len(drawn) // SETTLING_POINTS)][:SETTLING_POINTS]
    until = time.thread_time() + seconds
    verdicts = [_settled_at(a, b, point, until) for point in chosen]
    for worst in (Settled.NEAR_MISS, Settled.BELOW_PRECISION, Settled.UNSURE):
        if worst in verdicts:
            return worst
    return Settled.SAME if verdicts else Settled.UNSURE


def _settled_at(a: Node, b: Node, point: Mapping[str, float], until: float) -> Settled:
    """Both sides in as many digits as keep every term's effect, then compared to all but SLACK_DIGITS of the
    digits cancellation left. UNSURE where cancellation leaves too few; BELOW_PRECISION where a term needs
    more than MOST_DIGITS, underflows, or the clock passes `until` first."""
    digits = max(PRECISE_DIGITS, _literal_digits(a) + KEPT_DIGITS, _literal_digits(b) + KEPT_DIGITS)
    while digits <= MOST_DIGITS:
        rounding = _Rounding(until)
        try:
            left = evaluate_precisely(a, point, digits, rounding.on_sum, rounding.on_call)
            right = evaluate_precisely(b, point, digits, rounding.on_sum, rounding.on_call)
        except _OutOfTime:
            return Settled.BELOW_PRECISION
        except EvaluationError:
            return Settled.UNSURE
        if rounding.underflow:
            return Settled.BELOW_PRECISION
        if rounding.lost + SLACK_DIGITS + AGREED_DIGITS > MOST_DIGITS:  # infinite where a sum came to 0
            return Settled.UNSURE
        needed = max(rounding.needed, int(rounding.lost) + SLACK_DIGITS + AGREED_DIGITS)
        if needed <= digits:
            accurate = digits - int(rounding.lost) - SLACK_DIGITS
            same = abs(left - right) <= Decimal(10) ** -accurate * max(abs(left), abs(right))
            return Settled.SAME if same else Settled.NEAR_MISS
        digits = needed
    return Settled.BELOW_PRECISION


class _Rounding:
    """What rounding did to one precise evaluation: digits lost to cancellation (as in _precise_sides), the
    digits that would keep KEPT_DIGITS of every term's effect, and whether a value underflowed to nothing."""

    def __init__(self, until: float) -> None:
        self.lost = 0.0
        self.needed = 0
        self.underflow = False
        self.until = until

    def on_sum(self, x: Decimal, y: Decimal, total: Decimal) -> None:
        self._note_underflow()
        if not x or not y:
            return
        big, small = max(abs(x), abs(y)), min(abs(x), abs(y))
        self.needed = max(self.needed, big.adjusted() - small.adjusted() + KEPT_DIGITS)
        if decimal.getcontext().flags[decimal.Inexact]:
            self.lost += math.inf if not total else max(0, big.adjusted() - total.adjusted())

    def on_call(self, func: str, args: tuple[Decimal, ...], result: Decimal) -> None:
        """exp(y) is 1 + y, and x^y is 1 + y*ln(x), near 1: there a tiny y is a term that rounding drops."""
        self._note_underflow()
        if func == "exp":
            shift = args[0]
        elif func == "^" and args[0] and args[1]:
            with decimal.localcontext():   # a copy: its Inexact flag is not the evaluation's
                shift = args[1] * abs(args[0]).ln()
        else:
            return
        if shift and abs(shift) < 1:
            self.needed = max(self.needed, KEPT_DIGITS - shift.adjusted())

    def _note_underflow(self) -> None:
        """Called at every sum and call: notes an underflow, and stops the evaluation once its CPU is up."""
        self.underflow = self.underflow or decimal.getcontext().flags[decimal.Underflow]
        if time.thread_time() > self.until:
            raise _OutOfTime


class _OutOfTime(Exception):
    """A precise evaluation that ran past the time `settle` was given."""


def _literal_digits(node: Node) -> int:
    """The most significant digits of any number written in `node`: the arithmetic must carry them all."""
    match node:
        case Num(text):
            return len("".join(map(str, Decimal(text).as_tuple().digits)).strip("0"))  # exact: no context
        case Neg(operand):
            return _literal_digits(operand)
        case BinOp(_, left, right):
            return max(_literal_digits(left), _literal_digits(right))
        case Call(_, args):
            return max(_literal_digits(arg) for arg in args)
    return 0


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
                points: Sequence[Mapping[str, float]], cpu_seconds: float, wall_seconds: float) -> Proof:
    """sympy's verdict on a == b from the proof worker, or UNDECIDED when it has none within `cpu_seconds` of
    the worker's CPU (or, as a backstop, `wall_seconds` of the clock). `points` are where both sides have
    values, for a disproof in exact arithmetic."""
    from grader.maths.prover import WORKER, request

    answer = WORKER.ask(request(a, b, symbols, env, points[:POINTS_TO_DISPROVE], cpu_seconds), wall_seconds)
    try:
        return Proof(answer)
    except ValueError:
        return Proof.UNDECIDED
