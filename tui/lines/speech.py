"""The plain-line face's text as a speech synthesizer should say it (the speech setting, docs/accessibility.md).

espeak-ng, the voice behind Orca and NVDA's default, drops the minus sign, says `/` as "slash" and `μs` as
"mew s", and reads a pipeline timeline's bars and dots as nothing. Under speech every output line passes
through `Speech.line`: units after numbers are named from pint (grader.maths.spoken.spoken_unit), a
formula-looking run is said from the grader's own parse of it (spoken_formula), the symbols left are words,
and a timeline of F1/B1 slots is said slot by slot. Runs are only found here; what they say comes from the
parser, and a run it does not read is left as written. Program code is read as written.
"""

from __future__ import annotations

import re
import unicodedata

from grader.maths.parse import CONSTANTS, FUNCTIONS, ParseError
from grader.maths.spoken import spoken_formula, spoken_unit

_TOKEN = re.compile(r"(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:[eE][+-]?\d+)?(?![\w])|\d+(?:\.\d+)?"
                    r"|[A-Za-z_µμ][A-Za-z0-9_µμ]*|\*\*|[-+*/^·×÷−()]|\s+|.")
_NUMBER = re.compile(r"\d")
_DATE = re.compile(r"\d{4}-\d\d-\d\d")
_POWER_OF_TEN = re.compile(r"[\d.,]+[eE][+-]?\d+")
_OPERATORS = frozenset("+-*/^·×÷−") | {"**"}
_INDEXED = re.compile(r"[A-Za-z]\d{1,2}")   # B1, F2: a name with an index; FP16, BF16, A100s are names of things
_PROSE_LETTERS = frozenset({"a", "A", "I"})
_PROSE_WORDS = frozenset({"a", "as"})   # after a number, prose, though pint reads years and attoseconds
# A number and its unit: `450 GB/s`, `3.2ms`, `25%` (the unit is said only if pint names it).
_QUANTITY = re.compile(r"(?<![\w.])(-?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:[eE][+-]?\d+)?)"
                       r"(\s?)([A-Za-zµμ]+(?:/[A-Za-zµμ]+)?|%)(?![\w/])")
_BARE_UNIT = re.compile(r"(?<![\w/])([A-Za-zµμ]+/[A-Za-zµμ]+)(?![\w/])")
_LONE_LETTER = re.compile(r"\s[A-Za-z]\b")
_RANGE = re.compile(r"(?<![\w.,-])(\d+)-(\d+)(?![\w-]|[.,]\d)")
_SYMBOLS = (("<=", " is at most "), (">=", " is at least "), ("=>", " so "), ("->", " gives "),
            ("≈", " about "), ("≤", " is at most "), ("≥", " is at least "), ("=", " equals "),
            ("·", " times "), ("×", " times "), ("*", " times "), ("^", " to the "), ("−", " minus "),
            ("÷", " over "), (" / ", " over "), ("+", " plus "), ("<", " is less than "), (">", " is more than "))
_SLOT = re.compile(r"([FB])(\d+)")
# A listing's or a build's line of program code (tui/lines/answers): read as written, like a python block.
_CODE_LINE = re.compile(r"^(?:(?:the fix, )?line \d+|function): ")
# Greek letters by their names (α: alpha), which the parser reads as names and a synthesizer says.
_GREEK_NAMES = {chr(code): unicodedata.name(chr(code)).split()[-1].lower().replace("lamda", "lambda")
                for code in range(0x3b1, 0x3ca) if chr(code) not in "µμς"}
_GREEK = frozenset(_GREEK_NAMES.values())
_ROOT = re.compile(r"√(?!\()(\w+(?:\.\d+)?)|√(?=\()")
_STAR = re.compile(r"(?<=\w)\*(?=\s|$|[,.;:)])")   # T*, the optimum: a mark on a name, not a product
_SEPARATOR = re.compile(r" · (?=[A-Z][a-z])")   # Act I · The data-parallel wall: a title's dot, not a product
_COLUMN_GAP = re.compile(r"(?<=[\w)%.]) {2,}(?=[\w(])")
_LIST_MARK = re.compile(r"^(\s*(?:-|\d+\.)\s)")
_LABEL = re.compile(r"^([a-z0-9][^:]{0,60}:\s)")


