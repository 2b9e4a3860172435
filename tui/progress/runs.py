"""Quiz runs and lab designs as every face keeps them (the app's quiz and lab screens, and tui/lines): the run
or design under way as a store state, so leaving loses nothing; the finished run or a saved design as a
ledger entry."""

from __future__ import annotations

import json
from datetime import datetime

from grader.book.quiz import Quiz, Response, score
from grader.lab.design import LabDesign, lab_state_key
from grader.lab.model import Lab
from tui.progress.mastery import quiz_run_key
from tui.progress.store import ProgressStore, StoreError


def keep_quiz_run(store: ProgressStore, quiz: Quiz, responses: dict[str, Response]) -> None:
    """Keep an unfinished run; a read-only store just means it is not kept."""
    if store.read_only:
        return
    try:
        store.set_state(quiz_run_key(quiz.id), json.dumps({"responses": [vars(r) for r in responses.values()]}))
    except StoreError:
        pass


def record_quiz_run(store: ProgressStore, quiz: Quiz, responses: dict[str, Response], now: datetime) -> None:
    """Keep a finished run as a ledger entry and forget the run in progress; raises StoreError when it cannot."""
    result = score(quiz, responses)
    payload = {
        "score": result.points, "out_of": result.out_of,
        "responses": {q.id: {"choice": r.choice, "rating": r.rating, "points": r.points(q)}
                      for q in quiz if (r := responses.get(q.id))},
    }
    store.record_entry("quiz", quiz.id, payload, now=now)
    store.set_state(quiz_run_key(quiz.id), "")


def keep_lab_design(store: ProgressStore, lab: Lab, design: LabDesign) -> None:
    """Keep the design under way; a read-only store just means it is not kept."""
    if store.read_only:
        return
    try:
        store.set_state(lab_state_key(lab.id), json.dumps(design.payload(lab)))
    except StoreError:
        pass


def record_lab_design(store: ProgressStore, lab: Lab, design: LabDesign, now: datetime | None = None) -> int:
    """Save a design to the ledger; how many this lab now has saved. Raises StoreError when it cannot."""
    store.record_entry("lab", lab.id, design.payload(lab), now=now)
    return sum(entry.name == lab.id for entry in store.entries("lab"))
