"""Pairs chosen in a table or typed: each item (a, b, c...) gets an option (1, 2, 3...) from the list under it.

Keyboard, in the table: ↑↓ or an item's letter picks the item, ←→ steps through the options for it and a
digit gives it that option (then moves on to the next item), Enter submits. Mouse: a click on an item picks
it, a click on an option gives it to the picked item. The box under the table takes the same answer typed,
`a2 b1 c4 d3`. Letters past the last item are left to the screen (h is still a hint with four items).
"""

from __future__ import annotations

from typing import Any

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.reactive import reactive
from textual.widgets import Input, Static

from grader.kinds.match import LETTERS, Match, read_pairs, stored
from grader.kinds.registry import label
from grader.verdict import Verdict
from tui.answers.base import AnswerPanel
from tui.widgets.answer_input import AnswerInput
from tui.widgets.plain import plain


class ItemRow(Static):
    """One item with the option it has so far; a click picks it."""

    def __init__(self, index: int, **kwargs: Any):
        super().__init__(**kwargs)
        self.index = index

    def on_click(self, event: events.Click) -> None:
        event.stop()
        table = self.query_ancestor(PairTable)
        table.cursor = self.index
        table.focus()


class OptionRow(Static):
    """One option of the right column; a click gives it to the picked item."""

    def __init__(self, number: int, text: str, **kwargs: Any):
        super().__init__(plain(text), **kwargs)
        self.number = number

    def on_click(self, event: events.Click) -> None:
        event.stop()
        table = self.query_ancestor(PairTable)
        table.choose(self.number)
        table.focus()


