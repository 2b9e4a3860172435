"""The progress file on disk: where it lives, how it is opened (writable, read-only, or a backup read into
memory), and how an unreadable one is moved aside, never deleted."""

from __future__ import annotations

import errno
import fcntl
import os
import shutil
import sqlite3
import stat
from collections.abc import Callable
from pathlib import Path

from tui.progress import clock
from tui.progress.store_errors import DamagedStore, StoreError, StoreTooNew
from tui.progress.store_schema import (
    SCHEMA_VERSION,
    WATERMARK_TRIGGERS,
    check_schema,
    migrate,
    schema_objects,
    too_new_message,
    user_version,
)

FILE_NAME = "progress.sqlite3"
SQLITE_HEADER = b"SQLite format 3\x00"   # how every SQLite database file begins
# How long a write waits for another session's (SQLite's busy timeout, its only wait: the two sessions of
# tests/progress/test_store_durability.py write at once through it alone).
BUSY_TIMEOUT_SECONDS = 10
# SQLite's primary result codes for a file this process cannot change: the folder or file is read-only,
# the disk is full, the file cannot be opened or created, or the disk refused the write.
READ_ONLY_CODES = frozenset({sqlite3.SQLITE_READONLY, sqlite3.SQLITE_FULL, sqlite3.SQLITE_CANTOPEN,
                             sqlite3.SQLITE_IOERR})


def default_data_dir() -> Path:
    """--data-dir wins, then RINGBOOK_DATA_DIR, then the per-user data folder."""
    configured = os.environ.get("RINGBOOK_DATA_DIR")
    if configured:
        return Path(configured).expanduser()
    import platformdirs

    return Path(platformdirs.user_data_dir("ringbook", appauthor=False))


def connect(target: str, uri: bool = False) -> sqlite3.Connection:
    """A connection in autocommit mode (the store begins its own transactions), usable from any thread."""
    return sqlite3.connect(target, uri=uri, timeout=BUSY_TIMEOUT_SECONDS, isolation_level=None,
                           check_same_thread=False)


def connect_read_only(path: Path) -> sqlite3.Connection:
    """Read a store we may not write. A WAL store needs its shared-memory file, which read-only media
    cannot create; there nobody else can be writing, so the file may be read as immutable."""
    for query in ("mode=ro", "mode=ro&immutable=1"):
        connection = connect(f"file:{path}?{query}", uri=True)
        try:
            user_version(connection)
            return connection
        except sqlite3.DatabaseError:
            connection.close()
    raise sqlite3.DatabaseError(f"cannot open {path} for reading")


def sqlite_code(exc: sqlite3.Error) -> int | None:
    """SQLite's primary result code for an error SQLite reported (its extended code with the detail bits
    dropped); None for one the sqlite3 module or this package raised itself, which carries no code."""
    code: int | None = getattr(exc, "sqlite_errorcode", None)
    return None if code is None else code & 0xFF


def is_busy_error(exc: sqlite3.Error) -> bool:
    """Whether SQLite gave up waiting for another connection's lock: the file is in use, not damaged."""
    return sqlite_code(exc) in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)


def is_read_only_error(exc: sqlite3.Error) -> bool:
    """Whether SQLite refused because the file cannot be changed here, rather than because it is damaged."""
    return sqlite_code(exc) in READ_ONLY_CODES


def why_unreadable(path: Path) -> str:
    """Why the file at `path` cannot be read as a store, as a clause (what the system says on opening it,
    with whose file it is when permission is denied, or that it is no SQLite file); "" when it can be read."""
    try:
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        if exc.errno not in (errno.EACCES, errno.EPERM):
            return (exc.strerror or str(exc)).lower()
        try:
            import pwd

            owner = pwd.getpwuid(path.stat().st_uid).pw_name
        except (ImportError, KeyError, OSError):
            return "permission denied"
        return f"permission denied (it belongs to the account {owner})"
    try:
        header = os.read(descriptor, len(SQLITE_HEADER))
    except OSError as exc:
        return (exc.strerror or str(exc)).lower()
    finally:
        os.close(descriptor)
    return "" if not header or header == SQLITE_HEADER else "it is not a SQLite database (damaged?)"


