"""The book cache makes starting faster, never different."""

import os
import pwd
import stat
import subprocess
import sys
import zlib
from pathlib import Path

import pytest

from grader.book import cache as book_cache
from grader.book.load import BookError, load_book
from tests.helpers import ROOT, read_book_copy, write_book_copy


def test_a_cached_book_equals_a_freshly_read_one(book_copy, tmp_path):
    fresh = load_book(book_copy, cache_dir=tmp_path)          # reads YAML, writes the cache
    assert list(tmp_path.glob("book-cache-*.json"))
    cached = load_book(book_copy, cache_dir=tmp_path)
    assert cached == fresh
    assert cached.exercise("0.1").value == fresh.exercise("0.1").value
    assert cached.exercise("0.1").source.line == fresh.exercise("0.1").source.line


def test_a_book_read_from_its_copy_builds_each_chapters_exercises_when_first_asked(book_copy, tmp_path):
    """Home shows only each exercise's id and title (issue 48): a book read from its copy has them before any
    exercise is built, and builds a chapter's exercises the first time they are asked for, as the files give."""
    fresh = load_book(book_copy, cache_dir=tmp_path)
    cached = load_book(book_copy, cache_dir=tmp_path)
    assert [(h.id, h.title, h.chapter_id) for h in cached.headings] == [
        (e.id, e.title, e.chapter_id) for e in fresh.exercises]
    assert not [c for c in cached.chapters if "exercises" in vars(c)]    # none built yet
    first = cached.chapters[0]
    assert first.exercises == fresh.chapters[0].exercises
    assert [c.id for c in cached.chapters if "exercises" in vars(c)] == [first.id]


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
    data, _ = read_book_copy(cache)              # and it was rewritten whole
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
    data, exercises = read_book_copy(cache)
    table = fresh.exercise("6.4")
    assert table.steps and table.written is not None and len(table.steps) > 1
    old_order = [table.prompt, table.explanation, *table.hints, *(m.feedback for m in table.mistakes),
                 *(s.label for s in table.steps), *(s.feedback for s in table.steps), table.title]
    next(e for chapter in exercises for e in chapter if e["id"] == "6.4")["_canonical_texts"] = old_order
    write_book_copy(cache, {**data, "format": 5}, exercises)
    assert load_book(book_copy, cache_dir=tmp_path) == fresh


# --- where the cache lives: the reader's own folder, never the book's (issue 42) -----------------------------

root_only = pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0,
                               reason="giving a folder to another account (os.lchown) needs root")


def another_account() -> pwd.struct_passwd:
    """A real account of this host other than the one running the tests (as tests/progress/test_class_identity.py)."""
    others = sorted((e for e in pwd.getpwall() if e.pw_uid != os.geteuid()), key=lambda e: e.pw_uid)
    if not others:
        pytest.skip("this host has no other account to give a folder to")
    return others[0]


def give_away(folder: Path, account: pwd.struct_passwd) -> None:
    """`folder` and everything in it, links included (not what they point to), made `account`'s."""
    for path in [folder, *folder.rglob("*")]:
        os.lchown(path, account.pw_uid, account.pw_gid)


def untouched_secret(tmp_path: Path) -> Path:
    """A file only root may write, where a planted link points."""
    secret = tmp_path / "root-only" / "secret"
    secret.parent.mkdir(mode=0o700)
    secret.write_text("root's own\n")
    secret.chmod(0o600)
    return secret


@root_only
def test_checking_a_book_another_account_owns_follows_none_of_its_planted_links(chapters_copy, ringbook, tmp_path):
    """The attack of issue 42: another account's book, its `__pycache__` theirs, with links named as the cache's
    files (the temporary one names root's pid) pointing at a file of root's. Root's `content check` rewrote that
    file as JSON and made it 0644; now it writes nothing into the book's folder at all."""
    book_copy = chapters_copy("00-ring-allreduce")
    secret = untouched_secret(tmp_path)
    planted = book_copy / "__pycache__"
    planted.mkdir()
    name = f"book-cache-{zlib.crc32(str(book_copy.resolve()).encode()):08x}"
    for link in (f"{name}.{os.getpid()}.tmp", f"{name}.json"):
        (planted / link).symlink_to(secret)
    give_away(book_copy, another_account())
    before = sorted(p.name for p in planted.iterdir())
    assert ringbook("content", "check", "--content", str(book_copy)).returncode == 0
    assert secret.read_text() == "root's own\n" and stat.S_IMODE(secret.stat().st_mode) == 0o600
    assert sorted(p.name for p in planted.iterdir()) == before
    assert load_book(book_copy).title   # and reading it as a learner does follows none either
    assert secret.read_text() == "root's own\n"


