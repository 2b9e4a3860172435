"""Every key of the screen underneath, in a dialog over it (`?`).

Textual's key panel took a third of the screen beside what it described, so at 80 columns every row of
the home list wrapped, and it could not be scrolled by keyboard. This dialog covers the screen instead,
and its list is a Page: PgUp, PgDn and the arrows scroll it.
"""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import Static

from tui.widgets.page import Page


def keys_of(screen: Screen) -> list[tuple[str, str]]:
    """(key as shown, what it does) for each binding active on `screen`, once each: the footer's first,
    then those it leaves out (scrolling, focus, copy, and the keys hidden to fit 80 columns)."""
    seen, rows = set(), []
    actives = sorted(screen.active_bindings.values(), key=lambda active: not active.binding.show)
    for active in actives:
        binding = active.binding
        description = binding.description or binding.action
        if (binding.action, description) in seen or not active.enabled:
            continue
        seen.add((binding.action, description))
        rows.append((screen.app.get_key_display(binding), description))
    return rows


class KeysScreen(ModalScreen[None]):
    CSS_PATH = "keys.tcss"
    BINDINGS = [Binding("escape,question_mark", "dismiss", "Close")]

    def __init__(self, keys: list[tuple[str, str]]):
        super().__init__()
        self.keys = keys

    def compose(self) -> ComposeResult:
        table = Table.grid(padding=(0, 2))
        table.add_column(style="bold")
        table.add_column()
        for key, description in self.keys:
            table.add_row(Text(key), Text(description))
        with Vertical(id="keys"):
            yield Static(Text.assemble(("Keys", "bold"), " · Esc or ? closes"), id="keys-title")
            with Page(id="keys-list"):
                yield Static(table, id="keys-table")

    def on_click(self, event) -> None:
        if event.widget is self:  # a click outside the dialog closes it
            self.dismiss(None)
