"""The `ringbook` command: the app by default, and subcommands for authors and instructors."""

from __future__ import annotations

import gc
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import argparse


def _content_option(parser: argparse.ArgumentParser) -> None:
    import argparse

    parser.add_argument("--content", metavar="DIR", type=Path, default=argparse.SUPPRESS,
                        help="a book folder in the ringbook content format (default: the built-in book)")


def _data_option(parser: argparse.ArgumentParser) -> None:
    import argparse

    parser.add_argument("--data-dir", metavar="DIR", type=Path, default=argparse.SUPPRESS,
                        help="where progress is kept (default: $RINGBOOK_DATA_DIR, else your per-user data folder)")


def _seed_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seed", metavar="S", type=_seed, default=None,
                        help="the variant: other numbers for a numeric exercise (0, the default, is the book's own)")


def _seed(text: str) -> int:
    import argparse

    from grader.book.variants import seed_problem

    try:
        seed = int(text)
    except ValueError:
        seed = None
    problem = seed_problem(seed)
    if problem:
        raise argparse.ArgumentTypeError(f"{text!r}: {problem}")
    return seed


def _port(text: str) -> int:
    """A TCP port to listen on; 0 (any free port) is refused, as the address printed must be the real one."""
    import argparse

    if not (text.isascii() and text.isdigit() and 1 <= int(text) <= 65535):
        raise argparse.ArgumentTypeError(f"{text!r} is not a port: give a number from 1 to 65535")
    return int(text)


