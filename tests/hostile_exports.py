"""Hostile progress exports, as issue 12 found them: each made from a real export (written by
`ringbook progress export`), then broken the way an attacker or an accident would break it. Shared by
the class report's tests and `progress import`'s."""

from __future__ import annotations

import json
import os
import resource
import subprocess
from collections.abc import Callable
from pathlib import Path

from tests.helpers import RINGBOOK, ROOT
from tui.progress.export_file import MAX_EXPORT_BYTES


def _edited(change: Callable[[dict], None]) -> Callable[[dict, Path], None]:
    def write(export: dict, target: Path) -> None:
        data = json.loads(json.dumps(export))
        change(data)
        target.write_text(json.dumps(data))
    return write


def _first_attempt(**fields) -> Callable[[dict], None]:
    return lambda data: data["attempts"][0].update(fields)


def _text(make: Callable[[dict], str]) -> Callable[[dict, Path], None]:
    def write(export: dict, target: Path) -> None:
        target.write_text(make(export))
    return write


def _latin1(export: dict, target: Path) -> None:
    target.write_bytes(json.dumps(export).replace('"answer": "', '"answer": "\xe9', 1).encode("latin-1"))


def _repeated(data: dict) -> None:
    copy = dict(data["attempts"][0], status="correct" if data["attempts"][0]["status"] == "incorrect" else "incorrect")
    data["attempts"].append(copy)


# file name -> (how to make it from an honest export, what the one-line reason must say, or "" when the
# store's own validation words it)
CONTENT_ATTACKS: dict[str, tuple[Callable[[dict, Path], None], str]] = {
    "deep.json": (_text(lambda _: '{"format": "ringbook-progress", "x": ' + "[" * 100_000 + "]" * 100_000 + "}"),
                  "nested too deeply"),
    "hints.json": (_edited(_first_attempt(hints_used=10**30)), ""),
    "seconds.json": (_text(lambda e: json.dumps(e).replace('"seconds_taken": null', f'"seconds_taken": {10**400}', 1)),
                     ""),
    "surrogate.json": (_text(lambda e: json.dumps(e).replace('"answer": "', '"answer": "\\ud800', 1)),
                       "not valid Unicode"),
    "year-9999.json": (_edited(_first_attempt(created_utc="9999-12-31T23:59:59.000000Z", utc_offset_minutes=1439)), ""),
    "year-0001.json": (_edited(_first_attempt(created_utc="0001-01-01T00:00:00.000000Z", utc_offset_minutes=-1439)),
                       ""),
    "nan.json": (_text(lambda e: json.dumps(e).replace('"seconds_taken": null', '"seconds_taken": NaN', 1)),
                 "is not JSON"),
    "latin1.json": (_latin1, "not UTF-8"),
    "list.json": (_text(lambda _: "[1, 2]"), "is not a ringbook progress export"),
    "repeated.json": (_edited(_repeated), "lists one of its attempts twice"),
    # a seed names the variant a class report re-grades against: only a whole number from 0 to 2^63 - 1
    "seed-text.json": (_edited(_first_attempt(seed="7")), "'seed' has the wrong type (str)"),
    "seed-negative.json": (_edited(_first_attempt(seed=-1)), "'seed' is not a seed"),
    "seed-huge.json": (_edited(_first_attempt(seed=2**63)), "'seed' is not a seed"),
    "seed-float.json": (_edited(_first_attempt(seed=7.0)), "'seed' has the wrong type (float)"),
    "seed-true.json": (_edited(_first_attempt(seed=True)), "'seed' has the wrong type (bool)"),
    "purpose.json": (_edited(_first_attempt(purpose="cram")), "'purpose' is not one of learn, review, practice"),
}


def _symlink_to_zero(folder: Path, outside: Path) -> None:
    (folder / "zero.json").symlink_to("/dev/zero")


def _symlink_outside(folder: Path, outside: Path) -> None:
    (folder / "outside.json").symlink_to(outside)


def _fifo(folder: Path, outside: Path) -> None:
    os.mkfifo(folder / "fifo.json")


def _folder(folder: Path, outside: Path) -> None:
    (folder / "folder.json").mkdir()


def _too_big(folder: Path, outside: Path) -> None:
    with open(folder / "big.json", "wb") as big:   # sparse: takes no disk, but says it is this big
        big.truncate(MAX_EXPORT_BYTES + 1)


# file name -> (how to make it in a folder, given an honest export elsewhere; the reason it must give)
FILE_ATTACKS: dict[str, tuple[Callable[[Path, Path], None], str]] = {
    "zero.json": (_symlink_to_zero, "is a symbolic link; only regular files are read"),
    "outside.json": (_symlink_outside, "is a symbolic link; only regular files are read"),
    "fifo.json": (_fifo, "is a named pipe (FIFO); only regular files are read"),
    "folder.json": (_folder, "is a folder; only regular files are read"),
    "big.json": (_too_big, "is larger than 32 MB"),
}


def make_attacks(folder: Path, export: dict, outside: Path) -> dict[str, str]:
    """Every attack above as a file in `folder`; returns file name -> expected reason ("" for any)."""
    expected = {}
    for name, (make, reason) in CONTENT_ATTACKS.items():
        make(export, folder / name)
        expected[name] = reason
    for name, (make_file, reason) in FILE_ATTACKS.items():
        make_file(folder, outside)
        expected[name] = reason
    return expected


def _limited() -> None:
    """In the child: 2 GB of address space, so a reader that swallows /dev/zero dies instead of the host."""
    resource.setrlimit(resource.RLIMIT_AS, (2 * 1024**3, 2 * 1024**3))


def ringbook_child(*args: str | Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """`ringbook ARGS` in a child process with bounded memory, and a timeout well past any honest run, so
    that the old reader's hang on a FIFO fails the test instead of stopping the suite."""
    return subprocess.run([*RINGBOOK, *map(str, args)], capture_output=True, text=True, cwd=ROOT,
                          timeout=300, preexec_fn=_limited, env={**os.environ, **(env or {})})
