"""The live class in words, the same on the instructor's screen, in its plain lines and in `--json`.

Every name, answer and file name here comes from a learner's file: each goes through grader.safe_text, so an
escape sequence in a name shows as text instead of clearing the instructor's screen.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from grader.book.model import Book
from grader.exercise import NumericAnswer
from grader.safe_text import clipped, printable
from tui.progress.class_live import LiveAttempt, Slip, Snapshot, Stuck, Tried, mistake_name

NAME_WIDTH = 16     # a learner's name in a line
MIN_NAME_WIDTH = 4  # and at least this much of it in a panel too narrow for the whole line
ANSWER_WIDTH = 30   # an answer in a line (--json has it whole)
LISTED_WIDTH = 20   # an answer in a list of attempts, beside its time and verdict
# Glyphs for solved, tried and not started: colour is never the only signal.
GLYPHS = {"solved": "✓", "tried": "✗", "not started": "·"}


def name(text: str) -> str:
    return clipped(text, NAME_WIDTH)


def minutes(since: datetime, now: datetime) -> str:
    whole = max(0, int((now - since).total_seconds() // 60))
    return "<1 min" if whole == 0 else f"{whole} min"


def stuck_line(stuck: Stuck, now: datetime, width: int | None = None) -> str:
    """"ana · 0.1 · 3 wrong · 7 min"; in `width` columns the name gives way (to MIN_NAME_WIDTH), not the facts."""
    facts = f" · {stuck.exercise_id} · {stuck.wrong} wrong · {minutes(stuck.since, now)}"
    shown = name(stuck.learner)
    if width is not None:
        shown = clipped(shown, max(width - len(facts), MIN_NAME_WIDTH))
    return shown + facts


def slip_line(slip: Slip) -> str:
    what = clipped(slip.name, ANSWER_WIDTH) if slip.mistake is not None else f'"{clipped(slip.name, ANSWER_WIDTH)}"'
    learners = f"{slip.learners} learner{'s' if slip.learners != 1 else ''}"
    return f"{learners} · {slip.exercise_id} · {what}"


def figures_line(snapshot: Snapshot, exercise_id: str) -> str:
    figures = snapshot.figures[exercise_id]
    if not figures.tried:
        return f"{exercise_id}: nobody has tried it yet"
    rate = f"{figures.first_try_rate:.0%}" if figures.first_try_rate is not None else "-"
    median = f"{figures.median_attempts:g}" if figures.median_attempts is not None else "-"
    return (f"{exercise_id}: {figures.tried} tried, {figures.solved} solved, first try {rate}, "
            f"median attempts {median}")


def attempt_line(attempt: LiveAttempt, now: datetime, book: Book) -> str:
    """One attempt graded again: when, the answer, and what the book says of it (a named mistake by its name)."""
    exercise = book.exercise(attempt.exercise_id)
    wrong = "wrong"
    if attempt.mistake is not None and isinstance(exercise, NumericAnswer):
        wrong += f": {mistake_name(exercise.mistakes[attempt.mistake - 1].feedback)}"
    said = {"correct": "right", "incorrect": wrong, "build": f"{attempt.recorded} (build code, not run)",
            "tampered": f"recorded {attempt.recorded}, not the book's verdict: not counted",
            "ungraded": "not graded in time: not counted", "undecided": "could not be decided: not counted"}
    ago = f"{minutes(attempt.when, now)} ago"
    return f"{ago:>12}  {clipped(attempt.answer, LISTED_WIDTH):<{LISTED_WIDTH}}  {said[attempt.regraded]}"


def as_data(book: Book, snapshot: Snapshot) -> dict[str, Any]:
    """The snapshot for `--json`: names and answers whole (export_file.inert_json escapes what must be)."""
    return {
        "book": book.title,
        "now": snapshot.now.isoformat(),
        "chapters": [{"id": c.id, "title": c.title, "exercises": [e.id for e in c.exercises]} for c in book.chapters],
        "learners": [{
            "name": learner.name, "account": learner.owner, "label": snapshot.labels[learner.key],
            "chapters": {chapter_id: {"state": cell.state, "solved": cell.solved, "total": cell.total}
                         for chapter_id, cell in snapshot.chapters[learner.key].items()},
            "exercises": {exercise_id: _tried_data(tried) for exercise_id, tried in learner.exercises.items()},
        } for learner in snapshot.learners],
        "stuck": [{"learner": s.learner, "exercise": s.exercise_id, "wrong": s.wrong, "since": s.since.isoformat(),
                   "minutes": round((snapshot.now - s.since).total_seconds() / 60, 1)} for s in snapshot.stuck],
        "slips": [{"exercise": s.exercise_id, "mistake": s.mistake, "name": s.name, "learners": s.learners,
                   "attempts": s.attempts} for s in snapshot.slips],
        "exercises": {f.exercise_id: {"tried": f.tried, "solved": f.solved, "first_try_rate": f.first_try_rate,
                                      "median_attempts": f.median_attempts}
                      for f in snapshot.figures.values() if f.tried},
        "skipped": list(snapshot.skipped),
        "inbox_unlisted": snapshot.unlisted or None,
    }


def _tried_data(tried: Tried) -> dict[str, Any]:
    return {"state": tried.state, "attempts": tried.attempts, "tries_to_solve": tried.tries_to_solve,
            "recent": [{"when": a.when.isoformat(), "answer": a.answer, "recorded": a.recorded,
                        "regraded": a.regraded, "mistake": a.mistake, "seed": a.seed} for a in tried.recent]}


def snapshot_lines(book: Book, snapshot: Snapshot) -> list[str]:
    """The class now as plain lines: per learner, each chapter's state; then stuck, slips and skipped files."""
    count = len(snapshot.learners)
    lines = [f"Class live: {printable(book.title, one_line=True)}, {count} learner{'s' if count != 1 else ''}, "
             f"at {snapshot.now:%H:%M}"]
    for learner in snapshot.learners:
        chapters = snapshot.chapters[learner.key]
        started = [f"chapter {chapter_id} {cell.state} ({cell.solved} of {cell.total})"
                   for chapter_id, cell in chapters.items() if cell.state != "not started"]
        lines.append(f"{name(snapshot.labels[learner.key])}: " + ("; ".join(started) or "nothing tried yet"))
    lines += [f"stuck now: {stuck_line(s, snapshot.now)}" for s in snapshot.stuck] or ["nobody stuck now"]
    lines += [f"slip now: {slip_line(s)}" for s in snapshot.slips] or ["no slips now"]
    lines += [f"skipped {printable(line, one_line=True)}" for line in snapshot.skipped]
    return lines + ([unlisted_line(snapshot.unlisted)] if snapshot.unlisted else [])


