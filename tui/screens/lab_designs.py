"""The designs a learner saved from a lab, newest first, as a small dialog: Enter restores one."""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from grader.lab.design import LabDesign, design_from
from grader.lab.model import Lab
from tui.progress.store import Entry


class LabDesignsScreen(ModalScreen[LabDesign | None]):
    CSS_PATH = "lab_designs.tcss"
    BINDINGS = [Binding("escape", "dismiss(None)", "Close")]

    def __init__(self, lab: Lab, entries: list[Entry]):
        super().__init__()
        self.lab = lab
        self.designs = {entry.uid: design_from(entry.payload, lab) for entry in entries}
        self.entries = entries

    def compose(self) -> ComposeResult:
        with Vertical(id="designs"):
            yield Static(Text.assemble(("Your saved designs", "bold"), ("  Enter restores one, Esc closes", "dim")),
                         id="designs-title")
            if not self.entries:
                yield Static("None yet: commit your Act II prediction, set a layout, and press s to save it.",
                             id="designs-none")
                return
            count = len(self.entries)
            yield OptionList(*(Option(Text.assemble((f"{count - i}. ", "bold"), (f"{e.local_date}  ", "dim"),
                                                    self.designs[e.uid].summary(self.lab)), id=e.uid)
                               for i, e in enumerate(reversed(self.entries))), id="design-list")

    def on_mount(self) -> None:
        # "Design saved ... press d to see your designs" has been followed: it would cover the dialog's
        # lower border at 80x24, so it goes.
        self.app.clear_notifications()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(self.designs[event.option.id or ""])

    def on_click(self, event: events.Click) -> None:
        if event.widget is self:  # a click outside the dialog closes it
            self.dismiss(None)
