"""The class now, for `ringbook class live`: the inbox's exports read again as they change, headless.

Learners' apps replace their export in the inbox after each attempt, so a lesson of 300 learners changes a
file every few milliseconds. Only a file whose (inode, mtime_ns, size) changed is read again, and only its
learner's figures are worked out again; a verdict is graded once per (exercise, seed, answer) for the whole
lesson (class_report.Regrader). Each file is read and checked as the class report reads it, and a file the
report would skip is skipped here with the same one-line reason. What is kept is what the views need: per
learner and exercise, the counts and the newest KEPT_ATTEMPTS attempts, never a file's earlier versions.

"Now" is tui.progress.clock's, so RINGBOOK_NOW moves it. Attempt times are as the learner's app recorded
them, as in the class report.
"""

from __future__ import annotations

import os
import statistics
from collections import Counter
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, NamedTuple

from grader.book.model import Book
from grader.exercise import NumericAnswer
from grader.kinds.registry import label
from tui.progress.class_report import (
    BUILD,
    GRADING_SECONDS_PER_ACCOUNT,
    UNDECIDED,
    UNGRADED,
    GradingTime,
    Regrader,
    payer_of,
    read_student_file,
    regraded_attempt,
    shown_name,
)
from tui.progress.export_file import RowMemo, UnreadableExport, file_owner, local_time
from tui.progress.roster import Roster

STUCK_WRONG = 3                        # wrong attempts in a row on one exercise that make a learner stuck ...
STUCK_WINDOW = timedelta(minutes=10)   # ... all of them within this long before now
SLIP_WINDOW = timedelta(minutes=10)    # "slips now" counts wrong answers made within this long
KEPT_ATTEMPTS = 20                     # per learner and exercise, the newest attempts kept for the views
SLIP_NAME_WIDTH = 40                   # a named slip is its feedback's first sentence, cut to this
# How the faces watch the inbox (tui.watch): a class renames a file every few milliseconds, so a burst never
# goes quiet for the editor's quarter second; each is read once it pauses for QUIET or has lasted LONGEST.
# LONGEST is most of an update's wait (benchmarks/class_live.py: 100 ms gave a p99 of 120 ms before any
# reading); a burst of 300 learners' 30 ms is a few files, read in about 10 ms with the snapshot.
TICK_SECONDS = 2.0   # stuck and slips move on with time alone: each view reads the class again this often
WATCH_QUIET_SECONDS = 0.01
WATCH_LONGEST_SECONDS = 0.03


class FileKey(NamedTuple):
    """What says a file changed without reading it: a rename over it gives a new inode, a write a new size or time."""

    inode: int
    mtime_ns: int
    size: int


@dataclass(frozen=True)
class LiveAttempt:
    """One recorded attempt, graded again: `regraded` is correct or incorrect (counted), build (counted as
    recorded: code is never run on the instructor's account), or tampered, ungraded, undecided (not counted)."""

    when: datetime          # UTC, as the learner's app recorded it
    exercise_id: str
    answer: str             # in the learner's words (the kind's label)
    recorded: str
    regraded: str
    mistake: int | None     # which of the exercise's named mistakes it made, 1-based
    seed: int
    slip: tuple[str, int | None, str] | None = None   # for a wrong one: what it shares with others' (_slip_of)

    @property
    def status(self) -> str | None:
        """correct or incorrect where the attempt counts; None where it does not."""
        if self.regraded in ("correct", "incorrect"):
            return self.regraded
        return self.recorded if self.regraded == "build" else None


@dataclass(frozen=True)
class Tried:
    """One learner on one exercise."""

    attempts: int                      # counted attempts
    solved: bool
    tries_to_solve: int | None         # counted attempts up to and including the first right one
    recent: tuple[LiveAttempt, ...]    # the newest KEPT_ATTEMPTS, counted or not, oldest first

    @property
    def state(self) -> str:
        return "solved" if self.solved else "tried" if self.attempts else "not started"


@dataclass(frozen=True)
class ChapterCell:
    state: str      # solved (every exercise), tried, or not started
    solved: int
    total: int


@dataclass
class Learner:
    name: str
    owner: str
    exercises: dict[str, Tried] = field(default_factory=dict)
    chapters: dict[str, ChapterCell] = field(default_factory=dict)   # worked out as the learner's files change

    @property
    def key(self) -> tuple[str, str]:
        return (self.name, self.owner)


@dataclass(frozen=True)
class Stuck:
    learner: str
    exercise_id: str
    wrong: int          # wrong attempts in a row, within STUCK_WINDOW
    since: datetime     # the first of them


