"""What answering an exercise writes to the store, the same for every face (the app's exercise screen and the
plain-line face, tui/lines): a graded answer becomes an attempt, and opening the explanation a reveal."""

from __future__ import annotations

from datetime import datetime

from grader.verdict import Verdict
from tui.progress.records import Attempt
from tui.progress.store import ProgressStore


def draft_key(exercise_id: str, purpose: str, seed: int) -> str:
    """Where an unsent answer is kept: a recall test (a review or practice card) keeps its own, so it starts
    empty (a build from its starter code) and never overwrites what the learner left in the chapter."""
    return exercise_id if purpose == "learn" else f"{exercise_id}@{purpose}:{seed}"


def record_answer(store: ProgressStore, exercise_id: str, text: str, verdict: Verdict, *, hints_used: int,
                  seconds_taken: float, seed: int, purpose: str, explanation_shown: bool, now: datetime,
                  draft_key: str) -> Attempt | None:
    """Keep a counted answer (an invalid one is no attempt: None) to the variant `seed` posed for `purpose`.
    In a chapter, whether the explanation was open first is the store's to say (ever, for this exercise); a
    review or practice run knows better, since the explanation read last month says nothing of today.
    Raises StoreError when it cannot be kept."""
    if not verdict.counts_as_attempt:
        return None
    return store.record_attempt(
        exercise_id, text, verdict.status, message=verdict.message, feedback=verdict.feedback,
        hints_used=hints_used, seconds_taken=round(seconds_taken, 1), seed=seed, purpose=purpose,
        revealed=None if purpose == "learn" else explanation_shown, now=now, draft_key=draft_key)


def record_explanation_opened(store: ProgressStore, exercise_id: str, now: datetime) -> bool:
    """The learner opened the explanation: kept as a reveal unless the exercise is solved already (then it
    gives nothing away). Whether one was kept; raises StoreError when it cannot be."""
    state = store.exercise_states().get(exercise_id)
    if state and state.solved:
        return False
    store.record_reveal(exercise_id, now=now)
    return True
