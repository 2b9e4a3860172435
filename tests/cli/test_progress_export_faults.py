"""`progress export FILE` over an earlier export (issue 43, item 4): on a full disk or killed mid-write, the
earlier export is left as it was, and the command says why in one line. Faults injected for real: a full
tmpfs, and SIGKILL delivered by strace as the export's first write begins."""

from __future__ import annotations

import errno
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.helpers import RINGBOOK, ROOT
from tests.helpers import ringbook_in_process as run
from tui.progress.store import ProgressStore


def learner_with(folder: Path, attempts: int) -> Path:
    store = ProgressStore.open(folder)
    for number in range(attempts):
        store.record_attempt("0.1", f"answer {number} " + "x" * 200, "incorrect", feedback="not quite " * 20)
    store.close()
    return folder


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 512 KB tmpfs, unmounted however the test ends."""
    disk = tmp_path / "disk"
    disk.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=512k", "tmpfs", str(disk)],
                             capture_output=True, text=True, check=False)
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.strip()}")
    try:
        yield disk
    finally:
        subprocess.run(["umount", str(disk)], check=True)


def fill(disk: Path) -> None:
    with open(disk / "filler", "wb", buffering=0) as filler:
        try:
            while True:
                filler.write(b"\0" * 4096)
        except OSError as exc:
            assert exc.errno == errno.ENOSPC


def test_an_export_onto_a_full_disk_keeps_the_earlier_export_and_says_why(tmp_path, small_disk, capsys):
    learner = learner_with(tmp_path / "learner", 5)
    target = small_disk / "progress.json"
    assert run(capsys, "--data-dir", learner, "progress", "export", target)[0] == 0
    earlier = target.read_bytes()
    learner_with(learner, 200)   # the next export is larger than the space the earlier one frees
    fill(small_disk)
    code, out, err = run(capsys, "--data-dir", learner, "progress", "export", target)
    assert code == 1 and "Exported" not in out
    assert "No space left on device" in err and len(err.strip().splitlines()) == 1
    assert target.read_bytes() == earlier
    assert sorted(p.name for p in small_disk.iterdir()) == ["filler", "progress.json"]   # nothing half-made left


def strace_works() -> bool:
    if shutil.which("strace") is None:
        return False
    probe = subprocess.run(["strace", "-qq", "-o", "/dev/null", "true"], capture_output=True, check=False)
    return probe.returncode == 0


@pytest.mark.skipif(not strace_works(), reason="needs strace, allowed to trace a child")
def test_an_export_killed_mid_write_keeps_the_earlier_export(tmp_path, capsys):
    learner = learner_with(tmp_path / "learner", 5)
    target = tmp_path / "out" / "progress.json"
    target.parent.mkdir()
    assert run(capsys, "--data-dir", learner, "progress", "export", target)[0] == 0
    earlier = target.read_bytes()
    learner_with(learner, 2000)   # a big export, a few MB
    # SIGKILL as the process enters its first write(2): the export's, since nothing else is written before it
    # (no bytecode is written, and SQLite writes with pwrite64)
    killed = subprocess.run(["strace", "-qq", "-o", "/dev/null", "-e", "trace=write", "-e",
                             "inject=write:signal=KILL:when=1", *RINGBOOK, "--data-dir", str(learner), "progress",
                             "export", str(target)], capture_output=True, text=True, cwd=ROOT, check=False,
                            env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}, timeout=120)
    assert killed.returncode in (-9, 128 + 9), killed
    assert "Exported" not in killed.stdout
    assert target.read_bytes() == earlier
    left = sorted(p.name for p in target.parent.iterdir())   # a kill cannot clean up: its half-file is named so
    assert left[-1] == "progress.json" and all(n.startswith(".progress.json.") and n.endswith(".partial")
                                               for n in left[:-1])


def test_an_export_over_an_earlier_one_keeps_its_permissions_and_writes_through_a_link(tmp_path, capsys):
    learner = learner_with(tmp_path / "learner", 1)
    real = tmp_path / "private" / "progress.json"
    real.parent.mkdir()
    real.write_text("an earlier export", encoding="utf-8")
    real.chmod(0o600)
    link = tmp_path / "link.json"
    link.symlink_to(real)
    code, out, _ = run(capsys, "--data-dir", learner, "progress", "export", link)
    assert code == 0 and "Exported 1 attempt" in out
    assert link.is_symlink() and '"format": "ringbook-progress"' in real.read_text(encoding="utf-8")
    assert real.stat().st_mode & 0o777 == 0o600
    assert sorted(p.name for p in real.parent.iterdir()) == ["progress.json"]
