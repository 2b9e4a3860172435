"""Build exercises as files a learner edits in their own editor: `<data folder>/work/<exercise id>.py`.

The app's editor key and `ringbook work` write the code there and read it back; the plain lines' `edit` reads
its own file back the same way, so every face takes at most MAX_BYTES from an editor. An exercise id comes from
a book, and a book may be hostile: the file's name keeps only letters, digits, `-`, `_` and inner dots, so
no id (`../../x`, `/etc/passwd`, `.bashrc`) can name a file outside the work folder. The file is the
learner's: one whose text differs from what is about to be written is kept beside it first, never lost. Both
the folder and the file are opened without following a link, the folder only when the learner owns it, and the
file is read only once it is seen to be a plain file (a named pipe in its place would block the read for ever).
"""

from __future__ import annotations

import errno
import os
import pwd
import re
import stat
from pathlib import Path

from tui.progress.row_rules import MAX_DRAFT
from tui.progress.store_file import default_data_dir

WORK_FOLDER = "work"
MAX_BYTES = MAX_DRAFT   # far beyond any build's code (the grader takes 2,000 characters), and what is read fits a draft
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
    kept as `<name>.kept` (replacing the copy kept before), which is returned; else None. A link in its place,
    or in its folder's, is refused, not followed, and so is a folder another account owns: the file must be
    the learner's own."""
    try:
        path.parent.parent.mkdir(parents=True, exist_ok=True)
        try:
            os.mkdir(path.parent, 0o700)
        except FileExistsError:
            pass
        folder = _open_folder(path.parent)
        try:
            kept = None
            try:
                if _read_at(folder, path) != text:
                    kept = kept_copy(path)
                    os.replace(path.name, kept.name, src_dir_fd=folder, dst_dir_fd=folder)
            except FileNotFoundError:
                pass
            descriptor = os.open(path.name, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600,
                                 dir_fd=folder)
            with os.fdopen(descriptor, "w", encoding="utf-8", newline="") as out:
                out.write(text)
            return kept
        finally:
            os.close(folder)
    except OSError as exc:
        raise WorkFileError(f"cannot write {path}: {exc.strerror or exc}") from None


def read_work_file(path: Path) -> str:
    """The code in `path`, as text; WorkFileError says why not (gone, not a plain file, too large, not UTF-8)."""
    try:
        folder = _open_folder(path.parent)
        try:
            return _read_at(folder, path)
        finally:
            os.close(folder)
    except FileNotFoundError:
        raise WorkFileError(f"{path} is gone (deleted or renamed)") from None
    except OSError as exc:
        raise WorkFileError(f"cannot read {path}: {exc.strerror or exc}") from None


def _open_folder(folder: Path) -> int:
    """The work folder, opened as itself (a descriptor the file is then opened from), so that no link
    swapped in for it is followed; refused when it is a link or another account's."""
    try:
        descriptor = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.ENOTDIR) and folder.is_symlink():
            raise WorkFileError(f"{folder} is a link: ringbook keeps your code only in a folder of its own; move the "
                                "link away and try again") from None
        raise
    owner = os.fstat(descriptor).st_uid
    if owner != os.geteuid():
        os.close(descriptor)
        raise WorkFileError(f"{folder} belongs to another account ({_account(owner)}): ringbook keeps your code "
                            "only in a folder of yours; move it away and try again")
    return descriptor


def _account(uid: int) -> str:
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return f"uid {uid}"


def _read_at(folder: int, path: Path) -> str:
    """The text of `path`, opened in `folder` without following a link or waiting on a pipe, and read only
    when it is a plain file."""
    try:
        descriptor = os.open(path.name, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW, dir_fd=folder)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise WorkFileError(f"{path} is not a plain file (a link)") from None
        raise
    with open(descriptor, "rb") as source:
        mode = os.fstat(descriptor).st_mode
        if not stat.S_ISREG(mode):
            raise WorkFileError(f"{path} is not a plain file ({_kind(mode)})")
        data = source.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise WorkFileError(f"{path} is over {MAX_BYTES:,} bytes: a build's code is a function or two")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise WorkFileError(f"{path} is not UTF-8 text (byte {exc.start + 1})") from None


def _kind(mode: int) -> str:
    kinds = ((stat.S_ISFIFO, "a named pipe"), (stat.S_ISDIR, "a folder"), (stat.S_ISSOCK, "a socket"),
             (stat.S_ISCHR, "a device"), (stat.S_ISBLK, "a device"))
    return next((name for test, name in kinds if test(mode)), "not a file")
