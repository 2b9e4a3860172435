"""What a way of answering offers the plain-line exercise loop (tui.lines.exercise): it shows what is answered
(options, a listing, items), reads one answer or a command, and says what a verdict marks in place."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from grader.verdict import Verdict
from tui.lines.context import Context

COMMANDS = ("hint", "explain", "next", "previous", "back", "numbers", "allow", "again")
COMMAND_HELP = ("Commands: hint gives a hint, explain the explanation, next and previous move on, back leaves, "
                "again reads the exercise again, numbers gives new numbers once it is solved.")


@dataclass(frozen=True)
class Command:
    """A command word typed where an answer was asked for."""

    word: str


def command_in(reply: str) -> Command | None:
    word = reply.strip().lower()
    return Command(word) if word in COMMANDS else None


class Way:
    """One way of answering (as grader.kinds declare them): number, choice, steps, lines, order, code, pairs."""

    name = ""

    def show(self, ctx: Context, exercise: Any) -> None:
        """What is answered, after the prompt: options, a listing, items, the starter code."""
        ctx.console.say("how to answer", self.how_to(exercise))

    def how_to(self, exercise: Any) -> str:
        """The `how to answer` line: what this way takes, for this exercise."""
        raise NotImplementedError

    def help(self, exercise: Any) -> str:
        return f"{self.how_to(exercise)} {COMMAND_HELP}"

    def read(self, ctx: Context, exercise: Any, label: str, draft_key: str) -> str | Command:
        """One answer as the text the grader takes, or a command."""
        reply = ctx.console.ask(label, "", self.help(exercise))
        return command_in(reply) or reply

    def after(self, ctx: Context, exercise: Any, verdict: Verdict) -> None:
        """What the verdict marks in place (a row, a position, the fix), beyond its message and feedback."""

    def reveal(self, ctx: Context, exercise: Any) -> None:
        """The right answer where the explanation gives it away in place (a choice's option)."""

