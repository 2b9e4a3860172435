"""One option picked from a lettered list: with ↑/↓ and Enter, or by its letter. As in the quiz, a wrong
pick is marked ✗ in the list and the right option ✓ once it is known (answered, or the explanation shown)."""

from __future__ import annotations

from typing import Any

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from grader.draws import Option as BookOption
from grader.kinds.registry import label
from grader.kinds.trace import Trace
from grader.verdict import Verdict
from tui.answers.base import AnswerPanel
from tui.widgets.choice_question import labelled

LETTERS = "abcdef"  # the schema allows at most six options; the list shows each one's letter


class ChoiceList(OptionList, inherit_bindings=False):
    """The options, which leave PgUp, PgDn, Home and End to the page: a few options need only ↑ and ↓,
    and a verdict under them must stay reachable by keyboard."""

    BINDINGS = [
        Binding("up", "cursor_up", show=False),
        Binding("down", "cursor_down", show=False),
        Binding("enter", "select", "Submit"),
    ]


class ChoicePanel(AnswerPanel[Trace]):
    way = "choice"
    DEFAULT_CSS = """
    ChoicePanel #choices { height: auto; max-height: 12; }
    ChoicePanel .submits-at-once { color: $text-muted; }
    """
    BINDINGS = [Binding(letter, f"pick({i})", f"Pick {letter.upper()}", show=False) for i, letter in enumerate(LETTERS)]

    def __init__(self, exercise: Trace, draft: str = "", **kwargs: Any):
        super().__init__(exercise, draft, **kwargs)
        self.marks: dict[str, str] = {}   # option id -> ✓ or ✗

    def compose(self) -> ComposeResult:
        # A click submitted at once and nothing said so (issue 45): a pick is an answer, however it is made.
        yield Static("A letter, Enter or a click submits the option at once.", classes="submits-at-once")
        yield ChoiceList(*(Option(self._prompt(i, o), id=o.id) for i, o in enumerate(self.exercise.presented_options)),
                         id="choices")

    def _prompt(self, index: int, option: BookOption) -> Table:
        mark = self.marks.get(option.id)
        text = Text(option.text)
        if mark:
            text.append(f" {mark}", "bold green" if mark == "✓" else "bold red")
        return labelled(f"{chr(65 + index)} ", text)

    def _mark(self, option_id: str, mark: str) -> None:
        options = self.exercise.presented_options
        index = next((i for i, o in enumerate(options) if o.id == option_id), None)
        if index is None or self.marks.get(option_id) == mark:
            return
        self.marks[option_id] = mark
        choices = self.query_one("#choices", ChoiceList)
        choices.replace_option_prompt_at_index(index, self._prompt(index, options[index]))

    def show_verdict(self, verdict: Verdict) -> str:
        if isinstance(verdict.value, str) and verdict.status in ("correct", "incorrect"):
            self._mark(verdict.value, "✓" if verdict.status == "correct" else "✗")
        return ""

    def show_answer(self) -> None:
        self._mark(self.exercise.correct_option.id, "✓")

    def check_action(self, action: str, parameters: tuple) -> bool | None:
        if action == "pick":
            return parameters[0] < len(self.exercise.presented_options)
        return True

    def describe(self, answer: str, previous: str | None, seed: int = 0) -> str:
        """The option by the letter it had where it was picked (each seed deals the options afresh)."""
        return label(self.exercise.dealt(seed), answer)

    def focus_answer(self, scroll_visible: bool = True) -> None:
        self.query_one("#choices", ChoiceList).focus(scroll_visible=scroll_visible)

    def action_pick(self, index: int) -> None:
        choices = self.query_one("#choices", ChoiceList)
        choices.highlighted = index
        choices.action_select()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.post_message(self.Submitted(event.option.id or ""))


PANEL = ChoicePanel
