"""`ringbook check`: grade one answer, or a batch of JSON lines. An answer may start with a dash."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from tui.cli.parsers.options import content_of, content_option, seed_option

if TYPE_CHECKING:
    from tui.cli.parsers.options import Commands

DESCRIPTION = (
    "Grade an answer as the app would. Exit status: 0 correct, 1 incorrect, 2 invalid, 3 unknown exercise id. "
    "A choice is answered by option letter or id; a design order by item ids, texts or 1-based positions (in the "
    "order the app first shows them) separated by commas; a debug exercise by line number; a step table by "
    "values separated by ';'.")


def add_check(commands: Commands) -> None:
    # dashed_positionals: `ringbook check 0.7 -M` grades the answer -M, which argparse alone would take for an
    # option it does not know; `ringbook check 0.7 -- -M` says the same.
    check = commands.add_parser("check", help="grade one answer, or a batch of JSON lines", description=DESCRIPTION,
                                dashed_positionals=True)
    check.add_argument("exercise_id", nargs="?", metavar="EXERCISE_ID")
    check.add_argument("answer", nargs="?", metavar="ANSWER")
    check.add_argument("--json", action="store_true", help="print the verdict as JSON")
    seed_option(check)
    check.add_argument("--allow-unsandboxed", action="store_true",
                       help="where no sandbox is available, run build code without one (it then runs as you)")
    check.add_argument("--batch", metavar="FILE", type=Path,
                       help="JSON lines {\"id\": ..., \"answer\": ..., \"seed\": ...} (seed optional; or "
                            "{\"spec\": {...}, \"answer\": ...}); '-' reads standard input; writes one JSON "
                            "verdict per line")
    content_option(check)
    check.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from tui.cli.check import check_answers

    return check_answers(args, content_of(args))