@dataclass(frozen=True)
class Slip:
    """A wrong answer several learners are giving now: a named mistake of the exercise, or the same text."""

    exercise_id: str
    name: str           # the mistake's feedback, its first sentence; or the answer's text
    mistake: int | None
    learners: int
    attempts: int


@dataclass(frozen=True)
class ExerciseFigures:
    exercise_id: str
    tried: int                        # learners with a counted attempt
    solved: int
    first_try_rate: float | None      # solved at the first attempt / tried
    median_attempts: float | None     # attempts to solve, among those who solved it


@dataclass(frozen=True)
class Snapshot:
    """The class at `now`: what every view of `ringbook class live` shows."""

    now: datetime
    learners: tuple[Learner, ...]     # by name
    labels: dict[tuple[str, str], str]
    chapters: dict[tuple[str, str], dict[str, ChapterCell]]   # per learner key, per chapter id
    stuck: tuple[Stuck, ...]          # longest stuck first
    slips: tuple[Slip, ...]           # most learners first
    figures: dict[str, ExerciseFigures]
    skipped: tuple[str, ...]          # "FILE: reason", as the class report words it
    unlisted: str = ""                # why the inbox could not be listed at the last look (the class is as before)


@dataclass(frozen=True)
class _Now:
    """One learner's part of "stuck now" and "slips now" as worked out at `start`: the same at any moment up to
    (not including) `until`, the next at which an attempt enters a window or leaves it. A snapshot of 300
    learners takes each learner's from here rather than going over all their attempts again."""

    start: datetime
    until: datetime
    stuck: tuple[tuple[str, int, datetime], ...]           # (exercise, wrong in a row, the first of them's time)
    slips: dict[tuple[str, int | None, str], int]          # the wrong answers made in the window, by slip


@dataclass
class _File:
    key: FileKey
    learner: tuple[str, str] | None           # None: skipped
    attempts: tuple[dict[str, Any], ...] = ()
    reason: str = ""
    memo: RowMemo = field(default_factory=RowMemo)   # its rows as last checked: only new ones are checked again


