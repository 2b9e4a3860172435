"""What a judge returns, and the time it may take: shared by every judge in grader/kinds and by `grade`.

A verdict is *correct*, *incorrect* or *invalid*. Invalid means the answer could not be read (a typo,
an unknown unit, a decimal comma); it says what to fix and never counts as an attempt.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

Status = Literal["correct", "incorrect", "invalid"]
TIME_BOUND = 1.0


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

    @property
    def counts_as_attempt(self) -> bool:
        return self.status != "invalid"

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
    """The time left for one grade; the symbolic check spends at most what remains."""

    at: float = field(default_factory=lambda: time.monotonic() + TIME_BOUND)

    def remaining(self) -> float:
        return max(0.0, self.at - time.monotonic())
