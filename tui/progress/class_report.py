"""A class report: many students' progress exports read as one, for an instructor.

Each student's exports are imported into a store of their own that lives in memory, so mastery and the
day streak come out exactly as that student sees them in the app. Exports with the same student name
are merged by attempt uid, so a later export that repeats an earlier one counts nothing twice, and
work submitted from two machines adds up. A file that cannot be read is named in a warning and left
out; the rest is still reported.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from grader.model import Book
from tui.progress.mastery import Mastery, mastery
from tui.progress.store import EXPORT_FORMAT, ProgressStore, StoreError, parse_utc
from tui.progress.streak import Streak

SUBMIT_STAMP = re.compile(r"-\d{8}T\d{6}Z(-\d+)?$")  # what `progress submit` adds after the name


@dataclass(frozen=True)
class QuizResult:
    """A student's runs of one of the book's quizzes."""

    latest: float
    best: float
    out_of: float
    runs: int


@dataclass(frozen=True)
class StudentReport:
    name: str
    user: str
    host: str
    files: tuple[str, ...]
    mastery: Mastery
    streak: Streak
    last_active: datetime | None  # in the student's own time zone at that moment
    attempts: int
    quizzes: dict[str, QuizResult]  # by quiz id; quizzes not taken are absent


@dataclass(frozen=True)
class FailedExercise:
    exercise_id: str
    title: str
    failures: int          # incorrect attempts, all students together
    students: int          # students with at least one incorrect attempt
    wrong_answers: tuple[tuple[str, int], ...]  # most common first


@dataclass
class ClassReport:
    book: Book
    students: list[StudentReport] = field(default_factory=list)
    failed: list[FailedExercise] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # one line per file left out, naming it

    @property
    def files_read(self) -> int:
        return sum(len(s.files) for s in self.students)


def export_files(paths: list[Path], skipped: list[str]) -> list[Path]:
    """The files to read: each FILE as given, and every *.json directly inside each DIR."""
    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            found = sorted(path.glob("*.json"))
            if not found:
                skipped.append(f"{path}: no *.json exports in this folder")
            files += found
        elif path.exists():
            files.append(path)
        else:
            skipped.append(f"{path}: no such file or folder")
    return files


def build_report(book: Book, paths: list[Path], now: datetime | None = None) -> ClassReport:
    report = ClassReport(book)
    stores: dict[str, ProgressStore] = {}
    files: dict[str, list[Path]] = {}
    identity: dict[str, dict[str, str]] = {}
    try:
        for path in export_files(paths, report.skipped):
            data = _read_export(path, report.skipped)
            if data is None:
                continue
            name = student_name(data, path)
            store = stores.get(name) or ProgressStore.in_memory()
            try:
                store.import_data(data)
            except StoreError as exc:
                report.skipped.append(f"{path}: {exc}")
                if name not in stores:
                    store.close()
                continue
            if name not in stores:
                stores[name] = store
            files.setdefault(name, []).append(path)
            hour = data.get("day_boundary_hour")
            if isinstance(hour, int) and not isinstance(hour, bool) and 0 <= hour < 24:
                store.set_day_boundary_hour(hour)
            student = data.get("student") if isinstance(data.get("student"), dict) else {}
            identity[name] = {k: str(student.get(k, "")) for k in ("user", "host")}
        moment = now or datetime.now().astimezone()
        wrong: dict[str, list[tuple[str, str]]] = {}
        for name in sorted(stores, key=str.casefold):
            store = stores[name]
            merged = store.export_data()
            report.students.append(StudentReport(
                name=name, **identity[name], files=tuple(str(p) for p in files[name]),
                mastery=mastery(book, store.exercise_states()), streak=store.streak(moment),
                last_active=_last_active(merged), attempts=len(merged["attempts"]),
                quizzes=_quiz_results(book, merged["entries"]),
            ))
            for attempt in merged["attempts"]:
                if attempt["status"] == "incorrect":
                    wrong.setdefault(attempt["exercise_id"], []).append((name, _as_one_line(attempt["answer"])))
        report.failed = _most_failed(book, wrong)
    finally:
        for store in stores.values():
            store.close()
    return report


def student_name(data: dict[str, Any], path: Path) -> str:
    """The name an export carries; an export from before names were added is named after its file."""
    student = data.get("student")
    if isinstance(student, dict) and isinstance(student.get("name"), str) and student["name"].strip():
        return student["name"].strip()
    return SUBMIT_STAMP.sub("", path.stem) or path.stem


def _read_export(path: Path, skipped: list[str]) -> dict[str, Any] | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        skipped.append(f"{path}: cannot be read ({exc.strerror})")
        return None
    except (ValueError, UnicodeDecodeError):
        skipped.append(f"{path}: not JSON, so not a ringbook progress export")
        return None
    if not isinstance(data, dict) or data.get("format") != EXPORT_FORMAT:
        skipped.append(f"{path}: not a ringbook progress export")
        return None
    return data


def _last_active(export: dict[str, Any]) -> datetime | None:
    """The latest attempt, reveal or ledger entry, at the student's clock when it happened."""
    moments = [
        parse_utc(row["created_utc"]).replace(tzinfo=timezone.utc)
        .astimezone(timezone(timedelta(minutes=row["utc_offset_minutes"])))
        for part in ("attempts", "reveals", "entries") for row in export[part]
    ]
    return max(moments, default=None)


def _quiz_results(book: Book, entries: list[dict[str, Any]]) -> dict[str, QuizResult]:
    """Each of the book's quizzes the student finished: latest and best score (entries come oldest first)."""
    runs: dict[str, list[tuple[float, float]]] = {}
    quiz_ids = {quiz.id for quiz in book.quizzes}
    for entry in entries:
        score, out_of = entry["payload"].get("score"), entry["payload"].get("out_of")
        if entry["part"] == "quiz" and entry["name"] in quiz_ids and all(
                isinstance(v, (int, float)) and not isinstance(v, bool) for v in (score, out_of)):
            runs.setdefault(entry["name"], []).append((score, out_of))
    return {quiz_id: QuizResult(latest=scores[-1][0], best=max(s for s, _ in scores), out_of=scores[-1][1],
                                runs=len(scores))
            for quiz_id, scores in runs.items()}


def _as_one_line(answer: str, limit: int = 60) -> str:
    """A wrong answer as one short line: whitespace collapsed (a build's code, an order's commas)."""
    text = " ".join(answer.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _most_failed(book: Book, wrong: dict[str, list[tuple[str, str]]]) -> list[FailedExercise]:
    """Exercises of the book with incorrect attempts: most failures first, then most students, then book order."""
    order = {e.id: i for i, e in enumerate(book.exercises)}
    failed = []
    for exercise_id, rows in wrong.items():
        exercise = book.exercise(exercise_id)
        if exercise is None:
            continue  # retired or from another book; the student's mastery shows those attempts
        answers = Counter(answer for _, answer in rows)
        ranked = sorted(answers.items(), key=lambda item: (-item[1], item[0]))
        failed.append(FailedExercise(exercise_id, exercise.title, len(rows), len({n for n, _ in rows}),
                                     tuple(ranked)))
    return sorted(failed, key=lambda f: (-f.failures, -f.students, order[f.exercise_id]))
