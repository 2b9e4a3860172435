"""Put items in order with the mouse or the keyboard, as terminals have no drag and drop of their own.

Mouse: press on an item, drag it (the list shows where it will land), release to drop; releasing
outside the list or pressing Escape puts it back. Keyboard: arrows move the cursor, Space picks the
item up and drops it, Alt+Up/Down moves the item under the cursor directly, Escape cancels a pick-up,
Enter submits. An item too long for a line wraps under its text (a hanging indent), so every item reads
whole at 80 columns; the list keeps which item each row belongs to, for the mouse.
"""

from __future__ import annotations

import textwrap
from typing import Any

from rich.text import Text
from textual import events
from textual.actions import SkipAction
from textual.binding import Binding
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from grader.kinds.design import DesignItem


class OrderList(Widget, can_focus=True):
    DEFAULT_CSS = """
    OrderList { height: auto; border: tall $border-blurred; padding: 0 1; }
    OrderList:focus { border: tall $border; }
    """
    BINDINGS = [
        Binding("up", "cursor(-1)", "Up", show=False),
        Binding("down", "cursor(1)", "Down", show=False),
        Binding("space", "hold(True)", "Pick"),
        Binding("space", "hold(False)", "Drop"),   # check_action offers the one that does something now
        Binding("alt+up", "move(-1)", "Move", key_display="alt+↑↓"),   # one footer entry for both: 80 columns
        Binding("alt+down", "move(1)", "Move down", show=False),
        Binding("escape", "cancel", "Cancel", show=False),
        Binding("enter", "submit", "Submit"),
    ]

    cursor = reactive(0)
    held = reactive(False, bindings=True)   # the footer's space says Pick or Drop

    class Submitted(Message):
        def __init__(self, order: list[str]):
            super().__init__()
            self.order = order

    def __init__(self, items: tuple[DesignItem, ...], **kwargs: Any):
        super().__init__(**kwargs)
        self.by_id = {item.id: item for item in items}
        self.order = [item.id for item in items]
        self.before_hold: list[str] | None = None
        self.dragging = False
        self.wrong_position: int | None = None
        self.item_of_row: list[int] = []   # the item each row of the list shows, as last drawn

    # --- drawing ------------------------------------------------------------------------------

    def render(self) -> Text:
        lines = self._lines(self.content_size.width)
        self.item_of_row = [index for index, _ in lines]
        text = Text(no_wrap=True)
        for row, (index, line) in enumerate(lines):
            first = row == 0 or lines[row - 1][0] != index
            lifted = index == self.cursor and (self.held or self.dragging)
            marker = ("⇅" if lifted else "✗" if index == self.wrong_position else "▶" if index == self.cursor
                      else " ")
            style = "reverse bold" if lifted else ("bold" if index == self.cursor and self.has_focus else "")
            label = f"{marker} {index + 1}. " if first else ""
            text.append(label.ljust(self._indent()), style or "dim")
            text.append(line, style)
            if row < len(lines) - 1:
                text.append("\n")
        return text

    def _indent(self) -> int:
        """The width of `▶ 12. `, where every line of an item's text starts."""
        return len(f"  {len(self.order)}. ")

    def _lines(self, width: int) -> list[tuple[int, str]]:
        """(item index, line of its text) for every row, each item wrapped to `width` under its text."""
        room = max(width - self._indent(), 10)
        return [(index, line) for index, item_id in enumerate(self.order)
                for line in textwrap.wrap(self.by_id[item_id].text, room) or [""]]

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(self._lines(width))

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()

    # --- keyboard -----------------------------------------------------------------------------

    def _swap(self, index: int, target: int) -> None:
        self.order[index], self.order[target] = self.order[target], self.order[index]
        self.wrong_position = None

    def action_cursor(self, step: int) -> None:
        target = max(0, min(len(self.order) - 1, self.cursor + step))
        if self.held and target != self.cursor:
            self._swap(self.cursor, target)
        self.cursor = target
        self.refresh()

    def action_move(self, step: int) -> None:
        """Alt+↑/↓: the item under the cursor one place up or down; at the end it cannot pass, the bell and a
        line saying which way it can go (the footer's one entry is both keys, so it stays offered)."""
        target = self.cursor + step
        if not 0 <= target < len(self.order):
            self.app.bell()
            end, way = ("first", "alt+↓ moves it down") if step < 0 else ("last", "alt+↑ moves it up")
            self.notify(f"Item {self.cursor + 1} is {end} already: {way}.")
            return
        self._swap(self.cursor, target)
        self.cursor = target
        self.refresh()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "hold":   # space picks an item up, or drops the one carried: the footer says which
            return parameters[0] != self.held
        return True

    def action_hold(self, carry: bool) -> None:
        self.before_hold = list(self.order) if carry else None
        self.held = carry
        self.refresh()

    def action_cancel(self) -> None:
        """Escape: put a picked-up or dragged item back; with nothing in hand, leave the exercise."""
        if (self.held or self.dragging) and self.before_hold is not None:
            moved = self.order[self.cursor]
            self.order = self.before_hold
            self.cursor = self.order.index(moved)
            self.held = False
            if self.dragging:
                self.dragging = False
                self.release_mouse()
            self.before_hold = None
            self.refresh()
        else:
            raise SkipAction()   # Escape goes on to the screen's own binding (leave the exercise)

    def action_submit(self) -> None:
        self.held = False
        self.post_message(self.Submitted(list(self.order)))
        self.refresh()

    # --- mouse --------------------------------------------------------------------------------

    def _row_at(self, y: int) -> int:
        """The item drawn on content row `y`: above the list the first, below it the last."""
        rows = self.item_of_row or list(range(len(self.order)))
        return rows[max(0, min(len(rows) - 1, y))]

    def on_mouse_down(self, event: events.MouseDown) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        self.focus()
        self.cursor = self._row_at(offset.y)
        self.before_hold = list(self.order)
        self.dragging = True
        self.capture_mouse()
        self.refresh()

    def on_mouse_move(self, event: events.MouseMove) -> None:
        if not self.dragging:
            return
        if not self.region.contains(event.screen_x, event.screen_y):
            return
        target = self._row_at(event.y - (self.content_region.y - self.region.y))   # above or below: the end rows
        if target != self.cursor:
            item = self.order.pop(self.cursor)
            self.order.insert(target, item)
            self.cursor = target
            self.wrong_position = None
            self.refresh()

    def on_mouse_up(self, event: events.MouseUp) -> None:
        if not self.dragging:
            return
        self.dragging = False
        self.release_mouse()
        # Inside the list's box, its border and padding included: a drop on the row under the last item
        # (the border) is a drop in the last slot, not outside.
        inside = self.region.contains(event.screen_x, event.screen_y)
        if not inside and self.before_hold is not None:  # dropped outside the list: put it back
            moved = self.order[self.cursor]
            self.order = self.before_hold
            self.cursor = self.order.index(moved)
        self.before_hold = None
        self.refresh()