def log_deleted(path: Path) -> bool:
    """Whether the store's write-ahead log was deleted under a session that still has it open: its index
    (-shm) is there and the log (-wal) is not. Look before opening the store, which makes an empty log:
    SQLite removes both on the last close, and a crash leaves both."""
    return Path(f"{path}-shm").exists() and not Path(f"{path}-wal").exists()


def make_folder(folder: Path) -> None:
    """Create `folder` and its missing parents, each synced into its parent: a store synced into a folder a
    power cut then takes away is lost all the same."""
    missing = [level for level in (folder, *folder.parents) if not level.exists()]
    folder.mkdir(parents=True, exist_ok=True)
    for level in reversed(missing):
        sync(level.parent)


def sync(path: Path) -> None:
    """Put what is at `path` on the disk: a file's bytes, or a folder's entries (a file made or renamed in it)."""
    descriptor = os.open(path, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def build_store(path: Path) -> None:
    """Build a new store whole under a temporary name beside `path`, sync it, rename it to `path` and sync
    the folder, before anyone can open it: a power cut finds the whole file or none. (Built in place with
    nothing synced, a first session's file was 0 bytes after one while its -wal held the answers, and SQLite
    takes a 0-byte file for a new one and deletes its -wal.) It is built without waiting for the disk at each
    step, then synced once: a class's first lesson creates thirty files at once, and each wait queues behind
    the others'. A store another start put at `path` meanwhile is kept, never replaced: it may hold answers."""
    temp = path.with_name(f".{path.name}.new-{os.getpid()}-{os.urandom(4).hex()}")
    try:
        connection = connect(str(temp))
        try:
            connection.execute("PRAGMA synchronous=OFF")
            connection.execute("PRAGMA journal_mode=WAL")
            migrate(connection, temp)
            for trigger in WATERMARK_TRIGGERS.values():
                connection.execute(trigger)
        finally:
            connection.close()   # the log is copied into the file and removed
        sync(temp)
        folder = os.open(path.parent, os.O_RDONLY | os.O_DIRECTORY)
        try:
            fcntl.flock(folder, fcntl.LOCK_EX)   # two starts at once: the first one's store is the one used
            if not path.exists() or path.stat().st_size == 0:
                os.replace(temp, path)
                os.fsync(folder)
        finally:
            os.close(folder)
    finally:
        for leftover in (temp, Path(f"{temp}-wal"), Path(f"{temp}-shm")):
            leftover.unlink(missing_ok=True)


def unused_name(folder: Path, name: Callable[[str], str]) -> Path:
    """A path in `folder` that nothing holds yet, named by `name` from the time (and a count, where a file of
    that second is there already): where a file is kept aside, never over another one."""
    stamp = clock.now().strftime("%Y%m%d-%H%M%S")
    kept, counter = folder / name(stamp), 1
    while kept.exists():
        kept, counter = folder / name(f"{stamp}-{counter}"), counter + 1
    return kept


def keep_orphan_log(path: Path) -> Path | None:
    """A -wal holding data beside a store file that is missing or empty is the only copy of a session (a
    power cut in the first session of an older ringbook, which never synced the new file): SQLite would
    delete it on opening. It is renamed aside instead, and where is returned for the caller to say."""
    wal = Path(f"{path}-wal")
    try:
        if path.exists() and path.stat().st_size or not wal.stat().st_size:
            return None
    except FileNotFoundError:
        return None
    kept = unused_name(path.parent, lambda stamp: f"{wal.name}.kept-{stamp}")
    wal.rename(kept)
    Path(f"{path}-shm").unlink(missing_ok=True)   # an index of the log, rebuilt from a log; none is left
    return kept


def move_aside(path: Path) -> Path:
    """Rename an unreadable store (and its WAL files) out of the way; never delete it."""
    kept = unused_name(path.parent, lambda stamp: f"progress.corrupt-{stamp}.sqlite3")
    path.rename(kept)
    for suffix in ("-wal", "-shm"):
        companion = Path(str(path) + suffix)
        if companion.exists():
            companion.rename(Path(str(kept) + suffix))
    return kept


def write_backup(connection: sqlite3.Connection, target: Path) -> None:
    """Copy the store on `connection` to `target` with SQLite's online backup, which commits the copy synced
    (its synchronous is FULL), so a reset's backup is on the disk before the reset empties the store. The
    copy leaves WAL mode (which it would take from the store), so reading it never leaves -wal and -shm files
    beside it. Raises StoreError, leaving nothing at `target`, when the folder has too little free space
    (checked first) or the copy fails."""
    check_room(connection, target.parent)
    try:
        copy = sqlite3.connect(target)
        try:
            connection.backup(copy)
            copy.execute("PRAGMA journal_mode=DELETE")
        finally:
            copy.close()
    except sqlite3.Error as exc:
        for made in (target, Path(f"{target}-journal")):
            made.unlink(missing_ok=True)
        raise StoreError(f"a backup of your progress could not be written in {target.parent} ({exc})") from None


def check_room(connection: sqlite3.Connection, folder: Path) -> None:
    """StoreError unless `folder` has the free space a backup of the store on `connection` takes."""
    pages, page_size = (connection.execute(f"PRAGMA {what}").fetchone()[0] for what in ("page_count", "page_size"))
    needed = pages * page_size
    free = shutil.disk_usage(folder).free
    if free < needed:
        raise StoreError(f"{folder} has too little free space for a backup of your progress "
                         f"({_kilobytes(needed)} needed, {_kilobytes(free)} free)")


def _kilobytes(size: int) -> str:
    return f"{(size + 1023) // 1024:,} KB"


def store_from_file(source: Path) -> sqlite3.Connection:
    """A store file copied into memory and brought to this schema, or StoreError saying why it is not one.
    The file is only read, and only if it is a regular file (not a link, a FIFO, a device); anything in it
    that ringbook does not make itself (a view, a trigger of its own) refuses the whole file."""
    try:
        info = os.lstat(source)
    except OSError as exc:
        raise StoreError(f"it cannot be read ({exc.strerror})") from None
    if not stat.S_ISREG(info.st_mode):
        raise StoreError("it is not a regular file; give the backup file itself")
    memory = connect(":memory:")
    try:
        _copy_into(source, memory)
        _check_as_on_opening(source, memory)
    except StoreError:
        memory.close()
        raise
    except sqlite3.DatabaseError as exc:
        memory.close()
        raise StoreError(f"it is not a readable ringbook progress file ({exc})") from None
    return memory


def _copy_into(source: Path, memory: sqlite3.Connection) -> None:
    companions = [Path(f"{source}{suffix}") for suffix in ("-wal", "-shm")]
    left_by_reading = [path for path in companions if not path.exists()]
    reader = connect_read_only(source)
    try:
        reader.backup(memory)
    finally:
        reader.close()
        _remove_if_empty_log(left_by_reading)


def _check_as_on_opening(source: Path, memory: sqlite3.Connection) -> None:
    """The copy is sound, brought to this schema, and holds only the tables, indexes and triggers that a
    fresh store has; raises StoreTooNew or DamagedStore saying what is wrong."""
    version = user_version(memory)
    if version > SCHEMA_VERSION:
        raise StoreTooNew(too_new_message(source, version))
    damage = [row[0] for row in memory.execute("PRAGMA quick_check") if row[0] != "ok"]
    if damage or version < 1:
        raise DamagedStore(f"integrity check: {damage[0]}" if damage else "it is not a ringbook progress file")
    migrate(memory, None)
    check_schema(memory)
    fresh = connect(":memory:")
    try:
        migrate(fresh, None)
        made_here = schema_objects(fresh) | {("trigger", name, sql) for name, sql in WATERMARK_TRIGGERS.items()}
    finally:
        fresh.close()
    foreign = sorted(schema_objects(memory) - made_here)
    if foreign:
        kind, name, _ = foreign[0]
        if any((kind, name) == (ours[0], ours[1]) for ours in made_here):
            raise DamagedStore(f"its {kind} {name!r} is not the one ringbook makes")
        raise DamagedStore(f"it holds {name!r}, which ringbook does not make")


def _remove_if_empty_log(companions: list[Path]) -> None:
    """Remove the -wal and -shm files that reading a WAL-mode store (a backup kept by an older ringbook)
    created: a read-only connection may not delete them on closing. Only files that were not there before
    the read, and a -wal that holds nothing, so no one's unsaved changes go with them."""
    wal = [path for path in companions if path.name.endswith("-wal")]
    if any(path.exists() and path.stat().st_size for path in wal):
        return
    for path in companions:
        path.unlink(missing_ok=True)