class Speech:
    """Lines in words, one at a time; it knows whether it is inside a block of program code."""

    def __init__(self) -> None:
        self.in_code = False
        self.program = False   # the block is code in a language (python), read as written

    def reset(self) -> None:
        """A text read only in part (stopped at `more`) leaves no block open for the lines after it."""
        self.in_code = self.program = False

    def line(self, text: str) -> str:
        if _CODE_LINE.match(text):
            return text
        if text.startswith("code (") and text.endswith(":"):
            about = text.removeprefix("code (").removesuffix("):").split(", ")
            self.in_code = True
            self.program = len(about) == 2 and about[0] != "text"   # tui.lines.reader.code_lines: (python, 4 lines)
            return text
        if text == "end of code:":
            self.in_code = self.program = False
            return text
        if self.in_code and self.program:
            return text
        if self.in_code:   # a gap between a text block's columns is a pause: `FP32 master weights, 4`
            text = _COLUMN_GAP.sub(", ", text)
        return spoken_line(text)


def spoken_line(text: str) -> str:
    """One line of prose, a label, a formula or a timeline, as words."""
    head = _LIST_MARK.match(text) or _LABEL.match(text)
    start = head.end() if head else 0
    lead = text[:len(text) - len(text.lstrip())] if not head else text[:start]
    body = text[start:] if head else text.lstrip()
    timeline = spoken_timeline(body)
    if timeline is not None:
        return lead + timeline
    return lead + _symbols(_formulas(_units(body)))


def spoken_timeline(text: str) -> str | None:
    """`F1 F2 | F3 . B1` as "timeline: forward 1, forward 2, bar, forward 3, idle, backward 1", or None when
    `text` is not a run of F and B slots, idle dots and bars (a word or two may follow: `| step`)."""
    words = text.split()
    slots = [word for word in words if _SLOT.fullmatch(word) or word in (".", "|")]
    if len(slots) < 4 or not any(_SLOT.fullmatch(word) for word in slots):
        return None
    rest = words[len(slots):]
    if words[:len(slots)] != slots or len(rest) > 2:
        return None
    return "timeline: " + ", ".join([*map(_slot, slots), *rest])


def _slot(word: str) -> str:
    slot = _SLOT.fullmatch(word)
    if slot is None:
        return "idle" if word == "." else "bar"
    return f"{'forward' if slot.group(1) == 'F' else 'backward'} {slot.group(2)}"


def _units(text: str) -> str:
    """Units after numbers, and units standing alone (`GB/s = Gb/s / 8`), as pint names them."""

    def quantity(match: re.Match[str]) -> str:
        number, space, unit = match.groups()
        after = text[match.end():match.end() + 3]
        if unit in _PROSE_WORDS or len(unit) == 1 and unit != "%" and (not space or _LONE_LETTER.match(after)):
            return match.group()   # `70B` is 70 billion and `10 s b h` a product: only `2 B`, `3 s` are units
        words = _said_unit(unit, one=number.lstrip("-") == "1")
        return f"{number} {words}" if words else match.group()

    return _BARE_UNIT.sub(lambda match: _said_unit(match.group(1)) or match.group(), _QUANTITY.sub(quantity, text))


def _said_unit(unit: str, *, one: bool = False) -> str | None:
    """A unit in words, or a rate with a unit on one side and a count on the other: `GT/s` "GT per second",
    `B/param` "bytes per param", `GB/GPU` "gigabytes per GPU"; None for neither (`K/V`, `and/or`)."""
    words = spoken_unit(unit, one=one)
    if words or unit.count("/") != 1:
        return words
    top, bottom = unit.split("/")
    above, below = spoken_unit(top, one=one), spoken_unit(bottom, one=True)
    if not (above or below):
        return None
    above, below = above or _count_word(top), below or _count_word(bottom)
    return f"{above} per {below}" if above and below else None


def _count_word(word: str) -> str | None:
    """A word a rate may count in (GT, GPU, param, element), said as written."""
    return word if word.isalpha() and (2 <= len(word) <= 5 and word.isupper() or len(word) > 2 and word.islower()) \
        else None


