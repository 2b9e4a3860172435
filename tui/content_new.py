"""`ringbook content new DIR`: start a book from the template in tui/book_template/.

The template is a real book (one chapter, one exercise of each kind) kept as files, so it is checked
like any other book and an author edits what they will later write.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

TEMPLATE = Path(__file__).resolve().parent / "book_template"


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
