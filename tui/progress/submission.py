"""What an instructor's inbox receives from a learner, whichever way it comes (`progress submit`, progress shared
as the learner works, an export sent over ssh): the export with whose it is, without unfinished work, in a
file only its student and the inbox's group can read.

One module, so the identity rules and the file mode are the same for every way in: the class report goes by
the file's owner, and compares it with the user the export names.
"""

from __future__ import annotations

import errno
import os
import re
import secrets
from pathlib import Path
from typing import Any

from grader.safe_text import printable
from tui.progress.store import ProgressStore
from tui.progress.store_schema import IN_PROGRESS_SECTIONS

# A submission is read by its student and by the inbox's group, which only the instructor is in (the
# inbox is setgid, so files take its group); nobody else, whatever the student's umask.
SUBMISSION_MODE = 0o640
_NEW_FILE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)


def student_identity(name: str | None) -> dict[str, str]:
    """Whose export this is, so a class report can tell students apart: the login and machine, and the
    name the learner gives (their login by default)."""
    import socket

    user = login()
    return {"name": (name or "").strip() or user, "user": user, "host": socket.gethostname()}


def login() -> str:
    """The account this process runs as, by its user id: the owner the file system gives a submission,
    which the class report compares with the user the submission names."""
    import getpass

    try:
        import pwd

        return pwd.getpwuid(os.getuid()).pw_name
    except (ImportError, KeyError):  # no password database (Windows), or a uid without an account
        pass
    try:
        return getpass.getuser()
    except (OSError, KeyError):  # no login name in the environment either
        return "unknown"


def export_with_identity(store: ProgressStore, name: str | None) -> dict[str, Any]:
    return {**store.export_data(), "student": student_identity(name)}


def for_the_inbox(data: dict[str, Any]) -> dict[str, Any]:
    """An export as an inbox keeps it: an instructor's inbox holds no unfinished code (drafts, runs under way)."""
    return {part: records for part, records in data.items() if part not in IN_PROGRESS_SECTIONS}


NAME_LIMIT = 200   # characters of a name, login or host an export may give: far more than any real one


def identity_problem(data: dict[str, Any]) -> str:
    """Why the `student` an export names cannot be taken into an inbox (a clause), or "": an export made
    elsewhere and sent in (`progress submit DIR -`) names its student itself."""
    student = data.get("student")
    if not isinstance(student, dict):
        return "names no student (`ringbook progress export` writes one)"
    for field in ("name", "user", "host"):
        value = student.get(field)
        if not isinstance(value, str) or not value.strip():
            return f"gives no student {field}"
        if len(value) > NAME_LIMIT or printable(value, one_line=True) != value:
            return (f"gives a student {field} with control or invisible characters, or over {NAME_LIMIT} "
                    "characters, which ringbook never writes")
    return ""


def file_safe(name: str) -> str:
    """A student name as a file-name part: letters, digits, dot, dash and underscore only."""
    return re.sub(r"[^A-Za-z0-9._-]+", "_", name).strip("._") or "student"


def write_new(folder: Path, stem: str, text: str, tail: str = ".json") -> Path:
    """`text` in a new file `<stem>-<80 random bits><tail>` of `folder` (O_EXCL: never one that exists, nor
    through a link), of mode SUBMISSION_MODE whatever the umask, and synced. In an inbox students cannot list,
    a classmate would have to guess the bits to reach it. A write that fails half-way leaves nothing behind."""
    for _ in range(100):
        target = folder / f"{stem}-{secrets.token_hex(10)}{tail}"
        try:
            descriptor = os.open(target, _NEW_FILE, 0o600)
        except FileExistsError:
            continue
        try:
            os.fchmod(descriptor, SUBMISSION_MODE)   # exactly this, whatever the umask took away
            with os.fdopen(descriptor, "wb") as out:
                out.write(text.encode("utf-8"))
                out.flush()
                os.fsync(out.fileno())
        except BaseException:
            target.unlink(missing_ok=True)
            raise
        return target
    raise FileExistsError(errno.EEXIST, f"no free file name in {folder}")
