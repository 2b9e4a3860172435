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
        """Give the keyboard back, to the nearest focusable container (an answer panel) or else the
        screen, where single letters are commands again."""
        self.screen.set_focus(next((node for node in self.ancestors_with_self[1:]
                                    if getattr(node, "can_focus", False)), None),
                              scroll_visible=False)
        self.screen.refresh_bindings()

    def start_with(self, character: str) -> None:
        """Take the keyboard with `character` typed (focusing selects the box, and the next key would
        replace the selection: not this time)."""
        self.select_on_focus = False
        self.focus()
        self.insert_text_at_cursor(character)

    def on_blur(self) -> None:
        self.select_on_focus = True
