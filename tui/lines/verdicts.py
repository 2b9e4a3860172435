"""A verdict in words for the plain lines, its status said once."""

from __future__ import annotations

from grader.verdict import Verdict

# How the grader's messages open with their own word for the status (`Correct: 1.75 GB.`, `Not quite: ...`)
OPENINGS = {"correct": ("Correct", "Yes"), "incorrect": ("Incorrect", "Not quite", "Not that one")}


def said_once(verdict: Verdict) -> str:
    """The status, then the message without its own word for the status: a listener hears `correct: 1.75
    GB.`, not `correct. Correct: 1.75 GB.`. A reply that is not read is `not counted`, which is what it
    means for the learner (the message says what could not be read)."""
    status = verdict.status if verdict.counts_as_attempt else "not counted"
    for opening in OPENINGS.get(verdict.status, ()):
        if verdict.message == f"{opening}.":
            return f"{status}."
        if verdict.message.startswith(f"{opening}: "):
            return f"{status}: {verdict.message.removeprefix(f'{opening}: ')}"
    return f"{status}. {verdict.message}"
