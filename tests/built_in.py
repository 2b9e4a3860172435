"""The built-in book, read once per test process, and copies of parts of it for a test to break.

Reading and checking the book's files costs about half a second, and test modules name the book at
import (parametrize ids, tables of exercises): 18 reads in every xdist worker before a test ran. A
Book is not changed once built (grader/book/model.py), so one read serves every module and the `book`
fixture; it is read from the copy the run keeps (tests/conftest.py, cache_the_built_in_book), as a learner's
app reads it, which loads the same book (tests/grader/test_book_cache.py). A test about reading the book
itself calls grader.book.load.load_book.
"""

from __future__ import annotations

import functools
import re
import shutil
from pathlib import Path

from grader.book import cache as book_cache
from grader.book.load import BUILTIN_CONTENT, load_book
from grader.book.model import Book


@functools.cache
def builtin_book() -> Book:
    return load_book(cache_dir=book_cache.default_folder())


def book_of_chapters(target: Path, *dirs: str, lab: bool = False) -> Path:
    """A copy of the built-in book at `target` with only the chapters whose folders are `dirs` (and its lab,
    when asked), without its quiz (whose questions name every chapter). `content check` samples every
    exercise that varies: a test that breaks one chapter and checks the whole book paid for every exercise
    to look at a dozen. book.yaml keeps its title, hardware and comments, so its lines read as the real one."""
    kept = []
    for line in (BUILTIN_CONTENT / "book.yaml").read_text().splitlines(keepends=True):
        entry = re.match(r"\s+- \{.*\b(?:dir|file): ([\w./-]+)[,}]", line)
        if line.startswith("quizzes:") or (line.startswith("labs:") and not lab):
            continue
        if entry is None or entry[1] in dirs or (lab and entry[1].startswith("labs/")):
            kept.append(line)
    target.mkdir(parents=True)
    (target / "book.yaml").write_text("".join(kept))
    for name in dirs + (("labs",) if lab else ()):
        shutil.copytree(BUILTIN_CONTENT / name, target / name)
    return target
