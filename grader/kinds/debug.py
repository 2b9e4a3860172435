"""Debug: name the one buggy line of a listing; `tests`, when given, prove the bug (the fixed listing passes
them, the buggy one fails)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from grader.exercise import CodeTest, Exercise, Where, code_tests
from grader.kinds.build import code_test_problems
from grader.kinds.registry import Findings, Hardware, Kind
from grader.verdict import Deadline, Verdict, correct, incorrect, invalid

_LINE = re.compile(r"^\s*(?:line\s*|l)?(\d{1,6})\s*$", re.IGNORECASE | re.ASCII)


@dataclass(kw_only=True, repr=False)
class Debug(Exercise):
    """Find the one wrong line of `code` (1-based `buggy_line`); `fixed_line` is what it should say."""

    kind: str = "debug"
    language: str
    code: str
    buggy_line: int
    fixed_line: str
    function: str = ""
    tests: tuple[CodeTest, ...] = ()
    line_feedback: dict[int, str] = field(default_factory=dict)
    tolerance: float = 1e-6

    @property
    def lines(self) -> list[str]:
        return self.code.rstrip("\n").split("\n")

    @property
    def fixed_code(self) -> str:
        lines = self.lines
        lines[self.buggy_line - 1] = self.fixed_line
        return "\n".join(lines) + "\n"


def read(raw: dict[str, Any], common: dict[str, Any], hardware: Hardware) -> Debug:
    return Debug(**common, language=raw["language"], code=raw["code"], buggy_line=int(raw["buggy_line"]),
                 fixed_line=raw["fixed_line"], function=raw.get("function", ""), tests=code_tests(raw.get("tests", ())),
                 line_feedback={int(k): v for k, v in raw.get("line_feedback", {}).items()})


def problems(ex: Debug, where: Where) -> Findings:
    """The buggy line is in the listing and differs from its fix; feedback is for lines of the listing."""
    found: Findings = []
    count = len(ex.lines)
    if not 1 <= ex.buggy_line <= count:
        found.append((where("buggy_line"), f"buggy_line {ex.buggy_line} is outside the listing (1-{count})"))
    elif ex.fixed_line.strip() == ex.lines[ex.buggy_line - 1].strip():
        found.append((where("fixed_line"), "fixed_line is the same as the buggy line"))
    for line in ex.line_feedback:
        if not 1 <= line <= count:
            found.append((where("line_feedback"), f"line_feedback for line {line}, outside the listing (1-{count})"))
    return found + code_test_problems(ex.tests, where)


def warnings(ex: Debug, where: Where) -> Findings:
    """Feedback for a line that quotes code from another line was written for that other line."""
    found: Findings = []
    for line, feedback in ex.line_feedback.items():
        for quoted in re.findall(r"`([^`]+)`", feedback):
            if quoted not in ex.lines[line - 1]:
                found.append((where("line_feedback", str(line)),
                              f"line_feedback for line {line} quotes `{quoted}`, which is not on that line"))
    return found


def label(exercise: Debug, answer: str) -> str:
    """A line number with the line itself."""
    lines = exercise.lines
    if answer.isdigit() and 1 <= int(answer) <= len(lines):
        return f"line {answer}: {lines[int(answer) - 1].strip()}"
    return " ".join(answer.split())


def judge(exercise: Debug, text: str, deadline: Deadline) -> Verdict:
    match = _LINE.match(text)
    count = len(exercise.lines)
    if not match:
        return invalid(f"Give a line number from 1 to {count}.")
    line = int(match.group(1))
    if not 1 <= line <= count:
        return invalid(f"The listing has lines 1 to {count}.")
    if line == exercise.buggy_line:
        return correct(f"Yes: line {line} is the bug.", value=line)
    return incorrect(f"Line {line} is not the bug.", feedback=exercise.line_feedback.get(line, ""), value=line)


KIND = Kind(
    name="debug", exercise=Debug, read=read, problems=problems, warnings=warnings, judge=judge, label=label,
    expected_seconds=90.0, ways=("lines",), way=lambda exercise: "lines",
)
