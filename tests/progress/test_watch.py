"""tui.watch: which file changes mean a new book, and a real watch on a folder."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest
from watchfiles import Change

from tui.watch import BOOK_FILES, Watch, reader_gone

GENEROUS_SECONDS = 30   # how long a burst may take to be reported on a loaded machine before the test fails


def test_an_edit_to_a_book_file_counts_but_a_copy_kept_in_pycache_does_not(tmp_path: Path):
    """`content check` before issue 42 kept its checked copy of the book in the book's __pycache__ as JSON:
    counted as an edit, `content check --watch` checked again after every check, for ever."""
    watch = Watch(tmp_path, lambda: None, suffixes=BOOK_FILES)
    chapter = tmp_path / "00-ring" / "chapter.md"
    kept = tmp_path / "__pycache__" / "book-cache-1b950416.json"
    assert watch.concerns(Change.modified, str(chapter))
    assert watch.concerns(Change.added, str(tmp_path / "book.yaml"))
    assert not watch.concerns(Change.modified, str(kept))
    assert not watch.concerns(Change.added, str(kept.with_suffix(".123.tmp")))
    assert not watch.concerns(Change.modified, str(tmp_path / "notes.txt"))


def test_a_chapter_folder_removed_or_renamed_away_counts(tmp_path: Path):
    """Its files report nothing when the folder goes, only the folder does."""
    watch = Watch(tmp_path, lambda: None, suffixes=BOOK_FILES)
    assert watch.concerns(Change.deleted, str(tmp_path / "05-pipeline-parallelism"))
    assert not watch.concerns(Change.deleted, str(tmp_path / "notes.txt"))


def test_only_one_file_counts_when_only_it_is_watched(tmp_path: Path):
    watch = Watch(tmp_path, lambda: None, recursive=False, only=tmp_path / "0.7.py")
    assert watch.concerns(Change.added, str(tmp_path / "0.7.py"))
    assert not watch.concerns(Change.modified, str(tmp_path / "0.8.py"))


def test_an_edit_made_as_start_returns_is_reported_and_stop_ends_the_watching_thread(tmp_path: Path):
    edited = threading.Event()
    watch = Watch(tmp_path, edited.set, suffixes=BOOK_FILES)
    before = set(threading.enumerate())
    watch.start()
    try:
        (tmp_path / "book.yaml.tmp").write_text("title: A book\n")   # an editor's save: written, renamed over
        (tmp_path / "book.yaml.tmp").replace(tmp_path / "book.yaml")
        assert edited.wait(GENEROUS_SECONDS)
    finally:
        watch.stop()
    assert set(threading.enumerate()) - before == set()


def test_a_folder_that_cannot_be_watched_is_an_oserror_at_start(tmp_path: Path):
    with pytest.raises(OSError):
        Watch(tmp_path / "gone", lambda: None).start()


def test_a_reader_is_gone_from_a_pipe_whose_reading_end_closed_not_from_a_file_or_a_pipe_still_read(tmp_path: Path):
    read, write = os.pipe()
    with open(write, "w") as pipe, open(tmp_path / "out.txt", "w") as file:
        assert not reader_gone(pipe) and not reader_gone(file)
        os.close(read)
        assert reader_gone(pipe) and not reader_gone(file)
