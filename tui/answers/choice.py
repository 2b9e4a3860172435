"""One option picked from a lettered list."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from grader.model import Exercise, Trace
from tui.answers.base import AnswerPanel


class ChoicePanel(AnswerPanel):
    DEFAULT_CSS = "ChoicePanel #choices { height: auto; max-height: 12; }"

    @classmethod
    def answers(cls, exercise: Exercise) -> bool:
        return isinstance(exercise, Trace) and bool(exercise.options)

    def compose(self) -> ComposeResult:
        yield OptionList(*(Option(Text.assemble((f"{chr(65 + i)}  ", "bold"), o.text), id=o.id)
                           for i, o in enumerate(self.exercise.presented_options)), id="choices")

    def focus_answer(self) -> None:
        self.query_one("#choices", OptionList).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.post_message(self.Submitted(event.option.id or ""))
