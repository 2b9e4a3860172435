"""Recording a graded answer, as every face records it: the app's exercise screen and `ringbook work`."""

from __future__ import annotations

from datetime import datetime

from grader.verdict import Verdict
from tui.progress.store import ProgressStore, StoreError


def record_verdict(store: ProgressStore, exercise_id: str, text: str, verdict: Verdict, *, hints_used: int = 0,
                   seconds_taken: float | None = None, seed: int = 0, purpose: str = "learn",
                   revealed: bool | None = None, now: datetime | None = None, draft_key: str | None = None) -> str:
    """Append `verdict` on `text` to the attempt log when it counts as an attempt (an invalid answer costs
    nothing and is not kept). Returns "" when that is done or not needed, else why it could not be saved
    (a read-only store, a full disk), for the face to say; the verdict itself stands either way."""
    if not verdict.counts_as_attempt:
        return ""
    try:
        store.record_attempt(exercise_id, text, verdict.status, message=verdict.message, feedback=verdict.feedback,
                             hints_used=hints_used, seconds_taken=seconds_taken, seed=seed, purpose=purpose,
                             revealed=revealed, now=now, draft_key=draft_key)
    except StoreError as exc:
        return str(exc)
    return ""
