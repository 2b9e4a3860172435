"""Build exercises as files a learner edits in their own editor: `<data folder>/work/<exercise id>.py`.

The app's editor key and `ringbook work` write the code there and read it back; the plain lines' `edit` reads
its own file back the same way, so every face takes at most MAX_BYTES from an editor. An exercise id comes from
a book, and a book may be hostile: the file's name keeps only letters, digits, `-`, `_` and inner dots, so
no id (`../../x`, `/etc/passwd`, `.bashrc`) can name a file outside the work folder. The file is the
learner's, and its text is never lost: one holding code the store does not have was edited outside a run and is
taken as the code (open_work_file), and any text displaced is kept beside it first, numbered. Both
the folder and the file are opened without following a link, the folder only when the learner owns it, and the
file is read only once it is seen to be a plain file (a named pipe in its place would block the read for ever).
"""

from __future__ import annotations

import errno
import os
import pwd
import re
import secrets
import stat
from collections.abc import Collection
from dataclasses import dataclass
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


def kept_copy(path: Path, number: int = 1) -> Path:
    """The `number`th copy kept beside `path`: `ID.py.kept`, then `ID.py.kept.2`, `ID.py.kept.3`, ..."""
    return path.with_name(path.name + ".kept" + (f".{number}" if number > 1 else ""))


@dataclass(frozen=True)
class Opened:
    """The work file made ready: the code it holds, whether that is code written outside a run (`taken`: the
    learner's newest), and where code it displaced was kept (None: nothing needed keeping)."""

    code: str
    taken: bool
    kept: Path | None


def open_work_file(path: Path, code: str, known: Collection[str]) -> Opened:
    """The work file for `code`, the code ringbook has (the draft, else the starter). A file holding code the
    store does not have (not `code`, not in `known`: the starter and every run's code) was edited outside a
    run, so it is the learner's newest code: it stays, and `code`, unless known, is kept beside it. Any other
    file is replaced by `code` (write_work_file)."""
    on_disk = _text_if_any(path)
    if on_disk is not None and on_disk != code and on_disk not in known:
        return Opened(on_disk, taken=True, kept=None if code in known else keep_text(path, code))
    return Opened(code, taken=False, kept=write_work_file(path, code, known=known))


def write_work_file(path: Path, text: str, known: Collection[str] = ()) -> Path | None:
    """Write `text` to `path` (its folder made if missing), whole or not at all (a temporary file renamed into
    place). A file there already holding other text, not in `known` (code the store has), is first kept as
    the next numbered copy (kept_copy), whose path is returned; else None. A link in its place, or in its
    folder's, is refused, not followed, and so is a folder another account owns: the file must be the
    learner's own."""
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
                before = _read_at(folder, path)
                if before != text and before not in known:
                    kept = _keep_at(folder, path, before)
            except FileNotFoundError:
                pass
            temporary = f".{path.name}.{secrets.token_hex(4)}.tmp"
            _write_new(folder, temporary, text)
            try:
                os.replace(temporary, path.name, src_dir_fd=folder, dst_dir_fd=folder)
            except OSError:
                os.unlink(temporary, dir_fd=folder)
                raise
            os.fsync(folder)
            return kept
        finally:
            os.close(folder)
    except OSError as exc:
        raise WorkFileError(f"cannot write {path}: {exc.strerror or exc}") from None


def keep_text(path: Path, text: str) -> Path:
    """`text` kept beside `path` as its next numbered copy (or the copy already holding it); that copy's path."""
    try:
        folder = _open_folder(path.parent)
        try:
            return _keep_at(folder, path, text)
        finally:
            os.close(folder)
    except OSError as exc:
        raise WorkFileError(f"cannot keep a copy beside {path}: {exc.strerror or exc}") from None


def _keep_at(folder: int, path: Path, text: str) -> Path:
    """Every displaced text is kept, none twice and none over another: a copy already holding `text` is
    returned as it is, else a new one is made, numbered after the last (so the highest is the newest)."""
    numbers = [number for name in os.listdir(folder) if (number := _copy_number(path.name, name))]
    for number in numbers:
        try:
            if _read_at(folder, kept_copy(path, number)) == text:
                return kept_copy(path, number)
        except (OSError, WorkFileError):
            continue   # not a copy ringbook can read (a link, a pipe, edited to a large file): not this text
    number = max(numbers, default=0) + 1
    while True:
        try:
            _write_new(folder, kept_copy(path, number).name, text)
            return kept_copy(path, number)
        except FileExistsError:   # made since the listing (another ringbook): never written over
            number += 1


def _copy_number(name: str, candidate: str) -> int:
    """The number of `candidate` as a kept copy of the file `name` (kept_copy), 0 when it is not one."""
    suffix = candidate.removeprefix(name + ".kept")
    if candidate == suffix:
        return 0
    if not suffix:
        return 1
    digits = suffix.removeprefix(".")
    return int(digits) if digits.isascii() and digits.isdigit() and suffix.startswith(".") else 0


def _write_new(folder: int, name: str, text: str) -> None:
    """A new file `name` in `folder` holding `text`, on the disk before this returns; FileExistsError when
    `name` is taken (nothing is written over, no link followed)."""
    descriptor = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600, dir_fd=folder)
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8", newline="") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
    except BaseException:
        os.unlink(name, dir_fd=folder)
        raise


def _text_if_any(path: Path) -> str | None:
    """The code in `path`, None when it (or its folder) is not there yet; WorkFileError as read_work_file."""
    try:
        folder = _open_folder(path.parent)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise WorkFileError(f"cannot read {path}: {exc.strerror or exc}") from None
    try:
        return _read_at(folder, path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise WorkFileError(f"cannot read {path}: {exc.strerror or exc}") from None
    finally:
        os.close(folder)


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