def unlisted_line(reason: str) -> str:
    return (f"The inbox cannot be listed now ({printable(reason, one_line=True)}): "
            "the class is shown as it was last read.")


def change_lines(old: Snapshot, new: Snapshot) -> list[str]:
    """What changed between two snapshots, a line each: attempts, learners stuck or no longer, slips that grew,
    files newly skipped."""
    lines = []
    before = {learner.key: learner for learner in old.learners}
    for learner in new.learners:
        earlier = before.get(learner.key)
        for exercise_id, tried in learner.exercises.items():
            was = earlier.exercises.get(exercise_id) if earlier else None
            if was is None or (was.attempts, was.solved) != (tried.attempts, tried.solved):
                state = "solved" if tried.solved else "not solved yet"
                lines.append(f"{name(new.labels[learner.key])}: {exercise_id} {state}, "
                             f"{tried.attempts} attempt{'s' if tried.attempts != 1 else ''}")
    gone = set(before) - {learner.key for learner in new.learners}
    lines += [f"{name(old.labels[key])}: no file in the inbox any more" for key in sorted(gone)]
    was_stuck = {(s.learner, s.exercise_id) for s in old.stuck}
    now_stuck = {(s.learner, s.exercise_id) for s in new.stuck}
    lines += [f"stuck now: {stuck_line(s, new.now)}" for s in new.stuck if (s.learner, s.exercise_id) not in was_stuck]
    lines += [f"no longer stuck: {name(learner)} · {exercise_id}"
              for learner, exercise_id in sorted(was_stuck - now_stuck)]
    slips_before = {(s.exercise_id, s.mistake, s.name): s.learners for s in old.slips}
    lines += [f"slip now: {slip_line(s)}" for s in new.slips
              if s.learners > 1 and s.learners > slips_before.get((s.exercise_id, s.mistake, s.name), 0)]
    lines += [f"skipped {printable(line, one_line=True)}" for line in new.skipped if line not in set(old.skipped)]
    if new.unlisted != old.unlisted:
        lines.append(unlisted_line(new.unlisted) if new.unlisted else "The inbox can be listed again.")
    return lines
