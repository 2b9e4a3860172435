"""`ringbook class init`, `class report` and `class live`: the instructor's inbox, the report over students'
exports, and the class now."""

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


INIT_DESCRIPTION = (
    "Make DIR the class inbox (docs/classroom.md, 'The inbox'): yours, in GROUP, mode 3733 (setgid and sticky; "
    "learners may drop files in but not list, read or replace them). A folder that is there already is checked; "
    "it is changed only if it is yours, and each change is said. Prints the line learners' accounts need "
    "(export RINGBOOK_CLASS=DIR) so that their progress is shared as they answer. Exit status: 0 the inbox is "
    "ready, 1 it is not (the reason on stderr).")


LIVE_DESCRIPTION = (
    "Watch the inbox as learners' exports arrive and change: students x chapters (or one chapter's exercises) "
    "as solved / tried / not started, who is stuck now, the slips being made now, first-try rate and median "
    "attempts per exercise. Files are read and every answer graded again as `class report` does; a file it "
    "would skip is skipped with the same reason.")


def add_classroom(commands: Commands) -> None:
    classes = commands.add_parser("class", help="for instructors: the class inbox, a report over students' exports, "
                                                "or the class live")
    actions = classes.add_subparsers(dest="class_command", metavar="ACTION", required=True)
    init = actions.add_parser("init", help="make the class inbox DIR and print the line learners' accounts need",
                              description=INIT_DESCRIPTION)
    init.add_argument("folder", type=Path, metavar="DIR")
    init.add_argument("--group", metavar="GROUP",
                      help="the group the inbox's files take, one only you are in (default: ringbook-staff)")
    init.set_defaults(run=run_init)
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
    live = actions.add_parser(
        "live", help="the class now, as learners work: who is stuck, the slips being made, a heat map",
        description=LIVE_DESCRIPTION)
    live.add_argument("inbox", type=Path, metavar="DIR", help="the class's inbox, where learners' exports arrive")
    live.add_argument("--chapter", metavar="N", help="open on this chapter's exercises instead of the chapters")
    live.add_argument("--json", action="store_true", help="print one snapshot as JSON and exit")
    live.add_argument("--lines", action="store_true",
                      help="plain lines: the class now, then a line per change until Ctrl+C (also when output "
                           "is not a terminal, or RINGBOOK_SCREEN_READER is set)")
    live.add_argument("--roster", type=Path, metavar="FILE", help="which account each learner is, as for report")
    content_option(live)
    live.set_defaults(run=run_live)


def run_init(args: argparse.Namespace) -> int:
    from tui.cli.class_init import run_class_init

    return run_class_init(args.folder, args.group)


def run(args: argparse.Namespace) -> int:
    from tui.cli.classroom import run_class_report

    return run_class_report(args.paths, args.format, content_of(args), args.roster)


def run_live(args: argparse.Namespace) -> int:
    from tui.cli.class_live import run_class_live

    return run_class_live(args.inbox, content_of(args), chapter=args.chapter, as_json=args.json, lines=args.lines,
                          roster_file=args.roster)
