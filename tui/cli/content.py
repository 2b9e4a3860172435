"""`ringbook content check | list | show | new`: the author's commands.

`new` starts a book from the template in book_template/ beside this file. The template is a real book (one
chapter, one exercise of each kind) kept as files, so it is checked like any other book and an author edits
what they will later write.
"""

from __future__ import annotations

import json
import shutil
import sys
import time
from itertools import repeat
from pathlib import Path
from typing import TYPE_CHECKING, Any

from grader.book import cache as book_cache
from grader.book.load import check_book
from grader.safe_text import printable
from tui.cli.common import counted, folder_problem, load_or_report, relative

if TYPE_CHECKING:
    from grader.exercise import Exercise

TEMPLATE = Path(__file__).resolve().parent / "book_template"
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
    except OSError as exc:
        print(f"ringbook: cannot create the book in {folder}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    print(f"Created a book with one chapter and an exercise of each kind in {folder}.")
    print(f"  check it:  ringbook content check --content {folder}")
    print(f"  read it:   ringbook --content {folder}")
    print("docs/authoring.md describes every field.")
    return 0


def content_check(content: Path | None) -> int:
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
        with Edits(root, suffixes=BOOK_FILES) as edits:
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
    options = getattr(exercise, "presented_options", ())
    if options:
        out.gap()
        for letter, option in zip("ABCDEF", options, strict=False):   # at most six options
            out.line(f"{letter}  {option.text}" + (" (right)" if explain and option.correct else ""))
            if explain:
                out.line(f"   {option.feedback}")
    if explain:
        for line in _hints_and_feedback(exercise):
            out.line(line) if line else out.gap()
        out.gap()
        out.markdown(exercise.explanation)
        answer = _answer_line(exercise)
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


def _hints_and_feedback(exercise: Exercise) -> list[str]:
    """What the app says as the exercise is answered, for `--explain`: its hints, each foreseen mistake's
    feedback (with its value for these numbers; one whose `when` rules it out here is left out, as the
    grader leaves it), a table's notes per step, a listing's per line and an order's per item. ("" is a gap.)"""
    from grader.book.variants import format_number
    from grader.exercise import NumericAnswer
    from grader.kinds.debug import Debug
    from grader.kinds.design import Design
    from grader.kinds.trace import Trace

    lines = [f"Hint {n} of {len(exercise.hints)}: {hint}" for n, hint in enumerate(exercise.hints, 1)]
    if isinstance(exercise, NumericAnswer):
        number = exercise.answer is not None and not exercise.is_formula
        applicable = exercise.applicable_mistakes
        lines += [f"Mistake {m.answer}" + (f" = {format_number(value)}" if number else "") + f": {m.feedback}"
                  for m, value in zip(exercise.mistakes, exercise.mistake_values if number else repeat(0.0),
                                      strict=False) if m in applicable]   # repeat(0.0) never ends
    if isinstance(exercise, Trace):
        lines += [f"Step {step.label}: {step.feedback}" for step in exercise.steps if step.feedback]
    if isinstance(exercise, Debug):
        lines += [f"Line {line}: {note}" for line, note in sorted(exercise.line_feedback.items())]
    if isinstance(exercise, Design):
        lines += [f"Item {item.text}: {item.feedback}" for item in exercise.items if item.feedback]
    return [""] + lines if lines else []


def _answer_line(exercise: Exercise) -> str:
    """The graded answer with its unit: what the explanation's last figure must agree with."""
    from grader.book.variants import format_number
    from grader.exercise import NumericAnswer

    if not isinstance(exercise, NumericAnswer) or exercise.answer is None or exercise.is_formula:
        return ""
    unit = f" {exercise.unit}" if exercise.unit else ""
    return printable(f"Answer: {format_number(exercise.value)}{unit}", one_line=True)


def _shown_as_data(exercise: Exercise, seed: int) -> dict[str, Any]:
    """One posed exercise as data: what `content show` prints, plus each mistake's value and whether its
    `when` lets the grader use it with these numbers."""
    from grader.exercise import NumericAnswer
    from grader.kinds.trace import Trace

    data: dict[str, Any] = {"id": exercise.id, "seed": seed, "kind": exercise.kind, "title": exercise.title,
                  "prompt": exercise.prompt, "hints": list(exercise.hints), "explanation": exercise.explanation}
    if not isinstance(exercise, NumericAnswer):
        return data
    env = exercise.env
    data["gpu"] = exercise.gpu
    data["params"] = {name: (exercise.gpu if name == "gpu" else env[name]) for name in exercise.params}
    data["unit"] = exercise.unit
    number = exercise.answer is not None and not exercise.is_formula
    data["answer"] = {"formula": exercise.answer, "value": exercise.value if number else None,
                      "symbols": list(exercise.symbols)}
    applicable = exercise.applicable_mistakes
    data["mistakes"] = [{"answer": m.answer, "value": value if number else None, "when": list(m.when),
                         "applies": m in applicable, "feedback": m.feedback}
                        for m, value in zip(exercise.mistakes, exercise.mistake_values if number else repeat(None),
                                            strict=False)]   # repeat(None) never ends
    options = getattr(exercise, "presented_options", ())
    data["options"] = [{"letter": letter, "id": o.id, "text": o.text, "correct": o.correct, "feedback": o.feedback}
                       for letter, o in zip("ABCDEF", options, strict=False)]   # at most six options
    data["steps"] = [{"label": s.label, "answer": s.answer, "value": v, "feedback": s.feedback}
                     for s, v in zip(exercise.steps, exercise.step_values, strict=True)
                     ] if isinstance(exercise, Trace) else []
    return data
