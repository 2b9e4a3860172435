"""`ringbook progress`: the summary, export, submit, import, reset and restore, for learners and instructors."""

from __future__ import annotations

import json
import shlex
import sys
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

from grader.safe_text import printable
from tui.cli.common import load_or_report, open_store_or_report, shared_with
from tui.progress.clock import now
from tui.progress.export_file import (
    MAX_EXPORT_BYTES,
    UnreadableExport,
    checked_export,
    export_counts,
    export_csv,
    inert_json,
    read_export,
    reason_for,
    write_whole,
)
from tui.progress.mastery import designs_saved, mastery, quiz_scores
from tui.progress.store import ProgressStore, StoreError
from tui.progress.submission import (
    export_with_identity,
    file_safe,
    for_the_inbox,
    identity_problem,
    write_new,
)
from tui.widgets.progress_bar import bar

if TYPE_CHECKING:
    import argparse

    from grader.book.model import Book
    from tui.progress.mastery import Mastery
    from tui.progress.review import ReviewSummary
    from tui.progress.streak import Streak

# The actions that read the learner's progress, which fail when the store cannot be read; reset and restore
# are how a damaged store is set aside or replaced, so they open it as the app does.
READING = (None, "export", "submit", "import")


def run_progress(args: argparse.Namespace, content: Path | None, data_dir: Path | None,
                 class_dir: Path | None = None) -> int:
    if args.progress_command == "submit" and args.source == "-":   # an export made elsewhere: no store is read
        if args.name is not None:
            print("ringbook: --name does not go with -: an export on standard input names its student itself.",
                  file=sys.stderr)
            return 1
        return submit_from(sys.stdin.buffer, args.folder)
    store = open_store_or_report(data_dir, session=args.progress_command not in READING)
    if store is None:
        return 1
    try:
        if store.notice:
            print(f"ringbook: {store.notice}", file=sys.stderr)
        action = args.progress_command
        if action == "export":
            return export(store, args.file, args.format, args.name)
        if action == "submit":
            return submit(store, args.folder, args.name)
        if action == "import":
            return import_file(store, args.file)
        if action == "reset":
            return reset(store, args.yes, data_dir)
        if action == "restore":
            return restore(store, args.file, data_dir)
        return summary(store, content, as_json=getattr(args, "json", False), class_dir=class_dir)
    finally:
        store.close()


def summary(store: ProgressStore, content: Path | None, as_json: bool = False, class_dir: Path | None = None) -> int:
    """`class_dir`: the class inbox the learner's apps share their progress with, said in the summary."""
    book = load_or_report(content)
    if book is None:
        return 1
    share = shared_with(class_dir, store)
    sharing = share.status() if share is not None else ""
    from tui.progress.review import kinds_of, review_summary

    moment = now()
    states = store.exercise_states()
    overall = mastery(book, states)
    streak = store.streak(moment)
    review = review_summary(store, moment, kinds_of(book))
    if as_json:
        print(json.dumps({**summary_json(book, overall, streak, review, store), "class": sharing or None}))
        return 0
    print(book.title)
    reveal_note = f"   ({overall.after_reveal} solved after reveal)" if overall.after_reveal else ""
    print(f"Mastery  {overall.summary}{reveal_note}")
    today = "done today" if streak.done_today else "not yet today"
    print(f"Streak   {streak.current} day{'s' if streak.current != 1 else ''} (best {streak.best}), {today}")
    print(f"Review   {review_line(review, moment)}")
    print()
    width = max(len(c.title) for c in overall.chapters) + 4
    for chapter in overall.chapters:
        label = f"{chapter.chapter_id:>2}  {chapter.title}"
        print(f"{label:<{width}} {chapter.solved:>2} / {chapter.total:<2} {bar(chapter.solved, chapter.total).plain}")
    courseware = courseware_lines(store, book)
    if courseware:
        print()
        print("\n".join(courseware))
    if overall.retired:
        retired = printable(", ".join(overall.retired), one_line=True)   # ids from imported files: student text
        print(f"\nRetired: {overall.retired_attempts} attempt(s) on {len(overall.retired)} exercise(s) no longer "
              f"in the book ({retired}); they are kept.")
    print(f"\nStore: {store.path or 'not saved (see above)'}")
    if sharing:
        print(printable(f"Class: {sharing}", one_line=True))
    return 0


