"""A screen's scrolling page, which the keyboard never loses.

Textual scrolls a container by key only while it, or something in it, has focus. Once an answer was
submitted or a box left, the focus could end up nowhere, and then PgUp, PgDn and the arrows did nothing
until Tab (which no footer shows) brought it back. A Page takes the focus whenever its screen would have
none, and `reveal` brings what has just appeared (a verdict, feedback, results) into view.
"""

from __future__ import annotations

from textual.containers import VerticalScroll
from textual.widget import Widget


class Page(VerticalScroll):
    def on_mount(self) -> None:
        self.watch(self.screen, "focused", self._focus_moved)

    def _focus_moved(self, focused: Widget | None) -> None:
        if focused is None:
            self.call_after_refresh(self._take_focus)

    def _take_focus(self) -> None:
        if self.is_attached and self.display and self.screen.focused is None:
            self.focus(scroll_visible=False)

    def reveal(self, widget: Widget, *, top: bool = False) -> None:
        """Scroll `widget` into view once it has been laid out; `top` puts it at the top of the page, so as
        much as possible of what follows it (an explanation after a verdict) shows too."""
        self.call_after_refresh(self.scroll_to_widget, widget, animate=False, top=top)
