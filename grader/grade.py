"""Judging one answer: `grade(exercise, text) -> Verdict`, by the judge of the exercise's kind.

Whatever the text, `grade` spends about a second of CPU, its own and a proof worker's (a build exercise runs the
learner's code for at most `sandbox.WALL_SECONDS` more), and never raises: learner text is hostile input. On a
busy host that second takes longer, and the verdict is the same (grader/verdict.py).
"""

from __future__ import annotations

import logging
from typing import Any

from grader.exercise import Exercise
from grader.kinds.registry import kind_of
from grader.maths.evaluate import TooComplex
from grader.verdict import Deadline, Verdict, invalid

MAX_INPUT = 2000

log = logging.getLogger(__name__)


def grade(exercise: Exercise, text: Any) -> Verdict:
    """Judge `text` as an answer to `exercise`."""
    if not isinstance(text, str):
        return invalid("The answer must be text.")
    if len(text) > MAX_INPUT:
        return invalid(f"That answer is too long ({len(text):,} characters).")
    if not text.strip():
        return invalid("Type an answer first.")
    judge = kind_of(exercise).judge  # outside the try: an unregistered kind is our mistake, said loudly
    try:
        return judge(exercise, text, Deadline())
    except TooComplex as exc:
        return invalid(str(exc))
    except RecursionError:
        return invalid("That answer is too large or complex to evaluate.")
    except Exception:  # a bug of ours must not cost the learner anything
        log.exception("grading %s failed", exercise.id)
        return invalid("Sorry, something went wrong while grading that. It has not been counted; please try again.",
                       undecided=True)
