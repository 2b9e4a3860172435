"""Trace: step through an algorithm, answered by one number (`answer`), one choice among options, or a
table of states, one row per step."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from typing import Any, ClassVar, Literal

import grader.kinds.numeric as numeric
from grader.draws import Option, fixed_shuffle
from grader.exercise import NumericAnswer, Where, evaluate_text, guarded_text
from grader.kinds.derive import judge_number
from grader.kinds.registry import COMMON_FIELDS, Figure, Findings, Hardware, Kind, plain_label
from grader.verdict import Deadline, Verdict, correct, incorrect, invalid

_ROW_SEPARATOR = re.compile(r";|\n|,\s+")


@dataclass(repr=False)
class Step:
    """One row of a table of states: its label, its value as a formula, and a note for a wrong value."""

    label: str
    answer: str
    feedback: str = ""


@dataclass(kw_only=True, repr=False)
class Trace(NumericAnswer):
    """Step through an algorithm: one number (`answer`), one choice (`options`) or a table (`steps`)."""

    TEXT_FIELDS: ClassVar[tuple[tuple[str, ...], ...]] = (
        ("prompt",), ("explanation",), ("hints",), ("mistakes", "feedback"), ("steps", "label", "feedback"),
        ("options", "text", "feedback"), ("title",))

    kind: str = "trace"
    options: tuple[Option, ...] = ()
    steps: tuple[Step, ...] = ()

    @property
    def style(self) -> Literal["number", "choice", "steps"]:
        if self.options:
            return "choice"
        return "steps" if self.steps else "number"

    @property
    def correct_option(self) -> Option:
        return next(o for o in self.options if o.correct)

    @property
    def deals(self) -> bool:
        return bool(self.options)

    @cached_property
    def presented_options(self) -> tuple[Option, ...]:
        """Options in the order shown, lettered A, B, C...: a fixed shuffle, so where an author happened
        to put the right answer tells the learner nothing, dealt afresh for each seed (`deal`)."""
        return fixed_shuffle(self.options, self.deal_key)

    def graded_formulas(self) -> tuple[str, ...]:
        """A table's rows, else the one number."""
        return tuple(s.answer for s in self.steps) if self.steps else super().graded_formulas()

    @cached_property
    def step_values(self) -> tuple[float, ...]:
        return tuple(evaluate_text(s.answer, self.env) for s in self.steps)


def read(raw: dict[str, Any], common: dict[str, Any], hardware: Hardware) -> Trace:
    return Trace(
        **common, **numeric.read_fields(raw, hardware),
        options=tuple(Option(o["id"], o["text"], bool(o.get("correct", False)), guarded_text(o["feedback"]))
                      for o in raw.get("options", ())),
        steps=tuple(Step(s["label"], str(s["answer"]), s.get("feedback", "")) for s in raw.get("steps", ())),
    )


def problems(exercise: Trace, where: Where) -> Findings:
    return numeric.problems(exercise, where, _answer_problems)


def _answer_problems(ex: Trace, env: dict[str, float], where: Where) -> Findings:
    """A choice has exactly one correct option, ids unique; a table's every row evaluates; else one number."""
    found: Findings = []
    if ex.options:
        right = [o.id for o in ex.options if o.correct]
        if len(right) != 1:
            found.append((where("options"), f"exactly one option must be correct (found {len(right)})"))
        ids = [o.id for o in ex.options]
        if len(set(ids)) != len(ids):
            found.append((where("options"), "option ids must be unique"))
        return found
    if ex.steps:
        for i, step in enumerate(ex.steps):
            message = numeric.formula_problem(step.answer, env)
            if message:
                found.append((where("steps", i, "answer"), f"step answer {step.answer!r}: {message}"))
        return found
    return numeric.answer_problems_of(ex, env, where)


def label(exercise: Trace, answer: str) -> str:
    """A choice by its letter as shown and its text; a number or a table as typed."""
    if not exercise.options:
        return plain_label(exercise, answer)
    options = exercise.presented_options
    index = next((i for i, o in enumerate(options) if o.id == answer), None)
    return answer if index is None else f"{chr(65 + index)}  {options[index].text}"