def review_line(review: ReviewSummary, moment: datetime) -> str:
    """How many solved exercises are due, when the next is if none is, and the estimated retention."""
    if not review.cards or review.retention is None:   # no retention without a solved exercise
        return "nothing to review yet (an exercise comes back for review once solved)"
    if review.due:
        when = f"{len(review.due)} due now"
    elif review.next_due is not None:
        when = f"none due; next {review.next_due.astimezone(moment.tzinfo):%Y-%m-%d %H:%M}"
    else:
        when = "none due"
    return f"{when}   retention {round(100 * review.retention)}% of {review.cards} solved"


def summary_json(book: Book, overall: Mastery, streak: Streak, review: ReviewSummary,
                 store: ProgressStore) -> dict[str, Any]:
    """The summary as data: mastery, streak, chapters, and review (due now, next due, retention)."""
    return {
        "book": book.title,
        "mastery": {"solved": overall.solved, "total": overall.total, "after_reveal": overall.after_reveal,
                    "percent": overall.percent},
        "streak": {"current": streak.current, "best": streak.best, "done_today": streak.done_today},
        "chapters": [{"id": c.chapter_id, "title": c.title, "solved": c.solved, "total": c.total}
                     for c in overall.chapters],
        "due": len(review.due),
        "due_exercises": [c.exercise_id for c in review.due],
        "next_due": None if review.next_due is None else review.next_due.isoformat(),
        "retention": review.retention,
        "cards": review.cards,
        "retired": list(overall.retired),
        "store": None if store.path is None else str(store.path),
    }


def courseware_lines(store: ProgressStore, book: Book) -> list[str]:
    """A line per quiz (best score, runs) and per lab (designs saved), as the home screen shows them."""
    lines = []
    for quiz in book.quizzes:
        scores = quiz_scores(store, quiz.id)
        lines.append(f"{quiz.title} (quiz): " + (f"best {max(scores):g} / {len(quiz)}, {len(scores)} run"
                                                   f"{'s' if len(scores) != 1 else ''}" if scores else "not taken yet"))
    for lab in book.labs:
        saved = designs_saved(store, lab.id)
        lines.append(f"{lab.title}: "
                     + (f"{saved} design{'s' if saved != 1 else ''} saved" if saved else "not started"))
    return lines


def export(store: ProgressStore, target: Path | None, form: str, name: str | None = None) -> int:
    data = export_with_identity(store, name)
    text = export_csv(data) if form == "csv" else inert_json(data)
    if target is None or str(target) == "-":
        sys.stdout.write(text)
        return 0
    try:
        write_whole(target, text)
    except OSError as exc:
        kept = " (the file there is as it was)" if target.exists() else ""
        _say(f"ringbook: cannot write {target}: {exc.strerror or exc}; nothing was exported{kept}.")
        return 1
    print(f"Exported {described(export_counts(data))} to {target}.")
    return 0


RECORD_WORDS = {"attempts": ("attempt", "attempts"), "reveals": ("revealed answer", "revealed answers"),
                "entries:quiz": ("quiz run", "quiz runs"), "entries:lab": ("saved lab design", "saved lab designs"),
                "drafts": ("draft", "drafts"), "runs:quiz": ("quiz run under way", "quiz runs under way"),
                "runs:lab": ("lab design under way", "lab designs under way")}


def described(counts: Counter[str]) -> str:
    """Records by kind in words, the same on export, submit and import: "34 attempts and 2 revealed
    answers". Attempts are always named; a ledger part ringbook does not write is an "other record"."""
    words = {kind: counts.get(kind, 0) for kind in RECORD_WORDS}
    other = sum(number for kind, number in counts.items() if kind not in RECORD_WORDS)
    parts = [f"{number} {RECORD_WORDS[kind][number != 1]}" for kind, number in words.items()
             if number or kind == "attempts"]
    if other:
        parts.append(f"{other} other record{'s' if other != 1 else ''}")
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def submit(store: ProgressStore, folder: Path, name: str | None) -> int:
    """Drop a JSON export into an instructor's folder, readable by the instructor and not by classmates,
    under a name nobody can guess; never replaces an earlier submission."""
    if not drop_folder_ready(folder):
        return 1
    return drop(folder, for_the_inbox(export_with_identity(store, name)))


