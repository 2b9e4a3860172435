"""A text cursor that blinks while the learner works in the box and then holds still, as GTK's does ten seconds
after the last key (gtk-cursor-blink-timeout). Each blink is a frame drawn and written to the terminal, so a
class thinking over the same question kept part of a core busy blinking, taken from the verdicts on their
way when it submitted together (what it cost: docs/classroom.md, section 9)."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import TextArea

if TYPE_CHECKING:
    class _BlinkingBox(Widget):
        """What the mixin uses of Input and TextArea."""

        cursor_blink: bool

        def _restart_blink(self) -> None: ...

        def _pause_blink(self, visible: bool = True) -> None: ...
else:   # a mixin, not a Widget: a Widget base between a subclass and Input hides Input's component classes
    _BlinkingBox = object

BLINK_SECONDS = 10.0   # how long the cursor blinks after the box is focused, typed in, pasted into or clicked


class SettlingCursor(_BlinkingBox):
    """Mixed in before an Input or a TextArea, whose `cursor_blink` it turns on and off."""

    _stirred_at = 0.0
    _settle_timer: Timer | None = None

    def _restart_blink(self) -> None:
        """Input and TextArea restart the blink whenever the learner works in the box: focused, typed in, pasted
        into, clicked, the cursor moved (pinned in tests/test_pinned_internals.py). It blinks for BLINK_SECONDS
        from then."""
        self._stirred_at = time.monotonic()
        if not self.cursor_blink:
            self.cursor_blink = True
        if self._settle_timer is None:
            self._settle_timer = self.set_timer(BLINK_SECONDS, self._settle)
        super()._restart_blink()

    def hold_cursor(self) -> None:
        """Keep the cursor lit, not blinking, until the next key: an answer has been sent, and its verdict is read.
        A key has just lit it, so nothing is redrawn (setting cursor_blink would draw a frame of its own, ahead of
        the verdict)."""
        self._pause_blink(visible=True)

    def _settle(self) -> None:
        """One timer for all the keys typed: when it is due, it waits out what the last key left of the time."""
        self._settle_timer = None
        left = self._stirred_at + BLINK_SECONDS - time.monotonic()
        if left > 0:
            self._settle_timer = self.set_timer(left, self._settle)
        else:
            self.cursor_blink = False


class SettlingTextArea(SettlingCursor, TextArea):
    """A TextArea whose cursor settles: the code editor, the quiz's notes."""
