"""The answer box: an Input that says its own keys in the footer (Enter submits, Escape leaves it)."""

from __future__ import annotations

from textual.binding import Binding
from textual.widgets import Input


class AnswerInput(Input):
    BINDINGS = [
        Binding("enter", "submit", "Submit"),
        Binding("escape", "leave", "Leave box"),
    ]

    def action_leave(self) -> None:
        """Give the keyboard back to the screen, where single letters are commands again."""
        self.screen.set_focus(None)
        self.screen.refresh_bindings()
