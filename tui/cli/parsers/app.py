"""`ringbook [--content DIR] [--data-dir DIR] [--screen-reader] [--speech] [--class DIR]`: the command itself,
which opens the app."""

from __future__ import annotations

import argparse
from typing import Any

from tui.cli.parsers.options import (
    CommandParser,
    class_of,
    class_option,
    content_of,
    content_option,
    data_dir_of,
    data_option,
)


def app_parser() -> CommandParser:
    """The top-level parser, with the options every command also takes; the command groups add to it."""
    parser = CommandParser(prog="ringbook", description="A terminal textbook and quiz on distributed training.")
    content_option(parser)
    data_option(parser)
    parser.add_argument("--screen-reader", action="store_true",
                        help="plain labelled lines for screen readers and braille displays, not the full-screen app "
                             "(also RINGBOOK_SCREEN_READER=1; automatic with TERM=dumb or without a terminal)")
    parser.add_argument("--speech", action="store_true",
                        help="in the plain-line face, say formulas, units and symbols in words for a speech "
                             "synthesizer: 2M(N-1)/N as '2 M times, N minus 1, over N' (also RINGBOOK_SPEECH=1)")
    parser.add_argument("--watch", action="store_true",
                        help="for authors: read the book again at each save, keeping your place, and show its "
                             "problems in the app (path:line: message) instead of refusing to start")
    class_option(parser)
    parser.add_argument("--version", action=PrintVersion)
    parser.set_defaults(run=run)
    return parser


class PrintVersion(argparse.Action):
    """`--version`: the installed distribution's version. Looked up only when asked, as argparse's own version
    action would not wait: importlib.metadata costs every start that builds the parser ~30 ms."""

    def __init__(self, option_strings: list[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS,
                         help="print ringbook's version and exit")

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:
        from importlib.metadata import version

        print(f"ringbook {version('ringbook')}")
        parser.exit()


def run(args: argparse.Namespace) -> int:
    from tui.cli.app import run_app

    return run_app(content_of(args), data_dir_of(args), screen_reader=args.screen_reader, watch=args.watch,
                   speech=args.speech, class_dir=class_of(args))
