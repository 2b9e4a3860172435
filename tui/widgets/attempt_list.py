"""The learner's earlier answers to this exercise, newest last, each with its mark."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from tui.progress.store import Attempt

SHOWN = 5


class AttemptList(Static):
    DEFAULT_CSS = """
    AttemptList { height: auto; margin-top: 1; color: $text-muted; }
    """

    def show(self, attempts: list[Attempt]) -> None:
        if not attempts:
            self.update("")
            return
        text = Text(f"Your attempts ({len(attempts)}):", style="bold")
        for attempt in attempts[-SHOWN:]:
            mark, style = ("✓", "green") if attempt.status == "correct" else ("✗", "red")
            answer = attempt.answer.strip().replace("\n", "; ")
            text.append(f"\n  {mark} ", style)
            text.append(answer if len(answer) <= 40 else answer[:39] + "…")
            if attempt.feedback:
                note = attempt.feedback if len(attempt.feedback) <= 50 else attempt.feedback[:49] + "…"
                text.append(f"  {note}", "dim")
        self.update(text)
