"""A parsed copy of a book that passed its checks, so the app starts without YAML or re-checking.

The copy is plain JSON keyed by the book's folder and, for every file the book was read from, its size and
modification time. Any change, a damaged copy or an unwritable folder simply means the book is read from
its files again: the cache can make loading faster, never different.

Each reader keeps a copy beside their progress. `ringbook content check` also keeps one beside the book
(in the book folder's `__pycache__`, as Python keeps bytecode), where it may write: that copy serves every
reader of an installed book, so a class's first lesson does not check the book once per learner (reading
and checking the built-in book costs about half a second of CPU, which thirty learners logging in
together paid thirty times over on two cores). A shared copy is trusted only when it and
its folder belong to this user or root and no one else may write them: loading a cached book skips its
checks, so a copy another user could have written would hand them every reader's screen.
"""

from __future__ import annotations

import contextlib
import json
import os
import zlib
from pathlib import Path
from typing import Any

FORMAT = 6  # 2: strings made printable when read; 3: templated exercises carry their canonical texts;
# 4: their titles too; 5: and a choice's options; 6: in the order each kind declares them (a table's label and
# feedback row by row, grader.exercise.NumericAnswer.TEXT_FIELDS), not all labels, then all feedback


def beside(root: Path) -> Path:
    """The cache folder that serves everyone who reads the book at `root`."""
    return root / "__pycache__"


def _trusted(path: Path) -> bool:
    """Whether `path` is this user's or root's, and writable by no one else."""
    status = path.stat()
    return status.st_uid in (os.geteuid(), 0) and not status.st_mode & 0o022


def _file_for(root: Path, cache_dir: Path) -> Path:
    digest = zlib.crc32(str(root.resolve()).encode())  # names the file; the content check is the stamps
    return cache_dir / f"book-cache-{digest:08x}.json"


def _stamp(path: Path) -> list[int] | None:
    try:
        status = path.stat()
    except OSError:
        return None
    return [status.st_mtime_ns, status.st_size]


def _sources(root: Path, raw: dict[str, Any]) -> list[Path]:
    paths = [root / "book.yaml"]
    for chapter in raw["book"]["chapters"]:
        paths += [root / chapter["dir"] / "exercises.yaml", root / chapter["dir"] / "chapter.md"]
    paths += [root / entry["file"] for key in ("quizzes", "labs") for entry in raw["book"].get(key, ())]
    return paths


def read(root: Path, cache_dir: Path, *, shared: bool = False) -> dict[str, Any] | None:
    """The cached raw book, or None when there is none or any source file has changed. A `shared` copy (one
    not in the reader's own folder) must also be trusted."""
    try:
        file = _file_for(root, cache_dir)
        if shared and not (_trusted(file) and _trusted(cache_dir)):
            return None
        cached = json.loads(file.read_text(encoding="utf-8"))
        if cached.get("format") != FORMAT or cached.get("root") != str(root.resolve()):
            return None
        for name, stamp in cached["stamps"].items():
            if _stamp(root / name) != stamp:
                return None
        return cached["raw"]
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


def write(root: Path, cache_dir: Path, raw: dict[str, Any]) -> bool:
    """Save `raw` for next time; whether it was saved (not where the folder cannot be written)."""
    stamps = {str(p.relative_to(root)): _stamp(p) for p in _sources(root, raw)}
    payload = {"format": FORMAT, "root": str(root.resolve()), "stamps": stamps, "raw": raw}
    target = _file_for(root, cache_dir)
    temporary = target.with_suffix(f".{os.getpid()}.tmp")
    try:
        cache_dir.mkdir(mode=0o755, exist_ok=True)
        temporary.write_text(json.dumps(payload, ensure_ascii=False), encoding="utf-8")
        temporary.chmod(0o644)   # readable by the class, whatever the writer's umask
        os.replace(temporary, target)
    except OSError:
        with contextlib.suppress(OSError):
            temporary.unlink()
        return False
    return True
