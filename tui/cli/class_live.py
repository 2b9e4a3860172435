"""`ringbook class live DIR`: the class now, as the inbox's exports change. The screen for an instructor's
terminal (tui/class_live_app.py); `--json` for a script, one snapshot; plain lines (`--lines`, or where the
app's own face would be plain lines: tui.lines.mode) print the snapshot, then a line per change until Ctrl+C."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from grader.safe_text import printable
from tui.cli.classroom import EXIT_NOTHING
from tui.cli.common import load_or_report
from tui.progress import clock
from tui.progress.class_live import TICK_SECONDS, WATCH_LONGEST_SECONDS, WATCH_QUIET_SECONDS, ClassLive
from tui.progress.class_live_text import as_data, change_lines, snapshot_lines
from tui.progress.export_file import inert_json
from tui.progress.roster import UnreadableRoster, read_roster


def run_class_live(inbox: Path, content: Path | None, *, chapter: str | None = None, as_json: bool = False,
                   lines: bool = False, roster_file: Path | None = None) -> int:
    if not inbox.is_dir():
        _warn(f"{inbox} is not a folder; give the class's inbox.")
        return EXIT_NOTHING
    try:
        with os.scandir(inbox):
            pass
    except OSError as exc:   # not an empty class: one whose files this account cannot see, as a learner's cannot
        _warn(f"cannot list {inbox} ({exc.strerror or exc}). Only the inbox's owner and its group (`ringbook class "
              "init` made them the instructor's) may list the files learners drop in; nothing shown.")
        return EXIT_NOTHING
    book = load_or_report(content)
    if book is None:
        return EXIT_NOTHING
    if chapter is not None and chapter not in {c.id for c in book.chapters}:
        _warn(f"the book has no chapter {chapter!r}; its chapters are {', '.join(c.id for c in book.chapters)}.")
        return EXIT_NOTHING
    try:
        roster = read_roster(roster_file) if roster_file is not None else None
    except UnreadableRoster as exc:
        _warn(f"{exc}; nothing shown.")
        return EXIT_NOTHING
    live = ClassLive(book, inbox, roster)
    live.refresh()
    if as_json:
        sys.stdout.write(inert_json(as_data(book, live.snapshot(clock.now()))))
        return 0
    from tui.lines.mode import lines_reason

    why = "you asked for them with --lines" if lines else \
        lines_reason(flag=False, environ=os.environ, setting="", terminal=sys.stdin.isatty() and sys.stdout.isatty())
    if why is not None:
        return _run_lines(live, why)
    from tui.class_live_app import ClassLiveApp  # Textual loads only when the screen really starts

    ClassLiveApp(live, chapter=chapter).run()
    return 0


def _run_lines(live: ClassLive, why: str) -> int:
    from tui.watch import Edits

    print(f"ringbook class live: plain lines: {why}. A line per change; Ctrl+C ends.", flush=True)
    try:
        # Watching before the first read; read again after each burst of changes, and every TICK_SECONDS for what
        # time alone changes (a learner no longer stuck once the window has passed) and a change the watcher
        # missed, as the screen does.
        with Edits(live.inbox, output=sys.stdout, every=TICK_SECONDS, recursive=False, suffixes=(".json",),
                   quiet=WATCH_QUIET_SECONDS, longest=WATCH_LONGEST_SECONDS) as edits:
            live.refresh()
            shown = live.snapshot(clock.now())
            for line in snapshot_lines(live.book, shown):
                print(line, flush=True)
            for _ in edits:
                live.refresh()
                latest = live.snapshot(clock.now())
                for line in change_lines(shown, latest):
                    print(line, flush=True)
                shown = latest
    except KeyboardInterrupt:
        return 0
    except OSError as exc:
        _warn(f"cannot watch {live.inbox}: {exc}")
        return 1
    return 0


def _warn(line: str) -> None:
    print(printable(f"ringbook class live: {line}", one_line=True), file=sys.stderr)