def build_parser() -> argparse.ArgumentParser:
    import argparse

    parser = argparse.ArgumentParser(prog="ringbook", description="A terminal textbook and quiz on distributed training.")
    _content_option(parser)
    _data_option(parser)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    content = commands.add_parser("content", help="check, list or start a book")
    content_commands = content.add_subparsers(dest="content_command", metavar="ACTION", required=True)
    check = content_commands.add_parser("check", help="validate a book; print path:line: message for each problem")
    _content_option(check)
    listing = content_commands.add_parser("list", help="list every exercise")
    listing.add_argument("--json", action="store_true", help="print JSON (id, chapter, kind, title, unit)")
    _content_option(listing)
    show = content_commands.add_parser(
        "show", help="print an exercise's prompt as a learner reads it, with a variant's numbers",
        description="Print the exercise's title and prompt rendered with the numbers of SEED (0, the default, is "
                    "the book's own), and with --explain its worked explanation and answer. To a terminal its "
                    "Markdown is laid out as the app shows it; to a pipe or file (or with --raw) it is printed "
                    "as written. A SEED given for an exercise with one form is noted on stderr. "
                    "Exit status: 0 shown, 2 bad seed or unsatisfiable constraints, 3 unknown exercise id.")
    show.add_argument("exercise_id", metavar="EXERCISE_ID")
    _seed_option(show)
    show.add_argument("--explain", action="store_true", help="also print the worked explanation and the answer")
    show.add_argument("--raw", action="store_true",
                      help="print the Markdown as written (the default when the output is not a terminal)")
    show.add_argument("--json", action="store_true",
                      help="print one JSON object instead: the drawn params (and card), the rendered prompt, hints, "
                           "options, explanation, each mistake with its value and whether it applies, and the answer")
    _content_option(show)
    new = content_commands.add_parser(
        "new", help="start a new book in DIR: one chapter with an exercise of each kind",
        description="Write a small valid book into DIR (created if missing; refused if not empty). "
                    "Open it with `ringbook --content DIR`; docs/authoring.md describes the format.")
    new.add_argument("folder", type=Path, metavar="DIR")
    check = commands.add_parser(
        "check", help="grade one answer, or a batch of JSON lines",
        description="Grade an answer as the app would. Exit status: 0 correct, 1 incorrect, 2 invalid, "
                    "3 unknown exercise id. A choice is answered by option letter or id; a design order by "
                    "item ids, texts or 1-based positions (in the order the app first shows them) separated "
                    "by commas; a debug exercise by line number; a step table by values separated by ';'.",
    )
    check.add_argument("exercise_id", nargs="?", metavar="EXERCISE_ID")
    check.add_argument("answer", nargs="?", metavar="ANSWER")
    check.add_argument("--json", action="store_true", help="print the verdict as JSON")
    _seed_option(check)
    check.add_argument("--allow-unsandboxed", action="store_true",
                       help="where no sandbox is available, run build code without one (it then runs as you)")
    check.add_argument("--batch", metavar="FILE", type=Path,
                       help="JSON lines {\"id\": ..., \"answer\": ..., \"seed\": ...} (seed optional; or {\"spec\": {...}, \"answer\": ...}); "
                            "'-' reads standard input; writes one JSON verdict per line")
    _content_option(check)

    progress = commands.add_parser("progress", help="your progress: summary, export, submit, import, reset, restore")
    _content_option(progress)
    _data_option(progress)
    progress.add_argument("--json", action="store_true",
                          help="print the summary as one JSON object (with review: due, next_due, retention)")
    progress_commands = progress.add_subparsers(dest="progress_command", metavar="ACTION")
    export = progress_commands.add_parser("export", help="write all attempts to FILE (default: standard output)")
    export.add_argument("file", nargs="?", type=Path, metavar="FILE")
    export.add_argument("--format", choices=("json", "csv"), default="json")
    export.add_argument("--name", help="the student name the JSON export carries (default: your login)")
    submit = progress_commands.add_parser(
        "submit", help="drop a timestamped JSON export into an instructor's folder DIR",
        description="Write NAME-YYYYmmddTHHMMSSZ-<random>.json into DIR, mode 0640 (you and DIR's group), "
                    "never replacing an earlier file. "
                    "Exit status: 0 submitted, 1 DIR is missing, not a folder, or not writable.")
    submit.add_argument("folder", type=Path, metavar="DIR")
    submit.add_argument("--name", help="the student name to submit under (default: your login)")
    importing = progress_commands.add_parser("import", help="merge an export into this store (idempotent)")
    importing.add_argument("file", type=Path, metavar="FILE")
    reset = progress_commands.add_parser("reset", help="start over (a backup is kept)")
    reset.add_argument("--yes", action="store_true", help="do not ask")
    restore = progress_commands.add_parser(
        "restore", help="put back the progress in a backup FILE that reset kept (the current one is kept too)")
    restore.add_argument("file", type=Path, metavar="FILE")
    for sub in (export, submit, importing, reset, restore):
        _data_option(sub)

    classes = commands.add_parser("class", help="for instructors: a report over students' exports")
    class_commands = classes.add_subparsers(dest="class_command", metavar="ACTION", required=True)
    report = class_commands.add_parser(
        "report", help="students x chapters mastery, last active, streak, most failed exercises",
        description="Aggregate `ringbook progress export`/`submit` files. A folder means every *.json in it. "
                    "Files with the same student name and owner are merged (each attempt counted once); one "
                    "name from two accounts is reported apart. Every answer "
                    "is graded again against the book; build code is parsed, never run. Exit status: "
                    "0 every file was read and nothing was flagged, 1 the report was made with warnings "
                    "(files skipped, or students flagged; each a line on stderr), "
                    "2 nothing to report (no readable export, or the book has problems).")
    report.add_argument("paths", nargs="+", type=Path, metavar="DIR|FILE")
    report.add_argument("--format", choices=("table", "csv", "json"), default="table",
                        help="table (80 columns, the default), csv (a row per student) or json (everything)")
    report.add_argument("--roster", type=Path, metavar="FILE",
                        help="which account each student is: a line per student, the login then the name to "
                             "show; files are named by their owner's line, and a file naming another "
                             "account's student is flagged")
    _content_option(report)

    serve = commands.add_parser(
        "serve", help="serve the app to web browsers at an address with a secret token",
        description="Serve ringbook to web browsers with textual-serve; each browser tab runs its own ringbook "
                    "on the same book and progress. A session runs ringbook as you, and build exercises run "
                    "Python code with your permissions, so the address it prints, with its token, is a key: "
                    "do not share it. Requests without the token, from another web page or to another host "
                    "name are refused. Stop with Ctrl+C.",
    )
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default: 127.0.0.1, this machine only)")
    serve.add_argument("--port", type=_port, default=8000, help="port to listen on (default: 8000)")
    _content_option(serve)
    _data_option(serve)
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
            return run_app(None, None)
        return _dispatch(build_parser().parse_args(_check_answer_may_start_with_a_dash(argv)))
    except BrokenPipeError:
        # The reader went away (`ringbook content list | head`): stop quietly, as Unix tools do.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


