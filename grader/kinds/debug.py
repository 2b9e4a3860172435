"""Debug: name the one buggy line of a listing; `tests`, when given, prove the bug (the fixed listing passes
them, the buggy one fails)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from grader.exercise import CodeTest, Exercise, Where, code_tests
from grader.kinds.build import code_test_problems
from grader.kinds.registry import COMMON_FIELDS, Figure, Findings, Hardware, Kind
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


def notes(exercise: Debug, figure: Figure) -> list[str]:
    """The listing's note per line."""
    return [f"Line {line}: {note}" for line, note in sorted(exercise.line_feedback.items())]


SCHEMA: dict[str, Any] = {
    "description": "Find the one buggy line of a listing.",
    "required": ["language", "code", "buggy_line", "fixed_line"],
    "additionalProperties": False,
    "properties": {
        **COMMON_FIELDS,
        "language": {"enum": ["python"], "description": "Language of the listing, for highlighting."},
        "code": {"type": "string", "minLength": 1, "description": "The listing with exactly one bug."},
        "buggy_line": {"type": "integer", "minimum": 1, "description": "1-based line number of the bug."},
        "fixed_line": {
            "type": "string",
            "description": "The corrected text of the buggy line (shown after solving; used to prove the bug).",
        },
        "function": {
            "$ref": "#/$defs/name",
            "description": "The function the listing defines, when tests prove the bug.",
        },
        "tests": {
            "type": "array",
            "items": {"$ref": "#/$defs/code_test"},
            "description": "Calls the fixed listing passes and the buggy one fails.",
        },
        "line_feedback": {
            "type": "object",
            "description": "Optional feedback per wrong line, keyed by 1-based line number.",
            "propertyNames": {"pattern": "^[1-9][0-9]*$"},
            "additionalProperties": {"type": "string", "minLength": 1},
        },
    },
}


EXAMPLE = '''\
title: The warm-up that overshoots
kind: debug
prompt: |
  This warm-up schedule should climb linearly to `peak` over
  `warmup_steps` steps, but its very first step already uses a rate
  thousands of times too large. Pick the buggy line.
hints:
  - What fraction of the warm-up is done after `step` steps?
language: python
function: warmup_lr
code: |
  def warmup_lr(step, peak, warmup_steps):
      if step >= warmup_steps:
          return peak
      fraction = step / peak
      return peak * fraction
buggy_line: 4
fixed_line: "    fraction = step / warmup_steps"
line_feedback:
  "2": "From step W on the rate is the peak, so this test is right."
  "5": "Scaling the peak by the fraction of warm-up done is right; check how that fraction is computed."
tests:
  - args: {step: 1, peak: 0.0003, warmup_steps: 4}
    expected: peak*step/warmup_steps
  - args: {step: 2, peak: 0.001, warmup_steps: 10}
    expected: peak*step/warmup_steps
  - args: {step: 3, peak: 0.0006, warmup_steps: 4}
    expected: peak*step/warmup_steps
explanation: |
  Line 4 divides by the peak rate instead of the warm-up length. The
  fraction of warm-up done is `step / warmup_steps`:

  ```python
  fraction = step / warmup_steps
  ```
'''


KIND = Kind(
    name="debug", exercise=Debug, read=read, problems=problems, warnings=warnings, judge=judge, label=label,
    expected_seconds=90.0, ways=("lines",), way=lambda exercise: "lines",
    schema=SCHEMA, example=EXAMPLE, notes=notes,
)
