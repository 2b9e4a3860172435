"""`ringbook content check | list | show | new | schema`: the author's commands.

`new` starts a book from the template in book_template/ beside this file (its book.yaml and its chapter) and
one exercise of each kind, each kind's own example (grader.kinds.registry.Kind.example): a new kind is in the
template as soon as it exists. `schema` writes content/exercise.schema.json from the kinds, for editors.
"""

from __future__ import annotations

import json
import shutil
import sys
import textwrap
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from grader.book import cache as book_cache
from grader.book.load import check_book
from grader.safe_text import printable
from tui.cli.common import counted, folder_problem, kind_parts_missing, load_or_report, relative

if TYPE_CHECKING:
    from grader.exercise import Exercise

TEMPLATE = Path(__file__).resolve().parent / "book_template"
TEMPLATE_MORE = Path(__file__).resolve().parent / "template_more.yaml"   # a multiple choice and a `vary`
TEMPLATE_CHAPTER = "01-first-steps"
TEMPLATE_HEADER = """\
# One exercise of each kind. Every number the learner is graded against is a formula over the
# exercise's params (or a build/debug test's args): change a param and every answer follows.
"""
READING_WIDTH = 86   # as the app caps a chapter's text (tui/screens/chapter.tcss)


def content_new(folder: Path) -> int:
    if folder.exists() and not folder.is_dir():
        print(f"ringbook: {folder} is a file; give a new or empty folder for the book.", file=sys.stderr)
        return 1
    if folder.is_dir() and any(folder.iterdir()):
        print(f"ringbook: {folder} is not empty; give a new or empty folder (nothing was written).",
              file=sys.stderr)
        return 1
    try:
        shutil.copytree(TEMPLATE, folder, dirs_exist_ok=True, ignore=shutil.ignore_patterns("__pycache__"))
        (folder / TEMPLATE_CHAPTER / "exercises.yaml").write_text(template_exercises(), encoding="utf-8")
    except OSError as exc:
        print(f"ringbook: cannot create the book in {folder}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    print(f"Created a book with one chapter and an exercise of each kind in {folder}.")
    print(f"  check it:  ringbook content check --content {folder}")
    print(f"  read it:   ringbook --content {folder}")
    print("docs/authoring.md describes every field.")
    return 0


def template_exercises() -> str:
    """The template chapter's exercises.yaml: one exercise of each kind, numbered in the kinds' order."""
    from grader.kinds.registry import KINDS

    examples = [f'  - id: "1.{n}"\n' + textwrap.indent(kind.example, "    ")
                for n, kind in enumerate(KINDS.values(), 1)]
    more = TEMPLATE_MORE.read_text(encoding="utf-8")
    return TEMPLATE_HEADER + "exercises:\n" + "\n".join(examples) + more


def content_schema() -> int:
    """Write content/exercise.schema.json from the kinds (a test fails while it is stale)."""
    from grader.book.schema import SCHEMA_PATH, schema_text

    SCHEMA_PATH.write_text(schema_text(), encoding="utf-8")
    print(f"wrote {relative(SCHEMA_PATH)}")
    return 0


def content_check(content: Path | None) -> int:
    """The book's problems, after what a kind lacks in either face (which fails the check as well)."""
    parts_missing = kind_parts_missing()
    problem = folder_problem(content)
    if problem:
        print(f"ringbook: {problem}", file=sys.stderr)
        return 1
    raw: dict[str, Any] = {}
    book, problems = check_book(content, collect=raw)
    for found in problems:
        print(f"{relative(found.path)}:{found.line}: {'warning: ' if found.warning else ''}{found.message}")
    errors = sum(not p.warning for p in problems)
    warnings = len(problems) - errors
    if errors or book is None:   # a book that cannot load has an error to say why
        print(f"{errors} problem(s) found" + (f", and {counted(warnings, 'warning')}." if warnings else "."),
              file=sys.stderr)
        return 1
    if parts_missing:
        return 1
    if warnings:
        print(f"{counted(warnings, 'warning')}; warnings do not fail the check.", file=sys.stderr)
    book_cache.write(book.root, book_cache.default_folder(), raw)   # the reader's own: the next start reads it
    extras = "".join([f", {len(q)}-question quiz {q.id!r}" for q in book.quizzes]
                     + [f", lab {lab.id!r}" for lab in book.labs])
    print(f"ok: {book.title!r}: {counted(len(book.chapters), 'chapter')}, "
          f"{counted(len(book.exercises), 'exercise')}{extras}.")
    return 0


def content_check_watching(content: Path | None) -> int:
    """`content check --watch`: the check, then again after each save under the book's folder, until Ctrl+C;
    the status is the last check's."""
    from grader.book.load import BUILTIN_CONTENT
    from tui.watch import BOOK_FILES, Edits

    status = content_check(content)
    if folder_problem(content):
        return status
    root = content if content is not None else BUILTIN_CONTENT
    try:
        with Edits(root, output=sys.stdout, suffixes=BOOK_FILES) as edits:
            waiting = f"Watching {printable(relative(root), one_line=True)} for changes; Ctrl+C stops."
            print(waiting, flush=True)
            for _ in edits:
                print(f"\n{time.strftime('%H:%M:%S')} the book changed: checking again", flush=True)
                status = content_check(content)
                sys.stderr.flush()
                print(waiting, flush=True)
    except OSError as exc:
        print(f"ringbook: cannot watch {root}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print()
    return status


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


def content_show(content: Path | None, exercise_id: str, seed: int | None, *, explain: bool,
                 as_json: bool = False, rendered: bool = False) -> int:
    """An exercise as a learner reads it, with the numbers of `seed`, so an author can proofread a variant
    (or, `as_json`, audit variants by script). `rendered` lays its Markdown out for a terminal, as the app
    does; otherwise the Markdown source is printed as written, for a file or a script."""
    from grader.book.variants import format_number
    from grader.kinds.registry import kind_of
    from tui.cli.check import EXIT_UNKNOWN_ID, posed, say_if_seed_changes_nothing

    book = load_or_report(content)
    if book is None:
        return 1
    exercise = book.exercise(exercise_id)
    if exercise is None:
        print(f"ringbook: no exercise {printable(exercise_id, one_line=True)!r} (see `ringbook content list`).",
              file=sys.stderr)
        return EXIT_UNKNOWN_ID
    exercise, problem = posed(exercise, seed)
    if exercise is None:
        print(f"ringbook: {problem}", file=sys.stderr)
        return 2
    say_if_seed_changes_nothing(exercise, seed, "ringbook")
    if as_json:
        print(json.dumps(_shown_as_data(exercise, seed or 0), indent=2, ensure_ascii=False))
        return 0
    out = _TerminalPage() if rendered else _SourcePage()
    params = getattr(exercise, "params", {})
    gpu = getattr(exercise, "gpu", None)
    numbers = ", ".join(f"{name} = {gpu}" if name == "gpu" and gpu else
                        f"{name} = {value:g}" if isinstance(value, float) else f"{name} = {value}"
                        for name, value in params.items())
    out.heading(f"{exercise.id} · {exercise.title}" + (f"  (seed {seed or 0}: {numbers})" if numbers else ""))
    out.markdown(exercise.prompt)
    kind = kind_of(exercise)
    shown = kind.shown(exercise, explain)
    if shown:
        out.gap()
        for line in shown:
            out.line(line)
    if explain:
        hints = [f"Hint {n} of {len(exercise.hints)}: {hint}" for n, hint in enumerate(exercise.hints, 1)]
        notes = hints + kind.notes(exercise, format_number)
        for line in [""] + notes if notes else []:
            out.line(line) if line else out.gap()
        out.gap()
        out.markdown(exercise.explanation)
        answer = kind.answer_line(exercise, format_number)
        if answer:
            out.gap()
            out.line(answer)
    return 0


class _SourcePage:
    """The exercise's text as the book's source writes it (Markdown markers and all), control characters
    shown as escapes: for a pipe, a file, or an author checking the source."""

    def heading(self, text: str) -> None:
        print(printable(text, one_line=True))
        print()

    def markdown(self, text: str) -> None:
        print(printable(text.rstrip("\n")))

    def line(self, text: str) -> None:
        print(printable(text, one_line=True))

    def gap(self) -> None:
        print()


class _TerminalPage(_SourcePage):
    """The exercise laid out for a terminal with Rich, as the app shows it: emphasis, lists and code blocks
    drawn, no `**` markers. The book's text is still only shown: control characters become escapes before
    Rich sees it, Rich reads it as Markdown, never as its own markup, and links print as text, not as
    terminal hyperlinks."""

    def __init__(self) -> None:
        from rich.console import Console

        self.console = Console(highlight=False, markup=False, emoji=False)
        self.console.width = min(self.console.width, READING_WIDTH)

    def heading(self, text: str) -> None:
        from rich.text import Text

        self.console.print(Text(printable(text, one_line=True), style="bold"))
        self.console.print()

    def markdown(self, text: str) -> None:
        from rich.markdown import Markdown

        self.console.print(Markdown(printable(text.rstrip("\n")), hyperlinks=False))

    def line(self, text: str) -> None:
        from rich.text import Text

        self.console.print(Text(printable(text, one_line=True)))

    def gap(self) -> None:
        self.console.print()


def _shown_as_data(exercise: Exercise, seed: int) -> dict[str, Any]:
    """One posed exercise as data: what `content show` prints, with what its kind adds (a numeric one's
    params, answer and each mistake's value and whether its `when` lets the grader use it)."""
    from grader.kinds.registry import kind_of

    return {"id": exercise.id, "seed": seed, "kind": exercise.kind, "title": exercise.title, "prompt": exercise.prompt,
            "hints": list(exercise.hints), "explanation": exercise.explanation, **kind_of(exercise).data(exercise)}
