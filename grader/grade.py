"""Judging one answer: `grade(exercise, text) -> Verdict`.

A verdict is *correct*, *incorrect* or *invalid*. Invalid means the answer could not be read (a typo,
an unknown unit, a decimal comma); it says what to fix and never counts as an attempt. Whatever the
text, `grade` returns within about a second (a build exercise runs the learner's code for at most
`sandbox.WALL_SECONDS` more) and never raises: learner text is hostile input.
"""

from __future__ import annotations

import logging
import time
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from grader.evaluate import TooComplex
from grader.model import Exercise

Status = Literal["correct", "incorrect", "invalid"]
MAX_INPUT = 2000
TIME_BOUND = 1.0

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Verdict:
    status: Status
    message: str
    feedback: str = ""
    value: Any = None
    column: int | None = None
    score: float = 0.0
    rows: tuple["Verdict", ...] = ()
    method: str = ""

    @property
    def counts_as_attempt(self) -> bool:
        return self.status != "invalid"

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["rows"] = [row.to_dict() for row in self.rows]
        return data


def correct(message: str = "Correct.", **extra) -> Verdict:
    return Verdict("correct", message, score=1.0, **extra)


def incorrect(message: str = "Not quite.", **extra) -> Verdict:
    return Verdict("incorrect", message, **extra)


def invalid(message: str, column: int | None = None, **extra) -> Verdict:
    return Verdict("invalid", message, column=column, **extra)


@dataclass(frozen=True)
class Deadline:
    """The time left for one grade; the symbolic check spends at most what remains."""

    at: float = field(default_factory=lambda: time.monotonic() + TIME_BOUND)

    def remaining(self) -> float:
        return max(0.0, self.at - time.monotonic())


def grade(exercise: Exercise, text: Any) -> Verdict:
    """Judge `text` as an answer to `exercise`."""
    from grader.kinds import JUDGES

    if not isinstance(text, str):
        return invalid("The answer must be text.")
    if len(text) > MAX_INPUT:
        return invalid(f"That answer is too long ({len(text):,} characters).")
    if not text.strip():
        return invalid("Type an answer first.")
    try:
        return JUDGES[exercise.kind](exercise, text, Deadline())
    except TooComplex as exc:
        return invalid(str(exc))
    except RecursionError:
        return invalid("That answer is too large or complex to evaluate.")
    except Exception:  # a bug of ours must not cost the learner anything
        log.exception("grading %s failed", exercise.id)
        return invalid("Sorry, something went wrong while grading that. It has not been counted; please try again.")
