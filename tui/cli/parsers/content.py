"""`ringbook content check | list | show | new | schema`: the author's commands."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from tui.cli.parsers.options import content_of, content_option, seed_option

if TYPE_CHECKING:
    from tui.cli.parsers.options import Commands

SHOW_DESCRIPTION = (
    "Print the exercise's title and prompt rendered with the numbers of SEED (0, the default, is the book's own), "
    "and with --explain its hints, each foreseen mistake's feedback (with its value), per-line or per-step notes, "
    "its worked explanation and answer. To a terminal its Markdown is laid out as the app "
    "shows it; to a pipe or file (or with --raw) it is printed as written. A SEED given for an exercise with one "
    "form is noted on stderr. Exit status: 0 shown, 2 bad seed or unsatisfiable constraints, 3 unknown exercise id.")


def add_content(commands: Commands) -> None:
    content = commands.add_parser("content", help="check, list or start a book")
    actions = content.add_subparsers(dest="content_command", metavar="ACTION", required=True)
    check = actions.add_parser("check", help="validate a book; print path:line: message for each problem")
    check.add_argument("--watch", action="store_true",
                       help="check again each time a file of the book is saved, until Ctrl+C")
    content_option(check)
    check.set_defaults(run=run_check)
    listing = actions.add_parser("list", help="list every exercise")
    listing.add_argument("--json", action="store_true", help="print JSON (id, chapter, kind, title, unit)")
    content_option(listing)
    listing.set_defaults(run=run_list)
    show = actions.add_parser(
        "show", help="print an exercise's prompt as a learner reads it, with a variant's numbers",
        description=SHOW_DESCRIPTION)
    show.add_argument("exercise_id", metavar="EXERCISE_ID")
    seed_option(show)
    show.add_argument("--explain", action="store_true",
                      help="also print the hints, each mistake's feedback, the worked explanation and the answer")
    show.add_argument("--raw", action="store_true",
                      help="print the Markdown as written (the default when the output is not a terminal)")
    show.add_argument("--json", action="store_true",
                      help="print one JSON object instead: the drawn params (and card), the rendered prompt, hints, "
                           "options, explanation, each mistake with its value and whether it applies, and the answer")
    content_option(show)
    show.set_defaults(run=run_show)
    new = actions.add_parser(
        "new", help="start a new book in DIR: one chapter with an exercise of each kind",
        description="Write a small valid book into DIR (created if missing; refused if not empty). "
                    "Open it with `ringbook --content DIR`; docs/authoring.md describes the format.")
    new.add_argument("folder", type=Path, metavar="DIR")
    new.set_defaults(run=run_new)
    schema = actions.add_parser(
        "schema", help="write content/exercise.schema.json from the exercise kinds (for authors' editors)",
        description="Each exercise kind gives its own fields (grader/kinds/<kind>.py, SCHEMA); this writes the "
                    "schema they make together beside the built-in book, where editors find it.")
    schema.set_defaults(run=run_schema)


def run_check(args: argparse.Namespace) -> int:
    from tui.cli.content import content_check, content_check_watching

    return (content_check_watching if args.watch else content_check)(content_of(args))


def run_list(args: argparse.Namespace) -> int:
    from tui.cli.content import content_list

    return content_list(content_of(args), as_json=args.json)


def run_show(args: argparse.Namespace) -> int:
    from tui.cli.content import content_show

    return content_show(content_of(args), args.exercise_id, args.seed, explain=args.explain, as_json=args.json,
                        rendered=sys.stdout.isatty() and not args.raw)


def run_new(args: argparse.Namespace) -> int:
    from tui.cli.content import content_new

    return content_new(args.folder)


def run_schema(args: argparse.Namespace) -> int:
    from tui.cli.content import content_schema

    return content_schema()