class ClassLive:
    """The inbox's exports as one class, read again incrementally by `refresh`; `reads` counts files read."""

    def __init__(self, book: Book, inbox: Path, roster: Roster | None = None, regrader: Regrader | None = None):
        self.book = book
        self.inbox = inbox
        self.roster = roster
        self.reads = 0
        self.unlisted = ""   # why the inbox could not be listed at the last refresh; "" when it could
        self._regrader = regrader or Regrader()
        self._files: dict[str, _File] = {}
        self._learners: dict[tuple[str, str], Learner] = {}
        # per learner, each attempt row (the memo's own object, while unchanged) and what grading it gave
        self._graded_rows: dict[tuple[str, str], dict[str, tuple[dict[str, Any], LiveAttempt | None]]] = {}
        self._grading: dict[tuple[str, str], GradingTime] = {}
        self._now: dict[tuple[str, str], _Now] = {}   # per learner, while their files and the windows stay as they are
        self._me = file_owner(os.getuid()) if hasattr(os, "getuid") else ""
        self._chapter_of = {e.id: e.chapter_id for e in book.exercises}

    def refresh(self) -> set[tuple[str, str]]:
        """Read what changed in the inbox since the last call; the learners whose figures changed. An inbox that
        cannot be listed (its permissions changed, its disk gone) changes nothing: the class stays as last read,
        and `unlisted` says why, where an empty listing would have taken every learner off the view."""
        seen: dict[str, FileKey] = {}
        try:
            entries = list(os.scandir(self.inbox))
        except OSError as exc:
            self.unlisted = exc.strerror or type(exc).__name__
            return set()
        self.unlisted = ""
        for entry in entries:
            if entry.name.endswith(".json") and not entry.name.startswith("."):
                try:
                    info = entry.stat(follow_symlinks=False)
                except OSError:
                    continue
                seen[entry.path] = FileKey(info.st_ino, info.st_mtime_ns, info.st_size)
        touched: set[tuple[str, str]] = set()
        for path in set(self._files) - set(seen):
            gone = self._files.pop(path)
            if gone.learner is not None:
                touched.add(gone.learner)
        for path, key in seen.items():
            old = self._files.get(path)
            if old is not None and old.key == key:
                continue
            if old is not None and old.learner is not None:
                touched.add(old.learner)
            new = self._read(Path(path), key, old.memo if old is not None else RowMemo())
            self._files[path] = new
            if new.learner is not None:
                touched.add(new.learner)
        if touched:
            files_of: dict[tuple[str, str], list[_File]] = {}
            for record in self._files.values():
                if record.learner in touched:
                    files_of.setdefault(record.learner, []).append(record)
            for learner in touched:
                self._work_out(learner, files_of.get(learner, []))
        return touched

    def _read(self, path: Path, key: FileKey, memo: RowMemo) -> _File:
        self.reads += 1
        try:
            student = read_student_file(path, memo)
        except UnreadableExport as exc:
            return _File(key, None, reason=f"{path}: {exc}")
        return _File(key, (shown_name(student, self.roster), student.owner), tuple(student.rows["attempts"]),
                     memo=memo)

    def _work_out(self, key: tuple[str, str], files: list[_File]) -> None:
        """One learner's figures from all their files, merged by uid as the class report merges them (a uid
        recorded differently in two files counts in neither)."""
        seen: dict[str, dict[str, Any]] = {}
        differing: set[str] = set()
        self._now.pop(key, None)
        for record in files:
            for row in record.attempts:
                if seen.setdefault(row["uid"], row) != row:
                    differing.add(row["uid"])
        if not seen:
            self._learners.pop(key, None)
            self._graded_rows.pop(key, None)
            return
        rows = sorted((row for uid, row in seen.items() if uid not in differing),
                      key=lambda row: (row["created_utc"], row["uid"]))
        by_exercise: dict[str, list[LiveAttempt]] = {}
        earlier = self._graded_rows.get(key, {})
        graded: dict[str, tuple[dict[str, Any], LiveAttempt | None]] = {}
        for row in rows:
            was = earlier.get(row["uid"])
            attempt = was[1] if was is not None and was[0] is row else self._graded(row, key)   # the same row read
            graded[row["uid"]] = (row, attempt)
            if attempt is not None:
                by_exercise.setdefault(attempt.exercise_id, []).append(attempt)
        self._graded_rows[key] = graded
        exercises = {exercise_id: _tried(attempts) for exercise_id, attempts in by_exercise.items()}
        self._learners[key] = Learner(*key, exercises, self._chapters(exercises))

    def _graded(self, row: dict[str, Any], key: tuple[str, str]) -> LiveAttempt | None:
        """An attempt graded again as the class report grades it (class_report.regraded_attempt); None for an
        exercise not in the book."""
        exercise = self.book.exercise(row["exercise_id"])
        if exercise is None:
            return None
        outcome, verdict = regraded_attempt(exercise, row, self._regrader, self._grading_time(key))
        regraded = outcome if outcome in (BUILD, UNGRADED, UNDECIDED) or outcome == row["status"] else "tampered"
        mistake = verdict.mistake if verdict is not None and not verdict.undecided else None
        attempt = LiveAttempt(local_time(row).astimezone(UTC), exercise.id, label(exercise, row["answer"]),
                              row["status"], regraded, mistake, row["seed"])
        return replace(attempt, slip=self._slip_of(attempt)) if attempt.status == "incorrect" else attempt

    def _grading_time(self, key: tuple[str, str]) -> GradingTime:
        """The grading time of the account owning the files, for the whole lesson (files the instructor owns,
        or without an owner, are charged to their name, as in the class report)."""
        return self._grading.setdefault(payer_of(key, self._me), GradingTime(GRADING_SECONDS_PER_ACCOUNT))

    def snapshot(self, now: datetime) -> Snapshot:
        learners = tuple(sorted(self._learners.values(), key=lambda s: (s.name.casefold(), s.name, s.owner)))
        owners: dict[str, set[str]] = {}
        for learner in learners:
            owners.setdefault(learner.name, set()).add(learner.owner)
        labels = {s.key: f"{s.name} ({s.owner})" if len(owners[s.name]) > 1 else s.name for s in learners}
        skipped = tuple(sorted(record.reason for record in self._files.values() if record.learner is None))
        parts = [self._now_of(learner, now) for learner in learners]
        stuck = sorted((Stuck(labels[learner.key], exercise_id, wrong, since)
                        for learner, part in zip(learners, parts, strict=True)
                        for exercise_id, wrong, since in part.stuck),
                       key=lambda s: (s.since, s.learner, s.exercise_id))
        return Snapshot(now, learners, labels, {s.key: s.chapters for s in learners}, tuple(stuck),
                        self._slips(learners, parts), self._figures(learners), skipped, self.unlisted)

    def _now_of(self, learner: Learner, now: datetime) -> _Now:
        part = self._now.get(learner.key)
        if part is None or not part.start <= now < part.until:
            part = self._now[learner.key] = _learner_now(learner, now)
        return part

    def _chapters(self, exercises: dict[str, Tried]) -> dict[str, ChapterCell]:
        cells = {}
        for chapter in self.book.chapters:
            tried = [exercises[e.id] for e in chapter.exercises if e.id in exercises]
            solved = sum(t.solved for t in tried)
            total = len(chapter.exercises)
            state = "solved" if total and solved == total else "tried" if any(t.attempts for t in tried) \
                else "not started"
            cells[chapter.id] = ChapterCell(state, solved, total)
        return cells

    def _slips(self, learners: tuple[Learner, ...], parts: list[_Now]) -> tuple[Slip, ...]:
        who: dict[tuple[str, int | None, str], set[tuple[str, str]]] = {}
        made: Counter[tuple[str, int | None, str]] = Counter()
        for learner, part in zip(learners, parts, strict=True):
            for slip, n in part.slips.items():
                who.setdefault(slip, set()).add(learner.key)
                made[slip] += n
        order = {e.id: i for i, e in enumerate(self.book.exercises)}
        slips = [Slip(exercise_id, name, mistake, len(who[(exercise_id, mistake, name)]), n)
                 for (exercise_id, mistake, name), n in made.items()]
        return tuple(sorted(slips, key=lambda s: (-s.learners, -s.attempts, order[s.exercise_id], s.name)))

    def _slip_of(self, attempt: LiveAttempt) -> tuple[str, int | None, str]:
        """What a wrong answer has in common with others': the named mistake it made, or else its text (and,
        for an exercise whose numbers vary, its variant: 0.875 to one learner's numbers is not to another's)."""
        exercise = self.book.exercise(attempt.exercise_id)
        if attempt.mistake is not None and isinstance(exercise, NumericAnswer):
            return (attempt.exercise_id, attempt.mistake, mistake_name(exercise.mistakes[attempt.mistake - 1].feedback))
        varies = isinstance(exercise, NumericAnswer) and exercise.is_template and attempt.seed
        return (attempt.exercise_id, None, attempt.answer + (f" (seed {attempt.seed})" if varies else ""))

    def _figures(self, learners: tuple[Learner, ...]) -> dict[str, ExerciseFigures]:
        tried_by: dict[str, list[Tried]] = {}
        for learner in learners:
            for exercise_id, tried_one in learner.exercises.items():
                if tried_one.attempts:
                    tried_by.setdefault(exercise_id, []).append(tried_one)
        figures = {}
        for exercise in self.book.exercises:
            tried = tried_by.get(exercise.id, [])
            to_solve = [t.tries_to_solve for t in tried if t.tries_to_solve is not None]
            figures[exercise.id] = ExerciseFigures(
                exercise.id, len(tried), len(to_solve),
                sum(n == 1 for n in to_solve) / len(tried) if tried else None,
                statistics.median(to_solve) if to_solve else None)
        return figures


