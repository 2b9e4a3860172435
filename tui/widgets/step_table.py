"""A step table: one input per step of an algorithm, each marked when graded."""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Input, Label

from grader.kinds.trace import Step
from grader.verdict import Verdict
from tui.widgets.answer_input import AnswerInput
from tui.widgets.plain import plain

MARK = {"correct": "✓", "incorrect": "✗", "invalid": "?"}


class StepTable(Vertical):
    """Rows of `label | input | unit | mark`; Enter moves to the next empty row."""

    DEFAULT_CSS = """
    StepTable { height: auto; margin: 1 0 0 0; }
    StepTable .step-row { height: 1; margin-bottom: 1; }
    StepTable .step-label { width: 1fr; max-width: 40; padding: 0 1 0 0; }
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
                yield AnswerInput(value=value, id=f"step-{index}", placeholder="value")
                yield Label(plain(self.unit), classes="step-unit")
                yield Label("", id=f"mark-{index}", classes="step-mark")

    @property
    def inputs(self) -> list[Input]:
        return list(self.query(Input))

    def values(self) -> list[str]:
        return [box.value for box in self.inputs]

    def first_empty(self) -> Input | None:
        return next((box for box in self.inputs if not box.value.strip()), None)

    def mark(self, rows: tuple[Verdict, ...]) -> None:
        for index, row in enumerate(rows):
            label = self.query_one(f"#mark-{index}", Label)
            label.update(MARK[row.status])
            label.set_classes(f"step-mark {row.status}")
