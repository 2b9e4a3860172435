"""A code listing whose buggy line is picked; once found, the fix is shown beneath it."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.widgets import OptionList, Static

from grader.kinds.debug import Debug
from grader.kinds.registry import label
from grader.verdict import Verdict
from tui.answers.base import AnswerPanel
from tui.widgets.code_listing import CodeListing, highlighted_lines


class LinesPanel(AnswerPanel[Debug]):
    way = "lines"
    DEFAULT_CSS = """
    LinesPanel .submits-at-once { margin: 1 0 0 0; color: $text-muted; }
    LinesPanel #fix { height: auto; margin-top: 1; color: $success; }
    """

    def compose(self) -> ComposeResult:
        # A click submitted at once and nothing said so (issue 45): a pick is an answer, however it is made.
        yield Static("Enter or a click on a line submits it as the bug, at once.", classes="submits-at-once")
        yield CodeListing(self.exercise.code, self.exercise.language, id="listing")
        yield Static(id="fix")

    def describe(self, answer: str, previous: str | None, seed: int = 0) -> str:
        return label(self.exercise, answer)

    def focus_answer(self, scroll_visible: bool = True) -> None:
        self.query_one("#listing", CodeListing).focus(scroll_visible=scroll_visible)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.post_message(self.Submitted(event.option.id or ""))

    def show_verdict(self, verdict: Verdict) -> str:
        if not isinstance(verdict.value, int):
            return ""
        self.query_one("#listing", CodeListing).mark(verdict.value, "✓" if verdict.status == "correct" else "✗")
        if verdict.status == "correct":
            exercise = self.exercise
            fixed = highlighted_lines(exercise.fixed_line, exercise.language)[0]
            self.query_one("#fix", Static).update(Text.assemble(
                ("The fix, line ", "bold"), (str(exercise.buggy_line), "bold"), (":  ", "bold"), fixed))
        return ""


PANEL = LinesPanel
