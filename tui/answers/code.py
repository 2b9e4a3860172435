"""A Python function written in an editor and run against the exercise's tests with Ctrl+R."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Static, TextArea

from grader.model import Build, Exercise
from grader.verdict import Verdict
from tui.answers.base import AnswerPanel


class CodePanel(AnswerPanel):
    DEFAULT_CSS = """
    CodePanel #signature { margin: 1 0 0 0; }
    CodePanel #editor { height: 14; margin: 0; }
    """
    BINDINGS = [Binding("ctrl+r", "run_tests", "Run tests", priority=True)]
    keeps_draft = True
    verdict_far_below = True

    @classmethod
    def answers(cls, exercise: Exercise) -> bool:
        return isinstance(exercise, Build)

    def compose(self) -> ComposeResult:
        yield Static(Text.assemble(("def ", "bold"), self.exercise.signature, ("   Ctrl+R runs the tests", "dim")),
                     id="signature")
        yield TextArea.code_editor(self.draft or self.exercise.starter, language="python", id="editor",
                                   theme="monokai", soft_wrap=False)

    def answer_text(self) -> str:
        return self.query_one("#editor", TextArea).text

    def focus_answer(self) -> None:
        self.query_one("#editor", TextArea).focus()

    def action_run_tests(self) -> None:
        self.post_message(self.Submitted(self.answer_text(), pending="Running the tests…"))

    def show_verdict(self, verdict: Verdict) -> str:
        return "\n".join(row.message for row in verdict.rows)