class PairTable(Vertical, can_focus=True):
    DEFAULT_CSS = """
    PairTable { height: auto; border: tall $border-blurred; padding: 0 1; }
    PairTable:focus { border: tall $border; }
    PairTable ItemRow.-cursor { background: $boost; text-style: bold; }
    PairTable #options { height: auto; margin-top: 1; }
    """
    BINDINGS = [
        Binding("up", "cursor(-1)", "Item", key_display="↑↓"),
        Binding("down", "cursor(1)", "Next item", show=False),
        # The footer's a-h stands for the letters that pick another item: a, or b while a is picked (check_action).
        Binding("a", "item(0)", "Item", key_display="a-h"),     # b-h: on_key, as far as the items go
        Binding("b", "item(1)", "Item", key_display="a-h"),
        Binding("left", "step(-1)", "Option", key_display="←→"),
        Binding("right", "step(1)", "Next option", show=False),
        Binding("1", "choose(1)", "Give", key_display="1-9"),    # 2-9: on_key, as far as the options go
        Binding("enter", "submit", "Submit"),
    ]

    cursor = reactive(0, bindings=True)   # the footer's a-h: a, or b while a is picked

    def __init__(self, exercise: Match, **kwargs: Any):
        super().__init__(**kwargs)
        self.exercise = exercise
        self.chosen: dict[str, str] = {}
        self.marks: dict[str, bool] = {}   # item id -> right, once graded

    def compose(self) -> ComposeResult:
        for index in range(len(self.exercise.presented_left)):
            yield ItemRow(index, id=f"item-{index}")
        with Vertical(id="options"):
            for number, side in enumerate(self.exercise.presented_right, 1):
                yield OptionRow(number, f"{number}  {side.text}", id=f"option-{number}")

    def on_mount(self) -> None:
        self.draw()

    def watch_cursor(self) -> None:
        self.draw()

    def draw(self) -> None:
        for index, side in enumerate(self.exercise.presented_left):
            option = self.chosen.get(side.id)
            given = f"{self.exercise.number(option)}  {self.exercise.text_of(option)}" if option else "?"
            mark = ("✓ " if self.marks[side.id] else "✗ ") if side.id in self.marks else ""
            row = self.query_one(f"#item-{index}", ItemRow)
            cursor = "▶ " if index == self.cursor else "  "   # the picked item, also without colour (NO_COLOR)
            row.update(plain(f"{mark}{cursor}{LETTERS[index]}  {side.text}  →  {given}"))
            row.set_class(index == self.cursor, "-cursor")

    def action_cursor(self, delta: int) -> None:
        self.pick((self.cursor + delta) % len(self.exercise.presented_left))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "item":   # the picked item's own letter changes nothing: the footer's a-h is another's
            return (parameters[0] == 0) != (self.cursor == 0)
        return True

    def action_item(self, index: int) -> None:
        self.pick(index)

    def pick(self, index: int) -> None:
        """Pick item `index`, its row brought into view (at 80x24 the last can be below the screen)."""
        self.cursor = index
        self.query_one(f"#item-{index}", ItemRow).scroll_visible(animate=False)

    def action_step(self, delta: int) -> None:
        """The next or previous option for the picked item."""
        numbers = len(self.exercise.presented_right)
        option = self.chosen.get(self.exercise.presented_left[self.cursor].id)
        now = self.exercise.number(option) if option else (0 if delta > 0 else numbers + 1)
        self.choose((now - 1 + delta) % numbers + 1, move_on=False)

    def action_choose(self, number: int) -> None:
        self.choose(number)

    def choose(self, number: int, move_on: bool = True) -> None:
        """Give the picked item option `number`; by a digit or a click, go on to the next item."""
        self.chosen[self.exercise.presented_left[self.cursor].id] = self.exercise.presented_right[number - 1].id
        self.marks.clear()
        if move_on and self.cursor < len(self.exercise.presented_left) - 1:
            self.pick(self.cursor + 1)
        self.draw()

    def action_submit(self) -> None:
        """The pairs chosen so far, by ids: the message bubbles up through the panel to the screen."""
        self.post_message(AnswerPanel.Submitted(stored(self.chosen)))

    def on_key(self, event: events.Key) -> None:
        """An item's letter or an option's digit past those the bindings name; other keys go on to the screen."""
        character = event.character or ""
        items, options = len(self.exercise.presented_left), len(self.exercise.presented_right)
        if len(character) == 1 and character in LETTERS[1:items]:
            self.pick(LETTERS.index(character))
        elif character.isdigit() and 2 <= int(character) <= options:
            self.choose(int(character))
        else:
            return
        event.stop()
        event.prevent_default()


class PairsPanel(AnswerPanel[Match]):
    way = "pairs"
    DEFAULT_CSS = """
    PairsPanel #pairs-table { margin-top: 1; }
    PairsPanel #pairs-typed { max-width: 60; }
    """
    keeps_draft = True

    def compose(self) -> ComposeResult:
        yield PairTable(self.exercise, id="pairs-table")
        yield AnswerInput(value=self.draft, placeholder="or type the pairs, e.g. a2 b1", id="pairs-typed")

    def answer_text(self) -> str:
        return self.query_one("#pairs-typed", Input).value

    def describe(self, answer: str, previous: str | None, seed: int = 0) -> str:
        return label(self.exercise, answer)

    def focus_answer(self, scroll_visible: bool = True) -> None:
        self.query_one("#pairs-table", PairTable).focus(scroll_visible=scroll_visible)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Typed pairs are kept by ids, as the table's are; text that reads as no pairs goes as typed, for the
        grader to say why."""
        event.stop()
        pairs = read_pairs(self.exercise, event.value)
        self.post_message(self.Submitted(event.value if isinstance(pairs, str) else stored(pairs)))

    def show_verdict(self, verdict: Verdict) -> str:
        """Each item marked right or wrong in the table, with the pairs graded."""
        if isinstance(verdict.value, dict):
            table = self.query_one("#pairs-table", PairTable)
            table.chosen = dict(verdict.value)
            table.marks = {item: verdict.value[item] == option for item, option in self.exercise.pairs.items()}
            table.draw()
        return ""


PANEL = PairsPanel
