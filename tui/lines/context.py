"""What every part of the plain-line face works with: the learner's study session and the console."""

from __future__ import annotations

from dataclasses import dataclass

from tui.lines.console import Console
from tui.progress.session import StudySession


@dataclass
class Context:
    session: StudySession   # the book, the store, the clock and the review under way, as the app has them
    console: Console
