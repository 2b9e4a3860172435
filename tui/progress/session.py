"""One learner's study session, whichever face shows it: the book, the store, the clock, where the learner
is (Continue), the way through the book (next, previous, a chapter's own) and the review session under way.

The app (tui.app) and the plain-line face (tui.lines) each hold one and only show what it decides, so a review
poses the same cards, with the same seeds and purposes, and ends with the same figures in both. No Textual:
a screen is given the session, and a test can drive it without a terminal.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Literal

from grader.book.model import Book, Chapter
from tui.progress.store import ProgressStore
from tui.progress.streak import Streak

if TYPE_CHECKING:
    from grader.exercise import Exercise
    from grader.verdict import Verdict
    from tui.progress.class_share import ClassShare
    from tui.progress.records import Attempt
    from tui.progress.review import Card, ReviewEnd

Moved = Literal["card", "first", "done"]   # where a step through the review left it (StudySession.move)


@dataclass
class StudySession:
    """The book (a live book replaces it), the learner's store and the clock, with the review session under
    way: its cards, the one shown (`review_at`) and its purpose ("review", or "practice": cards practised
    early, which move no schedule). Leaving a card pauses the session; starting a review again resumes it.
    `share`: the class the learner's progress is shared with as they work (tui.progress.class_share)."""

    book: Book
    store: ProgressStore
    clock: Callable[[], datetime]
    share: ClassShare | None = None
    review_cards: list[Card] = field(default_factory=list)
    review_at: int = 0
    review_purpose: str = "review"

    # --- where the learner is, and the way through the book -------------------------------------

    def store_position(self, chapter_id: str, exercise_id: str = "", *, at_opening: bool = False) -> None:
        """Where the learner is, for Continue (nothing is written to a read-only store)."""
        if not self.store.read_only:
            self.store.set_last_opened(chapter_id, exercise_id, at_opening=at_opening)

    def record_answer(self, exercise_id: str, text: str, verdict: Verdict, *, hints_used: int, seconds_taken: float,
                      seed: int, purpose: str, explanation_shown: bool, draft_key: str) -> Attempt | None:
        """Keep a counted answer (tui.progress.answering.record_answer, at the session's clock), then share it
        with the class, if there is one. Raises StoreError when it cannot be kept: then nothing is shared."""
        from tui.progress.answering import record_answer

        attempt = record_answer(self.store, exercise_id, text, verdict, hints_used=hints_used,
                                seconds_taken=seconds_taken, seed=seed, purpose=purpose,
                                explanation_shown=explanation_shown, now=self.clock(), draft_key=draft_key)
        if attempt is not None and self.share is not None:
            self.share.attempted()
        return attempt

    def close(self) -> None:
        """The session ends: what waits to be shared is shared (the store is still open)."""
        if self.share is not None:
            self.share.close()

    def next_exercise(self, exercise: Exercise, step: int = 1) -> Exercise | None:
        """The exercise `step` after this one in the book (-1: before it); None past either end."""
        exercises = self.book.exercises
        index = [e.id for e in exercises].index(exercise.id) + step  # by id: a variant is another object
        return exercises[index] if 0 <= index < len(exercises) else None

    def chapter_of(self, exercise: Exercise) -> Chapter:
        chapter = self.book.chapter(exercise.chapter_id)
        assert chapter is not None, f"{exercise.id} is this book's"
        return chapter

    def streak(self) -> Streak:
        return self.store.streak(now=self.clock())

    # --- a review session: the due cards, or the soonest practised early --------------------------

    def start_due(self) -> bool:
        """Start a review of the cards due now, oldest due first; False when none is."""
        from tui.progress.review import due_in_book

        due = due_in_book(self.store, self.book, self.clock())
        if due:
            self.start(due, "review")
        return bool(due)

    def practice_deck(self) -> list[Card]:
        """The cards that come due soonest, to practise early when nothing is due."""
        from tui.progress.review import kinds_of, practice_deck

        return practice_deck(self.store, kinds_of(self.book))

    def start(self, cards: list[Card], purpose: str) -> None:
        self.review_cards, self.review_at, self.review_purpose = cards, 0, purpose

    @property
    def card(self) -> Card:
        """The card shown now."""
        return self.review_cards[self.review_at]

    def card_exercise(self, card: Card) -> Exercise:
        exercise = self.book.exercise(card.exercise_id)
        assert exercise is not None, "a session's cards are the book's (due_in_book and practice_deck see to it)"
        return exercise

    def move(self, step: int) -> Moved:
        """The next (or previous) card: "card" when there is one, "first" when there is none before the
        first (which stays shown), "done" after the last."""
        self.review_at += step
        if self.review_at < 0:
            self.review_at = 0
            return "first"
        return "card" if self.review_at < len(self.review_cards) else "done"

    def progress(self) -> str:
        """` 3 of 5` while a session is under way."""
        return f" {self.review_at + 1} of {len(self.review_cards)}" if self.review_cards else ""

    def finish(self) -> ReviewEnd:
        """The finished session's summary; the next review starts afresh."""
        from grader.book.variants import pose
        from tui.progress.review import ReviewEnd, kinds_of, next_due, session_results

        cards, kinds, now = self.review_cards, kinds_of(self.book), self.clock()
        results = session_results(self.store, cards, kinds, self.review_purpose)
        titles = {c.exercise_id: pose(exercise, c.seed).title for c in cards
                  if (exercise := self.book.exercise(c.exercise_id)) is not None}
        self.review_cards = []
        return ReviewEnd(cards, results, titles, now, next_due(self.store, now, kinds),
                         practice=self.review_purpose == "practice")
