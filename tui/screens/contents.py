"""A chapter's table of contents as a small dialog: pick a section, and the chapter scrolls to it."""

from __future__ import annotations

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from tui.widgets.plain import plain
from tui.widgets.screen_frame import closing


class ContentsScreen(ModalScreen[str | None]):
    CSS_PATH = "contents.tcss"
    BINDINGS = [Binding("escape", "dismiss(None)", "Close")]

    def __init__(self, entries: list[tuple[int, str, str | None]], current: str | None = None):
        """`current`: the block id of the section being read, highlighted when the list opens."""
        super().__init__()
        self.entries = entries
        self.current = current

    def compose(self) -> ComposeResult:
        with Vertical(id="contents"):
            yield Static("Contents", id="contents-title")
            yield OptionList(*(Option(plain(("  " * (level - 2)) + label), id=block_id)
                               for level, label, block_id in self.entries if block_id), id="sections")

    def on_mount(self) -> None:
        if closing(self):
            return
        sections = self.query_one("#sections", OptionList)
        if self.current is not None:
            sections.highlighted = sections.get_option_index(self.current)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)

    def on_click(self, event: events.Click) -> None:
        if event.widget is self:  # a click outside the dialog closes it
            self.dismiss(None)
