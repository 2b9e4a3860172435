"""What is wrong with an author's file, as `path:line: message`: YAML read with its line numbers kept, and
JSON Schema problems put at the line that causes them.

The book's exercises and quizzes (grader.book.load) and the lab (grader.lab.load) are all checked this way,
so an author reads the same kind of message whichever file is wrong. jsonschema and yaml are imported on
first use only: a start from the book cache needs neither.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from grader.files import GuardedLoader, LoaderBase, yaml_loader
from grader.safe_text import clipped, markup_tags

if TYPE_CHECKING:
    from jsonschema import Draft202012Validator, ValidationError
    from yaml.nodes import MappingNode, SequenceNode


@dataclass(repr=False)
class Problem:
    """One thing wrong with a book, at path:line; a warning does not stop it loading."""

    path: Path
    line: int
    message: str
    warning: bool = False   # worth fixing, but the book still works: it opens, and content check passes

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {'warning: ' if self.warning else ''}{self.message}"


EXCERPT = 60   # characters of an author's value a problem quotes
_OPENING_TAG = re.compile(r"(?<!\\)\[(?=[A-Za-z@/#$])")


def excerpt(value: Any) -> str:
    """An author's value as a problem quotes it: its repr, on one line, control characters shown, cut to EXCERPT
    characters, and markup escaped. Problems are printed to whoever checks the book, and a file can hold pages
    (or, through a link, a secret): a line says where and what is wrong, not what the file says."""
    shown = clipped(repr(value), EXCERPT)
    return _OPENING_TAG.sub(r"\\[", shown) if markup_tags(shown) else shown


# --- YAML with line numbers -------------------------------------------------------------------------

class _Lined(dict):
    """A mapping that remembers the line of each key (`lines`) and of itself (`line`)."""

    line: int = 1
    lines: dict[Any, int]


class _LinedList(list):
    line: int = 1
    lines: list[int]


class _KeepLines(LoaderBase):
    """Loader mixin: mappings and sequences remember the lines they were written on."""

    def construct_mapping(self, node: MappingNode, deep: bool = False) -> _Lined:
        mapping = _Lined(super().construct_mapping(node, deep=True))
        mapping.line = node.start_mark.line + 1
        mapping.lines = {self.construct_object(k, deep=True): k.start_mark.line + 1 for k, _ in node.value}
        return mapping

    def construct_sequence(self, node: SequenceNode, deep: bool = False) -> _LinedList:
        seq = _LinedList(super().construct_sequence(node, deep=True))
        seq.line = node.start_mark.line + 1
        seq.lines = [item.start_mark.line + 1 for item in node.value]
        return seq


@lru_cache(maxsize=1)
def line_loader() -> type[GuardedLoader]:
    """The guarded book loader (grader.files) that also keeps line numbers. Built on first use:
    importing yaml costs ~50 ms that a start from the book cache never pays."""
    loader = yaml_loader(_KeepLines)
    loader.add_constructor("tag:yaml.org,2002:map", _KeepLines.construct_mapping)
    loader.add_constructor("tag:yaml.org,2002:seq", _KeepLines.construct_sequence)
    return loader


def line_of(data: Any, path: Iterable[Any]) -> int:
    """The line of the deepest element along `path` that has one."""
    line = getattr(data, "line", 1)
    node = data
    for key in path:
        if isinstance(node, _Lined) and key in node:
            line = node.lines.get(key, line)
            node = node[key]
        elif isinstance(node, _LinedList) and isinstance(key, int) and key < len(node):
            line = node.lines[key]
            node = node[key]
        else:
            break
        line = getattr(node, "line", line)
    return line


def yaml_problem(error: Any, text: str) -> tuple[int, str]:
    """(line, message) for YAML that does not parse (a yaml.MarkedYAMLError): the parser's words, the line it
    stopped at and the one above it, each from its first column, and the likely slip. PyYAML says "did not find
    expected '-' indicator" for a key one space short; an author new to YAML needs to read "indentation"."""
    from yaml.parser import ParserError
    from yaml.scanner import ScannerError

    problem = error.problem or error.context or "the file does not parse"
    mark = error.problem_mark or error.context_mark
    if mark is None:
        return 1, f"invalid YAML: {problem}"
    if not isinstance(error, ScannerError | ParserError):   # the guards' own (grader.files) say what is wrong
        return mark.line + 1, f"invalid YAML: {problem}"
    lines = text.splitlines()
    at = mark.line
    if "expected ':'" in problem and error.context_mark is not None:
        at = error.context_mark.line   # the key without its colon; PyYAML stops on the line after it
    if at >= len(lines):
        return at + 1, f"invalid YAML: {problem}"
    above = next((n for n in range(at - 1, -1, -1) if lines[n].strip() and not lines[n].lstrip().startswith("#")),
                 None)
    quoted = f"line {at + 1}, from column {_first_column(lines[at])}: {excerpt(lines[at])}"
    if above is not None:
        quoted += f"; line {above + 1} above it, from column {_first_column(lines[above])}: {excerpt(lines[above])}"
    cause = _likely_slip(problem, lines, at, above)
    return at + 1, f"invalid YAML: {problem}. {quoted[0].upper()}{quoted[1:]}." + (f" Likely cause: {cause}." if cause
                                                                                    else "")


