"""A screen's scrolling page, which the keyboard never loses.

Textual scrolls a container by key only while it, or something in it, has focus. Once an answer was
submitted or a box left, the focus could end up nowhere, and then PgUp, PgDn and the arrows did nothing
until Tab (which no footer shows) brought it back. A Page takes the focus whenever its screen would have
none; any Scroll's `reveal` brings what has just appeared (a verdict, feedback, results) into view.
"""

from __future__ import annotations

from collections.abc import Callable

from textual.containers import VerticalScroll
from textual.geometry import Region, Size
from textual.widget import Widget
from textual.widgets import TextArea

SCROLL_BACK_FRAMES = 30


class Scroll(VerticalScroll):
    """A scrolling container whose gaining or losing the keyboard restyles it alone. Textual restyles a
    widget and everything in it when its focus changes, in case a rule styles what is inside a focused
    container (`OptionList:focus > ...`); none styles what is inside a scrolling page (a test checks every
    screen's rules), and a chapter's page holds ~80 widgets: pressing `e` there spent 70 ms restyling them."""

    def watch_has_focus(self, _has_focus: bool) -> None:
        self.app.stylesheet.update_nodes([self], animate=True)

    def scroll_back(self, y: float, frames: int = SCROLL_BACK_FRAMES) -> None:
        """Scroll to `y` (where a screen read again from a live book was): each frame until the page, whose
        Markdown is laid out a frame or more after it is mounted, is tall enough, or `frames` have passed."""
        if not self.is_attached:
            return
        self.scroll_to(y=y, animate=False, immediate=True)
        if self.scroll_y < y and frames > 0:
            self.call_after_refresh(self.scroll_back, y, frames - 1)

    def reveal(self, widget: Widget, *, top: bool = False, keeping: Widget | None = None,
               lose: Callable[[], None] | None = None) -> None:
        """Scroll `widget` into view once it has been laid out; `top` puts it at the top of the page, so as
        much as possible of what follows it (an explanation after a verdict) shows too. `keeping`: what has
        the keyboard, which must stay on screen too (an editor: the line with its cursor); if both cannot
        show at once, `lose` is called to move the keyboard somewhere that shows."""
        self.call_after_refresh(self._reveal, widget, top, keeping, lose, None)

    def _reveal(self, widget: Widget, top: bool, keeping: Widget | None, lose: Callable[[], None] | None,
                laid_out: Size | None) -> None:
        """Scroll, and again after each refresh that changes the page's size, until one does not: Markdown
        lays its blocks out a frame or more after it is mounted, and a scroll made before that stopped short
        (the quiz's rating in view but not the "n" line under it, on a loaded machine)."""
        if not self.is_attached or not widget.is_attached:
            return
        if keeping is None:
            self.scroll_to_widget(widget, animate=False, top=top, immediate=True)
        else:
            self._reveal_keeping(widget, keeping, lose)
        if self.virtual_size != laid_out:
            self.call_after_refresh(self._reveal, widget, top, keeping, lose, self.virtual_size)

    def _reveal_keeping(self, widget: Widget, keeping: Widget, lose: Callable[[], None] | None) -> None:
        shown, kept = self.page_region(widget), self.page_region(keeping)
        both = shown.union(kept)
        if both.height <= self.scrollable_content_region.height:
            self.scroll_to_region(both, animate=False, immediate=True)
            return
        self.scroll_to_region(shown, animate=False, immediate=True)
        if lose is not None:
            lose()

    def keep_in_view(self, widget: Widget) -> None:
        """Scroll as little as needed for `widget` to show (an editor: the line with its cursor)."""
        self.scroll_to_region(self.page_region(widget), animate=False, immediate=True)

    def page_region(self, widget: Widget) -> Region:
        """Where `widget` is on the page (whether scrolled into view or not), from the page's top; for an
        editor, the line with its cursor, which is what must show while it is typed on."""
        return typed_on(widget).translate((-self.content_region.x + round(self.scroll_x),
                                           -self.content_region.y + round(self.scroll_y)))

    def shows(self, widget: Widget) -> bool:
        """Whether some of `widget` is in view (an editor: the line with its cursor)."""
        return bool(typed_on(widget).intersection(self.content_region).area)

    def _keyboard(self) -> Widget | None:
        """What has the keyboard, if it is on this page (not the page itself)."""
        focused = self.screen.focused
        return focused if focused is not None and self in focused.ancestors else None

    def show_keyboard(self, laid_out: Size | None = None) -> None:
        """What has the keyboard shows: when none of it does (the page was laid out again at another size under
        another screen), scroll the least that shows it; again after each refresh that changes the page's
        size, as `_reveal` does."""
        if not self.is_attached:
            return
        focused = self._keyboard()
        if focused is not None and not self.shows(focused):
            self.keep_in_view(focused)
        if self.virtual_size != laid_out:
            self.call_after_refresh(self.show_keyboard, self.virtual_size)


def typed_on(widget: Widget) -> Region:
    """Where `widget` is on screen; for an editor, the line with its cursor, which is what must show."""
    region = widget.region
    if isinstance(widget, TextArea):
        return Region(region.x, widget.cursor_screen_offset.y, region.width, 1)
    return region


class Page(Scroll):
    def on_mount(self) -> None:
        self.watch(self.screen, "focused", self._focus_moved)

    def _focus_moved(self, focused: Widget | None) -> None:
        if focused is None:
            self.call_after_refresh(self._take_focus)

    def _take_focus(self) -> None:
        if self.is_attached and self.display and self.screen.focused is None:
            self.focus(scroll_visible=False)

