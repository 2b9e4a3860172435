"""`ringbook class report`: the class report as an 80-column table, CSV for spreadsheets, or JSON.

Names, answers and file names come from students, so every one is printed through grader.safe_text:
an escape sequence in a name shows as text instead of clearing the instructor's screen. CSV cells
that a spreadsheet would run as a formula are quoted (export_file.csv_cell, as in `progress export`),
and JSON carries such characters as escapes.
"""

from __future__ import annotations

import csv
import io
import sys
import textwrap
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Any

from grader.safe_text import clipped, printable
from tui.cli.common import load_or_report
from tui.progress.class_report import ClassReport, StudentReport, WrongAnswer, build_report
from tui.progress.export_file import csv_cell, inert_json
from tui.progress.roster import UnreadableRoster, read_roster

if TYPE_CHECKING:
    from grader.book.quiz import Quiz

WIDTH = 80
FAILED_SHOWN = 10      # the table lists this many exercises; JSON lists them all
WRONG_SHOWN = 3        # most common wrong answers per exercise in the table
ANSWER_WIDTH = 60      # each of them cut to this many characters
MISTAKE_WIDTH = 16     # a named mistake's feedback, cut to this many (--format json has it whole)
IDS_SHOWN = 5          # exercise ids named in a line about tampered attempts
NAME_WIDTH = (7, 16)   # the student column grows with the names, within these bounds

# 0: every file read and every counted attempt checked; 1: a report was made, with warnings on stderr
# (files skipped, or students whose files disagree with the book, with each other or with their owner);
# 2: nothing to report.
EXIT_CLEAN, EXIT_WARNINGS, EXIT_NOTHING = 0, 1, 2


def run_class_report(paths: list[Path], form: str, content: Path | None, roster_file: Path | None = None) -> int:
    book = load_or_report(content)
    if book is None:
        return EXIT_NOTHING
    try:
        roster = read_roster(roster_file) if roster_file is not None else None
    except UnreadableRoster as exc:
        warn(f"{exc}; no report made.")
        return EXIT_NOTHING
    report = build_report(book, paths, roster=roster)
    for line in report.skipped:
        warn(f"skipped {line}")
    for student in report.students:
        for finding in findings(report, student, routine=False):
            warn(f"{student.label}: {finding}")
    if not report.students:
        warn("no readable progress exports; nothing to report.")
        return EXIT_NOTHING
    render = {"table": as_table, "csv": as_csv, "json": as_json}[form]
    sys.stdout.write(render(report))
    flagged = report.skipped or any(s.verification.needs_attention for s in report.students)
    return EXIT_WARNINGS if flagged else EXIT_CLEAN


def warn(line: str) -> None:
    print(printable(f"ringbook class report: {line}", one_line=True), file=sys.stderr)


# --- what checking found ------------------------------------------------------------------------------

def findings(report: ClassReport, student: StudentReport, routine: bool = True) -> list[str]:
    """What checking a student's files found, a sentence each; `routine` adds what is expected of honest
    work too (build attempts, which are counted without running their code)."""
    v = student.verification
    lines = []
    if v.tampered:
        ids = sorted({t.exercise_id for t in v.tampered}, key=_book_order(report))
        shown = ", ".join(ids[:IDS_SHOWN]) + (f" and {len(ids) - IDS_SHOWN} more" if len(ids) > IDS_SHOWN else "")
        lines.append(f"{_n(len(v.tampered), 'attempt')} recorded with a result the book does not give "
                     f"(edited, or made with another version of the book; on {shown}); not counted")
    if v.conflicts:
        lines.append(f"{_n(v.conflicts, 'record')} differ between copies in their files; neither copy is counted")
    if v.undecided:
        lines.append(f"{_n(v.undecided, 'attempt')} could not be decided (the algebra they need did not come to an "
                     "answer in its time); not counted: make the report again")
    for ungraded in v.ungraded_files:
        lines.append(f"{_n(ungraded.attempts, 'attempt')} in {Path(ungraded.file).name} could not be graded again "
                     f"within the {v.grading_seconds:g} seconds of grading charged to {v.charged_to}; not counted")
    for mismatch in v.owner_mismatches:
        lines.append(f"{Path(mismatch.file).name} names user {mismatch.declares!r} but belongs to {mismatch.owner}")
    on_roster = " on the roster" if report.roster is not None else ""
    for claim in v.name_claims:
        lookalike = claim.name.casefold() != claim.reads_as.casefold()
        reads_as = f", which reads as {claim.reads_as!r}," if lookalike else ","
        lines.append(f"{Path(claim.file).name} names student {claim.name!r}{reads_as} the name of account "
                     f"{claim.account}{on_roster}, but belongs to {claim.owner}; its work is counted as "
                     f"{claim.owner}'s")
    if v.name_shared_with:
        lines.append(f"files under the name {student.name!r} come from {_n(len(v.name_shared_with) + 1, 'account')}: "
                     f"{', '.join(sorted({student.account, *v.name_shared_with}))}; each account's are reported apart")
    if v.off_roster:
        lines.append(f"these files belong to {student.account}, who is not on the roster")
    if v.outside_book:
        lines.append(f"{_n(v.outside_book, 'attempt')} on exercises not in {report.book.title!r}; not counted "
                     "(is --content the book they used?)")
    if routine and v.build_not_rerun:
        lines.append(f"{_n(v.build_not_rerun, 'build attempt')} counted without running the code")
    return lines


