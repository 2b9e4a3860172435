"""A stepper: one value from a short list, moved with ←/→, -/+ or a click on its arrows."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

FOCUS_MARKER = "▶ "   # marks the control ←/→ change: with NO_COLOR or a light theme a background barely shows


class Stepper(Widget, can_focus=True):
    """`▶ label  ◀ value ▶` (the first ▶ only while focused); posts Stepper.Changed whenever the value moves."""

    DEFAULT_CSS = """
    Stepper { height: 1; width: 1fr; padding: 0 1; }
    Stepper:focus { background: $accent 30%; }
    """
    BINDINGS = [
        Binding("left", "step(-1)", "Adjust", key_display="←→"),
        Binding("minus", "step(-1)", "Adjust", show=False),
        Binding("right,plus,equals_sign", "step(1)", "More", show=False),
    ]

    index: reactive[int] = reactive(0)

    class Changed(Message):
        def __init__(self, stepper: Stepper, value: Any):
            super().__init__()
            self.stepper = stepper
            self.value = value

        @property
        def control(self) -> Stepper:
            return self.stepper

    def __init__(self, label: str, choices: list[tuple[Any, str]], value: Any, *, label_width: int = 20, **kwargs: Any):
        super().__init__(**kwargs)
        self.label = label
        self.choices = choices
        self.label_width = label_width
        self.set_reactive(Stepper.index, [v for v, _ in choices].index(value))

    @property
    def value(self) -> Any:
        return self.choices[self.index][0]

    @value.setter
    def value(self, value: Any) -> None:
        self.index = [v for v, _ in self.choices].index(value)

    def render(self) -> Text:
        at_start, at_end = self.index == 0, self.index == len(self.choices) - 1
        return Text.assemble(
            (FOCUS_MARKER if self.has_focus else " " * len(FOCUS_MARKER), "bold"),
            (f"{self.label:<{self.label_width}}", "bold"), " ", ("◀" if not at_start else " ", "bold"), " ",
            (self.choices[self.index][1], "bold reverse" if self.has_focus else "bold"), " ",
            ("▶" if not at_end else " ", "bold"))

    def action_step(self, delta: int) -> None:
        self.index = max(0, min(len(self.choices) - 1, self.index + delta))

    def watch_index(self, old: int, new: int) -> None:
        if old != new:
            self.post_message(self.Changed(self, self.value))

    def on_click(self, event: events.Click) -> None:
        """A click left of the value's middle steps down, right of it steps up."""
        self.focus()
        middle = 1 + len(FOCUS_MARKER) + self.label_width + 3 + len(self.choices[self.index][1]) // 2
        self.action_step(-1 if event.x < middle else 1)
