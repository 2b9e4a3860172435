"""`progress reset` on a disk that is really full: a tmpfs of a small size, filled up. Needs root (mount);
skipped, saying why, without it."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.helpers import ringbook_subprocess
from tui.progress.store import ProgressStore


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 16 MB tmpfs mounted at a folder; unmounted whatever the test does."""
    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root")
    mount_point = tmp_path / "disk"
    mount_point.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=16m", "tmpfs", str(mount_point)],
                             capture_output=True, text=True, check=False)
    if mounted.returncode:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.strip()}")
    try:
        yield mount_point
    finally:
        if subprocess.run(["umount", str(mount_point)], capture_output=True, check=False).returncode:
            subprocess.run(["umount", "--lazy", str(mount_point)], capture_output=True, check=False)


def _fill(disk: Path, leave: int) -> None:
    """Write a file that takes all of `disk`'s free space but about `leave` bytes."""
    with open(disk / "filler", "wb") as filler:
        free = os.statvfs(disk).f_bavail * os.statvfs(disk).f_frsize
        filler.write(b"\0" * max(free - leave, 0))
        try:
            while os.statvfs(disk).f_bavail * os.statvfs(disk).f_frsize > leave:
                filler.write(b"\0" * 4096)
                filler.flush()
        except OSError:
            pass


def _answers(data_dir: Path) -> list[str]:
    store = ProgressStore.open(data_dir)
    try:
        return sorted(a.answer for a in store.attempts())
    finally:
        store.close()


@pytest.mark.parametrize("left_free", [0, 64 * 1024], ids=["full", "too little for the backup"])
def test_reset_on_a_full_disk_says_so_in_one_line_and_changes_nothing(small_disk, left_free):
    """Found: a traceback (sqlite3.OperationalError: database or disk is full) and a 0-byte backup left beside
    the store. Now one line saying so, exit 1, no backup file, and every answer still there."""
    data_dir = small_disk / "data"
    store = ProgressStore.open(data_dir)
    for i in range(200):
        store.record_attempt("0.1", f"{i} " + "x" * 400, "incorrect")
    store.close()
    before = _answers(data_dir)
    _fill(small_disk, left_free)

    result = ringbook_subprocess("--data-dir", data_dir, "progress", "reset", "--yes")

    assert result.returncode == 1
    assert "Traceback" not in result.stderr, result.stderr
    said = [line for line in result.stderr.splitlines() if "Cannot reset" in line]
    assert len(said) == 1 and "space" in said[0] and "Nothing was changed" in said[0], result.stderr
    assert [p.name for p in data_dir.iterdir() if "backup" in p.name] == []
    (small_disk / "filler").unlink()
    assert _answers(data_dir) == before
