"""A table of an algorithm's states, filled in row by row; each row is marked once graded."""

from __future__ import annotations

from grader.kinds.trace import Trace
from grader.verdict import Verdict
from tui.lines.answers.base import Command, Way, command_in
from tui.lines.context import Context
from tui.lines.verdicts import said_once


class StepsWay(Way):
    name = "steps"

    def how_to(self, exercise: Trace) -> str:
        unit = f" in {exercise.unit}" if exercise.unit else ""
        return (f"the table has {len(exercise.steps)} rows. Press Enter and type each row's value{unit} at "
                "its own prompt, or type every row at once, separated by semicolons. A command at any row (hint, "
                "explain, back) stops the table.")

    def read(self, ctx: Context, exercise: Trace, label: str, draft_key: str) -> str | Command:
        help_text = self.help(exercise)
        first = ctx.console.ask(label, "Enter for the table", help_text)
        if first:
            return command_in(first) or first   # every row on one line, or a command
        values = []
        count = len(exercise.steps)
        for number, step in enumerate(exercise.steps, 1):
            reply = ctx.console.ask(f"step {number} of {count}, {step.label}", "", help_text)
            command = command_in(reply)
            if command is not None:
                return command
            values.append(reply if reply else " ")
        return "\n".join(values)

    def after(self, ctx: Context, exercise: Trace, verdict: Verdict) -> None:
        for number, (step, row) in enumerate(zip(exercise.steps, verdict.rows, strict=False), 1):
            marked = "correct" if row.status == "correct" else said_once(row)
            ctx.console.say(f"row {number}", f"{step.label}: {marked}")


WAY = StepsWay()