def _formulas(text: str) -> str:
    """Each formula-looking run said from the grader's parse of it; a run it cannot read stays as written."""
    text = _RANGE.sub(r"\1 to \2", text)
    text = "".join(_GREEK_NAMES.get(c, c) for c in text)   # α is alpha to a listener; the parser takes the name
    text = _ROOT.sub(lambda m: f"sqrt({m.group(1)})" if m.group(1) else "sqrt", text)   # √B, as the parser writes it
    tokens = [m.group() for m in _TOKEN.finditer(text)]
    out: list[str] = []
    i = 0
    while i < len(tokens):
        after = tokens[i - 1] if i else " "   # a run starts a word: never inside ConnectX-7 or GPU's
        starts = (after.isspace() or after in "([=:;,") and tokens[i] not in _OPERATORS - {"-", "−"}
        end = _run_end(tokens, i) if starts else i   # a run starts with an operand, a parenthesis or a sign
        if end > i:
            run = "".join(tokens[i:end])
            out.append(_said(run))
            i = end
        else:
            out.append(tokens[i])
            i += 1
    return "".join(out)


def _run_end(tokens: list[str], start: int) -> int:
    """Where a maths run starting at `start` ends (exclusive), or `start` when none starts there: operands,
    operators, parentheses, commas inside a function's parentheses, spaces between; ends on an operand or a
    closing parenthesis with its parentheses balanced."""
    depth, best, i = 0, start, start
    while i < len(tokens):
        token = tokens[i]
        if token.isspace():
            i += 1
            continue
        if token == "(":
            depth += 1
        elif token == ")":
            if depth == 0:
                break
            depth -= 1
        elif token == "," and depth > 0:
            pass
        elif token not in _OPERATORS and not _operand(tokens, i) and not (depth and _short_name(token)):
            break   # inside parentheses a short name is maths too: sqrt(2CF)
        i += 1
        if depth == 0 and token not in _OPERATORS and token != ",":
            best = i
    return best if best > start and _is_formula(tokens[start:best]) else start


def _operand(tokens: list[str], i: int) -> bool:
    token = tokens[i]
    if _NUMBER.match(token):
        return True
    if not (token[:1].isalpha() or token[:1] == "_"):
        return False
    if token in _PROSE_LETTERS:
        return False
    called = i + 1 < len(tokens) and tokens[i + 1] == "("
    return (len(token) == 1 or bool(_INDEXED.fullmatch(token)) or "_" in token or token in CONSTANTS
            or token in _GREEK or (token in FUNCTIONS and called))


def _short_name(token: str) -> bool:
    return token.isascii() and token.isalpha() and len(token) <= 3


def _is_formula(run: list[str]) -> bool:
    """A run worth saying as a formula: an operator, a function's call, a number's power of ten (6.02e23), or
    a number written against a group (2(N-1)); never a date (2026-11-29)."""
    if _DATE.fullmatch("".join(run).strip()):
        return False
    if any(token in _OPERATORS or _POWER_OF_TEN.fullmatch(token) for token in run):
        return True
    said = [token for token in run if not token.isspace()]
    if any(_NUMBER.match(a) and x in ("x", "X") and _NUMBER.match(b)   # 18 x 25, as the parser reads it
           for a, x, b in zip(said, said[1:], said[2:], strict=False)):
        return True
    return any((_NUMBER.match(a) or a in FUNCTIONS) and b == "(" for a, b in zip(said, said[1:], strict=False))


def _said(run: str) -> str:
    """A run in words, its spaces kept around it; as written when the parser does not read it."""
    stripped = run.strip()
    try:
        words = spoken_formula(stripped)
    except ParseError:
        return run
    return run[:len(run) - len(run.lstrip())] + words + run[len(run.rstrip()):]


def _symbols(text: str) -> str:
    """The symbols no formula took, as words; a sign before a number is said."""
    text = _SEPARATOR.sub(", ", _STAR.sub(" star", text))
    text = re.sub(r"(?<![\w)])-(?=\d)", "minus ", text)
    for symbol, words in _SYMBOLS:
        text = text.replace(symbol, words)
    return re.sub(r"(?<=\S)  +(?=\S)", " ", text)