def judge(exercise: Trace, text: str, deadline: Deadline) -> Verdict:
    if exercise.style == "choice":
        return judge_choice(exercise, text)
    if exercise.style == "steps":
        return judge_steps(exercise, text)
    return judge_number(exercise, text, exercise.value)


def option_for(exercise: Trace, text: str) -> Option | None:
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
        return invalid(f"This table has {count} rows; give {count} values separated by semicolons "
                       f"(you gave {len(cells)}).")
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


def shown(exercise: Trace, explain: bool) -> list[str]:
    """A choice's options as lettered; with `explain`, which is right and what each says when picked."""
    lines = []
    for letter, option in zip("ABCDEF", exercise.presented_options, strict=False):   # at most six options
        lines.append(f"{letter}  {option.text}" + (" (right)" if explain and option.correct else ""))
        if explain:
            lines.append(f"   {option.feedback}")
    return lines


def notes(exercise: Trace, figure: Figure) -> list[str]:
    """The foreseen mistakes, then each step of a table with its value for these numbers (what an author
    proofreads a variant against) and its note."""
    unit = f" {exercise.unit}" if exercise.unit else ""
    return numeric.notes(exercise, figure) + [
        f"{step.label} = {figure(value)}{unit} ({step.answer})" + (f": {step.feedback}" if step.feedback else "")
        for step, value in zip(exercise.steps, exercise.step_values, strict=True)]


def data(exercise: Trace) -> dict[str, Any]:
    return {**numeric.data(exercise),
            "options": [{"letter": letter, "id": o.id, "text": o.text, "correct": o.correct, "feedback": o.feedback}
                        for letter, o in zip("ABCDEF", exercise.presented_options, strict=False)],
            "steps": [{"label": s.label, "answer": s.answer, "value": v, "feedback": s.feedback}
                      for s, v in zip(exercise.steps, exercise.step_values, strict=True)]}


SCHEMA: dict[str, Any] = {
    "description": "Step through an algorithm: one number (answer), one choice (options) or a table of states "
                   "(steps).",
    "$ref": "#/$defs/numeric_fields",
    "unevaluatedProperties": False,
    "properties": {
        **COMMON_FIELDS,
        "options": {"type": "array", "minItems": 2, "maxItems": 6, "items": {"$ref": "#/$defs/option"}},
        "steps": {"type": "array", "minItems": 1, "items": {"$ref": "#/$defs/step"}},
    },
    "oneOf": [
        {"required": ["answer"], "not": {"anyOf": [{"required": ["options"]}, {"required": ["steps"]}]}},
        {"required": ["options"], "not": {"anyOf": [{"required": ["answer"]}, {"required": ["steps"]}]}},
        {"required": ["steps"], "not": {"anyOf": [{"required": ["answer"]}, {"required": ["options"]}]}},
    ],
}


EXAMPLE = """\
title: Linear warm-up, step by step
kind: trace
prompt: |
  The learning rate warms up linearly to a peak of **P = 0.0003** over
  the first **W = 4** optimizer steps, then stays at P. Fill in the rate
  used at each step.
hints:
  - Before step W the rate is P × s / W.
  - From step W on the rate is P.
params: {P: 0.0003, W: 4}
steps:
  - label: "Step 1"
    answer: P*1/W
  - label: "Step 2"
    answer: P*2/W
  - label: "Step 4"
    answer: P
    feedback: Step 4 is step W, where warm-up ends and the rate reaches the peak.
  - label: "Step 6"
    answer: P
    feedback: After warm-up the rate stays at the peak.
explanation: |
  The rate climbs by P / W = 0.000075 per step:

  ```text
  step 1: 0.000075
  step 2: 0.00015
  step 4: 0.0003  (the peak)
  step 6: 0.0003  (held)
  ```
"""


KIND = Kind(
    name="trace", exercise=Trace, read=read, problems=problems, warnings=numeric.warnings, judge=judge, label=label,
    expected_seconds=120.0, ways=("number", "choice", "steps"), way=lambda exercise: exercise.style,
    schema=SCHEMA, example=EXAMPLE, shown=shown, notes=notes, answer_line=numeric.answer_line,
    data=data,
)
