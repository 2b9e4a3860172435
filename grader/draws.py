"""What a learner is dealt, the same on every run and machine: a choice's options in a fixed shuffle, and the
bound of the seeds a variant or a review's practice deal is drawn with. Apart from grader/exercise.py so that the
quiz and the progress store, which home's first frame loads, need not build every exercise's dataclasses.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Protocol, TypeVar

MAX_SEED = 2**63 - 1       # the largest seed a variant or a deal takes: one SQLite keeps as an integer


class HasId(Protocol):
    @property
    def id(self) -> str: ...


Dealt = TypeVar("Dealt", bound=HasId)


def fixed_shuffle(things: tuple[Dealt, ...], seed: str, avoid: tuple[str, ...] = ()) -> tuple[Dealt, ...]:
    """The same shuffle on every run and machine (seeded by a string such as the exercise id, never by
    hash()), never in the `avoid` order of ids: what a learner sees, and what letters and positions refer to."""
    shuffled = list(things)
    rng = random.Random(seed)
    for _ in range(20):
        rng.shuffle(shuffled)
        if tuple(t.id for t in shuffled) != avoid:
            return tuple(shuffled)
    return tuple(reversed(things))


@dataclass(repr=False)
class Option:
    """One answer of a multiple-choice step (a trace's choice, a quiz question), with what to say when it is picked."""

    id: str
    text: str
    correct: bool
    feedback: str
