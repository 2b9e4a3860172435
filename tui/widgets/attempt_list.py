"""The learner's earlier answers to this exercise's numbers, newest last, each with its mark; answers to
other numbers (a review or practice variant, or the book's own) are only counted, as their marks would
say nothing, or the wrong thing, about the numbers on screen. On a recall test not yet answered, every
answer is only counted (the exercise screen says when)."""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text
from textual.widgets import Static

from tui.progress.store import Attempt

SHOWN = 5


class AttemptList(Static):
    DEFAULT_CSS = """
    AttemptList { height: auto; margin-top: 1; color: $text-muted; }
    """

    def show(self, attempts: list[Attempt], seed: int | None = None,
             describe: Callable[[str, str | None, int], str] | None = None, *, hidden: bool = False) -> None:
        """`seed`: the numbers on screen, for an exercise that varies (None: one form, every answer shown).
        `describe(answer, previous answer, its seed)`: one line for an answer (the answer panel's).
        `hidden`: a recall test not yet answered, where only the count shows."""
        if hidden:
            count = len(attempts)
            self.update(Text(f"Answered {count} time{'s' if count != 1 else ''} before (shown once you answer "
                             "this card).", "dim") if count else "")
            return
        these = [a for a in attempts if seed is None or a.seed == seed]
        others = len(attempts) - len(these)
        elsewhere = (Text(f"{others} earlier answer{'s' if others != 1 else ''} to other numbers", "dim") if others
                     else Text())
        if not these:
            self.update(elsewhere)
            return
        text = Text(f"Your attempts ({len(these)}):", style="bold")
        if others:
            text.append_text(Text.assemble("  ", elsewhere))
        start = max(len(these) - SHOWN, 0)
        for index in range(start, len(these)):
            attempt = these[index]
            mark, style = ("✓", "green") if attempt.status == "correct" else ("✗", "red")
            previous = these[index - 1].answer if index else None
            answer = (describe(attempt.answer, previous, attempt.seed) if describe
                      else attempt.answer.strip()).replace("\n", "; ")
            text.append(f"\n  {mark} ", style)
            text.append(answer if len(answer) <= 40 else answer[:39] + "…")
            if attempt.feedback:
                note = attempt.feedback if len(attempt.feedback) <= 50 else attempt.feedback[:49] + "…"
                text.append(f"  {note}", "dim")
        self.update(text)
