"""What every part of the plain-line face works with: the book, the learner's store, the clock and the console."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING

from grader.book.model import Book
from tui.lines.console import Console
from tui.progress.store import ProgressStore

if TYPE_CHECKING:
    from tui.progress.review import Card


@dataclass
class Context:
    book: Book
    store: ProgressStore
    console: Console
    clock: Callable[[], datetime]
    review_cards: list[Card] = field(default_factory=list)   # a review session under way (back pauses it)
    review_at: int = 0
    review_purpose: str = "review"

    def store_position(self, chapter_id: str, exercise_id: str = "", *, at_opening: bool = False) -> None:
        """Where the learner is, for Continue: as the app keeps it."""
        if not self.store.read_only:
            self.store.set_last_opened(chapter_id, exercise_id, at_opening=at_opening)
