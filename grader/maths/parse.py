"""Text -> expression tree, by whitelist.

Both author formulas (answers over an exercise's params) and learner answers go through this one
parser, so the book and the learner speak the same grammar. Nothing here evaluates Python: the text is
tokenized, every token is checked against what the grammar allows, and a small tree is built. Anything
else is a `ParseError` that names what is not allowed and the column where it stands.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

MAX_LENGTH = 500
MAX_DEPTH = 40

FUNCTIONS = frozenset(
    {"sqrt", "cbrt", "log", "ln", "log2", "log10", "exp", "ceil", "floor", "round", "abs", "min", "max",
     "factorial", "mod"}
)
CONSTANTS = frozenset({"pi", "e"})

_UNICODE = str.maketrans({"−": "-", "–": "-", "×": "*", "·": "*", "⋅": "*", "∙": "*", "÷": "/", "\u00a0": " "})
_DIGITS = frozenset("0123456789")  # ASCII only: '¹'.isdigit() is True, and float('٣') is 3.0
_NUMBER = re.compile(r"(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?", re.ASCII)
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_GROUPED = re.compile(r"\d{1,3}(,\d{3})+(?![\d,])(\.\d*)?([eE][+-]?\d+)?", re.ASCII)


class ParseError(ValueError):
    """Text the grammar does not allow; `column` is 1-based."""

    def __init__(self, message: str, column: int | None = None):
        super().__init__(message)
        self.message = message
        self.column = column

    def __str__(self) -> str:
        if self.column and "column" not in self.message:
            return f"{self.message} (column {self.column})"
        return self.message


@dataclass(frozen=True)
class Num:
    text: str


@dataclass(frozen=True)
class Name:
    name: str


@dataclass(frozen=True)
class Neg:
    operand: Node


@dataclass(frozen=True)
class BinOp:
    op: str  # one of + - * / ^
    left: Node
    right: Node


@dataclass(frozen=True)
class Call:
    func: str
    args: tuple[Node, ...]


Node = Num | Name | Neg | BinOp | Call


@dataclass(frozen=True)
class _Token:
    kind: str  # num, name, op, end
    text: str
    column: int


def names_in(node: Node) -> set[str]:
    """Every variable name a tree refers to (constants and functions excluded)."""
    match node:
        case Name(name):
            return set() if name in CONSTANTS else {name}
        case Neg(operand):
            return names_in(operand)
        case BinOp(_, left, right):
            return names_in(left) | names_in(right)
        case Call(_, args):
            return set().union(*(names_in(a) for a in args))
    return set()


def parse(text: str, names: Iterable[str] = ()) -> Node:
    """Parse `text` into a tree. `names` are the declared variables: they may be written side by side
    (`2MN` is 2*M*N) and shadow the constants `e` and `pi`."""
    declared = frozenset(names)
    if len(text) > MAX_LENGTH:
        raise ParseError(f"That answer is too long ({len(text)} characters; at most {MAX_LENGTH}).")
    if "\x00" in text:
        raise ParseError("The answer contains a NUL character.", text.index("\x00") + 1)
    tokens = _tokenize(text.translate(_UNICODE), declared)
    return _Parser(tokens, declared).parse()


def _tokenize(text: str, declared: frozenset[str]) -> list[_Token]:
    tokens: list[_Token] = []
    call_parens: list[bool] = []  # for each open paren: does it open a function's arguments?
    i = 0
    while i < len(text):
        ch = text[i]
        column = i + 1
        if ch.isspace():
            i += 1
            continue
        number = _NUMBER.match(text, i)
        if number:
            grouped = _GROUPED.match(text, i)
            if grouped and not (call_parens and call_parens[-1]):
                tokens.append(_Token("num", grouped.group().replace(",", ""), column))
                i = grouped.end()
                continue
            end = number.end()
            if text[end : end + 1] == "," and text[end + 1 : end + 2] in _DIGITS and end + 1 < len(text) \
                    and not (call_parens and call_parens[-1]):
                raise ParseError(
                    "A comma inside a number is read as a thousands separator only in groups of three "
                    "(16,384); for a decimal, use a point: 1.75.",
                    end + 1,
                )
            tokens.append(_Token("num", number.group(), column))
            i = end
            continue
        name = _NAME.match(text, i)
        if name:
            tokens.extend(_split_name(name.group(), column, declared))
            i = name.end()
            continue
        if text.startswith("**", i):
            tokens.append(_Token("op", "^", column))
            i += 2
            continue
        if ch in "+-*/^(),":
            if ch == "(":
                call_parens.append(bool(tokens) and tokens[-1].kind == "name" and tokens[-1].text in FUNCTIONS
                                   and tokens[-1].text not in declared)
            elif ch == ")" and call_parens:
                call_parens.pop()
            tokens.append(_Token("op", ch, column))
            i += 1
            continue
        raise ParseError(_describe_forbidden(text, i), column)
    tokens.append(_Token("end", "", len(text) + 1))
    return _times_as_x(tokens, declared)


def _describe_forbidden(text: str, i: int) -> str:
    ch = text[i]
    what = {
        ".": "attribute access ('.')",
        "[": "subscripts ('[')",
        "]": "subscripts (']')",
        "'": "strings (quotes)",
        '"': "strings (quotes)",
        "=": "assignment or comparison ('=')",
        ":": "':'",
        ";": "statements (';')",
        "%": "'%' here (write 25% only as a whole answer in a % box)",
        "!": "'!' (write factorial(n))",
        "{": "braces",
        "}": "braces",
    }.get(ch, f"the character {ch!r}")
    return f"Not allowed in an answer: {what}."


def _split_name(word: str, column: int, declared: frozenset[str]) -> list[_Token]:
    """`MN` with M and N declared is M*N, the way a learner writes 2MN on paper; `etasqrt` is
    eta*sqrt when eta is declared."""
    if word in declared or word in FUNCTIONS or word in CONSTANTS or not declared:
        return [_Token("name", word, column)]
    parts = _segment(word, declared | FUNCTIONS)
    if parts is None:
        return [_Token("name", word, column)]
    tokens, offset = [], 0
    for part in parts:
        tokens.append(_Token("name", part, column + offset))
        offset += len(part)
    return tokens


def _segment(word: str, vocabulary: frozenset[str]) -> list[str] | None:
    """Split `word` into words of `vocabulary`, longest first; None when it cannot be done.
    Memoised on the suffix, so a long unsplittable word costs O(n^2), not exponential time."""

    @cache
    def split(start: int) -> tuple[str, ...] | None:
        if start == len(word):
            return ()
        for end in range(len(word), start, -1):
            if word[start:end] in vocabulary:
                rest = split(end)
                if rest is not None:
                    return (word[start:end], *rest)
        return None

    parts = split(0)
    return None if parts is None else list(parts)


def _times_as_x(tokens: list[_Token], declared: frozenset[str]) -> list[_Token]:
    """`6.1 x 10^-5`: an undeclared x between two numbers means times."""
    out = list(tokens)
    for k in range(1, len(out) - 1):
        t = out[k]
        if t.kind == "name" and t.text in ("x", "X") and t.text not in declared \
                and out[k - 1].kind == "num" and out[k + 1].kind == "num":
            out[k] = _Token("op", "*", t.column)
    return out


class _Parser:
    """Precedence climbing: sums of products of signed powers; implicit products like 2M(N-1)."""

    def __init__(self, tokens: list[_Token], declared: frozenset[str]):
        self.tokens = tokens
        self.pos = 0
        self.depth = 0
        self.declared = declared

    @property
    def token(self) -> _Token:
        return self.tokens[self.pos]

    def advance(self) -> _Token:
        token = self.tokens[self.pos]
        self.pos += 1
        return token

    def parse(self) -> Node:
        if self.token.kind == "end":
            raise ParseError("The answer is empty.", 1)
        node = self.expression()
        if self.token.kind != "end":
            raise ParseError(f"Unexpected {self.token.text!r}.", self.token.column)
        return node

    def nested(self):
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise ParseError("The answer is nested too deeply to evaluate.", self.token.column)

    def expression(self) -> Node:
        node = self.term()
        while self.token.text in ("+", "-") and self.token.kind == "op":
            op = self.advance().text
            node = BinOp(op, node, self.term())
        return node

    def term(self) -> Node:
        node = self.unary()
        while True:
            token = self.token
            if token.kind == "op" and token.text in ("*", "/"):
                self.advance()
                node = BinOp(token.text, node, self.unary())
            elif token.kind in ("num", "name") or (token.kind == "op" and token.text == "("):
                if token.kind == "num" and self.tokens[self.pos - 1].kind == "num":
                    raise ParseError("Two numbers side by side: is an operator missing?", token.column)
                node = BinOp("*", node, self.power())
            else:
                return node

    def unary(self) -> Node:
        if self.token.kind == "op" and self.token.text in ("+", "-"):
            op = self.advance().text
            self.nested()
            operand = self.unary()
            self.depth -= 1
            return Neg(operand) if op == "-" else operand
        return self.power()

    def power(self) -> Node:
        base = self.atom()
        if self.token.kind == "op" and self.token.text == "^":
            self.advance()
            self.nested()
            exponent = self.unary()  # right-associative; allows 10^-5
            self.depth -= 1
            return BinOp("^", base, exponent)
        return base

    def atom(self) -> Node:
        token = self.advance()
        if token.kind == "num":
            return Num(token.text)
        if token.kind == "name":
            if token.text in FUNCTIONS and token.text not in self.declared:
                return self.call(token)
            return Name(token.text)
        if token.kind == "op" and token.text == "(":
            self.nested()
            node = self.expression()
            self.expect(")", token)
            self.depth -= 1
            return node
        if token.kind == "end":
            raise ParseError("The answer ends too early: something is missing at the end.", token.column)
        raise ParseError(f"Unexpected {token.text!r}.", token.column)

    def call(self, name: _Token) -> Node:
        if not (self.token.kind == "op" and self.token.text == "("):
            raise ParseError(f"{name.text} needs parentheses: {name.text}(...).", name.column)
        opening = self.advance()
        self.nested()
        args = [self.expression()]
        while self.token.kind == "op" and self.token.text == ",":
            self.advance()
            args.append(self.expression())
        self.expect(")", opening)
        self.depth -= 1
        return Call(name.text, tuple(args))

    def expect(self, text: str, opening: _Token) -> None:
        if self.token.kind == "op" and self.token.text == text:
            self.advance()
            return
        if self.token.kind == "end":
            raise ParseError(f"The parenthesis opened at column {opening.column} is never closed.", opening.column)
        raise ParseError(f"Expected {text!r} but found {self.token.text!r}.", self.token.column)
