"""A parsed copy of a book that passed its checks, so the app starts without YAML or re-checking.

The copy is lines of JSON keyed by the book's folder and a hash of the bytes of every file the book was read
from: any edit (even one that keeps a file's size and modification time, as `touch -r` does), a damaged copy or
a folder that cannot be used simply means the book is read from its files again. The cache can make loading
faster, never different.

Hashing every file took a tenth of a learner's start before the first frame, so a file is hashed only when its
status differs from the one kept with its hash: size, modification and change times, inode and device, as git's
index keeps them. The change time is set by the kernel at every write, rename or `touch -r`, and no one can set
it back, so an edit always changes it; except within the same tick of the kernel's clock as the last change, the
"racy" case git's index has too. So a status is kept only for a file last changed well before its hash was taken
(SETTLED_NS): any later change comes at a later tick. A book just written is hashed at each start until it settles
and its copy is next written.

Each reader keeps their own copies, in their own cache folder, never beside the book: a book may belong to
anyone, and a folder another account writes can hold links that make a write land in any file the reader may
write (issue 42). A copy is read and written only inside a folder opened without following a link and found to
be this user's and writable by no one else, and written as a new private file (O_CREAT | O_EXCL | O_NOFOLLOW)
that replaces the old one whole.

A book read from its copy builds a chapter's exercises when they are first asked for (grader.book.model.Chapter),
from their fields kept on a line of their own per chapter, decoded then: home's first frame needs only each
exercise's id and title, kept in the first line with the rest of the book, so a learner's start neither decodes
nor builds the exercises, nor loads the kinds.
"""

from __future__ import annotations

import contextlib
import json
import os
import stat
import time
import zlib
from pathlib import Path
from typing import TYPE_CHECKING, Any

from grader.book.model import Book, Chapter, Heading, LabRef
from grader.book.quiz import quiz_from_raw
from grader.files import MAX_FILE_BYTES

if TYPE_CHECKING:
    from grader.exercise import Exercise

FORMAT = 10  # 2: strings made printable when read; 3: templated exercises carry their canonical texts;
# 4: their titles too; 5: and a choice's options; 6: in the order each kind declares them (a table's label and
# feedback row by row, grader.exercise.NumericAnswer.TEXT_FIELDS), not all labels, then all feedback;
# 7: keyed on each file's SHA-256, not its modification time and size; 8: format characters (Unicode Cf)
# made printable too (grader.safe_text), which a copy checked before would hold raw; 9: lines of JSON, each
# chapter's exercises on one of their own after the book's, which holds their headings and the kinds they name;
# 10: each file's status beside its hash, and the copy named by a CRC-32 of the folder (hashlib is not loaded)

_FOLDER = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC



def _where(root: Path) -> str:
    """The book folder's real path, naming its copy; a folder whose links loop names itself (os.path.realpath
    does not raise on a loop, as Path.resolve does), and is refused when its files are read."""
    return os.path.realpath(root)

def default_folder() -> Path:
    """RINGBOOK_CACHE_DIR, else the per-user cache folder (~/.cache/ringbook, or $XDG_CACHE_HOME/ringbook)."""
    configured = os.environ.get("RINGBOOK_CACHE_DIR")
    if configured:
        return Path(configured).expanduser()
    import platformdirs

    return Path(platformdirs.user_cache_dir("ringbook", appauthor=False))


def _own(descriptor: int) -> bool:
    """Whether the open file or folder is this user's and writable by no one else."""
    status = os.fstat(descriptor)
    return status.st_uid == os.geteuid() and not status.st_mode & 0o022


def _open_own_folder(folder: Path, *, create: bool) -> int | None:
    """A descriptor of `folder` when it is this user's own (created 0700 if asked); None when it is missing, a
    link, or another's. Everything after goes through the descriptor, so the path cannot be swapped beneath it."""
    try:
        if create:
            folder.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            with contextlib.suppress(FileExistsError):
                folder.mkdir(mode=0o700)   # never through a link: mkdir refuses any name that exists
        descriptor = os.open(folder, _FOLDER)
    except OSError:
        return None
    if _own(descriptor):
        return descriptor
    os.close(descriptor)
    return None