def _first_column(line: str) -> int:
    return len(line) - len(line.lstrip(" \t")) + 1


def _likely_slip(problem: str, lines: list[str], at: int, above: int | None) -> str:
    """A tab, a missing colon or indentation, judged from the two lines quoted; "" when none fits."""
    for n in (at, above):
        if n is not None and "\t" in lines[n][:_first_column(lines[n]) - 1]:
            return f"a tab: line {n + 1} is indented with a tab, and YAML indents with spaces only"
    if "expected ':'" in problem:
        return f"a missing colon: line {at + 1} has no ':' after its key"
    if above is None:
        return ""
    here, there = _first_column(lines[at]), _first_column(lines[above])
    if here == there:
        return ""
    side = "left" if here < there else "right"
    return (f"indentation: line {at + 1} starts {abs(here - there)} column{'s' if abs(here - there) > 1 else ''} "
            f"{side} of line {above + 1}; the keys of one mapping, and the items of one list, start in the same "
            "column")


# --- JSON Schema ------------------------------------------------------------------------------------

@lru_cache(maxsize=3)
def schema_validator(schema_path: Path) -> Draft202012Validator:
    """A validator for the schema at `schema_path` as written (the exercise schema, which the kinds extend,
    is grader.book.schema's)."""
    import jsonschema  # imported on first check only: loading the built-in book needs no schema pass

    schema = json.loads(schema_path.read_text(encoding="utf-8"))
    return jsonschema.Draft202012Validator(schema)


def schema_problems(path: Path, data: Any, validator: Draft202012Validator) -> list[Problem]:
    """Every way `data`, read from `path`, breaks the validator's schema, each at the line that causes it."""
    problems = []
    for error in sorted(validator.iter_errors(data), key=lambda e: list(map(str, e.absolute_path))):
        for leaf in _leaves(error):
            where = "/".join(map(str, leaf.absolute_path)) or "top level"
            problems.append(Problem(path, line_of(data, leaf.absolute_path), f"{where}: {say(leaf)}"))
    return _dedupe(problems)


def _leaves(error: ValidationError) -> Iterator[ValidationError]:
    """The most specific errors: a failed allOf/if-then says little; its causes say what is wrong."""
    if error.context:
        best = [e for e in error.context if e.validator not in ("if", "then")] or list(error.context)
        for sub in best:
            yield from _leaves(sub)
    else:
        yield error


def say(error: ValidationError) -> str:
    """One schema error in an author's words, quoting at most an excerpt of the value that breaks it."""
    if error.validator == "type" and isinstance(error.instance, (int, float)) and error.validator_value == "string":
        return f"{excerpt(error.instance)} should be a string (quote it)"
    if error.validator in ("additionalProperties", "unevaluatedProperties"):
        return _excerpted(error).replace("were unexpected", "are not allowed here").replace(
            "was unexpected", "is not allowed here")
    if error.validator == "pattern" and error.validator_value == r"\S":
        return "a non-empty text is required"
    if error.validator in ("minItems", "maxItems") and isinstance(error.instance, list):
        # jsonschema's own message repeats the whole list, which for a list of options is pages of prose
        bound = "at least" if error.validator == "minItems" else "at most"
        return f"{len(error.instance)} items; expected {bound} {error.validator_value}"
    schema = error.schema
    if error.validator == "oneOf" and isinstance(schema, Mapping) and "required" in json.dumps(schema["oneOf"][0]):
        return "a trace exercise has exactly one of: answer (a number), options (choices) or steps (a table)"
    return _excerpted(error)


def _excerpted(error: ValidationError) -> str:
    """jsonschema's message with each repr of the value it quotes (the value, or a mapping's keys) cut short."""
    message = error.message
    values = [error.instance, *(error.instance if isinstance(error.instance, dict) else ())]
    for value in sorted(values, key=lambda value: len(repr(value)), reverse=True):   # the whole before a part
        message = message.replace(repr(value), excerpt(value))
    return message


def _dedupe(problems: list[Problem]) -> list[Problem]:
    seen, out = set(), []
    for p in problems:
        if (p.line, p.message) not in seen:
            seen.add((p.line, p.message))
            out.append(p)
    return out
