"""The progress store's records as Python sees them: an attempt, an exercise's state, a ledger entry."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from typing import Any


@dataclass(repr=False)
class Attempt:
    """One answer as the log keeps it."""

    uid: str
    exercise_id: str
    answer: str
    status: str
    message: str
    feedback: str
    hints_used: int
    revealed_first: bool
    seconds_taken: float | None
    created_utc: str
    utc_offset_minutes: int
    local_date: str
    seed: int = 0             # the variant answered; 0 is the book's own numbers
    purpose: str = "learn"    # learn (in the chapter), review (a due card) or practice (asked for early)


@dataclass(repr=False)
class ExerciseState:
    """What the log says about one exercise."""

    attempts: int = 0
    solved: bool = False
    first_solved_utc: str | None = None
    solved_after_reveal: bool = False
    revealed: bool = False

    @property
    def mark(self) -> str:
        if self.solved:
            return "solved after reveal" if self.solved_after_reveal else "solved"
        return "tried" if self.attempts else "new"


@dataclass(repr=False)
class Entry:
    """A finished piece of work outside the exercises: a quiz run or a lab design, its details in `payload`."""

    uid: str
    part: str
    name: str
    payload: dict[str, Any]
    created_utc: str
    utc_offset_minutes: int
    local_date: str

    def row(self) -> tuple[str, str, str, str, str, int, str]:
        return (self.uid, self.part, self.name, json.dumps(self.payload, sort_keys=True), self.created_utc,
                self.utc_offset_minutes, self.local_date)

    @classmethod
    def from_row(cls, row: tuple[str, str, str, str, str, int, str]) -> Entry:
        uid, part, name, payload, created_utc, offset, local_date = row
        return cls(uid, part, name, json.loads(payload), created_utc, offset, local_date)

    def exported(self) -> dict[str, Any]:
        return asdict(self)