@root_only
def test_a_pycache_that_is_a_link_is_not_written_through(chapters_copy, ringbook, tmp_path):
    """Another account's book whose `__pycache__` is a link to a folder root can write: root's check wrote the
    cache there."""
    book_copy = chapters_copy("00-ring-allreduce")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir(mode=0o700)
    (book_copy / "__pycache__").symlink_to(elsewhere)
    give_away(book_copy, another_account())
    assert ringbook("content", "check", "--content", str(book_copy)).returncode == 0
    assert list(elsewhere.iterdir()) == []


@root_only
@pytest.mark.parametrize("how", ["a link to a folder of root's", "another account's folder"])
def test_a_cache_folder_that_is_not_the_readers_own_is_neither_written_nor_read(chapters_copy, tmp_path, how):
    """The cache folder itself (RINGBOOK_CACHE_DIR, a misconfigured XDG_CACHE_HOME) may be a link or another
    account's: the copy is kept only in a folder that is the reader's own, opened without following a link."""
    book_copy = chapters_copy("00-ring-allreduce")
    secret = untouched_secret(tmp_path)
    folder = tmp_path / "cache"
    if how == "a link to a folder of root's":
        folder.symlink_to(secret.parent)
        watched = secret.parent
    else:
        folder.mkdir(mode=0o755)
        for n in range(100):   # a temporary file of any name this run might pick, each a link to root's file
            (folder / f"planted-{n}.tmp").symlink_to(secret)
        load_book(book_copy, cache_dir=tmp_path / "mine")   # and a copy of theirs that would retitle the book
        [mine] = (tmp_path / "mine").glob("book-cache-*.json")
        data, exercises = read_book_copy(mine)
        data["raw"]["book"]["title"] = "[link=https://evil]Distributed Training[/link]"
        write_book_copy(folder / mine.name, data, exercises)
        give_away(folder, another_account())
        watched = folder
    before = sorted(p.name for p in watched.iterdir())
    assert load_book(book_copy, cache_dir=folder) == load_book(book_copy)
    assert load_book(book_copy, cache_dir=folder).title == "Distributed Training, Derived"
    assert sorted(p.name for p in watched.iterdir()) == before
    assert secret.read_text() == "root's own\n" and stat.S_IMODE(secret.stat().st_mode) == 0o600


