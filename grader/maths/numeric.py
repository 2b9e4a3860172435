"""Numbers as learners type them, and how near a number is to the answer.

`7/4`, `1.75e0`, `2.4×10^-3`, `16,384`, `25%` and `1750 MB` are all numbers here: the text splits
into an arithmetic expression of numbers and an optional unit, the expression goes through the shared
whitelist parser, and the unit through `units.convert`. No symbolic algebra is involved.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from enum import Enum

from grader.maths.evaluate import evaluate
from grader.maths.parse import CONSTANTS, FUNCTIONS, ParseError, names_in, parse
from grader.maths.units import convert

CLOSE_BAND = 0.05
# What an empty number box shows as examples of what it reads: values no exercise has as its answer
# (`content check` says so when one does), or the box would give that exercise away.
BOX_EXAMPLES = ("3/7", "6.02e23")
_NUMBER = re.compile(r"(\d[\d,]*\.?\d*|\.\d+)([eE][+-]?\d+)?", re.ASCII)
_LETTERS = re.compile(r"[^\W\d_]+")
_UNIT_SHAPE = re.compile(r"[A-Za-zµμ%][A-Za-zµμ0-9%/\-^ .]*")


class Unreadable(ParseError):
    """Text that is not a number we can read; says why, and where when it can."""


def split_unit(text: str) -> tuple[str, str]:
    """`'1750 MB'` -> `('1750', 'MB')`; `'25%'` -> `('25', '%')`; `'$614.40'` -> `('614.40', '$')`.

    The unit starts at the first word that is not part of arithmetic: not a function call, not the
    constants pi and e, not the `x` of `6.1 x 10^-5`.
    """
    stripped = text.strip()
    if stripped.startswith("$"):
        return stripped[1:].strip(), "$"
    i = 0
    while i < len(stripped):
        number = _NUMBER.match(stripped, i)
        if number:
            i = number.end()
            continue
        ch = stripped[i]
        if ch == "%":
            return stripped[:i].strip(), stripped[i:].strip()
        word = _LETTERS.match(stripped, i)
        if word:
            name = word.group()
            after = stripped[word.end():].lstrip()
            arithmetic = (
                name in CONSTANTS
                or (name in FUNCTIONS and after.startswith("("))
                or (name in ("x", "X") and bool(_NUMBER.match(after)))
            )
            if not arithmetic:
                if _UNIT_SHAPE.fullmatch(stripped, i):
                    return stripped[:i].strip(), stripped[i:].strip()
                return stripped, ""  # not a unit: the parser will say what is wrong, and where
            i = word.end()
            continue
        i += 1
    return stripped, ""


def read_number(text: str, box_unit: str) -> float:
    """The value of `text` in the box's unit. Raises ParseError (Unreadable is one) for text that is not
    a number, and UnitError for a unit that does not belong in this box."""
    expression, unit = split_unit(text)
    if not expression:
        raise Unreadable("Type a number first." if not unit else f"There is a unit ({unit}) but no number.", 1)
    tree = parse(expression)  # a ParseError says what is wrong and at which column
    unknown = names_in(tree)
    if unknown:
        raise Unreadable(f"This box takes a number; {sorted(unknown)[0]!r} is not one.")
    value = evaluate(tree, {})
    return convert(value, unit, box_unit) if unit else value


class Closeness(Enum):
    EQUAL = "equal"
    CLOSE = "close"
    POWER_OF_TEN = "power of ten"
    PERCENT_AS_FRACTION = "percent as fraction"
    SIGN = "sign"
    FAR = "far"


@dataclass(frozen=True)
class Nearness:
    kind: Closeness
    exponent: int = 0


def within(value: float, target: float, tolerance: float) -> bool:
    return math.isclose(value, target, rel_tol=tolerance, abs_tol=1e-12 if target == 0 else 0.0)


def nearness(value: float, answer: float, tolerance: float, box_unit: str) -> Nearness:
    """How `value` relates to `answer`: equal within tolerance, or the kind of near miss it is."""
    if within(value, answer, tolerance):
        return Nearness(Closeness.EQUAL)
    if box_unit == "%" and within(value * 100, answer, tolerance):
        return Nearness(Closeness.PERCENT_AS_FRACTION)
    if answer != 0 and within(-value, answer, tolerance):
        return Nearness(Closeness.SIGN)
    if within(value, answer, max(CLOSE_BAND, tolerance * 2)):
        return Nearness(Closeness.CLOSE)
    if value != 0 and answer != 0 and (value > 0) == (answer > 0):
        exponent = round(math.log10(value / answer))
        if exponent != 0 and within(value / 10.0 ** exponent, answer, tolerance):
            return Nearness(Closeness.POWER_OF_TEN, exponent)
    return Nearness(Closeness.FAR)
