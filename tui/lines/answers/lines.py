"""A code listing read line by line, numbered; the buggy line is named by its number, and once found its
fix is shown."""

from __future__ import annotations

from grader.kinds.debug import Debug
from grader.verdict import Verdict
from tui.lines.answers.base import Way
from tui.lines.context import Context


class LinesWay(Way):
    name = "lines"

    def show(self, ctx: Context, exercise: Debug) -> None:
        lines = exercise.lines
        ctx.console.say("listing", f"{exercise.language}, {len(lines)} lines")
        for number, line in enumerate(lines, 1):
            ctx.console.say(f"line {number}", line)
        ctx.console.say("end of listing")
        super().show(ctx, exercise)

    def how_to(self, exercise: Debug) -> str:
        return f"type the number of the buggy line, 1 to {len(exercise.lines)}."

    def after(self, ctx: Context, exercise: Debug, verdict: Verdict) -> None:
        if verdict.status == "correct":
            ctx.console.say(f"the fix, line {exercise.buggy_line}", exercise.fixed_line.strip())


WAY = LinesWay()
