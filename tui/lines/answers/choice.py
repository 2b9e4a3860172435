"""One option picked by its letter, from options listed one a line (`a: ...`)."""

from __future__ import annotations

from grader.kinds.trace import Trace
from tui.lines.answers.base import Way
from tui.lines.context import Context


def letter(index: int) -> str:
    return chr(97 + index)


class ChoiceWay(Way):
    name = "choice"

    def show(self, ctx: Context, exercise: Trace) -> None:
        options = exercise.presented_options
        for index, option in enumerate(options):
            ctx.console.say(letter(index), option.text)
        super().show(ctx, exercise)

    def how_to(self, exercise: Trace) -> str:
        return f"type the letter of one option, a to {letter(len(exercise.presented_options) - 1)}."

    def reveal(self, ctx: Context, exercise: Trace) -> None:
        index = exercise.presented_options.index(exercise.correct_option)
        ctx.console.say("right option", f"{letter(index)}: {exercise.correct_option.text}")


WAY = ChoiceWay()
