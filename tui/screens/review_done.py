"""The end of a review or practice session: how each card went and when it comes back, over the home
screen. Practice (cards taken early, when nothing was due) moves no schedule, and the summary says so."""

from __future__ import annotations

from datetime import datetime

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from tui.progress.review import SessionResult
from tui.widgets.screen_frame import Footer

TITLE_WIDTH = 34  # what fits beside the mark, id, outcome and return date in 80 columns


def outcome(result: SessionResult) -> tuple[str, str, str]:
    """(mark, words, style) for one card."""
    if result.right_first_time:
        return "✓", "first try", "green"
    if result.solved:
        return "✓", f"{result.tries} tries", "yellow"
    if result.tries:
        return "✗", "not solved", "red"
    return "·", "skipped", "dim"


def comes_back(due: datetime | None, now: datetime) -> str:
    if due is None:
        return ""
    return "due now" if due <= now else "back " + due.astimezone().strftime("%a %d %b")


class ReviewDoneScreen(ModalScreen[None]):
    """Reviewed, right first time, and when each card and the next review are due."""

    CSS_PATH = "review_done.tcss"
    BINDINGS = [Binding("enter", "dismiss", "Home", priority=True), Binding("escape", "dismiss", "Home", show=False)]

    def __init__(self, results: list[SessionResult], titles: dict[str, str], now: datetime,
                 next_due: datetime | None, *, practice: bool = False):
        super().__init__()
        self.results, self.titles, self.now, self.next_due = results, titles, now, next_due
        self.practice = practice

    def compose(self) -> ComposeResult:
        reviewed = sum(1 for r in self.results if r.tries)
        first = sum(1 for r in self.results if r.right_first_time)
        rows = Text()
        for result in self.results:
            mark, words, style = outcome(result)
            title = self.titles.get(result.exercise_id, "")
            title = title if len(title) <= TITLE_WIDTH else title[:TITLE_WIDTH - 1] + "…"
            rows.append_text(Text.assemble(
                (f"{mark} ", style), (f"{result.exercise_id:<6}", "bold"), f"{title:<{TITLE_WIDTH}} ",
                (f"{words:<11}", style), (comes_back(result.due, self.now), "dim"), "\n"))
        rows.rstrip()
        still_due = sum(1 for r in self.results if r.due is not None and r.due <= self.now)
        if still_due:
            when = f"{still_due} card{'s' if still_due != 1 else ''} still due now (r on the home screen)"
        else:
            when = self.next_due.astimezone().strftime("%a %d %b, %H:%M") if self.next_due else "nothing scheduled"
        with Vertical(id="review-done"):
            yield Static("Practice done" if self.practice else "Review done", id="review-done-title")
            counts = Text.assemble(f"{'Practised' if self.practice else 'Reviewed'} {reviewed} of "
                                   f"{len(self.results)} · right first time ", (str(first), "bold"))
            if self.practice:
                counts.append("\nPractice is kept with your attempts; your review schedule stays as it was.",
                              "dim")
            yield Static(counts, id="review-done-counts")
            yield Static(rows, id="review-done-cards")
            yield Static(Text.assemble(("Next review: ", "bold"), when), id="review-done-next")
        yield Footer()

    def on_click(self, event: events.Click) -> None:
        if event.widget is self:  # a click outside the dialog closes it
            self.dismiss(None)
