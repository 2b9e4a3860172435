"""`ringbook class report`: the class report as an 80-column table, CSV for spreadsheets, or JSON."""

from __future__ import annotations

import csv
import io
import json
import sys
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tui.progress.class_report import ClassReport, StudentReport, build_report
from tui.cli.common import load_or_report

if TYPE_CHECKING:
    from grader.quiz import Quiz

WIDTH = 80
FAILED_SHOWN = 10      # the table lists this many exercises; JSON lists them all
WRONG_SHOWN = 3        # most common wrong answers per exercise in the table
NAME_WIDTH = (7, 16)   # the student column grows with the names, within these bounds

EXIT_ALL_READ, EXIT_SOME_SKIPPED, EXIT_NOTHING = 0, 1, 2


def run_class_report(paths: list[Path], form: str, content: Path | None) -> int:
    book = load_or_report(content)
    if book is None:
        return EXIT_NOTHING
    report = build_report(book, paths)
    for line in report.skipped:
        print(f"ringbook class report: skipped {line}", file=sys.stderr)
    for student in report.students:
        if student.mastery.retired_attempts:
            print(f"ringbook class report: {student.name} has {student.mastery.retired_attempts} attempt(s) on "
                  f"exercises not in {book.title!r} (is --content the book they used?)", file=sys.stderr)
    if not report.students:
        print("ringbook class report: no readable progress exports; nothing to report.", file=sys.stderr)
        return EXIT_NOTHING
    render = {"table": as_table, "csv": as_csv, "json": as_json}[form]
    sys.stdout.write(render(report))
    return EXIT_SOME_SKIPPED if report.skipped else EXIT_ALL_READ


# --- table --------------------------------------------------------------------------------------------

def as_table(report: ClassReport) -> str:
    count = len(report.students)
    lines = [_fit(f"Class report: {report.book.title} ({count} student{'s' if count != 1 else ''}, "
                  f"{report.files_read} file{'s' if report.files_read != 1 else ''})"), ""]
    name_width = min(max(NAME_WIDTH[0], *(len(s.name) for s in report.students)), NAME_WIDTH[1])
    lines += _summary_rows(report.students, name_width) + [""]
    lines += _chapter_rows(report, name_width) + [""]
    for quiz in report.book.quizzes:
        lines += _quiz_rows(report, quiz, name_width) + [""]
    lines += _failed_rows(report)
    return "\n".join(line.rstrip() for line in lines) + "\n"


def _summary_rows(students: list[StudentReport], name_width: int) -> list[str]:
    solved_width = max(6, *(len(f"{s.mastery.solved}/{s.mastery.total}") for s in students))
    rows = [f"{'Student':<{name_width}}  {'Solved':>{solved_width}}  {'%':>4}  {'After reveal':>12}  "
            f"{'Last active':<16}  {'Streak':>6}  {'Best':>4}"]
    for s in students:
        m = s.mastery
        active = s.last_active.strftime("%Y-%m-%d %H:%M") if s.last_active else "never"
        rows.append(f"{_cut(s.name, name_width):<{name_width}}  {f'{m.solved}/{m.total}':>{solved_width}}  "
                    f"{m.percent:>3}%  {m.after_reveal:>12}  {active:<16}  {s.streak.current:>6}  {s.streak.best:>4}")
    return rows


def _chapter_rows(report: ClassReport, name_width: int) -> list[str]:
    """Solved exercises per chapter: one column per chapter id, folded into blocks that fit the width."""
    chapters = report.book.chapters
    name_width = max(name_width, len("exercises"))
    widths = [max(len(c.id), len(str(len(c.exercises)))) for c in chapters]
    rows = ["Solved per chapter (columns are chapter ids; · is none solved)"]
    start = 0
    while start < len(chapters):
        end, used = start, name_width
        while end < len(chapters) and (end == start or used + 2 + widths[end] <= WIDTH):
            used += 2 + widths[end]
            end += 1
        block = range(start, end)
        rows.append(f"{'Chapter':<{name_width}}" + "".join(f"  {chapters[i].id:>{widths[i]}}" for i in block))
        rows.append(f"{'exercises':<{name_width}}" + "".join(f"  {len(chapters[i].exercises):>{widths[i]}}"
                                                               for i in block))
        for s in report.students:
            cells = (s.mastery.chapters[i].solved or "·" for i in block)
            rows.append(f"{_cut(s.name, name_width):<{name_width}}"
                        + "".join(f"  {cell:>{widths[i]}}" for i, cell in zip(block, cells)))
        start = end
        if start < len(chapters):
            rows.append("")
    return rows