_TOP_OPTIONS_WITH_VALUE = ("--content", "--data-dir")
_CHECK_OPTIONS = {"-h": False, "--help": False, "--json": False, "--allow-unsandboxed": False, "--batch": True,
                  "--content": True, "--seed": True}  # takes a value?


def _check_answer_may_start_with_a_dash(argv: list[str]) -> list[str]:
    """`ringbook check 0.7 -M`: argparse would take the answer -M for an option it does not know. After
    `check`, every word that is not one of check's own options is the id or the answer, so those words
    are moved after a `--` (which `ringbook check 0.7 -- -M` may also give itself)."""
    start = 0
    while start < len(argv) and argv[start].startswith("-"):
        start += 2 if argv[start] in _TOP_OPTIONS_WITH_VALUE else 1
    if start >= len(argv) or argv[start] != "check":
        return argv
    options, positionals = [], []
    words = iter(argv[start + 1:])
    for word in words:
        if word == "--":
            positionals.extend(words)
            break
        name = word.split("=", 1)[0] if word.startswith("--") else word
        if name.startswith("--") and name not in _CHECK_OPTIONS:  # argparse's unambiguous abbreviations
            matches = [option for option in _CHECK_OPTIONS if option.startswith(name)]
            name = matches[0] if len(matches) == 1 else name
        if name not in _CHECK_OPTIONS:
            positionals.append(word)
            continue
        options.append(word)
        value = next(words, None) if _CHECK_OPTIONS[name] and "=" not in word else None
        if value is not None:
            options.append(value)
    return argv[:start + 1] + options + (["--", *positionals] if positionals else [])


def _dispatch(args: argparse.Namespace) -> int:
    content = getattr(args, "content", None)
    if args.command == "check":
        from tui.cli.check import check_answers

        return check_answers(args, content)
    if args.command == "progress":
        from tui.cli.progress import run_progress

        return run_progress(args, content, getattr(args, "data_dir", None))
    if args.command == "class":
        from tui.cli.classroom import run_class_report

        return run_class_report(args.paths, args.format, content, args.roster)
    if args.command == "serve":
        from tui.cli.serve import run_serve

        return run_serve(args.host, args.port, content, getattr(args, "data_dir", None))
    if args.command == "content":
        from tui.cli.content import content_check, content_list, content_new, content_show

        if args.content_command == "check":
            return content_check(content)
        if args.content_command == "show":
            return content_show(content, args.exercise_id, args.seed, explain=args.explain, as_json=args.json,
                                rendered=sys.stdout.isatty() and not args.raw)
        if args.content_command == "new":
            return content_new(args.folder)
        return content_list(content, as_json=args.json)
    return run_app(content, getattr(args, "data_dir", None))


def run_app(content: Path | None, data_dir: Path | None) -> int:
    # textual-serve drives the app through pipes and names its driver in TEXTUAL_DRIVER.
    if not (sys.stdin.isatty() and sys.stdout.isatty()) and "TEXTUAL_DRIVER" not in os.environ:
        print("ringbook needs an interactive terminal (run it in a terminal; over ssh use `ssh -t`).", file=sys.stderr)
        return 2
    # What start-up allocates lives as long as the app, so collecting garbage before the first frame only
    # costs time (3% of the start). RingbookApp turns it back on once the home screen has been painted.
    gc.disable()
    try:
        from tui.cli.common import load_or_report, open_store_or_report

        store = open_store_or_report(data_dir)
        if store is None:
            return 1
        book = load_or_report(content, cache_dir=None if store.read_only else store.path.parent)
        if book is None:
            store.close()
            return 1
        from tui.app import RingbookApp  # Textual loads only when the app really starts

        try:
            RingbookApp(book, store).run()
        finally:
            store.close()
        return 0
    finally:
        gc.enable()
