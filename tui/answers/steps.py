"""A table of an algorithm's states, one box per step; each step is marked when graded."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.widgets import Input

from grader.kinds.trace import Trace
from grader.verdict import Verdict
from tui.answers.base import AnswerPanel
from tui.widgets.step_table import StepTable


class StepsPanel(AnswerPanel[Trace]):
    way = "steps"
    keeps_draft = True

    def compose(self) -> ComposeResult:
        yield StepTable(self.exercise.steps, self.exercise.unit, self.draft.split("\n") if self.draft else [],
                        id="steps")

    @property
    def table(self) -> StepTable:
        return self.query_one("#steps", StepTable)

    def answer_text(self) -> str:
        return "\n".join(self.table.values())

    def focus_answer(self, scroll_visible: bool = True) -> None:
        (self.table.first_empty() or self.table.inputs[0]).focus(scroll_visible=scroll_visible)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter moves to the next empty step (after this one, round to the first), and submits the table once
        every step has a value. On the one step still empty it says so (it did nothing)."""
        event.stop()
        inputs = self.table.inputs
        here = inputs.index(event.input) if event.input in inputs else 0
        empty = [box for box in inputs[here + 1:] + inputs[:here + 1] if not box.value.strip()]
        if empty and empty[0] is event.input:
            self.app.bell()
            self.notify("This step needs a value: the table is sent once every step has one.")
        elif empty:
            empty[0].focus()
        else:
            self.post_message(self.Submitted(self.answer_text()))

    def show_verdict(self, verdict: Verdict) -> str:
        if verdict.rows:
            self.table.mark(verdict.rows)
        return ""


PANEL = StepsPanel
