"""Pairs typed as letters and numbers (`a2 b1 c4 d3`), the items lettered and the options numbered one a line;
after a wrong answer, each item is said right or wrong."""

from __future__ import annotations

from grader.kinds.match import LETTERS, Match, read_pairs, stored
from grader.verdict import Verdict
from tui.lines.answers.base import Command, Way, command_in
from tui.lines.context import Context


class PairsWay(Way):
    name = "pairs"

    def show(self, ctx: Context, exercise: Match) -> None:
        for letter, side in zip(LETTERS, exercise.presented_left, strict=False):
            ctx.console.say(f"item {letter}", side.text)
        for number, side in enumerate(exercise.presented_right, 1):
            ctx.console.say(f"option {number}", side.text)
        super().show(ctx, exercise)

    def how_to(self, exercise: Match) -> str:
        last = LETTERS[len(exercise.presented_left) - 1]
        return (f"give each item a to {last} an option 1 to {len(exercise.presented_right)}, like a2 b1; an option "
                "may fit more than one item, and some fit none.")

    def read(self, ctx: Context, exercise: Match, label: str, draft_key: str) -> str | Command:
        """Pairs that read are kept by ids, as the app keeps them; others go as typed, for the grader to say why."""
        reply = ctx.console.ask(label, "", self.help(exercise))
        command = command_in(reply)
        if command is not None:
            return command
        pairs = read_pairs(exercise, reply)
        return reply if isinstance(pairs, str) else stored(pairs)

    def after(self, ctx: Context, exercise: Match, verdict: Verdict) -> None:
        if verdict.status != "incorrect" or not isinstance(verdict.value, dict):
            return
        for letter, side in zip(LETTERS, exercise.presented_left, strict=False):
            right = verdict.value[side.id] == exercise.pairs[side.id]
            ctx.console.say(f"item {letter}", "right" if right else "wrong")


WAY = PairsWay()
