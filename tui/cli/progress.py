"""`ringbook progress`: the summary, export, submit, import and reset, for learners and instructors."""

from __future__ import annotations

import errno
import json
import os
import re
import sys
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING

from tui.cli.common import load_or_report, open_store_or_report
from tui.progress.mastery import designs_saved, mastery, quiz_scores
from tui.progress.store import ProgressStore, StoreError, export_csv
from tui.widgets.progress_bar import bar

if TYPE_CHECKING:
    import argparse

def run_progress(args: argparse.Namespace, content: Path | None, data_dir: Path | None) -> int:
    store = open_store_or_report(data_dir)
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
            return reset(store, args.yes)
        return summary(store, content)
    finally:
        store.close()


def summary(store: ProgressStore, content: Path | None) -> int:
    book = load_or_report(content)
    if book is None:
        return 1
    states = store.exercise_states()
    overall = mastery(book, states)
    streak = store.streak()
    print(book.title)
    reveal_note = f"   ({overall.after_reveal} solved after reveal)" if overall.after_reveal else ""
    print(f"Mastery  {overall.summary}{reveal_note}")
    today = "done today" if streak.done_today else "not yet today"
    print(f"Streak   {streak.current} day{'s' if streak.current != 1 else ''} (best {streak.best}), {today}")
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
        print(f"\nRetired: {overall.retired_attempts} attempt(s) on {len(overall.retired)} exercise(s) no longer "
              f"in the book ({', '.join(overall.retired)}); they are kept.")
    print(f"\nStore: {store.path or 'not saved (see above)'}")
    return 0


def courseware_lines(store: ProgressStore, book) -> list[str]:
    """A line per quiz (best score, runs) and per lab (designs saved), as the home screen shows them."""
    lines = []
    for quiz in book.quizzes:
        scores = quiz_scores(store, quiz.id)
        lines.append(f"{quiz.title} (quiz): " + (f"best {max(scores):g} / {len(quiz)}, {len(scores)} run"
                                                   f"{'s' if len(scores) != 1 else ''}" if scores else "not taken yet"))
    for lab in book.labs:
        saved = designs_saved(store, lab.id)
        lines.append(f"{lab.title}: " + (f"{saved} design{'s' if saved != 1 else ''} saved" if saved else "not started"))
    return lines


def student_identity(name: str | None) -> dict[str, str]:
    """Whose export this is, so a class report can tell students apart: the login and machine, and the
    name the learner gives (their login by default)."""
    import getpass
    import socket

    try:
        user = getpass.getuser()
    except (OSError, KeyError):  # no login name in the environment or the password database
        user = "unknown"
    return {"name": (name or "").strip() or user, "user": user, "host": socket.gethostname()}


def export_with_identity(store: ProgressStore, name: str | None) -> dict:
    return {**store.export_data(), "student": student_identity(name)}


def export(store: ProgressStore, target: Path | None, form: str, name: str | None = None) -> int:
    data = export_with_identity(store, name)
    text = export_csv(data) if form == "csv" else json.dumps(data, indent=1, ensure_ascii=False) + "\n"
    if target is None:
        sys.stdout.write(text)
        return 0
    try:
        target.write_text(text, encoding="utf-8")
    except OSError as exc:
        print(f"ringbook: cannot write {target}: {exc.strerror}", file=sys.stderr)
        return 1
    print(f"Exported {len(data['attempts'])} attempt(s) to {target}.")
    return 0


def submit(store: ProgressStore, folder: Path, name: str | None) -> int:
    """Drop a timestamped JSON export into an instructor's folder; never replaces an earlier submission."""
    if not folder.exists():
        print(f"ringbook: the drop folder {folder} does not exist; check the path your instructor gave.",
              file=sys.stderr)
        return 1
    if not folder.is_dir():
        print(f"ringbook: {folder} is not a folder; give the drop folder's path.", file=sys.stderr)
        return 1
    data = export_with_identity(store, name)
    text = json.dumps(data, indent=1, ensure_ascii=False) + "\n"
    stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    stem = f"{_file_safe(data['student']['name'])}-{stamp}"
    try:
        target = _create_new(folder, stem, text)
    except OSError as exc:
        print(f"ringbook: cannot write into the drop folder {folder}: {exc.strerror}.", file=sys.stderr)
        return 1
    print(f"Submitted {len(data['attempts'])} attempt(s) as {target}.")
    return 0


def _file_safe(name: str) -> str:
    """A student name as a file-name part: letters, digits, dot, dash and underscore only."""
    return re.sub(r"[^A-Za-z0-9._-]+", "_", name).strip("._") or "student"


def _create_new(folder: Path, stem: str, text: str) -> Path:
    """Write `text` to a file that did not exist before (O_EXCL), adding -2, -3... to the name when two
    submissions land in the same second. A write that fails half-way leaves nothing behind."""
    for attempt in range(1, 1000):
        target = folder / (f"{stem}.json" if attempt == 1 else f"{stem}-{attempt}.json")
        try:
            descriptor = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError:
            continue
        try:
            with os.fdopen(descriptor, "w", encoding="utf-8") as out:
                out.write(text)
        except OSError:
            target.unlink(missing_ok=True)
            raise
        return target
    raise FileExistsError(errno.EEXIST, "too many submissions in the same second")


def import_file(store: ProgressStore, source: Path) -> int:
    try:
        data = json.loads(source.read_text(encoding="utf-8"))
    except OSError as exc:
        print(f"ringbook: cannot read {source}: {exc.strerror}", file=sys.stderr)
        return 1
    except (ValueError, UnicodeDecodeError):
        print(f"ringbook: {source} is not a JSON export (use `ringbook progress export`).", file=sys.stderr)
        return 1
    try:
        added = store.import_data(data)
    except StoreError as exc:
        print(f"ringbook: {exc}", file=sys.stderr)
        return 1
    print(f"Imported {added} new record(s) from {source}; anything already here was left as it was.")
    return 0


def reset(store: ProgressStore, yes: bool) -> int:
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
    print(f"Progress reset. The old progress is kept in {backup}." if backup else "Progress reset.")
    return 0
