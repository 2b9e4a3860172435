"""Faults a learner's machine really has: garbage files, newer stores, read-only folders, full disks."""

from __future__ import annotations

import hashlib
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from tests.helpers import RINGBOOK, ringbook_subprocess
from tui.progress.store import FILE_NAME, ProgressStore, StoreError, StoreReadOnly, StoreTooNew, default_data_dir
from tui.progress.store_schema import MIGRATIONS, SCHEMA_VERSION, migrate, user_version


def test_garbage_file_is_moved_aside_and_named(tmp_path):
    (tmp_path / FILE_NAME).write_bytes(b"this is not a database\x00" * 100)
    store = ProgressStore.open(tmp_path)
    try:
        kept = [p for p in tmp_path.iterdir() if p.name.startswith("progress.corrupt-")]
        assert len(kept) == 1
        assert kept[0].read_bytes() == b"this is not a database\x00" * 100
        assert str(kept[0]) in store.notice
        store.record_attempt("0.1", "1.75", "correct")
        assert len(store.attempts()) == 1 and not store.read_only
    finally:
        store.close()


def test_truncated_database_is_moved_aside(tmp_path):
    store = ProgressStore.open(tmp_path)
    for i in range(200):
        store.record_attempt("0.1", str(i), "incorrect")
    store.close()
    data = (tmp_path / FILE_NAME).read_bytes()
    (tmp_path / FILE_NAME).write_bytes(data[: len(data) // 3] + b"\xff" * 4096)
    reopened = ProgressStore.open(tmp_path)
    try:
        assert "kept as" in reopened.notice
        assert reopened.attempts() == []
    finally:
        reopened.close()


def test_store_from_a_newer_ringbook_is_refused_untouched(tmp_path):
    path = tmp_path / FILE_NAME
    connection = sqlite3.connect(path)
    connection.execute("CREATE TABLE future (x)")
    connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    connection.commit()
    connection.close()
    before = hashlib.sha256(path.read_bytes()).hexdigest()
    with pytest.raises(StoreTooNew, match="newer ringbook"):
        ProgressStore.open(tmp_path)
    assert hashlib.sha256(path.read_bytes()).hexdigest() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == [FILE_NAME]


def test_cli_says_so_for_a_newer_store(tmp_path):
    test_store_from_a_newer_ringbook_is_refused_untouched(tmp_path)
    result = ringbook_subprocess("--data-dir", tmp_path, "progress")
    assert result.returncode == 1
    assert "newer ringbook" in result.stderr and "Traceback" not in result.stderr


def test_empty_folder_is_migrated_to_the_current_schema(tmp_path):
    store = ProgressStore.open(tmp_path / "new" / "nested")
    try:
        assert store._db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert store._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    finally:
        store.close()


def test_a_new_store_is_built_in_one_transaction():
    """Each commit waits for the disk (a rollback journal's, four waits): a class's first lesson creates thirty
    files at once, so a new file's whole schema is one commit."""
    connection = sqlite3.connect(":memory:", isolation_level=None)
    statements: list[str] = []
    connection.set_trace_callback(statements.append)
    migrate(connection, None)
    assert [s for s in statements if s in ("BEGIN IMMEDIATE", "COMMIT")] == ["BEGIN IMMEDIATE", "COMMIT"]
    assert user_version(connection) == SCHEMA_VERSION
    connection.close()


@pytest.mark.parametrize("opened_before", [False, True])
def test_every_answer_is_on_the_disk_once_a_store_is_open(tmp_path, opened_before):
    """A new file is built without waiting for the disk (a class creates thirty at once); once it is open, a
    saved answer waits for the disk again (synchronous FULL), in a new file as in one opened before."""
    if opened_before:
        ProgressStore.open(tmp_path).close()
    store = ProgressStore.open(tmp_path)
    try:
        assert store._db.execute("PRAGMA synchronous").fetchone()[0] == 2   # FULL
        store.record_attempt("0.1", "1.75", "correct")
    finally:
        store.close()
    reopened = ProgressStore.open(tmp_path)
    assert [a.answer for a in reopened.attempts()] == ["1.75"] and reopened.notice == ""
    reopened.close()


def test_an_upgrade_that_fails_part_way_leaves_the_file_as_it_was(tmp_path):
    """A version 1 file whose attempts already have a `seed` column (a hand edit) cannot take step 3; step 2's
    ledger is not left behind at version 2 either: an upgrade is whole or not at all."""
    path = tmp_path / "progress.sqlite3"
    connection = sqlite3.connect(path, isolation_level=None)
    connection.executescript(MIGRATIONS[1] + "; ALTER TABLE attempts ADD COLUMN seed INTEGER")
    connection.execute("PRAGMA user_version = 1")
    with pytest.raises(sqlite3.OperationalError, match="duplicate column"):
        migrate(connection, path)
    assert user_version(connection) == 1
    assert connection.execute("SELECT name FROM sqlite_master WHERE name = 'ledger'").fetchall() == []
    connection.close()


@pytest.mark.parametrize("make", [os.mkfifo, os.mkdir], ids=["fifo", "folder"])
def test_a_progress_path_that_is_not_a_file_is_said_never_waited_on(tmp_path, make):
    """A FIFO named like the progress file kept SQLite's first read waiting for ever: the app never started.
    It, or a folder, is left as it is and said: `progress` fails (it has no progress to show, issue 43 item
    2), and the app's session runs on an empty store in memory, saying so."""
    make(tmp_path / FILE_NAME)
    result = ringbook_subprocess("--data-dir", tmp_path, "progress", timeout=30)   # only so a hang fails, not stalls
    assert result.returncode == 1, result.stderr
    assert "is not a file" in result.stderr and "Traceback" not in result.stderr
    assert "Mastery" not in result.stdout
    store = ProgressStore.open(tmp_path)
    try:
        assert "is not a file" in store.notice and "this session" in store.notice and store.path is None
    finally:
        store.close()
    assert sorted(p.name for p in tmp_path.iterdir()) == [FILE_NAME]


def test_full_disk_keeps_the_app_working_read_only(tmp_path):
    store = ProgressStore.open(tmp_path)
    try:
        store.record_attempt("0.1", "1.75", "correct")
        pages = store._db.execute("PRAGMA page_count").fetchone()[0]
        store._db.execute(f"PRAGMA max_page_count = {pages}")  # the disk is now full, as SQLite sees it
        with pytest.raises(StoreReadOnly, match="could not be saved"):
            for _ in range(2000):
                store.record_attempt("0.2", "x" * 500, "incorrect")
        assert store.read_only and "full" in store.notice
        assert store.attempts("0.1")[0].answer == "1.75"   # what was saved is still there and readable
        assert store.integrity() == "ok"
    finally:
        store.close()


def _can_mount_read_only() -> bool:
    if not shutil.which("unshare"):
        return False
    with tempfile.TemporaryDirectory() as folder:
        probe = subprocess.run(["unshare", "-rm", "sh", "-c",
                                f"mount --bind {folder} {folder} && mount -o remount,bind,ro {folder}"],
                               capture_output=True)
    return probe.returncode == 0


READ_ONLY_SESSION = """
import sys
import tempfile
from pathlib import Path
from tui.progress.store import ProgressStore, StoreReadOnly
store = ProgressStore.open(Path(sys.argv[1]))
print(store.read_only, len(store.attempts()), sep="|")
print(store.notice)
try:
    store.record_attempt("0.1", "2", "correct")
    print("written")
except StoreReadOnly as exc:
    print("refused")
"""


@pytest.mark.skipif(not _can_mount_read_only(), reason="needs unshare and a read-only bind mount")
def test_read_only_folder_keeps_the_progress_readable(tmp_path):
    store = ProgressStore.open(tmp_path)
    store.record_attempt("0.1", "1.75", "correct")
    store.close()
    script = f"mount --bind {tmp_path} {tmp_path} && mount -o remount,bind,ro {tmp_path} && " \
             f"exec {sys.executable} -c '{READ_ONLY_SESSION}' {tmp_path}"
    result = subprocess.run(["unshare", "-rm", "sh", "-c", script], capture_output=True, text=True,
                            cwd=Path(__file__).resolve().parents[2])
    lines = result.stdout.splitlines()
    assert result.returncode == 0, result.stderr
    assert lines[0] == "True|1"
    assert "read-only" in lines[1]
    assert lines[2] == "refused"


def test_data_dir_comes_from_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("RINGBOOK_DATA_DIR", str(tmp_path / "from-env"))
    assert default_data_dir() == tmp_path / "from-env"
    monkeypatch.delenv("RINGBOOK_DATA_DIR")
    assert default_data_dir().name == "ringbook"


def test_data_dir_flag_beats_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("RINGBOOK_DATA_DIR", str(tmp_path / "env"))
    result = subprocess.run([*RINGBOOK, "--data-dir", str(tmp_path / "flag"), "progress"],
                            capture_output=True, text=True, env={**__import__("os").environ})
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "flag" / FILE_NAME).exists() and not (tmp_path / "env").exists()


@pytest.mark.parametrize("trigger, message", [
    ("SELECT readonly_check(NEW.answer)", "no such function: readonly_check"),
    ("SELECT RAISE(ABORT, 'attempts are closed')", "attempts are closed"),
], ids=["words-like-read-only", "raise-abort"])
def test_a_write_a_hand_made_trigger_refuses_is_a_message_and_saving_goes_on(tmp_path, trigger, message):
    """A refused write is taken for a read-only folder or a full disk by SQLite's result code, not by words in
    its message: a trigger calling a missing function named readonly_check fails every answer, which says so
    and is no reason to stop saving anything else. RAISE(ABORT) in a trigger is an IntegrityError, which the
    store let through as a traceback."""
    ProgressStore.open(tmp_path).close()
    edit = sqlite3.connect(tmp_path / FILE_NAME)
    edit.execute(f"CREATE TRIGGER attempts_refused BEFORE INSERT ON attempts BEGIN {trigger}; END")
    edit.commit()
    edit.close()
    store = ProgressStore.open(tmp_path)
    try:
        with pytest.raises(StoreError, match=message) as refused:
            store.record_attempt("0.1", "1.75", "correct")
        assert not isinstance(refused.value, StoreReadOnly)
        assert not store.read_only and store.notice == ""
        store.save_draft("0.1", "1.7")
        assert store.draft("0.1") == "1.7" and store.attempts() == []
    finally:
        store.close()
