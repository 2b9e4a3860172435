"""What every ringbook command shares: opening the book and the store, or saying in one line why not."""

from __future__ import annotations

import errno
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from grader.safe_text import printable

if TYPE_CHECKING:
    from grader.book.model import Book
    from grader.problems import Problem
    from tui.progress.class_share import ClassShare
    from tui.progress.store import ProgressStore


def relative(path: Path) -> str:
    """Paths under the current folder print short; others print whole. Links are not followed: a book's
    file is named where the book has it, not where a link leads, and a loop of links (on which Path.resolve
    raises) is named as written."""
    try:
        return str(Path(os.path.abspath(path)).relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def class_inbox(given: Path | None) -> Path | None:
    """The class inbox progress is shared with: --class, else RINGBOOK_CLASS (tui.progress.class_share), else none."""
    configured = os.environ.get("RINGBOOK_CLASS", "").strip()
    return given if given is not None else Path(configured) if configured else None


def shared_with(class_dir: Path | None, store: ProgressStore) -> ClassShare | None:
    """The class progress is shared with (--class, else RINGBOOK_CLASS); none without a class, or for a store that
    keeps nothing on disk."""
    inbox = class_inbox(class_dir)
    if inbox is None or store.path is None:
        return None
    from tui.progress.class_share import ClassShare

    return ClassShare(inbox, store.path.parent)


def kind_parts_missing() -> bool:
    """Say, naming each file to add, what a kind lacks in either face (tui.kind_parts): checked as the app, the
    plain-line face and `content check` start, before any exercise of the kind is opened."""
    from tui.kind_parts import missing_parts

    return said_missing(missing_parts())


def said_missing(missing: list[str]) -> bool:
    """Say each part a kind lacks (tui.kind_parts.missing_parts) on stderr; whether there was any."""
    for sentence in missing:
        print(f"ringbook: {sentence}", file=sys.stderr)
    return bool(missing)


def counted(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def folder_problem(content: Path | None) -> str | None:
    """Why `--content DIR` names no book at all, in one line, or None: a path to nothing, a file, or a
    folder without book.yaml. A chapter's folder (its parent holds book.yaml) gets the parent suggested,
    since that is the slip an author makes. The paths are shown with their control characters escaped: a
    folder's name goes to a terminal."""
    if content is None:
        return None
    shown = printable(relative(content), one_line=True)
    try:
        content.stat()   # which says why there is nothing there: Path.exists says only False
        if not content.is_dir():
            return f"{shown} is a file; --content takes the book's folder (the one holding book.yaml)"
        if (content / "book.yaml").exists():
            return None
        parent = content.resolve().parent
        chapter = (parent / "book.yaml").is_file()
    except (FileNotFoundError, NotADirectoryError):
        return f"no such content folder: {shown}"
    except OSError as exc:   # a loop of links, or a folder above it that may not be read
        if exc.errno == errno.ELOOP:
            return f"{shown} is a symbolic link loop (its links lead back to themselves), not a book's folder"
        return f"cannot read the content folder {shown}: {exc.strerror or exc}"
    if chapter:
        import shlex  # only a message needs it, so the app's start does not load it

        named = relative(parent) if content.is_absolute() else os.path.relpath(parent)   # `.` -> `..`
        return (f"{shown} looks like a chapter folder, not a book (no book.yaml here, but its parent has one): "
                f"give --content {printable(shlex.quote(named), one_line=True)}")
    return f"{shown} has no book.yaml, so it is not a ringbook book (`ringbook content new DIR` starts one)"


def load_or_report(content: Path | None) -> Book | None:
    """The book (from the reader's own cache while its files are unchanged), or None after saying on stderr why
    it cannot be opened: each problem, then what to run."""
    from grader import BUILTIN_CONTENT
    from grader.book import cache

    problem = folder_problem(content)
    if problem:
        print(f"ringbook: {problem}", file=sys.stderr)
        return None
    copied = cache.book(content or BUILTIN_CONTENT, cache.default_folder())
    if copied is not None:   # the book's checks (grader.book.load) and the kinds load only when it has changed
        return copied
    from grader.book.load import BookError, load_book

    try:
        return load_book(content, cache_dir=cache.default_folder())
    except BookError as exc:
        report_problems(exc.problems, content)
        return None


def report_problems(problems: list[Problem], content: Path | None) -> None:
    """Say on stderr what is wrong with the book at `content`: each problem, then what to run."""
    for found in problems:
        print(f"{relative(found.path)}:{found.line}: {found.message}", file=sys.stderr)
    print(f"The book has problems; run `{check_command(content)}` for the full list.", file=sys.stderr)


def check_command(content: Path | None) -> str:
    """The command that checks this book: a book from --content is checked only when named again."""
    import shlex  # only a message needs it, so the app's start does not load it

    return "ringbook content check" + ("" if content is None else f" --content {shlex.quote(relative(content))}")


def open_store_or_report(data_dir: Path | None, *, session: bool = True) -> ProgressStore | None:
    """The progress store, or None after saying why it cannot be opened (a newer ringbook's store; with
    session=False, for a command that reads progress, also one that cannot be read: ProgressStore.open)."""
    from tui.progress.store import ProgressStore, StoreError

    try:
        return ProgressStore.open(data_dir, session=session)
    except StoreError as exc:
        print(f"ringbook: {exc}", file=sys.stderr)
        return None
