"""What a book is: chapters of exercises (grader.exercise and their kinds in grader/kinds/), then the
quizzes and labs book.yaml lists.

The numbers a learner is graded against are never stored: they are computed from each exercise's
formulas and params, so a typo in a hand-typed figure cannot exist. Like the exercises, a chapter and a
book name themselves by id rather than have generated reprs.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from grader.files import BookFileError, narrative_cost, read_text
from grader.safe_text import printable

if TYPE_CHECKING:
    from grader.exercise import Exercise


class Heading(NamedTuple):
    """An exercise as the course lists it, known before it is built: what home shows and counts."""

    id: str
    title: str
    chapter_id: str


@dataclass(repr=False, eq=False)
class Chapter:
    """A chapter folder: its narrative (read when it opens) and its exercises, built when first asked for (`build`):
    a book read from its cached copy shows home from the headings alone, before the kinds' modules load."""

    id: str
    title: str
    path: Path
    headings: tuple[Heading, ...]
    build: Callable[[], tuple[Exercise, ...]]
    book_root: Path   # the book's folder: the chapter reads no file that resolves outside it (grader.files)
    part: str = ""  # the part of the course it belongs to, as book.yaml names it ("" for the main run)

    @classmethod
    def built(cls, id: str, title: str, path: Path, exercises: tuple[Exercise, ...], book_root: Path,
              part: str = "") -> Chapter:
        """A chapter whose exercises are already built (read from its files)."""
        headings = tuple(Heading(e.id, e.title, e.chapter_id) for e in exercises)
        return cls(id, title, path, headings, lambda: exercises, book_root, part)

    def __repr__(self) -> str:
        return f"Chapter({self.id!r})"

    def __eq__(self, other: object) -> bool:
        """Equal with equal exercises (a book read from its copy the same as from its files), built to compare."""
        return isinstance(other, Chapter) and self._compared() == other._compared()

    def _compared(self) -> tuple[object, ...]:
        return self.id, self.title, self.path, self.headings, self.book_root, self.part, self.exercises

    @cached_property
    def exercises(self) -> tuple[Exercise, ...]:
        return self.build()

    @property
    def narrative_path(self) -> Path:
        return self.path / "chapter.md"

    def narrative(self) -> str:
        """The chapter's Markdown with control characters shown, not sent; a file that cannot be read now,
        or would cost too much to show (changed since the book was checked), is said in its place instead
        of stopping the app."""
        try:
            text = read_text(self.narrative_path, self.book_root)
            too_costly = narrative_cost(text)
            if too_costly:
                line, message = too_costly[0]
                raise BookFileError(f"line {line}: {message}")
            return printable(text)
        except (OSError, BookFileError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            return (f"*This chapter cannot be shown: {printable(reason, one_line=True)}. "
                    "Run `ringbook content check` on the book.*")


@dataclass(repr=False)
class LabRef:
    """A lab listed in book.yaml: its own file, read by the lab when it opens."""

    id: str
    title: str
    path: Path


@dataclass(repr=False)
class Book:
    """The whole course, checked: chapters in order, then the quizzes and labs book.yaml lists."""

    title: str
    subtitle: str
    root: Path
    chapters: tuple[Chapter, ...]
    quizzes: tuple[Any, ...] = ()  # grader.book.quiz.Quiz, kept out of this module's imports
    labs: tuple[LabRef, ...] = ()

    def __repr__(self) -> str:
        return f"Book({str(self.root)!r})"

    @cached_property
    def _by_id(self) -> dict[str, Exercise]:
        return {e.id: e for c in self.chapters for e in c.exercises}

    @property
    def exercises(self) -> list[Exercise]:
        return [e for c in self.chapters for e in c.exercises]

    @property
    def headings(self) -> list[Heading]:
        """Every exercise's heading, in the book's order, with none of them built."""
        return [h for c in self.chapters for h in c.headings]

    def exercise(self, exercise_id: str) -> Exercise | None:
        return self._by_id.get(exercise_id)

    def chapter(self, chapter_id: str) -> Chapter | None:
        return next((c for c in self.chapters if c.id == chapter_id), None)

    def quiz(self, quiz_id: str) -> Any:
        return next((q for q in self.quizzes if q.id == quiz_id), None)

    def lab(self, lab_id: str) -> LabRef | None:
        return next((lab for lab in self.labs if lab.id == lab_id), None)