def _tried(attempts: list[LiveAttempt]) -> Tried:
    counted = [a for a in attempts if a.status is not None]
    first_right = next((n for n, a in enumerate(counted, 1) if a.status == "correct"), None)
    return Tried(len(counted), first_right is not None, first_right, tuple(attempts[-KEPT_ATTEMPTS:]))


def _learner_now(learner: Learner, now: datetime) -> _Now:
    """Stuck: the exercises whose last STUCK_WRONG or more counted attempts were all wrong, all within
    STUCK_WINDOW (a right answer, or a pause longer than the window, ends it). Slips: the wrong answers made
    within SLIP_WINDOW. Attempts after `now` (a learner's clock ahead) count from their time on."""
    stuck = []
    slips: Counter[tuple[str, int | None, str]] = Counter()
    stuck_since, slip_since = now - STUCK_WINDOW, now - SLIP_WINDOW
    until = datetime.max.replace(tzinfo=UTC)
    for exercise_id, tried in learner.exercises.items():
        wrong: list[LiveAttempt] = []
        ended = False
        for attempt in reversed(tried.recent):   # newest first
            when = attempt.when
            # the moments the answer changes: this attempt's own, and its leaving either window
            for moment in (when, when + STUCK_WINDOW, when + SLIP_WINDOW):
                if now <= moment < until:
                    until = moment
            if attempt.status == "incorrect" and attempt.slip is not None and slip_since <= when <= now:
                slips[attempt.slip] += 1
            if ended or attempt.status is None or when > now:
                continue
            if attempt.status == "correct" or when < stuck_since:
                ended = True
                continue
            wrong.append(attempt)
        if len(wrong) >= STUCK_WRONG:
            stuck.append((exercise_id, len(wrong), wrong[-1].when))
    return _Now(now, until, tuple(stuck), dict(slips))


def mistake_name(feedback: str) -> str:
    """A named mistake in a few words: its feedback's first sentence ("That is one phase only")."""
    first = feedback.strip().split(". ", 1)[0].split("\n", 1)[0].rstrip(".")
    return first if len(first) <= SLIP_NAME_WIDTH else first[:SLIP_NAME_WIDTH - 1].rstrip() + "…"
