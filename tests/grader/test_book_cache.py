"""The book cache makes starting faster, never different."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from grader.book import cache as book_cache
from grader.book.load import BookError, load_book
from tests.helpers import ROOT


def test_a_cached_book_equals_a_freshly_read_one(book_copy, tmp_path):
    fresh = load_book(book_copy, cache_dir=tmp_path)          # reads YAML, writes the cache
    assert list(tmp_path.glob("book-cache-*.json"))
    cached = load_book(book_copy, cache_dir=tmp_path)
    assert cached == fresh
    assert cached.exercise("0.1").value == fresh.exercise("0.1").value
    assert cached.exercise("0.1").source.line == fresh.exercise("0.1").source.line


def test_a_start_from_the_cache_never_imports_yaml(tmp_path):
    load_book(cache_dir=tmp_path)
    code = ("import sys; from pathlib import Path; from grader.book.load import load_book; "
            f"load_book(cache_dir=Path({str(tmp_path)!r})); print('yaml' in sys.modules)")
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout.strip() == "False"


def test_the_apps_own_warm_up_exercise_grades_without_loading_the_schema():
    """The app's warm-up grades an exercise of its own writing; built through the author's path, it loaded
    jsonschema (~70 ms of CPU and 4 MB) in every learner's app, which never checks a book."""
    code = ("import sys; from grader.book.load import exercise_of_ours; from grader.grade import grade; "
            "verdict = grade(exercise_of_ours({'answer': '1.75', 'unit': 'GB'}), '1750 MB'); "
            "print(verdict.status, 'jsonschema' in sys.modules)")
    shown = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT).stdout.split()
    assert shown == ["correct", "False"]


def test_an_edited_file_is_read_again(chapters_copy, tmp_path):
    book_copy = chapters_copy("00-ring-allreduce")
    load_book(book_copy, cache_dir=tmp_path)
    path = book_copy / "00-ring-allreduce/exercises.yaml"
    path.write_text(path.read_text().replace("title: Traffic per GPU on a ring", "title: Edited title", 1))
    assert load_book(book_copy, cache_dir=tmp_path).exercise("0.1").title == "Edited title"


def test_a_broken_edit_is_reported_not_hidden_by_the_cache(chapters_copy, tmp_path):
    book_copy = chapters_copy("00-ring-allreduce")
    load_book(book_copy, cache_dir=tmp_path)
    path = book_copy / "00-ring-allreduce/exercises.yaml"
    path.write_text(path.read_text().replace('id: "0.2"', 'id: "0.1"', 1))
    with pytest.raises(BookError, match="duplicate exercise id"):
        load_book(book_copy, cache_dir=tmp_path)


def test_a_damaged_cache_is_ignored(chapters_copy, tmp_path):
    book_copy = chapters_copy("00-ring-allreduce")
    load_book(book_copy, cache_dir=tmp_path)
    [cache] = tmp_path.glob("book-cache-*.json")
    cache.write_text('{"format": 1, "root": "elsewhere"')
    assert len(load_book(book_copy, cache_dir=tmp_path).exercises) == len(load_book(book_copy).exercises)
    data = json.loads(cache.read_text())              # and it was rewritten whole
    assert data["format"] == book_cache.FORMAT and "raw" in data


def test_an_unwritable_cache_folder_is_no_problem(chapters_copy, tmp_path):
    book_copy = chapters_copy("00-ring-allreduce")
    missing = tmp_path / "file-not-folder"
    missing.write_text("")
    assert load_book(book_copy, cache_dir=missing) == load_book(book_copy)


