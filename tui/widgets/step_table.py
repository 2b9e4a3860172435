"""A step table: one input per step of an algorithm, each marked when graded."""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Input, Label

from grader.kinds.trace import Step
from grader.verdict import Verdict
from tui.widgets.answer_input import AnswerInput
from tui.widgets.plain import plain

MARK = {"correct": "✓", "incorrect": "✗", "invalid": "?"}


class StepInput(AnswerInput):
    """A row's box: ↑/↓ are its own keys, shown in the footer (an Input's inherited ↑/↓ scroll it, which
    a one-line box cannot, and that binding, unshown, hid any other)."""

    BINDINGS = [
        Binding("down", "row(1)", "Row", key_display="↑↓", tooltip="Move to the row below or above (so does Tab)"),
        Binding("up", "row(-1)", show=False),
    ]

    def action_row(self, delta: int) -> None:
        self.query_ancestor(StepTable).move(self, delta)


class StepTable(Vertical):
    """Rows of `label | input | unit | mark`; Enter moves to the next empty row, ↑/↓ (and Tab) to the row
    above or below: ↑/↓ scrolled the page instead, so a value typed after them went into the row left."""

    DEFAULT_CSS = """
    StepTable { height: auto; margin: 1 0 0 0; }
    StepTable .step-row { height: auto; margin-bottom: 1; }
    StepTable .step-label { width: 1fr; padding: 0 1 0 0; }
    StepTable Input { width: 20; height: 1; border: none; padding: 0 1; background: $boost; }
    StepTable Input:focus { background: $accent 30%; border: none; }
    StepTable .step-unit { width: auto; padding: 0 1; color: $text-muted; }
    StepTable .step-mark { width: 2; }
    StepTable .step-mark.correct { color: $success; }
    StepTable .step-mark.incorrect { color: $error; }
    StepTable .step-mark.invalid { color: $warning; }
    """

    def __init__(self, steps: tuple[Step, ...], unit: str, draft: list[str], **kwargs: Any):
        super().__init__(**kwargs)
        self.steps = steps
        self.unit = unit
        self.draft = draft

    def compose(self) -> ComposeResult:
        for index, step in enumerate(self.steps):
            with Horizontal(classes="step-row"):
                yield Label(plain(step.label), classes="step-label")
                value = self.draft[index] if index < len(self.draft) else ""
                yield StepInput(value=value, id=f"step-{index}", placeholder="value")
                yield Label(plain(self.unit), classes="step-unit")
                yield Label("", id=f"mark-{index}", classes="step-mark")

    @property
    def inputs(self) -> list[Input]:
        return list(self.query(Input))

    def values(self) -> list[str]:
        return [box.value for box in self.inputs]

    def move(self, box: Input, delta: int) -> None:
        """Move the keyboard from `box` to the row `delta` from it; the first and last rows stay put, with the
        bell and a line saying which way the rows go (the footer's ↑↓ is one entry for both keys)."""
        inputs = self.inputs
        at = inputs.index(box) + delta
        if 0 <= at < len(inputs):
            inputs[at].focus()
            return
        self.app.bell()
        end, way = ("first", "↓ goes to the row below") if delta < 0 else ("last", "↑ goes to the row above")
        self.notify(f"This is the {end} row: {way}.")

    def first_empty(self) -> Input | None:
        return next((box for box in self.inputs if not box.value.strip()), None)

    def mark(self, rows: tuple[Verdict, ...]) -> None:
        for index, row in enumerate(rows):
            label = self.query_one(f"#mark-{index}", Label)
            label.update(MARK[row.status])
            label.set_classes(f"step-mark {row.status}")