SETTLED_NS = 2_000_000_000   # a file last changed this long before its hash was taken keeps its status beside it


def _name_for(root: Path) -> str:
    """The copy's name: two folders whose names share a CRC only replace each other's copy (read checks the root)."""
    return f"book-cache-{zlib.crc32(_where(root).encode()):08x}.json"


def _status(path: Path) -> list[int] | None:
    """What an edit of the file at `path` changes (git's index keeps the same), or None for no regular file."""
    try:
        status = os.stat(path)
    except OSError:
        return None
    if not stat.S_ISREG(status.st_mode):
        return None
    return [status.st_size, status.st_mtime_ns, status.st_ctime_ns, status.st_ino, status.st_dev]


def _settled(status: list[int] | None) -> list[int] | None:
    """`status` when the file last changed SETTLED_NS or more ago, which is kept beside its hash; else None."""
    return status if status is not None and status[2] < time.time_ns() - SETTLED_NS else None


def _digest(path: Path) -> str | None:
    """SHA-256 of a book file's bytes, or None for one the book could not be read from (a pipe is not waited on)."""
    import hashlib  # loaded only when a file has to be hashed: not at a learner's start from a settled copy

    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return None
    with os.fdopen(descriptor, "rb") as file:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            return None
        return hashlib.sha256(file.read(MAX_FILE_BYTES + 1)).hexdigest()


def _sources(root: Path, raw: dict[str, Any]) -> list[Path]:
    paths = [root / "book.yaml"]
    for chapter in raw["book"]["chapters"]:
        paths += [root / chapter["dir"] / "exercises.yaml", root / chapter["dir"] / "chapter.md"]
    paths += [root / entry["file"] for key in ("quizzes", "labs") for entry in raw["book"].get(key, ())]
    return paths


def _kinds_there(kinds: Any) -> bool:
    """Whether each kind a copy's exercises name still has its module (grader/kinds/<kind>.py), none imported: a
    copy of a book whose kind has gone is read from the files again, which say what is wrong, as the copy's
    exercises are built only once the app is showing."""
    folder = Path(__file__).resolve().parent.parent / "kinds"
    return isinstance(kinds, list) and all(isinstance(k, str) and k.isidentifier() and (folder / f"{k}.py").is_file()
                                           for k in kinds)


def book(root: Path, folder: Path) -> Book | None:
    """The book as its copy in `folder` keeps it, each chapter's exercises built when first asked for; None
    when there is no usable copy (read)."""
    raw = read(root, folder)
    if raw is None:
        return None
    try:
        data = raw["book"]
        chapters = tuple(_chapter(root, entry, raw["chapters"][entry["dir"]], data) for entry in data["chapters"])
        quizzes = tuple(quiz_from_raw(raw["quizzes"][entry["file"]]["data"], entry["id"], entry["title"],
                                      root / entry["file"], raw["quizzes"][entry["file"]]["lines"])
                        for entry in data.get("quizzes", ()))
        labs = tuple(LabRef(entry["id"], entry["title"], root / entry["file"]) for entry in data.get("labs", ()))
        return Book(data["title"], str(data.get("subtitle", "")), root, chapters, quizzes, labs)
    except (KeyError, TypeError, ValueError):
        return None


def _chapter(root: Path, entry: dict[str, Any], stored: dict[str, Any], data: dict[str, Any]) -> Chapter:
    chapter_id, path = entry["id"], root / entry["dir"]
    headings = tuple(Heading(str(exercise_id), str(title), chapter_id) for exercise_id, title in stored["headings"])
    fields, lines = stored["exercises"], stored["lines"]
    if not isinstance(fields, bytes):
        raise TypeError("a chapter's exercises are kept on a line of their own")

    def build() -> tuple[Exercise, ...]:
        from grader.book.build import build_exercise, hardware_of
        from grader.exercise import Source

        hardware = hardware_of(data, root / "book.yaml", [])
        return tuple(build_exercise(exercise, chapter_id, Source(path / "exercises.yaml", line), hardware)
                     for exercise, line in zip(json.loads(fields), lines, strict=True))

    return Chapter(chapter_id, entry["title"], path, headings, build, root, str(entry.get("part", "")))