def _quiz_rows(report: ClassReport, quiz: Quiz, name_width: int) -> list[str]:
    rows = [_fit(f"Quiz: {quiz.title} (latest score, best score, runs)")]
    for s in report.students:
        result = s.quizzes.get(quiz.id)
        taken = (f"{result.latest:g}/{result.out_of:g}   best {result.best:g}/{result.out_of:g}   "
                 f"{result.runs} run{'s' if result.runs != 1 else ''}") if result else "not taken"
        rows.append(f"{_cut(s.name, name_width):<{name_width}}  {taken}")
    return rows


def _failed_rows(report: ClassReport) -> list[str]:
    if not report.failed:
        return ["Most often failed: no incorrect attempts yet."]
    rows = ["Most often failed (incorrect attempts, students, most common wrong answers)"]
    id_width = max(len(f.exercise_id) for f in report.failed[:FAILED_SHOWN])
    for failed in report.failed[:FAILED_SHOWN]:
        counts = (f"{failed.failures} fail{'s' if failed.failures != 1 else ''}, "
                  f"{failed.students} student{'s' if failed.students != 1 else ''}")
        title_width = WIDTH - 2 - id_width - 2 - 2 - len(counts)
        rows.append(f"  {failed.exercise_id:>{id_width}}  {_cut(failed.title, title_width):<{title_width}}  {counts}")
        answers = ", ".join(f'"{answer}" ×{n}' if n > 1 else f'"{answer}"'
                            for answer, n in failed.wrong_answers[:WRONG_SHOWN])
        rows.append(_fit(f"  {'':>{id_width}}  wrong: {answers}"))
    if len(report.failed) > FAILED_SHOWN:
        rows.append(f"  ... and {len(report.failed) - FAILED_SHOWN} more (--format json lists them all)")
    return rows


def _cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def _fit(line: str) -> str:
    return _cut(line, WIDTH)


# --- machine-readable ---------------------------------------------------------------------------------

def as_csv(report: ClassReport) -> str:
    """One row per student; a `chapter <id>` column of solved exercises for each chapter, and the latest
    and best score of each of the book's quizzes (empty when not taken)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    chapters = report.book.chapters
    writer.writerow(["student", "user", "host", "files", "attempts", "solved", "total", "after_reveal",
                     "last_active", "streak", "best_streak", *(f"chapter {c.id}" for c in chapters),
                     *(f"quiz {q.id} {which}" for q in report.book.quizzes for which in ("latest", "best"))])
    for s in report.students:
        quizzes = [s.quizzes.get(q.id) for q in report.book.quizzes]
        writer.writerow([s.name, s.user, s.host, len(s.files), s.attempts, s.mastery.solved, s.mastery.total,
                         s.mastery.after_reveal, s.last_active.isoformat() if s.last_active else "",
                         s.streak.current, s.streak.best, *(c.solved for c in s.mastery.chapters),
                         *(f"{getattr(q, which):g}" if q else "" for q in quizzes for which in ("latest", "best"))])
    return out.getvalue()


def as_json(report: ClassReport) -> str:
    data: dict[str, Any] = {
        "book": report.book.title,
        "chapters": [{"id": c.id, "title": c.title, "exercises": len(c.exercises)} for c in report.book.chapters],
        "quizzes": [{"id": q.id, "title": q.title} for q in report.book.quizzes],
        "students": [_student_json(s) for s in report.students],
        "most_failed": [
            {"id": f.exercise_id, "title": f.title, "failures": f.failures, "students": f.students,
             "wrong_answers": [{"answer": answer, "count": n} for answer, n in f.wrong_answers]}
            for f in report.failed
        ],
        "skipped": report.skipped,
    }
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"


def _student_json(s: StudentReport) -> dict[str, Any]:
    m = s.mastery
    return {
        "name": s.name, "user": s.user, "host": s.host, "files": list(s.files), "attempts": s.attempts,
        "solved": m.solved, "total": m.total, "after_reveal": m.after_reveal,
        "last_active": s.last_active.isoformat() if s.last_active else None,
        "streak": {"current": s.streak.current, "best": s.streak.best},
        "chapters": {c.chapter_id: {"solved": c.solved, "total": c.total} for c in m.chapters},
        "retired_attempts": m.retired_attempts,
        "quizzes": {quiz_id: asdict(result) for quiz_id, result in s.quizzes.items()},
    }
