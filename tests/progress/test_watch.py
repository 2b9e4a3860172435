"""tui.watch: which file events mean a new book."""

from __future__ import annotations

from pathlib import Path

from watchdog.events import FileClosedEvent, FileModifiedEvent, FileMovedEvent

from tui.watch import BOOK_FILES, Watch


def test_an_edit_to_a_book_file_counts_but_a_copy_kept_in_pycache_does_not(tmp_path: Path):
    """`content check` before issue 42 kept its checked copy of the book in the book's __pycache__ as JSON:
    counted as an edit, `content check --watch` checked again after every check, for ever."""
    watch = Watch(tmp_path, lambda: None, suffixes=BOOK_FILES)
    chapter = tmp_path / "00-ring" / "chapter.md"
    kept = tmp_path / "__pycache__" / "book-cache-1b950416.json"
    assert watch.concerns(FileModifiedEvent(str(chapter)))
    assert watch.concerns(FileClosedEvent(str(tmp_path / "book.yaml")))
    assert not watch.concerns(FileModifiedEvent(str(kept)))
    assert not watch.concerns(FileMovedEvent(str(kept.with_suffix(".123.tmp")), str(kept)))
    assert not watch.concerns(FileModifiedEvent(str(tmp_path / "notes.txt")))
