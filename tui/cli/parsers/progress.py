"""`ringbook progress [export | submit | import | reset | restore]`: the learner's own progress."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from tui.cli.parsers.options import class_of, class_option, content_of, content_option, data_dir_of, data_option

if TYPE_CHECKING:
    from tui.cli.parsers.options import Commands


def add_progress(commands: Commands) -> None:
    progress = commands.add_parser("progress", help="your progress: summary, export, submit, import, reset, restore")
    content_option(progress)
    data_option(progress)
    progress.add_argument("--json", action="store_true",
                          help="print the summary as one JSON object (with review: due, next_due, retention)")
    class_option(progress)
    progress.set_defaults(run=run)
    actions = progress.add_subparsers(dest="progress_command", metavar="ACTION")
    export = actions.add_parser("export", help="write all attempts to FILE (default, or -: standard output)")
    export.add_argument("file", nargs="?", type=Path, metavar="FILE")
    export.add_argument("--format", choices=("json", "csv"), default="json")
    export.add_argument("--name", help="the student name the JSON export carries (default: your login)")
    submit = actions.add_parser(
        "submit", help="drop a timestamped JSON export into an instructor's folder DIR",
        description="Write NAME-YYYYmmddTHHMMSSZ-<random>.json into DIR, mode 0640 (you and DIR's group), "
                    "never replacing an earlier file. With -, the export comes on standard input instead (from "
                    "another host: `ringbook progress export | ssh HOST ringbook progress submit DIR -`), checked "
                    "as the class report checks a file, and refused whole if it is not a sound export. "
                    "Exit status: 0 submitted, 1 DIR is missing, not a folder, or not writable, or the export "
                    "on standard input was refused.")
    submit.add_argument("folder", type=Path, metavar="DIR")
    submit.add_argument("source", nargs="?", choices=("-",), metavar="-",
                        help="read the export from standard input, not from your own progress")
    submit.add_argument("--name", help="the student name to submit under (default: your login)")
    importing = actions.add_parser("import", help="merge an export into this store (idempotent)")
    importing.add_argument("file", type=Path, metavar="FILE")
    reset = actions.add_parser("reset", help="start over (a backup is kept)")
    reset.add_argument("--yes", action="store_true", help="do not ask")
    restore = actions.add_parser(
        "restore", help="put back the progress in a backup FILE that reset kept (the current one is kept too)")
    restore.add_argument("file", type=Path, metavar="FILE")
    for action in (export, submit, importing, reset, restore):
        data_option(action)


def run(args: argparse.Namespace) -> int:
    from tui.cli.progress import run_progress

    return run_progress(args, content_of(args), data_dir_of(args), class_of(args))
