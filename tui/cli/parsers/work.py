"""`ringbook work [ID]`: a build exercise as a file in the learner's own editor, its tests run on every save."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from tui.cli.parsers.options import class_of, class_option, content_of, content_option, data_dir_of, data_option

if TYPE_CHECKING:
    from tui.cli.parsers.options import Commands

DESCRIPTION = (
    "Write a build exercise's code (your draft, else its starter) to <data folder>/work/ID.py, show the task, "
    "run the tests at once and then each time the file is saved, showing the verdict as the app does and keeping "
    "each run with your progress. Without an ID: the next build not yet solved, in book order. Edit the file in "
    "any editor. In a terminal the latest run replaces the last on screen, and keys act at once: h a hint, "
    "x the worked answer (after a confirm; kept as revealed), l the list of builds, n the next unsolved build "
    "once this one passes, q quit. In a pipe, with TERM=dumb or in screen-reader mode each run is printed as "
    "plain lines, and from a pipe the same keys are read as lines (h and Enter). Ctrl+C and SIGTERM stop it "
    "too; each says where the code is kept. Exit status: 0 stopped (q, Ctrl+C, or every build solved), 1 the "
    "book, store or file could not be used, 2 not a build exercise or no sandbox allowed, 3 unknown exercise id, "
    "143 ended by SIGTERM.")


def add_work(commands: Commands) -> None:
    work = commands.add_parser("work", help="a build exercise in your own editor: its tests run on every save",
                               description=DESCRIPTION)
    work.add_argument("exercise_id", metavar="EXERCISE_ID", nargs="?",
                      help="the build exercise (default: the next not yet solved, in book order)")
    work.add_argument("--allow-unsandboxed", action="store_true",
                      help="where no sandbox is available, run the code without one (it then runs as you)")
    content_option(work)
    data_option(work)
    class_option(work)
    work.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from tui.cli.work import work_on

    return work_on(args.exercise_id, content_of(args), data_dir_of(args), allow_unsandboxed=args.allow_unsandboxed,
                   class_dir=class_of(args))
