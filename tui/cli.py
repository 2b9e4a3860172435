"""The `ringbook` command: the app by default, and subcommands for authors and instructors."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from grader.load import BookError, check_book, load_book

if TYPE_CHECKING:
    import argparse


def relative(path: Path) -> str:
    """Paths under the current folder print short; others print whole."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def _content_option(parser: argparse.ArgumentParser) -> None:
    import argparse

    parser.add_argument("--content", metavar="DIR", type=Path, default=argparse.SUPPRESS,
                        help="a book folder in the ringbook content format (default: the built-in book)")


def _data_option(parser: argparse.ArgumentParser) -> None:
    import argparse

    parser.add_argument("--data-dir", metavar="DIR", type=Path, default=argparse.SUPPRESS,
                        help="where progress is kept (default: $RINGBOOK_DATA_DIR, else your per-user data folder)")


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
    check.add_argument("--batch", metavar="FILE", type=Path,
                       help="JSON lines {\"id\": ..., \"answer\": ...} (or {\"spec\": {...}, \"answer\": ...}); "
                            "'-' reads standard input; writes one JSON verdict per line")
    _content_option(check)

    progress = commands.add_parser("progress", help="your progress: summary, export, submit, import, reset")
    _content_option(progress)
    _data_option(progress)
    progress_commands = progress.add_subparsers(dest="progress_command", metavar="ACTION")
    export = progress_commands.add_parser("export", help="write all attempts to FILE (default: standard output)")
    export.add_argument("file", nargs="?", type=Path, metavar="FILE")
    export.add_argument("--format", choices=("json", "csv"), default="json")
    export.add_argument("--name", help="the student name the JSON export carries (default: your login)")
    submit = progress_commands.add_parser(
        "submit", help="drop a timestamped JSON export into an instructor's folder DIR",
        description="Write NAME-YYYYmmddTHHMMSSZ.json into DIR, never replacing an earlier file. "
                    "Exit status: 0 submitted, 1 DIR is missing, not a folder, or not writable.")
    submit.add_argument("folder", type=Path, metavar="DIR")
    submit.add_argument("--name", help="the student name to submit under (default: your login)")
    importing = progress_commands.add_parser("import", help="merge an export into this store (idempotent)")
    importing.add_argument("file", type=Path, metavar="FILE")
    reset = progress_commands.add_parser("reset", help="start over (a backup is kept)")
    reset.add_argument("--yes", action="store_true", help="do not ask")
    for sub in (export, submit, importing, reset):
        _data_option(sub)

    classes = commands.add_parser("class", help="for instructors: a report over students' exports")
    class_commands = classes.add_subparsers(dest="class_command", metavar="ACTION", required=True)
    report = class_commands.add_parser(
        "report", help="students x chapters mastery, last active, streak, most failed exercises",
        description="Aggregate `ringbook progress export`/`submit` files. A folder means every *.json in it. "
                    "Files with the same student name are merged (each attempt counted once). Exit status: "
                    "0 every file was read, 1 some files were skipped (each named on stderr), "
                    "2 nothing to report (no readable export, or the book has problems).")
    report.add_argument("paths", nargs="+", type=Path, metavar="DIR|FILE")
    report.add_argument("--format", choices=("table", "csv", "json"), default="table",
                        help="table (80 columns, the default), csv (a row per student) or json (everything)")
    _content_option(report)

    serve = commands.add_parser(
        "serve", help="serve the app to web browsers (no authentication; loopback by default)",
        description="Serve ringbook to web browsers with textual-serve; each browser tab runs its own ringbook "
                    "on the same book and progress. There is no authentication: anyone who can reach the port "
                    "uses ringbook as you. Stop with Ctrl+C.",
    )
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default: 127.0.0.1, this machine only)")
    serve.add_argument("--port", type=int, default=8000, help="port to listen on (default: 8000)")
    _content_option(serve)
    _data_option(serve)
    return parser


EXIT_BY_STATUS = {"correct": 0, "incorrect": 1, "invalid": 2}
EXIT_UNKNOWN_ID = 3


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    try:
        if not argv:  # plain `ringbook`: open the app without building the whole command line first
            return run_app(None, None)
        return _dispatch(build_parser().parse_args(_check_answer_may_start_with_a_dash(argv)))
    except BrokenPipeError:
        # The reader went away (`ringbook content list | head`): stop quietly, as Unix tools do.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


_TOP_OPTIONS_WITH_VALUE = ("--content", "--data-dir")
_CHECK_OPTIONS = {"-h": False, "--help": False, "--json": False, "--batch": True, "--content": True}  # takes a value?


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
        return check_answers(args, content)
    if args.command == "progress":
        from tui.progress_cli import run_progress

        return run_progress(args, content, getattr(args, "data_dir", None))
    if args.command == "class":
        from tui.class_cli import run_class_report

        return run_class_report(args.paths, args.format, content)
    if args.command == "serve":
        from tui.serve import run_serve

        return run_serve(args.host, args.port, content, getattr(args, "data_dir", None))
    if args.command == "content":
        if args.content_command == "check":
            return content_check(content)
        if args.content_command == "new":
            from tui.content_new import content_new

            return content_new(args.folder)
        return content_list(content, as_json=args.json)
    return run_app(content, getattr(args, "data_dir", None))


