"""The built-in book, read once per test process.

Reading and checking the book's files costs about half a second, and test modules name the book at
import (parametrize ids, tables of exercises): 18 reads in every xdist worker before a test ran. A
Book is not changed once built (grader/book/model.py), so one read serves every module and the `book`
fixture. A test about reading the book itself calls grader.book.load.load_book.
"""

from __future__ import annotations

import functools

from grader.book.load import load_book
from grader.book.model import Book


@functools.cache
def builtin_book() -> Book:
    return load_book()
