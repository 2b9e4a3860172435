"""Trace: one number, one choice among options, or a table of states, one per step."""

from __future__ import annotations

import re

from grader.book.model import Trace
from grader.kinds.derive import judge_number
from grader.verdict import Deadline, Verdict, correct, incorrect, invalid

_ROW_SEPARATOR = re.compile(r";|\n|,\s+")


def judge(exercise: Trace, text: str, deadline: Deadline) -> Verdict:
    if exercise.style == "choice":
        return judge_choice(exercise, text)
    if exercise.style == "steps":
        return judge_steps(exercise, text)
    return judge_number(exercise, text, exercise.value)


def option_for(exercise: Trace, text: str):
    """The option meant by `text`: its id, its letter (a, B) or number (1-based) as shown, or its text."""
    key = text.strip().strip("()[].").strip().casefold()
    options = exercise.presented_options
    for option in options:
        if key == option.id.casefold() or key == option.text.strip().casefold():
            return option
    if len(key) == 1 and "a" <= key <= chr(ord("a") + len(options) - 1):
        return options[ord(key) - ord("a")]
    if key.isascii() and key.isdigit() and 1 <= int(key) <= len(options):
        return options[int(key) - 1]
    return None


def judge_choice(exercise: Trace, text: str) -> Verdict:
    option = option_for(exercise, text)
    if option is None:
        last = chr(ord("A") + len(exercise.options) - 1)
        return invalid(f"Choose one option: a letter from A to {last}, or an option's id.")
    if option.correct:
        return correct("Correct.", feedback=option.feedback, value=option.id)
    return incorrect("Not that one.", feedback=option.feedback, value=option.id)


def grade_step(exercise: Trace, index: int, text: str) -> Verdict:
    """One row of a step table, judged on its own (the app grades each row as it is filled in)."""
    step = exercise.steps[index]
    verdict = judge_number(exercise, text, exercise.step_values[index])
    if verdict.status == "incorrect" and step.feedback and not verdict.feedback:
        return incorrect(verdict.message, feedback=step.feedback, value=verdict.value)
    return verdict


def judge_steps(exercise: Trace, text: str) -> Verdict:
    """All rows at once, separated by semicolons, new lines or ', ' (a comma and a space)."""
    cells = [cell for cell in _ROW_SEPARATOR.split(text.strip()) if cell.strip()]
    count = len(exercise.steps)
    if len(cells) != count:
        return invalid(f"This table has {count} rows; give {count} values separated by semicolons (you gave {len(cells)}).")
    rows = tuple(grade_step(exercise, i, cell) for i, cell in enumerate(cells))
    unreadable = next((i for i, row in enumerate(rows) if row.status == "invalid"), None)
    if unreadable is not None:
        return invalid(f"Row {unreadable + 1}: {rows[unreadable].message}", rows=rows)
    right = sum(row.status == "correct" for row in rows)
    if right == count:
        return correct("Correct: every row is right.", rows=rows, value=[row.value for row in rows])
    first = next(i for i, row in enumerate(rows) if row.status != "correct")
    return incorrect(f"Row {first + 1} ({exercise.steps[first].label}) is wrong; {right} of {count} rows are right.",
                     feedback=rows[first].feedback, rows=rows, score=right / count, value=[row.value for row in rows])