def test_content_check_writes_nothing_into_the_book_folder(chapters_copy, ringbook, tmp_path, monkeypatch):
    """A book may belong to anyone, so `content check` keeps its checked copy in the reader's own cache folder,
    which the next start of the app (or `ringbook check`) reads."""
    book_copy = chapters_copy("00-ring-allreduce")
    monkeypatch.setenv("RINGBOOK_CACHE_DIR", str(tmp_path / "cache"))
    assert ringbook("content", "check", "--content", str(book_copy)).returncode == 0
    assert not (book_copy / "__pycache__").exists()
    [kept] = (tmp_path / "cache").glob("book-cache-*.json")
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600 and stat.S_IMODE(kept.parent.stat().st_mode) == 0o700
    code = ("import sys; from tui.cli.main import main; "
            f"status = main(['check', '--content', {str(book_copy)!r}, '0.1', '7/4']); "
            "print(status, 'yaml' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                          env={**os.environ, "RINGBOOK_CACHE_DIR": str(tmp_path / "cache")})
    assert done.stdout.splitlines()[-1] in ("0 False", "1 False"), done.stdout + done.stderr


def test_a_copy_beside_the_book_is_never_read(chapters_copy, tmp_path):
    """What older versions' `content check` left in a book's `__pycache__` is read by nobody: a copy there,
    however trusted it looks, is not where the reader's own copies live."""
    book_copy = chapters_copy("00-ring-allreduce")
    load_book(book_copy, cache_dir=book_copy / "__pycache__")
    [kept] = (book_copy / "__pycache__").glob("book-cache-*.json")
    data, exercises = read_book_copy(kept)
    data["raw"]["book"]["title"] = "[link=https://evil]Distributed Training[/link]"
    write_book_copy(kept, data, exercises)
    kept.chmod(0o644)           # as trusted as the old rule asked: the reader's, and no one else may write it
    kept.parent.chmod(0o755)
    assert load_book(book_copy).title == "Distributed Training, Derived"
    assert load_book(book_copy, cache_dir=tmp_path / "mine").title == "Distributed Training, Derived"


def test_a_book_whose_folder_cannot_be_written_still_checks(chapters_copy, ringbook):
    book_copy = chapters_copy("00-ring-allreduce")
    (book_copy / "__pycache__").write_text("a file where the cache folder would go")
    assert ringbook("content", "check", "--content", str(book_copy)).returncode == 0


# --- keyed on content (issue 42, item 5) ----------------------------------------------------------------------


def test_a_file_edited_keeping_its_size_and_time_is_read_again(chapters_copy, tmp_path):
    """`touch -r`, a restored backup or a tool that keeps times: the same size and modification time, other
    bytes. Keyed on (mtime, size), the stale copy kept grading the old book."""
    book_copy = chapters_copy("00-ring-allreduce")
    load_book(book_copy, cache_dir=tmp_path)
    path = book_copy / "00-ring-allreduce/exercises.yaml"
    before = path.stat()
    path.write_text(path.read_text().replace("title: Traffic per GPU on a ring", "title: Traffic per GPU in a RING", 1))
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert (path.stat().st_size, path.stat().st_mtime_ns) == (before.st_size, before.st_mtime_ns)
    assert load_book(book_copy, cache_dir=tmp_path).exercise("0.1").title == "Traffic per GPU in a RING"


# --- hashed only when a file's status changed (issue 48, section 4) ---------------------------------------------

def edited_keeping_size_and_time(path: Path, old: str, new: str) -> None:
    """`old` replaced by `new` (as long) in the file, its size and modification time put back as `touch -r` does;
    at a later tick of the kernel's clock than its last change, so its change time is another."""
    before = path.stat()
    assert len(old) == len(new)
    path.write_text(path.read_text().replace(old, new, 1))
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    while path.stat().st_ctime_ns == before.st_ctime_ns:   # the same tick: within a few milliseconds, another
        os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert (path.stat().st_size, path.stat().st_mtime_ns) == (before.st_size, before.st_mtime_ns)


def test_a_file_changed_just_before_its_copy_was_written_is_hashed_at_every_start(chapters_copy, tmp_path):
    """A file changed within SETTLED_NS of its hash keeps no status: an edit in the same tick of the kernel's
    clock would leave its status as it was (git's "racy" case)."""
    book_copy = chapters_copy("00-ring-allreduce")
    load_book(book_copy, cache_dir=tmp_path)
    [cache] = tmp_path.glob("book-cache-*.json")
    data, _ = read_book_copy(cache)
    assert data["digests"] and all(status is None for _, status in data["digests"].values())


def test_a_settled_file_whose_status_is_unchanged_is_not_read_again(chapters_copy, tmp_path, monkeypatch):
    """The copy's own title is shown although every hash in it is wrong: the files' statuses were as kept, so
    none was read (a learner's start reads no book file at all)."""
    monkeypatch.setattr(book_cache, "SETTLED_NS", 0)
    book_copy = chapters_copy("00-ring-allreduce")
    load_book(book_copy, cache_dir=tmp_path)
    [cache] = tmp_path.glob("book-cache-*.json")
    data, exercises = read_book_copy(cache)
    assert all(status is not None for _, status in data["digests"].values())
    data["digests"] = {name: ["0" * 64, status] for name, (_, status) in data["digests"].items()}
    data["raw"]["book"]["title"] = "The copy's own title"
    write_book_copy(cache, data, exercises)
    assert load_book(book_copy, cache_dir=tmp_path).title == "The copy's own title"


def test_a_settled_file_edited_keeping_its_size_and_time_is_read_again(chapters_copy, tmp_path, monkeypatch):
    monkeypatch.setattr(book_cache, "SETTLED_NS", 0)
    book_copy = chapters_copy("00-ring-allreduce")
    load_book(book_copy, cache_dir=tmp_path)
    edited_keeping_size_and_time(book_copy / "00-ring-allreduce/exercises.yaml",
                                 "title: Traffic per GPU on a ring", "title: Traffic per GPU in a RING")
    assert load_book(book_copy, cache_dir=tmp_path).exercise("0.1").title == "Traffic per GPU in a RING"


def test_a_learners_start_from_a_settled_copy_loads_no_hashing(tmp_path):
    """hashlib (OpenSSL's) cost a learner's start a millisecond and a half before the first frame. The built-in
    book's files were written long before (a clean clone's, before its environment is made)."""
    load_book(cache_dir=tmp_path)
    code = ("import sys; from pathlib import Path; from grader.book.load import load_book; "
            f"load_book(cache_dir=Path({str(tmp_path)!r})); print('hashlib' in sys.modules)")
    assert subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True).stdout == "False\n"
