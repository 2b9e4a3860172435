"""Formulas and units in words, for a speech synthesizer: `2M(N-1)/N` is "2 M times, N minus 1, over N".

The formula goes through the grader's own parser (parse.py), so what is said is the tree that is graded, and
units are named from pint's registry (units.py), the one that converts learners' answers. A group the text
puts in parentheses is said between commas, the pauses a listener hears as brackets; a sign is always said.
"""

from __future__ import annotations

from grader.maths.parse import BinOp, Call, Name, Neg, Node, Num, parse
from grader.maths.units import explained, parse_unit, registry

# How a function is said before its argument(s); any other is "NAME of".
_CALLS = {"sqrt": "the square root of", "cbrt": "the cube root of", "ln": "the natural log of",
          "log2": "log base 2 of", "log10": "log base 10 of", "exp": "e to the", "ceil": "the ceiling of",
          "floor": "the floor of", "abs": "the absolute value of", "min": "the minimum of",
          "max": "the maximum of", "round": "the rounded value of", "factorial": "the factorial of",
          "mod": "the remainder on division of"}
_OPERATORS = {"+": "plus", "-": "minus", "*": "times", "/": "over"}
_RANK = {"+": 1, "-": 1, "*": 2, "/": 2, "^": 4}
# Counts the book writes after a metric prefix that pint defines no unit for: said as words.
_COUNTED = {"FLOP": "flop", "FLOPs": "flop", "FLOPS": "flop"}


def spoken_formula(text: str, names: tuple[str, ...] = ()) -> str:
    """`text` as words, read by the grader's parser with the declared `names`; ParseError when it does not
    parse (the caller keeps the text as written)."""
    return _tidy(_words(parse(text, names)))


def _words(node: Node) -> str:
    """A tree in words; the operands that bind less tightly than their operator are grouped (_operand)."""
    match node:
        case Num(text):
            return _number(text)
        case Name(name):
            return name.replace("_", " ")   # eta_new: "eta new"
        case Neg(operand):
            return f"minus {_operand(operand, 3)}"
        case BinOp("^", base, exponent):
            power = _operand(exponent, 3) if not isinstance(exponent, Num | Name) else _words(exponent)
            said = {"2": "squared", "3": "cubed"}.get(power)
            return f"{_operand(base, 5)} {said}" if said else f"{_operand(base, 5)} to the {power}"
        case BinOp("*", left, right) if _side_by_side(left, right):
            return f"{_words(left)} {_words(right)}"
        case BinOp(op, left, right):
            rank = _RANK[op]
            # a right operand of the same rank groups (a - (b - c), a / (b c)); a left one reads in order
            return f"{_operand(left, rank)} {_OPERATORS[op]} {_operand(right, rank + 1)}"
        case Call(func, args):
            said = " and ".join(_operand(arg, 1) if len(args) > 1 else _operand(arg, 3) for arg in args)
            return f"{_CALLS.get(func, func + ' of')} {said}"
    raise TypeError(node)


def _operand(node: Node, rank: int) -> str:
    """`node` as an operand of an operator of `rank`: between commas when it binds less tightly."""
    own: float = _RANK[node.op] if isinstance(node, BinOp) else 3 if isinstance(node, Neg | Call) else 9
    if isinstance(node, BinOp) and node.op == "*" and _side_by_side(node.left, node.right):
        own = 2.5   # "2 M" is one word-group: grouped only after "over" (1/(2x))
    return f", {_words(node)}," if own < rank else _words(node)


def _side_by_side(left: Node, right: Node) -> bool:
    """A number times a name is said as written, `2 M`; every other product says "times"."""
    return isinstance(left, Num) and isinstance(right, Name)


def _number(text: str) -> str:
    """A number as written, its exponent said: `6.02e23` is "6.02 times 10 to the 23"."""
    mantissa, _, exponent = text.lower().partition("e")
    if not exponent:
        return text
    power = exponent.lstrip("+")
    power = f"minus {power[1:]}" if power.startswith("-") else power
    return f"{mantissa} times 10 to the {power}"


def _tidy(words: str) -> str:
    """Commas as pauses: never two in a row, none first or last, none before a space-less end."""
    while ", ," in words or ",," in words:
        words = words.replace(", ,", ",").replace(",,", ",")
    return " ".join(words.split()).strip(" ,").replace(" ,", ",")


def spoken_unit(text: str, *, one: bool = False) -> str | None:
    """A unit in words from pint's names: `GB/s` "gigabytes per second", `μs` "microseconds", `%` "percent";
    singular after `one`. None for a spelling that is not a size, time or bandwidth (a counting word such as
    GPUs, a letter such as the M of `2 M`)."""
    if text == "%":
        return "percent"
    if "/" in text and text.count("/") == 1 and parse_unit(text) is None:
        top, bottom = text.split("/")   # TFLOP/s: a count per a unit pint knows
        over = spoken_unit(bottom, one=True)
        counted = _counted(top, one=one)
        return f"{counted} per {over}" if counted and over else None
    unit = parse_unit("kB" if text == "KB" else text)   # KB: units.py defines it as a unit of its own name
    if unit is None or not explained(unit):   # M is molar and K/V kelvins per volt to pint, never in this book
        return _counted(text, one=one)
    powers = [(name, float(str(power))) for name, power in registry().Quantity(1, unit).unit_items()]
    above = [(name, power) for name, power in powers if power > 0]
    below = [(name, -power) for name, power in powers if power < 0]
    said = [_power(name, power) for name, power in above]
    if said and not one:
        said[-1] = _plural(said[-1])
    words = " ".join(said) + "".join(f" per {_power(name, power)}" for name, power in below)
    return words.strip()


def _power(name: str, power: float) -> str:
    return name if power == 1 else f"{name} squared" if power == 2 else f"{name} to the {power:g}"


def _plural(name: str) -> str:
    head, _, squared = name.partition(" ")
    head = head if head.endswith(("s", "z")) else head + "s"
    return f"{head} {squared}".strip()


def _counted(text: str, *, one: bool) -> str | None:
    """`TFLOP` "teraflops": a count pint has no unit for, after one of pint's own prefixes."""
    for cut in range(len(text)):
        prefix, count = text[:cut], text[cut:]
        if count not in _COUNTED:
            continue
        byte = parse_unit(prefix + "B") if prefix else None
        if prefix and byte is None:
            return None
        head = str(byte).removesuffix("byte") if byte is not None else ""
        return head + _COUNTED[count] + ("" if one else "s")
    return None

