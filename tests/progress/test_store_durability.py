"""The store under real processes: killed writers lose nothing they reported committed, and two
sessions writing at once both succeed."""

from __future__ import annotations

import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

from tui.progress import store_file
from tui.progress.store import FILE_NAME, Attempt, ProgressStore, StoreError

WRITER = """
import sys
from pathlib import Path
from tui.progress.store import ProgressStore
store = ProgressStore.open(Path(sys.argv[1]))
go = Path(sys.argv[3])
while not go.exists():
    pass
for i in range(int(sys.argv[2])):
    attempt = store.record_attempt(f"0.{i % 7 + 1}", f"answer {i}", "correct" if i % 3 else "incorrect")
    print(attempt.uid, flush=True)   # printed only after the commit returned
store.close()
"""


def start_writer(data_dir: Path, count: int, go: Path) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", WRITER, str(data_dir), str(count), str(go)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            cwd=Path(__file__).resolve().parents[2])


def test_sigkill_at_random_points_loses_no_committed_attempt(tmp_path):
    rng = random.Random(20261122)
    data_dir, go = tmp_path / "data", tmp_path / "go"
    go.touch()
    reported: set[str] = set()
    kills = 0
    while len(reported) < 1000:
        writer = start_writer(data_dir, 100_000, go)
        stop_after = rng.randint(1, 150)
        for _ in range(stop_after):
            line = writer.stdout.readline()
            if not line:
                break
            reported.add(line.strip())
        time.sleep(rng.random() * 0.01)      # land the kill anywhere in the next write
        writer.send_signal(signal.SIGKILL)
        writer.wait()
        writer.stdout.close()
        writer.stderr.close()
        kills += 1
        store = ProgressStore.open(data_dir)
        try:
            assert store.notice == "", store.notice
            assert store.integrity() == "ok"
            present = {a.uid for a in store.attempts()}
        finally:
            store.close()
        assert reported <= present, f"{len(reported - present)} committed attempts lost after kill {kills}"
    assert kills >= 5


def test_two_sessions_writing_at_once_both_succeed(tmp_path):
    data_dir, go = tmp_path / "data", tmp_path / "go"
    ProgressStore.open(data_dir).close()
    writers = [start_writer(data_dir, 500, go) for _ in range(2)]
    time.sleep(0.5)          # both are open and waiting
    go.touch()
    outputs = [w.communicate(timeout=300) for w in writers]
    for writer, (out, err) in zip(writers, outputs, strict=True):
        assert writer.returncode == 0, err
        assert "locked" not in err and err == ""
        assert len(out.split()) == 500
    store = ProgressStore.open(data_dir)
    try:
        assert len(store.attempts()) == 1000
        assert store.integrity() == "ok"
    finally:
        store.close()


def test_a_write_waits_for_another_sessions_write_to_finish(tmp_path):
    """SQLite's busy timeout is the store's only wait (it has no retry loop of its own): an answer saved
    while another session is in the middle of a write waits for that write to commit, then is saved."""
    store = ProgressStore.open(tmp_path)
    other = sqlite3.connect(tmp_path / FILE_NAME, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    other.execute("INSERT INTO state VALUES ('written by', 'the other session')")
    outcome: list[Attempt | StoreError] = []

    def answer() -> None:
        try:
            outcome.append(store.record_attempt("0.1", "1.75", "correct"))
        except StoreError as exc:
            outcome.append(exc)

    writer = threading.Thread(target=answer)
    writer.start()
    writer.join(timeout=0.5)   # not a race: the writer cannot finish while the lock is held, however slow it is
    assert writer.is_alive() and outcome == [], outcome
    other.execute("COMMIT")
    other.close()
    writer.join()
    try:
        assert isinstance(outcome[0], Attempt), outcome
        assert store.state("written by") == "the other session" and len(store.attempts()) == 1
    finally:
        store.close()


def test_a_store_another_session_keeps_locked_opens_read_only_and_is_never_moved_aside(tmp_path, monkeypatch):
    """Opening waited SQLite's busy timeout for another session's write, then took "database is locked" for
    damage: the learner's file was renamed aside and a fresh, empty one started."""
    ProgressStore.open(tmp_path).record_attempt("0.1", "1.75", "correct")
    other = sqlite3.connect(tmp_path / FILE_NAME, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    other.execute("INSERT INTO state VALUES ('written by', 'the other session')")
    monkeypatch.setattr(store_file, "BUSY_TIMEOUT_SECONDS", 0.05)   # the other write outlasts the wait
    try:
        store = ProgressStore.open(tmp_path)
        assert store.read_only and "another program has been writing" in store.notice
        assert [a.answer for a in store.attempts()] == ["1.75"]       # the learner's progress, still readable
        assert sorted(p.name for p in tmp_path.iterdir() if not p.name.startswith(FILE_NAME)) == []
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert [a.answer for a in ProgressStore.open(tmp_path).attempts()] == ["1.75"]
