"""A question with numbered options that is answered once: the pick is locked and its feedback revealed."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from tui.widgets.plain import plain

if TYPE_CHECKING:
    from grader.lab.model import LabOption, LabQuestion


def number(index: int) -> str:
    """How option `index` (from 0) is shown and picked: 1 to 4."""
    return str(index + 1)


def labelled(label: str | Text, text: Text) -> Table:
    """An option with a hanging indent, so a long one wraps under its text, not under its label (a plain
    label is bold; a styled one is drawn as it is)."""
    label = Text(label, "bold") if isinstance(label, str) else label
    grid = Table.grid(expand=True)
    grid.add_column(width=label.cell_len + 1)
    grid.add_column(ratio=1)
    grid.add_row(label, text)
    return grid


class ChoiceQuestion(Vertical):
    """Up/down or the number keys highlight an option, Enter or a click commits it; then the feedback for
    that option (and, if it was not the right one, for the right one) appears and the options lock."""

    DEFAULT_CSS = """
    ChoiceQuestion { height: auto; margin: 1 0 0 0; }
    ChoiceQuestion > .question-prompt { text-style: bold; }
    ChoiceQuestion > OptionList { height: auto; max-height: 14; margin: 0; }
    ChoiceQuestion > .question-feedback { height: auto; padding: 0 1; display: none; }
    ChoiceQuestion > .question-feedback.right { display: block; border-left: outer $success; background: $success 15%; }
    ChoiceQuestion > .question-feedback.wrong { display: block; border-left: outer $error; background: $error 15%; }
    """

    class Committed(Message):
        def __init__(self, question: ChoiceQuestion, option: LabOption):
            super().__init__()
            self.question = question
            self.option = option

        @property
        def control(self) -> ChoiceQuestion:
            return self.question

    def __init__(self, question: LabQuestion, **kwargs: Any):
        super().__init__(**kwargs)
        self.question = question
        self.chosen: LabOption | None = None

    def compose(self) -> ComposeResult:
        yield Static(plain(self.question.prompt), classes="question-prompt")
        yield OptionList(*(Option(labelled(f"{number(index)})", Text(option.text)), id=option.id)
                           for index, option in enumerate(self.question.options)))
        yield Static(classes="question-feedback")

    @property
    def options(self) -> OptionList:
        return self.query_one(OptionList)

    def pick(self, index: int) -> bool:
        """Highlight option `index` (from 0) and focus the list; False if there is no such open option."""
        if self.chosen is not None or not 0 <= index < len(self.question.options):
            return False
        self.options.highlighted = index
        self.options.focus()
        return True

    def commit_highlighted(self, *, announce: bool = True) -> bool:
        highlighted = self.options.highlighted
        if self.chosen is not None or highlighted is None:
            return False
        self.commit(self.question.options[highlighted].id, announce=announce)
        return True

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.commit(event.option.id or "")

    def commit(self, option_id: str, *, announce: bool = True) -> None:
        """Lock in `option_id` and reveal its feedback; with `announce=False` the screen is not told that the
        learner has just answered (it restores an answer given before, or commits the answer itself)."""
        option = self.question.option(option_id)
        if self.chosen is not None or option is None:
            return
        self.chosen = option
        self.options.disabled = True
        self.options.highlighted = self.question.options.index(option)
        right = self.question.right
        index = self.question.options.index
        text = Text.assemble(("✓ Right. " if option.correct else "✗ Not this one. ", "bold"), option.feedback)
        if not option.correct:
            text.append(f"\nThe answer is {number(index(right))}) ", "bold")
            text.append(right.feedback)
        feedback = self.query_one(".question-feedback", Static)
        feedback.update(text)
        feedback.set_classes(f"question-feedback {'right' if option.correct else 'wrong'}")
        if announce:
            self.post_message(self.Committed(self, option))
