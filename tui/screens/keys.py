"""The keys that matter, in a dialog over the screen (`?`): this screen's, those that work everywhere,
and how to type in the answer box or the editor when the screen has one.

Textual's key panel listed widget internals (`← Scroll Left`, `^pgup Page Left`, `^c Copy selected text`,
`shift+tab Focus Previous`) before what a learner uses, and needed scrolling even at 120x40. Only keys
ringbook binds itself are listed; the widgets' own (arrows in a list, editing keys) are said in words.
The list is a Page: PgUp, PgDn and the arrows scroll it if it is ever taller than the screen.
"""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.dom import DOMNode
from textual.screen import ModalScreen, Screen
from textual.widgets import Input, Static, TextArea

from tui.widgets.page import Page
from tui.widgets.step_table import StepTable

Group = tuple[str, list[tuple[str, str]]]
HIDDEN = {"toggle_keys"}   # `?` itself: the dialog's title says it closes it
# Beside an editor, ^z is said as its undo (IN_THE_EDITOR), and the build's dialog has no line to spare at 80x24.
HIDDEN_BESIDE_EDITOR = {"suspend_process"}
SAID_IN_FULL = {   # the footer's word is short for 80 columns
    "screenshot": "Screenshot, saved in your data folder",
    "control(1)": "Move between the controls; ↓ after the last goes on to the question",
    "hide_explanation": "Hide the explanation",
}

EVERYWHERE_TOO = [
    ("^p", "Find a chapter, exercise, quiz, lab or command"),
    ("PgUp PgDn Home End", "Scroll the page"),
]
IN_THE_BOX = ("In the answer box", [
    ("Enter", "Submit the answer"),
    ("Esc", "Leave the box: letters are commands again"),
    ("←/→ ^a/^e", "Move in the box; to its start, its end"),
    ("^u", "Delete all before the cursor"),
    ("f1", "A hint, while typing"),
])
IN_THE_TABLE = ("In a trace table", [
    ("↑/↓ Tab", "Move to the row above or below"),
    ("Enter", "On to the next empty row; submits once every row has a value"),
])
IN_THE_EDITOR = ("In the editor", [
    ("Esc", "Leave the editor: letters are commands again"),
    ("arrows ^←/^→", "Move; by word"),
    ("^a/^e ^home/^end", "Line start/end; code start/end"),
    ("^z/^y", "Undo (an older run too), redo"),
])


def ours(node: DOMNode, binding: Binding) -> bool:
    """Whether ringbook binds this key itself (a class of ours lists it), not a Textual widget."""
    for cls in type(node).__mro__:
        if cls.__module__.startswith("tui.") and "BINDINGS" in cls.__dict__:
            for own in cls.__dict__["BINDINGS"]:
                if isinstance(own, Binding) and own.action == binding.action and binding.key in own.key.split(","):
                    return True
    return False


def keys_of(screen: Screen) -> list[Group]:
    """(heading, [(key as shown, what it does)]) for `screen` as it is now: its own keys that work now,
    the keys that work everywhere, and how to type in its answer box or editor."""
    app = screen.app
    here: list[tuple[str, str]] = []
    everywhere: list[tuple[str, str]] = []
    seen: set[tuple[str, str]] = set()
    row_of: dict[tuple[int, str], tuple[list[tuple[str, str]], int]] = {}   # (node, action) -> its row
    for active in screen.active_bindings.values():
        node, binding = active.node, active.binding
        if not active.enabled or not binding.description or isinstance(node, (Input, TextArea)):
            continue   # the box's and the editor's keys are said below, in words
        if binding.action in HIDDEN or (binding.action in HIDDEN_BESIDE_EDITOR and screen.query(TextArea)):
            continue
        if not ours(node, binding):
            continue
        shown = app.get_key_display(binding)
        description = SAID_IN_FULL.get(binding.action, binding.description)
        if (shown, description) in seen:
            continue
        seen.add((shown, description))
        rows, index = row_of.get((id(node), binding.action), ([], -1))
        if index >= 0:   # another key for the same action (→, + and = all step up): one row says them all
            rows[index] = (f"{rows[index][0]} {shown}", description)
            continue
        app_wide = node is app or binding.action.startswith("app.")   # a screen that shows an app key
        rows = everywhere if app_wide else here
        row_of[id(node), binding.action] = (rows, len(rows))
        rows.append((shown, description))
    here += getattr(screen, "KEYS_IN_WORDS", [])   # a widget's own keys the screen says it offers (home's list)
    everywhere_keys = {key for key, _ in everywhere}
    groups: list[Group] = [("This screen", [row for row in here if row[0] not in everywhere_keys]),
                           ("Everywhere", EVERYWHERE_TOO + everywhere)]
    if screen.query(Input):
        groups.append(IN_THE_BOX)
    if screen.query(StepTable):
        groups.append(IN_THE_TABLE)
    if screen.query(TextArea):
        groups.append(IN_THE_EDITOR)
    return [(heading, rows) for heading, rows in groups if rows]


class KeysScreen(ModalScreen[None]):
    CSS_PATH = "keys.tcss"
    BINDINGS = [Binding("escape,question_mark", "dismiss", "Close")]

    def __init__(self, groups: list[Group]):
        super().__init__()
        self.groups = groups

    def compose(self) -> ComposeResult:
        table = Table.grid(padding=(0, 2))
        table.add_column(style="bold")
        table.add_column()
        for heading, rows in self.groups:
            table.add_row(Text(heading, "bold underline"), "")
            for key, description in rows:
                table.add_row(Text(key), Text(description))
        with Vertical(id="keys"):
            yield Static(Text.assemble(("Keys", "bold"), " · Esc or ? closes"), id="keys-title")
            with Page(id="keys-list"):
                yield Static(table, id="keys-table")

    def on_click(self, event: events.Click) -> None:
        if event.widget is self:  # a click outside the dialog closes it
            self.dismiss(None)
