"""Nothing is due: an offer to practise the cards that come due soonest, accepted with Enter."""

from __future__ import annotations

from datetime import datetime

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from tui.widgets.screen_frame import Footer


class PracticeOfferScreen(ModalScreen[bool]):
    """Dismissed with True (practise now) or False (not now), over the home screen."""

    DEFAULT_CSS = """
    PracticeOfferScreen { align: center middle; background: $background 60%; }
    #practice-offer { width: 64; max-width: 100%; height: auto; border: round $accent; background: $panel;
                      padding: 0 1; }
    #practice-offer-title { text-style: bold; color: $accent; margin-bottom: 1; }
    """
    BINDINGS = [Binding("enter", "answer(True)", "Practise", priority=True),
                Binding("escape", "answer(False)", "Not now")]

    def __init__(self, count: int, soonest: datetime):
        super().__init__()
        self.count, self.soonest = count, soonest

    def compose(self) -> ComposeResult:
        cards = "the card" if self.count == 1 else f"the {self.count} cards"
        when = self.soonest.astimezone().strftime("%a %d %b")
        with Vertical(id="practice-offer"):
            yield Static("Nothing is due for review", id="practice-offer-title")
            yield Static(Text.assemble(
                f"The next card is due on {when}. Practise {cards} that come due soonest now? Your "
                "answers are kept; your review schedule stays as it is.\n\n",
                ("Enter", "bold"), " practise   ", ("Escape", "bold"), " not now"), id="practice-offer-text")
        yield Footer()

    def action_answer(self, accepted: bool) -> None:
        self.dismiss(accepted)

    def on_click(self, event: events.Click) -> None:
        if event.widget is self:  # a click outside the dialog declines
            self.dismiss(False)
