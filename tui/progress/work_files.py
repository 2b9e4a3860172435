"""Build exercises as files a learner edits in their own editor: `<data folder>/work/<exercise id>.py`.

The app's editor key and `ringbook work` write the code there and read it back. An exercise id comes from
a book, and a book may be hostile: the file's name keeps only letters, digits, `-`, `_` and inner dots, so
no id (`../../x`, `/etc/passwd`, `.bashrc`) can name a file outside the work folder. The file is the
learner's: one whose text differs from what is about to be written is kept beside it first, never lost.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from tui.progress.store_file import default_data_dir

WORK_FOLDER = "work"
MAX_BYTES = 1024 * 1024   # far beyond any build's code (the grader takes 2,000 characters); a larger file is a slip
_UNSAFE_IN_NAME = re.compile(r"[^A-Za-z0-9._-]")


class WorkFileError(Exception):
    """A work file that cannot be written or read back; the message says which and why, in a sentence."""


def work_folder(store_path: Path | None) -> Path:
    """The work folder beside the progress store (`store_path`, None for a store kept in memory: then the
    data folder the store would have used)."""
    return (store_path.parent if store_path is not None else default_data_dir()) / WORK_FOLDER


def work_file(folder: Path, exercise_id: str) -> Path:
    """The file for `exercise_id` in `folder`, named after the id with every other character made `_` and
    leading dots dropped, so it is always a plain file directly inside `folder`."""
    name = _UNSAFE_IN_NAME.sub("_", exercise_id).lstrip(".")
    if not name:
        raise WorkFileError(f"the exercise id {exercise_id!r} gives no file name")
    path = folder / f"{name}.py"
    assert path.parent == folder, "the name holds no separator"
    return path


def kept_copy(path: Path) -> Path:
    return path.with_name(path.name + ".kept")


def write_work_file(path: Path, text: str) -> Path | None:
    """Write `text` to `path` (its folder made if missing). A file there already holding other text is first
    kept as `<name>.kept` (replacing the copy kept before), which is returned; else None. A link in its place
    is refused, not followed: the file must be the learner's own."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        kept = None
        if path.is_symlink() or (path.exists() and not path.is_file()):
            raise WorkFileError(f"{path} is not a plain file: move it away and try again")
        if path.exists() and _read(path) != text:
            kept = kept_copy(path)
            os.replace(path, kept)
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600)
        with os.fdopen(descriptor, "w", encoding="utf-8", newline="") as out:
            out.write(text)
        return kept
    except OSError as exc:
        raise WorkFileError(f"cannot write {path}: {exc.strerror or exc}") from None


def read_work_file(path: Path) -> str:
    """The code in `path`, as text; WorkFileError says why not (gone, too large, not UTF-8)."""
    try:
        return _read(path)
    except FileNotFoundError:
        raise WorkFileError(f"{path} is gone (deleted or renamed)") from None
    except OSError as exc:
        raise WorkFileError(f"cannot read {path}: {exc.strerror or exc}") from None


def _read(path: Path) -> str:
    with open(path, "rb") as source:
        data = source.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise WorkFileError(f"{path} is over {MAX_BYTES // 1024} KB: a build's code is a function or two")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise WorkFileError(f"{path} is not UTF-8 text (byte {exc.start + 1})") from None