def test_a_cache_in_the_order_of_format_5_is_read_again(chapters_copy, tmp_path):
    """Format 5 kept a templated table's texts as all its labels, then all its feedback; read in today's
    order (label and feedback row by row) they would land on the wrong rows, so such a cache is refused."""
    book_copy = chapters_copy("06-tensor-parallelism")
    fresh = load_book(book_copy)
    load_book(book_copy, cache_dir=tmp_path)
    [cache] = tmp_path.glob("book-cache-*.json")
    data = json.loads(cache.read_text())
    table = fresh.exercise("6.4")
    assert table.steps and table.written is not None and len(table.steps) > 1
    old_order = [table.prompt, table.explanation, *table.hints, *(m.feedback for m in table.mistakes),
                 *(s.label for s in table.steps), *(s.feedback for s in table.steps), table.title]
    chapter = next(c for c in data["raw"]["chapters"].values() if any(e["id"] == "6.4" for e in c["exercises"]))
    next(e for e in chapter["exercises"] if e["id"] == "6.4")["_canonical_texts"] = old_order
    cache.write_text(json.dumps({**data, "format": 5}))
    assert load_book(book_copy, cache_dir=tmp_path) == fresh


# --- the copy `content check` keeps beside the book, for every reader of an installed book ------------------


def checked_beside(ringbook, book_copy) -> Path:
    """Check `book_copy` as an instructor does after installing it; the copy kept beside it."""
    assert ringbook("content", "check", "--content", str(book_copy)).returncode == 0
    [kept] = (book_copy / "__pycache__").glob("book-cache-*.json")
    return kept


def test_a_checked_book_serves_every_reader_from_the_copy_beside_it(chapters_copy, ringbook, tmp_path):
    book_copy = chapters_copy("00-ring-allreduce")
    checked_beside(ringbook, book_copy)
    learner = tmp_path / "learner"
    learner.mkdir()
    assert load_book(book_copy, cache_dir=learner) == load_book(book_copy)
    assert list(learner.iterdir()) == []          # read from the copy beside the book: nothing of their own to keep
    code = ("import sys; from pathlib import Path; from grader.book.load import load_book; "
            f"load_book(Path({str(book_copy)!r}), cache_dir=Path({str(learner)!r})); print('yaml' in sys.modules)")
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout.strip() == "False"


def test_a_command_with_no_progress_folder_reads_the_checked_copy_too(chapters_copy, ringbook):
    """`ringbook check`, `content show` and the class report keep no copy of their own: they read the checked
    one beside the book instead of the book's files (0.8 s of CPU each time for the built-in book)."""
    book_copy = chapters_copy("00-ring-allreduce")
    checked_beside(ringbook, book_copy)
    code = ("import sys; from tui.cli.main import main; "
            f"status = main(['check', '--content', {str(book_copy)!r}, '0.1', '7/4']); "
            "print(status, 'yaml' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert done.stdout.splitlines()[-1] in ("0 False", "1 False"), done.stdout + done.stderr


def tampered(kept: Path) -> None:
    data = json.loads(kept.read_text())
    data["raw"]["chapters"]["00-ring-allreduce"]["exercises"][0]["title"] = "[link=https://evil]Traffic[/link]"
    kept.write_text(json.dumps(data))


@pytest.mark.parametrize("who", ["others may write it", "others may write its folder", "another user's"])
def test_a_shared_copy_someone_else_could_have_written_is_not_trusted(chapters_copy, ringbook, tmp_path, who):
    """Loading a cached book skips its checks: a copy beside the book that another user wrote, or could
    have, is read past, and the book comes from its files (or the reader's own copy) instead."""
    book_copy = chapters_copy("00-ring-allreduce")
    kept = checked_beside(ringbook, book_copy)
    tampered(kept)
    if who == "others may write it":
        kept.chmod(0o666)
    elif who == "others may write its folder":
        kept.parent.chmod(0o777)
    else:
        if os.geteuid() != 0:
            pytest.skip("only root can give a file to another user")
        os.chown(kept, 4242, 4242)
    learner = tmp_path / "learner"
    learner.mkdir()
    assert load_book(book_copy).exercise("0.1").title == "Traffic per GPU on a ring"
    assert load_book(book_copy, cache_dir=learner).exercise("0.1").title == "Traffic per GPU on a ring"
    assert list(learner.glob("book-cache-*.json"))   # read and checked from its files, so kept as the reader's own


def test_a_book_whose_folder_cannot_be_written_still_checks(chapters_copy, ringbook):
    book_copy = chapters_copy("00-ring-allreduce")
    (book_copy / "__pycache__").write_text("a file where the cache folder would go")
    assert ringbook("content", "check", "--content", str(book_copy)).returncode == 0
