"""Debug: name the one buggy line of a listing."""

from __future__ import annotations

import re

from grader.book.model import Debug
from grader.verdict import Deadline, Verdict, correct, incorrect, invalid

_LINE = re.compile(r"^\s*(?:line\s*|l)?(\d{1,6})\s*$", re.IGNORECASE | re.ASCII)


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
