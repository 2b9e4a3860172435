"""The `ringbook` command: the app by default, and subcommands for authors and instructors. Each command group
adds its own sub-parser (tui/cli/parsers/) and runs from its own module, loaded only when it runs."""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import argparse


def build_parser() -> argparse.ArgumentParser:
    from tui.cli.parsers.app import app_parser
    from tui.cli.parsers.check import add_check
    from tui.cli.parsers.classroom import add_classroom
    from tui.cli.parsers.content import add_content
    from tui.cli.parsers.progress import add_progress
    from tui.cli.parsers.serve import add_serve
    from tui.cli.parsers.work import add_work

    parser = app_parser()
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    for add_group in (add_content, add_check, add_progress, add_classroom, add_serve, add_work):
        add_group(commands)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    from tui.progress.clock import problem

    clock_problem = problem()
    if clock_problem:
        print(f"ringbook: {clock_problem}", file=sys.stderr)
        return 2
    try:
        if not argv:  # plain `ringbook`: open the app without building the whole command line first
            from tui.cli.app import run_app

            return run_app(None, None)
        args = build_parser().parse_args(argv)
        result: int = args.run(args)   # each parser names the function that runs it
        return result
    except BrokenPipeError:
        # The reader went away (`ringbook content list | head`): stop quietly, as Unix tools do.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
