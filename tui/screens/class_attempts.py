"""One learner's attempts at one exercise, graded again as the class report grades them, over the live view."""

from __future__ import annotations

from datetime import datetime

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from grader.book.model import Book
from grader.safe_text import clipped
from tui.progress.class_live import KEPT_ATTEMPTS, Tried
from tui.progress.class_live_text import attempt_line, name
from tui.widgets.screen_frame import Footer


class ClassAttemptsScreen(ModalScreen[None]):
    CSS_PATH = "class_attempts.tcss"
    BINDINGS = [Binding("escape", "dismiss", "Back"), Binding("enter", "dismiss", "Back", show=False)]

    def __init__(self, learner: str, book: Book, exercise_id: str, tried: Tried | None, now: datetime):
        super().__init__()
        self.learner, self.book, self.exercise_id, self.tried, self.now = learner, book, exercise_id, tried, now

    def compose(self) -> ComposeResult:
        exercise = self.book.exercise(self.exercise_id)
        title = clipped(exercise.title, 40) if exercise is not None else ""
        with Vertical(id="class-attempts"):
            yield Static(Text(f"{name(self.learner)} · {self.exercise_id} {title}"), id="class-attempts-title")
            yield Static(Text("\n".join(self._lines())), id="class-attempts-list")
        yield Footer()

    def _lines(self) -> list[str]:
        if self.tried is None or not self.tried.recent:
            return ["No attempts yet."]
        state = "solved" if self.tried.solved else "not solved yet"
        head = f"{self.tried.attempts} counted attempt{'s' if self.tried.attempts != 1 else ''}, {state}"
        if self.tried.attempts > len(self.tried.recent):
            head += f" (the newest {KEPT_ATTEMPTS} shown)"
        return [head, *(attempt_line(a, self.now, self.book) for a in self.tried.recent)]