def read(root: Path, folder: Path) -> dict[str, Any] | None:
    """The cached raw book, or None when there is none, the folder or copy is not this user's own, a kind it
    names has no module now, or any source file's bytes have changed. Each chapter's exercises are left as their
    line of JSON, undecoded."""
    payload = read_own(folder, _name_for(root))
    if payload is None:
        return None
    try:
        head, *lines = payload.split(b"\n")
        cached = json.loads(head)
        if (cached.get("format") != FORMAT or cached.get("root") != _where(root)
                or not _kinds_there(cached.get("kinds"))):
            return None
        for name, (digest, status) in cached["digests"].items():
            if status is not None and _status(root / name) == status:
                continue
            if _digest(root / name) != digest:
                return None
        raw = cached["raw"]
        entries = raw["book"]["chapters"]
        if len(lines) != len(entries):
            return None
        for entry, line in zip(entries, lines, strict=True):
            raw["chapters"][entry["dir"]]["exercises"] = line
        return raw
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


def read_own(folder: Path, name: str) -> bytes | None:
    """The bytes of the file `name` in `folder`, or None when either is missing or not this user's own."""
    descriptor = _open_own_folder(folder, create=False)
    if descriptor is None:
        return None
    try:
        file = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, dir_fd=descriptor)
        with os.fdopen(file, "rb") as opened:
            if not (_own(file) and stat.S_ISREG(os.fstat(file).st_mode)):
                return None
            return opened.read()
    except OSError:
        return None
    finally:
        os.close(descriptor)


def write(root: Path, folder: Path, raw: dict[str, Any]) -> bool:
    """Save `raw` for next time in `folder`, made if missing; whether it was saved (not in a folder that is
    a link, another's, or cannot be written). The copy is lines of JSON: the book without its exercises, then
    each chapter's exercises on a line of their own, in the book's order (JSON holds no raw line break)."""
    digests = {str(p.relative_to(root)): (_digest(p), _settled(_status(p))) for p in _sources(root, raw)}
    chapters = {folder: {key: value for key, value in chapter.items() if key != "exercises"}
                for folder, chapter in raw["chapters"].items()}
    kinds = sorted({exercise["kind"] for chapter in raw["chapters"].values() for exercise in chapter["exercises"]})
    head = json.dumps({"format": FORMAT, "root": _where(root), "kinds": kinds, "digests": digests,
                       "raw": {**raw, "chapters": chapters}}, ensure_ascii=False)
    lines = [json.dumps(raw["chapters"][entry["dir"]]["exercises"], ensure_ascii=False)
             for entry in raw["book"]["chapters"]]
    return write_own(folder, _name_for(root), "\n".join([head, *lines]).encode())


def write_own(folder: Path, name: str, payload: bytes) -> bool:
    """Replace the file `name` in `folder` (made if missing) with `payload`, whole, as a new private file;
    whether it was written (not in a folder that is a link, another's, or cannot be written)."""
    import secrets  # only a write needs it: a start from the copy does not load it

    descriptor = _open_own_folder(folder, create=True)
    if descriptor is None:
        return False
    temporary = f"{name}.{os.getpid()}.{secrets.token_hex(4)}.tmp"
    try:
        file = os.open(temporary, os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_WRONLY | os.O_CLOEXEC, 0o600,
                       dir_fd=descriptor)
        with os.fdopen(file, "wb") as opened:
            os.fchmod(file, 0o600)   # private whatever the umask: it holds nothing others need
            opened.write(payload)
        os.replace(temporary, name, src_dir_fd=descriptor, dst_dir_fd=descriptor)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(temporary, dir_fd=descriptor)
        return False
    finally:
        os.close(descriptor)
    return True