def content_check(content: Path | None) -> int:
    book, problems = check_book(content)
    for problem in problems:
        print(f"{relative(problem.path)}:{problem.line}: {problem.message}")
    if problems:
        print(f"{len(problems)} problem(s) found.", file=sys.stderr)
        return 1
    extras = "".join([f", {len(q)}-question quiz {q.id!r}" for q in book.quizzes]
                     + [f", lab {lab.id!r}" for lab in book.labs])
    print(f"ok: {book.title!r}: {counted(len(book.chapters), 'chapter')}, "
          f"{counted(len(book.exercises), 'exercise')}{extras}.")
    return 0


def counted(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def load_or_report(content: Path | None, cache_dir: Path | None = None):
    try:
        return load_book(content, cache_dir=cache_dir)
    except BookError as exc:
        for problem in exc.problems:
            print(f"{relative(problem.path)}:{problem.line}: {problem.message}", file=sys.stderr)
        print("The book has problems; run `ringbook content check` for the full list.", file=sys.stderr)
        return None


def open_store_or_report(data_dir: Path | None):
    """The progress store, or None after saying why it cannot be opened (a newer ringbook's store)."""
    from tui.store import ProgressStore, StoreError

    try:
        return ProgressStore.open(data_dir)
    except StoreError as exc:
        print(f"ringbook: {exc}", file=sys.stderr)
        return None


def content_list(content: Path | None, *, as_json: bool) -> int:
    book = load_or_report(content)
    if book is None:
        return 1
    rows = [
        {"id": e.id, "chapter": e.chapter_id, "kind": e.kind, "title": e.title, "unit": getattr(e, "unit", "")}
        for e in book.exercises
    ]
    if as_json:
        print(json.dumps(rows, indent=2, ensure_ascii=False))
    else:
        for row in rows:
            print(f"{row['id']:>6}  {row['kind']:<7} {row['title']}" + (f"  [{row['unit']}]" if row["unit"] else ""))
    return 0


def check_answers(args: argparse.Namespace, content: Path | None) -> int:
    from grader.grade import grade

    if args.batch is not None:
        if args.exercise_id or args.answer:
            print("ringbook check: give either --batch or EXERCISE_ID ANSWER, not both.", file=sys.stderr)
            return 2
        return check_batch(args.batch, content)
    if args.exercise_id is None or args.answer is None:
        print("ringbook check: give EXERCISE_ID ANSWER (or --batch FILE).", file=sys.stderr)
        return 2
    book = load_or_report(content)
    if book is None:
        return 1
    exercise = book.exercise(args.exercise_id)
    if exercise is None:
        print(f"ringbook check: no exercise {args.exercise_id!r} (see `ringbook content list`).", file=sys.stderr)
        return EXIT_UNKNOWN_ID
    verdict = grade(exercise, args.answer)
    if args.json:
        print(json.dumps({"id": exercise.id, "answer": args.answer, **verdict.to_dict()}, ensure_ascii=False))
    else:
        print(f"{verdict.status}: {verdict.message}")
        if verdict.feedback:
            print(f"  {verdict.feedback}")
    return EXIT_BY_STATUS[verdict.status]


def check_batch(source: Path, content: Path | None) -> int:
    """One JSON verdict per input line; a bad line gets an invalid verdict, never a crash."""
    from grader.grade import grade
    from grader.load import exercise_from_spec

    book = load_or_report(content)
    if book is None:
        return 1
    stream = sys.stdin if str(source) == "-" else None
    try:
        lines = (stream or source.open(encoding="utf-8", errors="replace"))
    except OSError as exc:
        print(f"ringbook check: cannot read {source}: {exc.strerror}", file=sys.stderr)
        return 2
    with lines:
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            row: dict = {"line": number}
            try:
                item = json.loads(line)
                if not isinstance(item, dict):
                    raise ValueError
            except ValueError:
                row.update(status="invalid", message=f"line {number} is not a JSON object")
                print(json.dumps(row, ensure_ascii=False), flush=True)
                continue
            answer = item.get("answer")
            row.update(id=item.get("id"), answer=answer)
            if "spec" in item:
                exercise, problems = exercise_from_spec(item["spec"])
                if exercise is None:
                    row.update(status="invalid", message="the spec has problems: " + "; ".join(problems), feedback="")
                    print(json.dumps(row, ensure_ascii=False), flush=True)
                    continue
            else:
                exercise = book.exercise(str(item.get("id")))
                if exercise is None:
                    row.update(status="unknown", message=f"no exercise {item.get('id')!r}", feedback="")
                    print(json.dumps(row, ensure_ascii=False), flush=True)
                    continue
            verdict = grade(exercise, answer if isinstance(answer, str) else json.dumps(answer))
            row.update(status=verdict.status, message=verdict.message, feedback=verdict.feedback)
            print(json.dumps(row, ensure_ascii=False), flush=True)
    return 0


def run_app(content: Path | None, data_dir: Path | None) -> int:
    # textual-serve drives the app through pipes and names its driver in TEXTUAL_DRIVER.
    if not (sys.stdin.isatty() and sys.stdout.isatty()) and "TEXTUAL_DRIVER" not in os.environ:
        print("ringbook needs an interactive terminal (run it in a terminal; over ssh use `ssh -t`).", file=sys.stderr)
        return 2
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
