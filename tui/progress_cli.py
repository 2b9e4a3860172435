"""`ringbook progress`: the summary, export, import and reset, for learners and instructors."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from tui.cli import load_or_report, open_store_or_report
from tui.mastery import mastery
from tui.store import ProgressStore, StoreError, export_csv
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
            return export(store, args.file, args.format)
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
    if overall.retired:
        print(f"\nRetired: {overall.retired_attempts} attempt(s) on {len(overall.retired)} exercise(s) no longer "
              f"in the book ({', '.join(overall.retired)}); they are kept.")
    print(f"\nStore: {store.path or 'not saved (see above)'}")
    return 0


def export(store: ProgressStore, target: Path | None, form: str) -> int:
    data = store.export_data()
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
