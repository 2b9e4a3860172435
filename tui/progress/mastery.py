"""Mastery: how much of the book is solved, overall and per chapter, from the store's exercise states.

Exercises solved only after opening the explanation are counted as solved and also shown apart, so a
learner sees honestly how they got there. Attempts on exercises no longer in the book are "retired":
kept and counted, never lost, never crashing anything. Beside it: quiz scores and lab designs, read
from the store's ledger.
"""

from __future__ import annotations

from dataclasses import dataclass

from grader.book.model import Book
from grader.book.quiz import Quiz, Response, saved_responses
from tui.progress.records import ExerciseState
from tui.progress.store import ProgressStore


@dataclass(repr=False)
class ChapterMastery:
    """Solved out of total for one chapter."""

    chapter_id: str
    title: str
    solved: int
    total: int
    after_reveal: int


@dataclass(repr=False)
class Mastery:
    """Solved out of total for the book, how many were solved only after a reveal, and each chapter."""

    solved: int
    total: int
    after_reveal: int
    chapters: tuple[ChapterMastery, ...]
    retired: tuple[str, ...]
    retired_attempts: int

    @property
    def percent(self) -> int:
        return round(100 * self.solved / self.total) if self.total else 0

    @property
    def summary(self) -> str:
        return f"{self.solved} / {self.total} exercises ({self.percent}%)"


def mastery(book: Book, states: dict[str, ExerciseState]) -> Mastery:
    chapters = []
    for chapter in book.chapters:
        mine = [states.get(h.id, ExerciseState()) for h in chapter.headings]   # none built: home shows this
        chapters.append(ChapterMastery(chapter.id, chapter.title, sum(s.solved for s in mine), len(mine),
                                       sum(s.solved_after_reveal for s in mine)))
    known = {h.id for h in book.headings}
    retired = tuple(sorted(i for i in states if i not in known and states[i].attempts))
    return Mastery(
        solved=sum(c.solved for c in chapters), total=sum(c.total for c in chapters),
        after_reveal=sum(c.after_reveal for c in chapters), chapters=tuple(chapters), retired=retired,
        retired_attempts=sum(states[i].attempts for i in retired),
    )


def quiz_run_key(quiz_id: str) -> str:
    """The store state that keeps an unfinished run of a quiz."""
    return f"quiz:{quiz_id}"


def unfinished_run(store: ProgressStore, quiz: Quiz) -> dict[str, Response]:
    """The responses of the run a learner left half way, if any."""
    return saved_responses(store.state(quiz_run_key(quiz.id)), quiz)


def quiz_scores(store: ProgressStore, quiz_id: str) -> list[float]:
    """The score of every finished run of a quiz, oldest first."""
    return [e.payload.get("score", 0) for e in store.entries("quiz") if e.name == quiz_id]


def designs_saved(store: ProgressStore, lab_id: str) -> int:
    """How many designs a learner has saved from a lab."""
    return sum(e.name.startswith(lab_id) for e in store.entries("lab"))
