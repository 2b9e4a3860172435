"""What a screen may ask of the app it runs in, given to it as it is made: the screens it opens and the review
session's moves (Navigator), and the app's pacing on a busy host (Pacer); and what the app asks of a screen
that offers it (CatchesUp, KeepsUnsaved). A screen never imports the app
(tui.app imports the screens), and a test may push one onto any app that offers these."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from textual.screen import Screen

if TYPE_CHECKING:
    from grader.book.model import Chapter, LabRef
    from grader.book.quiz import Quiz
    from grader.exercise import Exercise


class Pacer(Protocol):
    """Work that can wait for a free core, or a frame (tui.pacing)."""

    def home_shown(self) -> None:
        """The home screen's keys are painted: what waited for them may start."""

    def warm_up(self, part: str) -> None:
        """Get `part` ("screens", "units", "proofs") ready in the background."""

    def when_a_core_is_free(self, work: Callable[[], object], every: float, until: float = math.inf) -> None:
        """Do `work` once the host has a core to spare (looking every `every` seconds), or at `until` anyway."""

    def resume_gc(self) -> None:
        """Garbage collection on again, after the frame it was paused for."""


class Navigator(Protocol):
    """The app's ways to other screens, and through a review session."""

    @property
    def pacing(self) -> Pacer: ...

    def show(self, screen: Screen, *, replace: bool = False) -> None:
        """Open `screen` over this one, or instead of it (`replace`)."""

    def open_chapter(self, chapter: Chapter, *, tab: str = "read") -> None: ...

    def open_chapter_end(self, chapter: Chapter) -> None: ...

    def open_exercise(self, exercise: Exercise, *, replace: bool = False) -> None: ...

    def open_quiz(self, quiz: Quiz) -> None: ...

    def open_lab(self, lab: LabRef) -> None: ...

    def start_review(self) -> None:
        """Review the due cards (or go on with the session paused), or offer practice when none is due."""

    def pause_review(self) -> None:
        """Back home from a card: the session waits for the next start_review."""

    def next_review(self, step: int = 1) -> None:
        """The next (or previous) card; after the last, the session's summary."""


@runtime_checkable
class CatchesUp(Protocol):
    """A screen that may have put work off while the host was busy, which must be done before the learner's
    next key, click or paste is handled (it moves the keyboard)."""

    def catch_up(self) -> None:
        """Do now whatever is still put off."""


@runtime_checkable
class KeepsUnsaved(Protocol):
    """A screen holding something the learner typed that is kept after a moment (a draft), not at once."""

    def keep_unsaved(self) -> None:
        """Keep it now: the app is ending."""
