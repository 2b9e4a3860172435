"""A power cut under a learner's session, for real: the store lives on an ext4 file system on a loop device,
whose journal is aborted while the session runs (what a power cut leaves on the disk: only what was synced),
then mounted again. Needs root (losetup, mount); skipped, saying why, without it."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.helpers import ringbook_subprocess
from tui.progress.store import FILE_NAME, ProgressStore

SESSION = """
import sys
from pathlib import Path
from tui.progress.store import ProgressStore
store = ProgressStore.open(Path(sys.argv[1]))
for i in range(int(sys.argv[2])):
    store.record_attempt("0.1", f"answer {i}", "incorrect")   # as the app records an answer
print(store.notice or "saved", flush=True)
sys.stdin.readline()                                        # the session goes on until the power is cut
"""


def _run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, capture_output=True, text=True, check=False)


@pytest.fixture
def ext4(tmp_path: Path) -> Iterator[tuple[Path, Callable[[Callable[[], None]], None]]]:
    """A fresh ext4 file system mounted at a folder, and power_cut(stop): abort its journal (from then on
    nothing more reaches the disk), stop() what ran on it, unmount it, check it (e2fsck) and mount it again.
    Unmounted and its loop device freed whatever the test does."""
    if os.geteuid() != 0 or not (all(map(shutil.which, ("losetup", "mkfs.ext4", "e2fsck")))):
        pytest.skip("a loop-device file system needs root, losetup, mkfs.ext4 and e2fsck")
    image, mount_point = tmp_path / "disk.img", tmp_path / "disk"
    mount_point.mkdir()
    with open(image, "wb") as disk:
        disk.truncate(32 * 1024 * 1024)
    if _run("mkfs.ext4", "-q", "-F", str(image)).returncode:
        pytest.skip("mkfs.ext4 failed here")
    made = _run("losetup", "--find", "--show", str(image))
    if made.returncode:
        pytest.skip(f"no loop device here: {made.stderr.strip()}")
    device = made.stdout.strip()
    try:
        mounted = _run("mount", "-o", "errors=remount-ro", device, str(mount_point))
        if mounted.returncode:
            pytest.skip(f"cannot mount a loop device here: {mounted.stderr.strip()}")

        def power_cut(stop: Callable[[], None]) -> None:
            aborted = _run("mount", "-o", "remount,abort", str(mount_point))
            stop()
            assert aborted.returncode == 0, aborted.stderr
            assert _run("umount", str(mount_point)).returncode == 0
            checked = _checked_when_released(device)
            assert checked.returncode in (0, 1), checked.stdout + checked.stderr
            assert _run("mount", device, str(mount_point)).returncode == 0

        yield mount_point, power_cut
    finally:
        if _run("umount", str(mount_point)).returncode:
            _run("umount", "--lazy", str(mount_point))
        _run("losetup", "--detach", device)


def _checked_when_released(device: str) -> subprocess.CompletedProcess[str]:
    """e2fsck on `device` (as the next boot does: the journal replayed, errors cleared) once nothing holds it.
    A mount namespace made while it was mounted (another test's `unshare -m`, a sandbox) keeps its own copy of
    the mount after ours is gone; mounting the device again then would hand back the aborted file system."""
    deadline = time.monotonic() + 60
    while True:
        checked = _run("e2fsck", "-fy", device)
        if checked.returncode != 8 or "in use" not in checked.stdout or time.monotonic() > deadline:
            return checked
        time.sleep(0.05)


def _kill(process: subprocess.Popen[str]) -> None:
    process.send_signal(signal.SIGKILL)
    process.wait()


def _session_until_power_cut(data_dir: Path, answers: int, power_cut: Callable[[Callable[[], None]], None]) -> str:
    """Run a learner's session that saves `answers` answers, then cut the power under it; what it said."""
    session = subprocess.Popen([sys.executable, "-c", SESSION, str(data_dir), str(answers)], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               cwd=Path(__file__).resolve().parents[2])
    assert session.stdout is not None and session.stderr is not None
    try:
        said = session.stdout.readline().strip()
        assert said, session.stderr.read()
        power_cut_while_running = session.poll() is None
        power_cut(lambda: _kill(session))   # the machine stopped: the store is never closed
    finally:
        session.kill()
        session.communicate()
    assert power_cut_while_running
    return said


@pytest.mark.parametrize("earlier_session", [False, True], ids=["first session", "later session"])
def test_a_power_cut_keeps_every_saved_answer(ext4, earlier_session):
    """Found: after a power cut in a learner's first session the file was 0 bytes while its -wal held the
    answers (a new file was built without syncing anything); the next start showed an empty store, said
    nothing, and SQLite deleted the -wal. A later session's answers were kept; both are now."""
    mount_point, power_cut = ext4
    data_dir = mount_point / "data"
    if earlier_session:
        ProgressStore.open(data_dir).close()
    assert _session_until_power_cut(data_dir, 5, power_cut) == "saved"
    store = ProgressStore.open(data_dir)
    try:
        assert sorted(a.answer for a in store.attempts()) == [f"answer {i}" for i in range(5)]
        assert store.notice == "" and store.integrity() == "ok"
    finally:
        store.close()


def test_a_log_left_beside_an_empty_file_is_kept_aside_and_said(tmp_path):
    """An older ringbook's first session cut by a power failure left a 0-byte file and a -wal holding the
    answers: SQLite takes the empty file for a new one and deletes the -wal. It is kept aside and said."""
    session = ProgressStore.open(tmp_path / "then")
    session.record_attempt("0.1", "1.75", "correct")
    log = (tmp_path / "then" / f"{FILE_NAME}-wal").read_bytes()   # the session still open: its answers are there
    session.close()
    data_dir = tmp_path / "now"
    data_dir.mkdir()
    (data_dir / FILE_NAME).touch()
    (data_dir / f"{FILE_NAME}-wal").write_bytes(log)
    store = ProgressStore.open(data_dir)
    try:
        [kept] = [p for p in data_dir.iterdir() if p.name.startswith(f"{FILE_NAME}-wal.kept-")]
        assert kept.read_bytes() == log
        assert str(kept) in store.notice and "\n" not in store.notice
        assert store.attempts() == [] and not store.read_only
    finally:
        store.close()


def test_a_power_cut_just_after_a_reset_keeps_its_backup(ext4):
    """A power cut right after `progress reset` finds the store cleared and the backup whole: SQLite commits
    the backup synced before the reset clears anything. (A guard: this held before issue 43 too.)"""
    mount_point, power_cut = ext4
    data_dir = mount_point / "data"
    store = ProgressStore.open(data_dir)
    for i in range(5):
        store.record_attempt("0.1", f"answer {i}", "incorrect")
    store.close()
    result = ringbook_subprocess("--data-dir", data_dir, "progress", "reset", "--yes")
    assert result.returncode == 0, result.stderr
    power_cut(lambda: None)
    [backup] = [p for p in data_dir.iterdir() if p.name.startswith("progress.backup-")]
    assert str(backup) in result.stdout
    restored = ringbook_subprocess("--data-dir", data_dir, "progress", "restore", backup)
    assert restored.returncode == 0, restored.stderr
    store = ProgressStore.open(data_dir)
    try:
        assert sorted(a.answer for a in store.attempts()) == [f"answer {i}" for i in range(5)]
    finally:
        store.close()
