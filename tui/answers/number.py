"""A number or a formula typed into one box, with the unit beside it."""

from __future__ import annotations

from textual import events
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Input, Label

from grader.exercise import NumericAnswer
from grader.maths.numeric import BOX_EXAMPLES
from tui.answers.base import AnswerPanel
from tui.widgets.answer_input import AnswerInput
from tui.widgets.plain import plain


def box_hint(exercise: NumericAnswer) -> tuple[str, str]:
    """(placeholder, label beside the box) for an exercise answered in a text box."""
    if exercise.is_formula:
        return f"a formula in {', '.join(exercise.symbols)}", "formula"
    return f"a number, e.g. {' or '.join(BOX_EXAMPLES)}", exercise.unit


class NumberPanel(AnswerPanel[NumericAnswer]):
    way = "number"
    DEFAULT_CSS = """
    NumberPanel #answer-row { height: 3; }
    NumberPanel #answer { width: 1fr; max-width: 60; }
    NumberPanel #unit { height: 3; content-align: left middle; padding: 0 1; color: $text-muted; }
    """
    keeps_draft = True

    def compose(self) -> ComposeResult:
        placeholder, unit = box_hint(self.exercise)
        with Horizontal(id="answer-row"):
            yield AnswerInput(value=self.draft, placeholder=placeholder, id="answer")
            yield Label(plain(unit), id="unit")

    def answer_text(self) -> str:
        return self.query_one("#answer", Input).value

    def focus_answer(self, scroll_visible: bool = True) -> None:
        self.query_one("#answer", Input).focus(scroll_visible=scroll_visible)

    def on_key(self, event: events.Key) -> None:
        """With the panel focused (reached by n or p, or after Escape), a digit, a capital letter or a
        sign starts the answer; lower-case letters stay commands (h, x, n...)."""
        character = event.character
        if self.has_focus and character and (character.isdigit() or character.isupper() or character in ".-+(/"):
            self.query_one("#answer", AnswerInput).start_with(character)
            event.stop()
            event.prevent_default()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.post_message(self.Submitted(self.answer_text()))


PANEL = NumberPanel