def _book_order(report: ClassReport) -> Callable[[str], int]:
    order = {e.id: i for i, e in enumerate(report.book.exercises)}
    return lambda exercise_id: order.get(exercise_id, len(order))


def _n(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def _totals(report: ClassReport) -> str:
    """One sentence: how many attempts were checked, and what became of them."""
    v = [s.verification for s in report.students]
    confirmed, build = sum(x.confirmed for x in v), sum(x.build_not_rerun for x in v)
    left_out = {"tampered": sum(len(x.tampered) for x in v), "not graded in time": sum(x.not_regraded for x in v),
                "undecided": sum(x.undecided for x in v),
                "not in this book": sum(x.outside_book for x in v)}
    checked = confirmed + build + sum(left_out.values())
    parts = [f"{confirmed} graded again and confirmed"]
    if build:
        parts.append(f"{_n(build, 'build attempt')} counted without running the code")
    if any(left_out.values()):
        parts.append(f"{sum(left_out.values())} not counted ("
                     + ", ".join(f"{n} {why}" for why, n in left_out.items() if n) + ")")
    sentence = f"Checked {_n(checked, 'attempt')}: " + ", ".join(parts) + "."
    conflicts = sum(x.conflicts for x in v)
    if conflicts:
        sentence += f" {_n(conflicts, 'record')} in conflict between files, not counted."
    mismatched = sum(len(x.owner_mismatches) for x in v)
    if mismatched:
        sentence += f" Files not owned by the user they name: {mismatched}."
    claims = sum(len(x.name_claims) for x in v)
    if claims:
        sentence += f" Files naming another account's student: {claims}."
    shared = sum(1 for x in v if x.name_shared_with)
    if shared:
        sentence += f" Students whose name is used by more than one account: {shared} rows, reported apart."
    return sentence


# --- table --------------------------------------------------------------------------------------------

def as_table(report: ClassReport) -> str:
    count = len(report.students)
    lines = [_fit(f"Class report: {report.book.title} ({count} student{'s' if count != 1 else ''}, "
                  f"{report.files_read} file{'s' if report.files_read != 1 else ''})"), ""]
    name_width = min(max(NAME_WIDTH[0], *(len(printable(s.label, one_line=True)) for s in report.students)),
                     NAME_WIDTH[1])
    lines += _summary_rows(report.students, name_width) + [""]
    lines += _chapter_rows(report, name_width) + [""]
    for quiz in report.book.quizzes:
        lines += _quiz_rows(report, quiz, name_width) + [""]
    lines += _failed_rows(report) + [""]
    lines += _checked_rows(report, name_width)
    return "\n".join(line.rstrip() for line in lines) + "\n"


def _summary_rows(students: list[StudentReport], name_width: int) -> list[str]:
    solved_width = max(6, *(len(f"{s.mastery.solved}/{s.mastery.total}") for s in students))
    rows = [f"{'Student':<{name_width}}  {'Solved':>{solved_width}}  {'%':>4}  {'After reveal':>12}  "
            f"{'Last active':<16}  {'Streak':>6}  {'Best':>4}"]
    for s in students:
        m = s.mastery
        active = s.last_active.strftime("%Y-%m-%d %H:%M") if s.last_active else "never"
        rows.append(f"{_cut(s.label, name_width):<{name_width}}  {f'{m.solved}/{m.total}':>{solved_width}}  "
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
            rows.append(f"{_cut(s.label, name_width):<{name_width}}"
                        + "".join(f"  {cell:>{widths[i]}}" for i, cell in zip(block, cells, strict=True)))
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
        rows.append(f"{_cut(s.label, name_width):<{name_width}}  {taken}")
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
        answers = ", ".join(_wrong_answer(w) for w in failed.wrong_answers[:WRONG_SHOWN])
        rows.append(_fit(f"  {'':>{id_width}}  wrong: {answers}"))
    if len(report.failed) > FAILED_SHOWN:
        rows.append(f"  ... and {len(report.failed) - FAILED_SHOWN} more (--format json lists them all)")
    return rows


def _wrong_answer(wrong: WrongAnswer) -> str:
    """A kind of wrong answer in a few words: the mistake it made, or its text and the variant it answered."""
    times = f" ×{wrong.count}" if wrong.count > 1 else ""
    if wrong.mistake is not None:
        return f'mistake "{clipped(wrong.feedback, MISTAKE_WIDTH)}"{times}'
    variant = f" (seed {wrong.seed})" if wrong.seed else ""
    return f'"{clipped(wrong.answer, ANSWER_WIDTH)}"{variant}{times}'


def _checked_rows(report: ClassReport, name_width: int) -> list[str]:
    """What was verified: a line for each student with findings, then the count for the class."""
    rows = ["Verified against the book: each answer graded again (build code parsed, not run)"]
    indent = " " * (2 + name_width + 2)
    for s in report.students:
        for number, finding in enumerate(findings(report, s)):
            label = _cut(s.label, name_width) if number == 0 else ""
            rows += textwrap.wrap(printable(finding, one_line=True), WIDTH, break_on_hyphens=False,
                                  initial_indent=f"  {label:<{name_width}}  ", subsequent_indent=indent)
    return rows + textwrap.wrap(_totals(report), WIDTH, break_on_hyphens=False)


def _cut(text: str, width: int) -> str:
    """Untrusted text for a table cell: control characters escaped first, then cut, never the reverse."""
    return clipped(text, width)


def _fit(line: str) -> str:
    return _cut(line, WIDTH)


# --- machine-readable ---------------------------------------------------------------------------------

def as_csv(report: ClassReport) -> str:
    """One row per student; a `chapter <id>` column of solved exercises for each chapter, and the latest
    and best score of each of the book's quizzes (empty when not taken)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    chapters = report.book.chapters
    writer.writerow(["student", "account", "user", "host", "files", "attempts", "solved", "total", "after_reveal",
                     "last_active", "streak", "best_streak", *(f"chapter {c.id}" for c in chapters),
                     *(f"quiz {q.id} {which}" for q in report.book.quizzes for which in ("latest", "best")),
                     "confirmed", "build_not_rerun", "tampered", "conflicts", "not_graded_in_time", "undecided",
                     "not_in_book", "files_not_owned_by_user", "files_naming_another_account",
                     "name_used_by_other_accounts", "not_on_roster"])
    for s in report.students:
        quizzes = [s.quizzes.get(q.id) for q in report.book.quizzes]
        v = s.verification
        writer.writerow([csv_cell(s.name), csv_cell(s.account), csv_cell(s.user), csv_cell(s.host), len(s.files),
                         s.attempts,
                         s.mastery.solved, s.mastery.total,
                         s.mastery.after_reveal, s.last_active.isoformat() if s.last_active else "",
                         s.streak.current, s.streak.best, *(c.solved for c in s.mastery.chapters),
                         *(f"{getattr(q, which):g}" if q else "" for q in quizzes for which in ("latest", "best")),
                         v.confirmed, v.build_not_rerun, len(v.tampered), v.conflicts, v.not_regraded, v.undecided,
                         v.outside_book, len(v.owner_mismatches), len(v.name_claims),
                         csv_cell("; ".join(v.name_shared_with)), int(v.off_roster)])
    return out.getvalue()


def as_json(report: ClassReport) -> str:
    data: dict[str, Any] = {
        "book": report.book.title,
        "chapters": [{"id": c.id, "title": c.title, "exercises": len(c.exercises)} for c in report.book.chapters],
        "quizzes": [{"id": q.id, "title": q.title} for q in report.book.quizzes],
        "students": [_student_json(s) for s in report.students],
        "most_failed": [
            {"id": f.exercise_id, "title": f.title, "failures": f.failures, "students": f.students,
             "wrong_answers": [_wrong_answer_json(w) for w in f.wrong_answers]}
            for f in report.failed
        ],
        "skipped": report.skipped,
    }
    return inert_json(data)


def _wrong_answer_json(wrong: WrongAnswer) -> dict[str, Any]:
    if wrong.mistake is not None:
        return {"mistake": wrong.mistake, "feedback": wrong.feedback, "count": wrong.count}
    return {"answer": wrong.answer, "seed": wrong.seed, "count": wrong.count}


def _student_json(s: StudentReport) -> dict[str, Any]:
    m = s.mastery
    return {
        "name": s.name, "user": s.user, "host": s.host, "files": list(s.files), "attempts": s.attempts,
        "solved": m.solved, "total": m.total, "after_reveal": m.after_reveal,
        "last_active": s.last_active.isoformat() if s.last_active else None,
        "streak": {"current": s.streak.current, "best": s.streak.best},
        "chapters": {c.chapter_id: {"solved": c.solved, "total": c.total} for c in m.chapters},
        "retired_attempts": s.verification.outside_book,
        "quizzes": {quiz_id: asdict(result) for quiz_id, result in s.quizzes.items()},
        "owners": list(s.owners),
        "account": s.account,
        "verification": asdict(s.verification),
    }
