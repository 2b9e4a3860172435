"""What a judge returns, and the time it may take: shared by every judge in grader/kinds and by `grade`.

A verdict is *correct*, *incorrect* or *invalid*. Invalid means the answer could not be read (a typo,
an unknown unit, a decimal comma); it says what to fix and never counts as an attempt. An *undecided*
verdict is an invalid one that says nothing about the answer (a proof that did not come): asking again may
decide it, so nothing keeps it as the answer's verdict.

A grade's time is CPU time (the grading thread's, and the proof worker's own), never the clock's: a busy
host makes a grade wait for a core, and that wait slows the verdict but must not change it.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

Status = Literal["correct", "incorrect", "invalid"]
TIME_BOUND = 1.0   # seconds of CPU a grade's points may spend, and a proof as much again in its worker
# The clock's bound on one grade, against a host so loaded (or a worker so stuck) that nothing gets done: far
# beyond any honest wait for a core, and a grade that reaches it is undecided, never wrong.
BACKSTOP_SECONDS = 120.0
MARKS: dict[str, str] = {"correct": "✓", "incorrect": "✗", "invalid": "?"}   # how every face marks a verdict
NOT_COUNTED = "(not counted as an attempt)"


@dataclass(frozen=True)
class Verdict:
    status: Status
    message: str
    feedback: str = ""
    value: Any = None
    column: int | None = None
    score: float = 0.0
    rows: tuple[Verdict, ...] = ()
    method: str = ""
    undecided: bool = False   # no verdict on the answer (a proof that did not come): ask again, never keep it

    @property
    def counts_as_attempt(self) -> bool:
        return self.status != "invalid"

    def lines(self) -> list[str]:
        """The verdict as the app shows it, in plain lines: the mark and message, the feedback, then one line
        per row (a build's tests). Learner output is in them: a face that prints them makes them inert."""
        head = f"{MARKS[self.status]} {self.message}" + (f"  {NOT_COUNTED}" if not self.counts_as_attempt else "")
        rows = [row.message for row in self.rows]
        feedback = [self.feedback] if self.feedback and self.feedback not in rows else []   # a build's: its first row
        return [head, *feedback, *rows]

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["rows"] = [row.to_dict() for row in self.rows]
        return data


def correct(message: str = "Correct.", **extra: Any) -> Verdict:
    return Verdict("correct", message, score=1.0, **extra)


def incorrect(message: str = "Not quite.", **extra: Any) -> Verdict:
    return Verdict("incorrect", message, **extra)


def invalid(message: str, column: int | None = None, **extra: Any) -> Verdict:
    return Verdict("invalid", message, column=column, **extra)


@dataclass(frozen=True)
class Deadline:
    """What one grade may spend: `cpu_seconds` of CPU for a proof, counted by the worker that runs it, and the
    clock only as the backstop (`at`)."""

    cpu_seconds: float = field(default_factory=lambda: TIME_BOUND)
    at: float = field(default_factory=lambda: time.monotonic() + BACKSTOP_SECONDS)

    def remaining(self) -> float:
        """Seconds of the clock left before the backstop."""
        return max(0.0, self.at - time.monotonic())