def submit_from(stream: BinaryIO, folder: Path) -> int:
    """`progress submit DIR -`: an export made elsewhere (another host, over ssh) taken from `stream` into the
    drop folder, checked first as the class report checks a file, and refused whole with one line saying why."""
    if not drop_folder_ready(folder):
        return 1
    try:
        data, _, _ = checked_export(stream.read(MAX_EXPORT_BYTES + 1))
        problem = identity_problem(data)
    except UnreadableExport as exc:
        problem = str(exc)
    except OSError as exc:
        problem = f"cannot be read ({exc.strerror})"
    if problem:   # as the class report names a file it skips: "NAME: reason" (the store's own words for rows)
        _say(f"ringbook: nothing was submitted; standard input: {problem.removesuffix(' Nothing was imported.')}")
        return 1
    return drop(folder, for_the_inbox(data))


def drop_folder_ready(folder: Path) -> bool:
    if not folder.exists():
        print(f"ringbook: the drop folder {folder} does not exist; check the path your instructor gave.",
              file=sys.stderr)
        return False
    if not folder.is_dir():
        print(f"ringbook: {folder} is not a folder; give the drop folder's path.", file=sys.stderr)
        return False
    return True


def drop(folder: Path, data: dict[str, Any]) -> int:
    text = inert_json(data)
    stamp = now().astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")
    stem = f"{file_safe(data['student']['name'])}-{stamp}"
    try:
        target = write_new(folder, stem, text)
    except OSError as exc:
        print(f"ringbook: cannot write into the drop folder {folder}: {exc.strerror}.", file=sys.stderr)
        return 1
    print(f"Submitted {described(export_counts(data))} as {target}.")
    return 0


def import_file(store: ProgressStore, source: Path) -> int:
    """Merge an export from `source`, read as the class report reads one: a file that is not a sound
    export is refused whole, with one line saying why, and nothing of it reaches the store."""
    shown = printable(str(source), one_line=True)
    try:
        export = read_export(source)
    except UnreadableExport as exc:
        _say(f"ringbook: cannot import {shown}: {exc}")
        return 1
    try:
        added = store.import_data(export.data)
    except StoreError as exc:
        _say(f"ringbook: cannot import {shown}: {exc}")
        return 1
    except Exception as exc:  # whatever the file holds, the learner gets a sentence, not a traceback
        _say(f"ringbook: cannot import {shown}: {reason_for(exc)}")
        return 1
    held = export_counts(export.rows)
    if not held:
        print(f"Imported nothing from {shown}: it holds no records.")
    elif not added:
        print(f"Imported nothing new from {shown}: its {described(held)} were all here already.")
    elif added == held:
        print(f"Imported {described(added)} from {shown}.")
    else:
        print(f"Imported {described(added)} from {shown}; the rest of its {described(held)} were here already.")
    return 0


def _say(line: str) -> None:
    print(printable(line, one_line=True), file=sys.stderr)


def reset(store: ProgressStore, yes: bool, data_dir: Path | None = None) -> int:
    if not yes:
        print(f"This clears all progress in {store.path} (a backup is kept). Type 'reset' to continue: ",
              end="", flush=True)
        answer = sys.stdin.readline().strip() if sys.stdin and not sys.stdin.closed else ""
        if answer != "reset":
            print("Nothing was changed.")
            return 1
    try:
        backup = store.reset()
    except StoreError as exc:
        print(f"ringbook: {exc}", file=sys.stderr)
        return 1
    if backup is None:
        print("Progress reset.")
    else:
        print(f"Progress reset. The old progress is kept in {backup}; to put it back, run\n"
              f"  {restore_command(backup, data_dir)}")
    return 0


def restore(store: ProgressStore, source: Path, data_dir: Path | None = None) -> int:
    """Put back a backup in place of the current progress, which is itself kept, so nothing is lost."""
    try:
        kept = store.restore(source)
    except StoreError as exc:
        _say(f"ringbook: cannot restore {source}: {exc}. Nothing was changed.")
        return 1
    print(printable(f"Progress restored from {source}.", one_line=True))
    if kept is not None:
        print(f"The progress it replaced is kept in {kept}; to put that back, run\n  {restore_command(kept, data_dir)}")
    return 0


def restore_command(backup: Path, data_dir: Path | None) -> str:
    """The command that restores `backup`, with the --data-dir the store was opened with."""
    command = ["ringbook", "progress", "restore", str(backup)]
    if data_dir is not None:
        command += ["--data-dir", str(data_dir)]
    return shlex.join(command)
