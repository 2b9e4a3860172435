"""`ringbook class report`: the instructor's report over students' exports."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from tui.cli.parsers.options import content_of, content_option

if TYPE_CHECKING:
    from tui.cli.parsers.options import Commands

REPORT_DESCRIPTION = (
    "Aggregate `ringbook progress export`/`submit` files. A folder means every *.json in it. Files with the same "
    "student name and owner are merged (each attempt counted once); one name from two accounts is reported apart. "
    "Every answer is graded again against the book; build code is parsed, never run. Exit status: 0 every file "
    "was read and nothing was flagged, 1 the report was made with warnings (files skipped, or students flagged; "
    "each a line on stderr), 2 nothing to report (no readable export, or the book has problems).")


def add_classroom(commands: Commands) -> None:
    classes = commands.add_parser("class", help="for instructors: a report over students' exports")
    actions = classes.add_subparsers(dest="class_command", metavar="ACTION", required=True)
    report = actions.add_parser(
        "report", help="students x chapters mastery, last active, streak, most failed exercises",
        description=REPORT_DESCRIPTION)
    report.add_argument("paths", nargs="+", type=Path, metavar="DIR|FILE")
    report.add_argument("--format", choices=("table", "csv", "json"), default="table",
                        help="table (80 columns, the default), csv (a row per student) or json (everything)")
    report.add_argument("--roster", type=Path, metavar="FILE",
                        help="which account each student is: a line per student, the login then the name to "
                             "show; files are named by their owner's line, and a file naming another "
                             "account's student is flagged")
    content_option(report)
    report.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from tui.cli.classroom import run_class_report

    return run_class_report(args.paths, args.format, content_of(args), args.roster)
