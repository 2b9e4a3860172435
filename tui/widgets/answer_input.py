"""The answer box: an Input that says its own keys in the footer (Enter submits, Escape leaves it)."""

from __future__ import annotations

from typing import Any

from textual import events
from textual.binding import Binding
from textual.widget import Widget
from textual.widgets import Input

from tui.widgets.keys_in_order import OwnKeysInOrder
from tui.widgets.settling_cursor import SettlingCursor

ANSWER_KEY = "i"   # the exercise screen's key for "the answer takes the keyboard"


class AnswerInput(OwnKeysInOrder, SettlingCursor, Input):
    BINDINGS = [
        Binding("enter", "submit", "Submit"),
        Binding("escape", "leave", "Leave box"),
    ]

    def __init__(self, value: str | None = None, *args: Any, **kwargs: Any) -> None:
        """A box given a value (a restored draft) does not select it on arrival: the next key would replace
        what the learner had typed (`16*7` then ` GB/s` left ` GB/s`), not go on with it."""
        kwargs.setdefault("select_on_focus", not value)
        super().__init__(value, *args, **kwargs)

    async def action_submit(self) -> None:
        self.hold_cursor()   # the verdict is read now; a blink meanwhile is a frame that holds verdicts back
        await super().action_submit()

    def action_leave(self) -> None:
        """Give the keyboard back, to the nearest focusable container (an answer panel) or else the
        screen, where single letters are commands again."""
        self.screen.set_focus(next((node for node in self.ancestors_with_self[1:]
                                    if isinstance(node, Widget) and node.can_focus), None),
                              scroll_visible=False)
        self.screen.refresh_bindings()

    async def _on_key(self, event: events.Key) -> None:
        """`i` before anything is typed (an empty box, or all of it selected as it is on arrival) is the
        key that asks for the box, which has the keyboard already: it is not the first letter of an answer
        ("i44.4" said "There is a unit (i44.4) but no number"). No answer starts with i; an i later on
        (GiB) is typed."""
        if event.character == ANSWER_KEY and (not self.value or self.selection == (0, len(self.value))
                                              or self.selection == (len(self.value), 0)):
            event.stop()
            event.prevent_default()
            return
        await super()._on_key(event)

    def start_with(self, character: str) -> None:
        """Take the keyboard with `character` typed (focusing selects the box, and the next key would
        replace the selection: not this time)."""
        self.select_on_focus = False
        self.focus()
        self.insert_text_at_cursor(character)

    def on_blur(self) -> None:
        self.select_on_focus = True
