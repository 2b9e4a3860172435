"""The progress store: every attempt a learner makes, kept in SQLite like Anki keeps its collection.

Attempts are append-only, and everything else (solved, streaks) is computed from them, so it can always
be recomputed. Each write is one transaction that has committed before the call returns, and SQLite's
write-ahead log makes it survive a killed process and lets two sessions of the same learner write at
once. A file that is not a readable database is moved aside, never deleted; a folder we cannot write
to leaves the app working read-only, with a message saying why.
"""

from __future__ import annotations

import csv
import io
import json
import os
import sqlite3
import time
from dataclasses import asdict, dataclass
from datetime import date, datetime, timezone
from pathlib import Path
from typing import Any, Iterable

from tui.progress.streak import Streak, streaks, study_day, today

SCHEMA_VERSION = 2
FILE_NAME = "progress.sqlite3"
EXPORT_FORMAT = "ringbook-progress"
BUSY_TIMEOUT_SECONDS = 10
SETTINGS = {"day_boundary_hour": 0}

MIGRATIONS = {
    1: """
        CREATE TABLE attempts (
            uid TEXT PRIMARY KEY,
            exercise_id TEXT NOT NULL,
            answer TEXT NOT NULL,
            status TEXT NOT NULL CHECK (status IN ('correct', 'incorrect')),
            message TEXT NOT NULL DEFAULT '',
            feedback TEXT NOT NULL DEFAULT '',
            hints_used INTEGER NOT NULL DEFAULT 0,
            revealed_first INTEGER NOT NULL DEFAULT 0,
            seconds_taken REAL,
            created_utc TEXT NOT NULL,
            utc_offset_minutes INTEGER NOT NULL,
            local_date TEXT NOT NULL
        );
        CREATE INDEX attempts_by_exercise ON attempts (exercise_id, created_utc);
        CREATE TABLE reveals (
            uid TEXT PRIMARY KEY,
            exercise_id TEXT NOT NULL,
            created_utc TEXT NOT NULL,
            utc_offset_minutes INTEGER NOT NULL
        );
        CREATE INDEX reveals_by_exercise ON reveals (exercise_id);
        CREATE TABLE drafts (exercise_id TEXT PRIMARY KEY, text TEXT NOT NULL, updated_utc TEXT NOT NULL);
        CREATE TABLE state (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    """,
    2: """
        CREATE TABLE ledger (
            uid TEXT PRIMARY KEY,
            part TEXT NOT NULL,
            name TEXT NOT NULL,
            payload TEXT NOT NULL,
            created_utc TEXT NOT NULL,
            utc_offset_minutes INTEGER NOT NULL,
            local_date TEXT NOT NULL
        );
        CREATE INDEX ledger_by_part ON ledger (part, created_utc);
    """,
}
ATTEMPT_FIELDS = ("uid", "exercise_id", "answer", "status", "message", "feedback", "hints_used", "revealed_first",
                  "seconds_taken", "created_utc", "utc_offset_minutes", "local_date")
REVEAL_FIELDS = ("uid", "exercise_id", "created_utc", "utc_offset_minutes")
ENTRY_FIELDS = ("uid", "part", "name", "payload", "created_utc", "utc_offset_minutes", "local_date")


class StoreError(Exception):
    """A problem with the progress store, in words for the learner."""


class StoreTooNew(StoreError):
    """The store was written by a newer ringbook; it is left untouched."""


class StoreReadOnly(StoreError):
    """A write that cannot happen: the folder is read-only or the disk is full."""


@dataclass(frozen=True)
class Attempt:
    uid: str
    exercise_id: str
    answer: str
    status: str
    message: str
    feedback: str
    hints_used: int
    revealed_first: bool
    seconds_taken: float | None
    created_utc: str
    utc_offset_minutes: int
    local_date: str


@dataclass(frozen=True)
class ExerciseState:
    """What the log says about one exercise."""

    attempts: int = 0
    solved: bool = False
    first_solved_utc: str | None = None
    solved_after_reveal: bool = False
    revealed: bool = False

    @property
    def mark(self) -> str:
        if self.solved:
            return "solved after reveal" if self.solved_after_reveal else "solved"
        return "tried" if self.attempts else "new"


@dataclass(frozen=True)
class Entry:
    """A finished piece of work outside the exercises: a quiz run or a lab design, its details in `payload`."""

    uid: str
    part: str
    name: str
    payload: dict[str, Any]
    created_utc: str
    utc_offset_minutes: int
    local_date: str

    def row(self) -> tuple:
        return (self.uid, self.part, self.name, json.dumps(self.payload, sort_keys=True), self.created_utc,
                self.utc_offset_minutes, self.local_date)

    @classmethod
    def from_row(cls, row: tuple) -> "Entry":
        uid, part, name, payload, created_utc, offset, local_date = row
        return cls(uid, part, name, json.loads(payload), created_utc, offset, local_date)

    def exported(self) -> dict[str, Any]:
        return asdict(self)


def default_data_dir() -> Path:
    """--data-dir wins, then RINGBOOK_DATA_DIR, then the per-user data folder."""
    configured = os.environ.get("RINGBOOK_DATA_DIR")
    if configured:
        return Path(configured).expanduser()
    import platformdirs

    return Path(platformdirs.user_data_dir("ringbook", appauthor=False))


def _new_uid() -> str:
    import uuid  # only when something is written: a start that only reads does not pay for it

    return uuid.uuid4().hex


def _now() -> datetime:
    return datetime.now().astimezone()


def _utc_text(moment: datetime) -> str:
    return moment.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def _offset_minutes(moment: datetime) -> int:
    offset = moment.utcoffset()
    return int(offset.total_seconds() // 60) if offset else 0


def parse_utc(text: str) -> datetime:
    """A stored `created_utc` back as a naive UTC datetime (the format _utc_text writes)."""
    return datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ")


class ProgressStore:
    """One learner's progress in one SQLite file."""

    def __init__(self, connection: sqlite3.Connection, path: Path | None, *, read_only: bool, notice: str = ""):
        self._db = connection
        self.path = path
        self.read_only = read_only
        self.notice = notice

    # --- opening ------------------------------------------------------------------------------

    @classmethod
    def open(cls, data_dir: Path | None = None) -> "ProgressStore":
        """Open (or create) the store in `data_dir`. Raises StoreTooNew; anything else becomes a notice."""
        folder = Path(data_dir) if data_dir is not None else default_data_dir()
        path = folder / FILE_NAME
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            return cls._without_disk(f"Cannot create the progress folder {folder} ({exc.strerror}); "
                                     "progress will not be saved this session.")
        try:
            return cls._open_writable(path)
        except StoreTooNew:
            raise
        except sqlite3.DatabaseError as exc:
            if _is_readonly_error(exc):
                return cls._open_read_only(path, exc)
            try:
                kept = _move_aside(path)
                store = cls._open_writable(path)
            except (OSError, sqlite3.DatabaseError) as failure:
                return cls._without_disk(f"Your progress file {path} could not be read ({exc}) and could not be "
                                         f"moved aside ({failure}); nothing will be saved this session.")
            store.notice = (f"Your progress file could not be read ({exc}), so it was kept as {kept} "
                            "and a fresh one was started.")
            return store
        except OSError as exc:
            return cls._open_read_only(path, exc)

    @classmethod
    def _open_writable(cls, path: Path) -> "ProgressStore":
        connection = _connect(f"file:{path}", uri=True)
        try:
            check = connection.execute("PRAGMA quick_check").fetchone()[0]
            if check != "ok":
                raise sqlite3.DatabaseError(f"integrity check: {check}")
            _migrate(connection, path)
            connection.execute("PRAGMA journal_mode=WAL")
            connection.execute("PRAGMA synchronous=FULL")
            connection.execute("BEGIN IMMEDIATE")  # can we write at all? find out now, not at the first answer
            connection.execute("ROLLBACK")
        except BaseException:
            connection.close()
            raise
        return cls(connection, path, read_only=False)

    @classmethod
    def _open_read_only(cls, path: Path, reason: Exception) -> "ProgressStore":
        why = f"{path.parent} is read-only or full ({reason})"
        if not path.exists():
            return cls._without_disk(f"Cannot write progress: {why}. Nothing will be saved this session.")
        try:
            connection = _connect_read_only(path)
            version = connection.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                connection.close()
                raise StoreTooNew(_too_new_message(path, version))
            if version < SCHEMA_VERSION:
                connection.close()
                return cls._without_disk(f"Cannot update your progress file: {why}. Nothing will be saved.")
        except sqlite3.DatabaseError:
            return cls._without_disk(f"Cannot read or write your progress file: {why}. Nothing will be saved.")
        return cls(connection, path, read_only=True,
                   notice=f"Progress is read-only: {why}. You can study, but new answers will not be saved.")

    @classmethod
    def _without_disk(cls, notice: str) -> "ProgressStore":
        store = cls.in_memory()
        store.read_only, store.notice = True, notice
        return store

    @classmethod
    def in_memory(cls) -> "ProgressStore":
        """A writable store that keeps nothing on disk: exports read into it answer every question
        (mastery, streak) exactly as the learner's own store would."""
        connection = _connect(":memory:")
        _migrate(connection, None)
        return cls(connection, None, read_only=False)

    def close(self) -> None:
        self._db.close()

    # --- writing ------------------------------------------------------------------------------

    def _write(self, statements: Iterable[tuple[str, tuple]]) -> None:
        """Run statements in one IMMEDIATE transaction; it has committed when this returns."""
        if self.read_only:
            raise StoreReadOnly(self.notice or "Progress is read-only.")
        statements = list(statements)
        for delay in (0.05, 0.1, 0.2, 0.5, 1.0, None):
            try:
                self._db.execute("BEGIN IMMEDIATE")
                try:
                    for sql, parameters in statements:
                        self._db.execute(sql, parameters)
                    self._db.execute("COMMIT")
                    return
                except BaseException:
                    if self._db.in_transaction:
                        self._db.execute("ROLLBACK")
                    raise
            except sqlite3.OperationalError as exc:
                if _is_busy_error(exc) and delay is not None:
                    time.sleep(delay)
                    continue
                if _is_readonly_error(exc):
                    self.read_only = True
                    self.notice = f"Progress could not be saved ({exc}); it is read-only from now on."
                    raise StoreReadOnly(self.notice) from None
                raise StoreError(f"Progress could not be saved: {exc}") from None

    def record_attempt(self, exercise_id: str, answer: str, status: str, *, message: str = "", feedback: str = "",
                       hints_used: int = 0, seconds_taken: float | None = None,
                       now: datetime | None = None) -> Attempt:
        """Append one graded attempt (correct or incorrect; invalid answers are not attempts)."""
        if status not in ("correct", "incorrect"):
            raise ValueError(f"only correct or incorrect answers are attempts, not {status!r}")
        moment = now or _now()
        revealed = self._db.execute("SELECT 1 FROM reveals WHERE exercise_id = ? LIMIT 1", (exercise_id,)).fetchone()
        attempt = Attempt(
            uid=_new_uid(), exercise_id=exercise_id, answer=answer, status=status, message=message,
            feedback=feedback, hints_used=int(hints_used), revealed_first=bool(revealed), seconds_taken=seconds_taken,
            created_utc=_utc_text(moment), utc_offset_minutes=_offset_minutes(moment),
            local_date=moment.date().isoformat(),
        )
        self._write([(_insert("attempts", ATTEMPT_FIELDS), _row(attempt, ATTEMPT_FIELDS)),
                     ("DELETE FROM drafts WHERE exercise_id = ?", (exercise_id,))])
        return attempt

    def record_reveal(self, exercise_id: str, now: datetime | None = None) -> None:
        """The learner opened the explanation: later correct answers count as solved after reveal."""
        moment = now or _now()
        self._write([(_insert("reveals", REVEAL_FIELDS),
                      (_new_uid(), exercise_id, _utc_text(moment), _offset_minutes(moment)))])

    def record_entry(self, part: str, name: str, payload: dict[str, Any], now: datetime | None = None) -> Entry:
        """Append a ledger entry (a quiz run, a lab design); `payload` must be JSON-serialisable."""
        moment = now or _now()
        entry = Entry(uid=_new_uid(), part=part, name=name, payload=payload, created_utc=_utc_text(moment),
                      utc_offset_minutes=_offset_minutes(moment), local_date=moment.date().isoformat())
        self._write([(_insert("ledger", ENTRY_FIELDS), entry.row())])
        return entry

    def entries(self, part: str | None = None) -> list[Entry]:
        """Ledger entries, oldest first; only those of `part` when given."""
        sql = f"SELECT {', '.join(ENTRY_FIELDS)} FROM ledger"
        rows = (self._db.execute(sql + " WHERE part = ? ORDER BY created_utc, uid", (part,)) if part
                else self._db.execute(sql + " ORDER BY created_utc, uid"))
        return [Entry.from_row(row) for row in rows]

    def save_draft(self, exercise_id: str, text: str) -> None:
        if not text:
            self._write([("DELETE FROM drafts WHERE exercise_id = ?", (exercise_id,))])
            return
        self._write([("INSERT INTO drafts VALUES (?, ?, ?) ON CONFLICT (exercise_id) DO UPDATE SET "
                      "text = excluded.text, updated_utc = excluded.updated_utc",
                      (exercise_id, text, _utc_text(_now())))])

    def draft(self, exercise_id: str) -> str:
        row = self._db.execute("SELECT text FROM drafts WHERE exercise_id = ?", (exercise_id,)).fetchone()
        return row[0] if row else ""

    def set_state(self, key: str, value: str) -> None:
        self._write([("INSERT INTO state VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                      (key, value))])

    def state(self, key: str, default: str = "") -> str:
        row = self._db.execute("SELECT value FROM state WHERE key = ?", (key,)).fetchone()
        return row[0] if row else default

    def set_last_opened(self, chapter_id: str, exercise_id: str = "") -> None:
        self._write([("INSERT INTO state VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                      (key, value)) for key, value in (("last_chapter", chapter_id), ("last_exercise", exercise_id))])

    def last_opened(self) -> tuple[str, str]:
        """(chapter id, exercise id) last opened; empty strings when nothing was."""
        return self.state("last_chapter"), self.state("last_exercise")

    @property
    def day_boundary_hour(self) -> int:
        value = self.state("day_boundary_hour", str(SETTINGS["day_boundary_hour"]))
        return int(value) if value.isdigit() and int(value) < 24 else 0

    def set_day_boundary_hour(self, hour: int) -> None:
        if not 0 <= hour < 24:
            raise ValueError("the day boundary is an hour from 0 to 23")
        self.set_state("day_boundary_hour", str(hour))

    # --- reading ------------------------------------------------------------------------------

    def attempts(self, exercise_id: str | None = None) -> list[Attempt]:
        sql = f"SELECT {', '.join(ATTEMPT_FIELDS)} FROM attempts"
        rows = (self._db.execute(sql + " WHERE exercise_id = ? ORDER BY created_utc, uid", (exercise_id,))
                if exercise_id is not None else self._db.execute(sql + " ORDER BY created_utc, uid"))
        return [Attempt(*row[:7], bool(row[7]), *row[8:]) for row in rows]

    def exercise_states(self) -> dict[str, ExerciseState]:
        """Per exercise id (including ids no longer in the book): attempts, solved, solved after reveal."""
        states: dict[str, ExerciseState] = {}
        rows = self._db.execute("""
            SELECT exercise_id, COUNT(*),
                   MIN(CASE WHEN status = 'correct' THEN created_utc END)
            FROM attempts GROUP BY exercise_id""")
        for exercise_id, count, first_solved in rows:
            after_reveal = first_solved is not None and bool(self._db.execute(
                "SELECT revealed_first FROM attempts WHERE exercise_id = ? AND status = 'correct' "
                "ORDER BY created_utc, uid LIMIT 1", (exercise_id,)).fetchone()[0])
            states[exercise_id] = ExerciseState(count, first_solved is not None, first_solved, after_reveal)
        for (exercise_id,) in self._db.execute("SELECT DISTINCT exercise_id FROM reveals"):
            state = states.get(exercise_id, ExerciseState())
            states[exercise_id] = ExerciseState(state.attempts, state.solved, state.first_solved_utc,
                                                state.solved_after_reveal, revealed=True)
        return states

    def study_days(self) -> set[date]:
        boundary = self.day_boundary_hour
        rows = self._db.execute("SELECT created_utc, utc_offset_minutes FROM attempts WHERE status = 'correct'")
        return {study_day(parse_utc(utc), offset, boundary) for utc, offset in rows}

    def streak(self, now: datetime | None = None) -> Streak:
        return streaks(self.study_days(), today(now or _now(), self.day_boundary_hour))

    # --- moving progress between stores -------------------------------------------------------

    def export_data(self) -> dict[str, Any]:
        reveals = self._db.execute(f"SELECT {', '.join(REVEAL_FIELDS)} FROM reveals ORDER BY created_utc, uid")
        return {
            "format": EXPORT_FORMAT,
            "schema": SCHEMA_VERSION,
            "exported_utc": _utc_text(_now()),
            "day_boundary_hour": self.day_boundary_hour,  # so a class report counts streaks the same way
            "attempts": [asdict(a) for a in self.attempts()],
            "reveals": [dict(zip(REVEAL_FIELDS, row)) for row in reveals],
            "entries": [e.exported() for e in self.entries()],
        }

    def import_data(self, data: Any) -> int:
        """Merge an export; rows already present (same uid) are skipped, so importing twice adds nothing.
        Returns how many rows were added. Raises StoreError on data that is not a ringbook export."""
        attempts, reveals, entries = _validated_export(data)
        before = self._count()
        self._write([(_insert("attempts", ATTEMPT_FIELDS, ignore=True), _row(a, ATTEMPT_FIELDS)) for a in attempts]
                    + [(_insert("reveals", REVEAL_FIELDS, ignore=True), tuple(r[f] for f in REVEAL_FIELDS))
                       for r in reveals]
                    + [(_insert("ledger", ENTRY_FIELDS, ignore=True), e.row()) for e in entries])
        return self._count() - before

    def _count(self) -> int:
        return self._db.execute("SELECT (SELECT COUNT(*) FROM attempts) + (SELECT COUNT(*) FROM reveals)"
                                " + (SELECT COUNT(*) FROM ledger)").fetchone()[0]

    def backup(self, target: Path) -> None:
        """A consistent copy of the whole store, taken with SQLite's online backup."""
        copy = sqlite3.connect(target)
        try:
            self._db.backup(copy)
        finally:
            copy.close()

    def reset(self) -> Path | None:
        """Start over, keeping a backup first; returns where the backup is."""
        backup = None
        if self.path is not None:
            backup = self.path.with_name(f"progress.backup-{datetime.now():%Y%m%d-%H%M%S}.sqlite3")
            self.backup(backup)
        self._write([(f"DELETE FROM {table}", ()) for table in ("attempts", "reveals", "drafts", "state", "ledger")])
        return backup

    def integrity(self) -> str:
        return self._db.execute("PRAGMA integrity_check").fetchone()[0]


def export_csv(data: dict[str, Any]) -> str:
    """Attempts as CSV, one row each, for spreadsheets."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=ATTEMPT_FIELDS, lineterminator="\n")
    writer.writeheader()
    writer.writerows(data["attempts"])
    return out.getvalue()


ROW_TYPES = {
    "uid": (str,), "exercise_id": (str,), "answer": (str,), "status": (str,), "message": (str,), "feedback": (str,),
    "hints_used": (int,), "revealed_first": (bool, int), "seconds_taken": (int, float, type(None)),
    "created_utc": (str,), "utc_offset_minutes": (int,), "local_date": (str,), "part": (str,), "name": (str,),
    "payload": (dict,),
}


def _validated_export(data: Any) -> tuple[list[Attempt], list[dict], list[Entry]]:
    """The rows of an export, each field of the type the store keeps, so nothing odd reaches the store
    (or a class report) to break a streak or a sum later."""
    if not isinstance(data, dict) or data.get("format") != EXPORT_FORMAT:
        raise StoreError("That file is not a ringbook progress export.")
    if not isinstance(data.get("schema"), int) or data["schema"] > SCHEMA_VERSION:
        raise StoreError("That export was written by a newer ringbook; update ringbook to import it.")
    try:
        attempts = [Attempt(**_checked(row, ATTEMPT_FIELDS)) for row in data.get("attempts", [])]
        for attempt in attempts:
            if attempt.status not in ("correct", "incorrect"):
                raise ValueError(f"an attempt's status is {attempt.status!r}")
        reveals = [_checked(row, REVEAL_FIELDS) for row in data.get("reveals", [])]
        entries = [Entry(**_checked(row, ENTRY_FIELDS)) for row in data.get("entries", [])]
    except KeyError as exc:
        raise StoreError(f"That export is damaged (a row is missing {exc}).") from None
    except (TypeError, ValueError) as exc:
        raise StoreError(f"That export is damaged ({exc}).") from None
    return attempts, reveals, entries


def _checked(row: Any, fields: tuple[str, ...]) -> dict[str, Any]:
    """`row`'s `fields`; raises KeyError for a missing one, ValueError for one of the wrong type."""
    if not isinstance(row, dict):
        raise ValueError("a row is not an object")
    for name in fields:
        value, kinds = row[name], ROW_TYPES[name]
        if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
            raise ValueError(f"a row's {name!r} has the wrong type ({type(value).__name__})")
    if not abs(row["utc_offset_minutes"]) < 24 * 60:
        raise ValueError("a row's 'utc_offset_minutes' is not an offset from UTC")
    try:
        parse_utc(row["created_utc"])
    except ValueError:
        raise ValueError(f"a row's 'created_utc' is not a UTC time: {row['created_utc'][:40]!r}") from None
    return {name: row[name] for name in fields}


def _connect(target: str, uri: bool = False) -> sqlite3.Connection:
    connection = sqlite3.connect(target, uri=uri, timeout=BUSY_TIMEOUT_SECONDS, isolation_level=None,
                                 check_same_thread=False)
    connection.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_SECONDS * 1000}")
    return connection


def _connect_read_only(path: Path) -> sqlite3.Connection:
    """Read a store we may not write. A WAL store needs its shared-memory file, which read-only media
    cannot create; there nobody else can be writing, so the file may be read as immutable."""
    for query in ("mode=ro", "mode=ro&immutable=1"):
        connection = _connect(f"file:{path}?{query}", uri=True)
        try:
            connection.execute("PRAGMA user_version").fetchone()
            return connection
        except sqlite3.DatabaseError:
            connection.close()
    raise sqlite3.DatabaseError(f"cannot open {path} for reading")


def _migrate(connection: sqlite3.Connection, path: Path | None) -> None:
    version = connection.execute("PRAGMA user_version").fetchone()[0]
    if version > SCHEMA_VERSION:
        raise StoreTooNew(_too_new_message(path, version))
    for target in range(version + 1, SCHEMA_VERSION + 1):
        connection.execute("BEGIN IMMEDIATE")
        try:
            for statement in filter(str.strip, MIGRATIONS[target].split(";")):
                connection.execute(statement)
            connection.execute(f"PRAGMA user_version = {target}")
            connection.execute("COMMIT")
        except BaseException:
            connection.execute("ROLLBACK")
            raise


def _too_new_message(path: Path | None, version: int) -> str:
    return (f"{path} was written by a newer ringbook (store version {version}; this one reads up to "
            f"{SCHEMA_VERSION}). It has not been changed. Update ringbook, or use --data-dir for another folder.")


def _move_aside(path: Path) -> Path:
    """Rename an unreadable store (and its WAL files) out of the way; never delete it."""
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    kept = path.with_name(f"progress.corrupt-{stamp}.sqlite3")
    counter = 1
    while kept.exists():
        kept = path.with_name(f"progress.corrupt-{stamp}-{counter}.sqlite3")
        counter += 1
    path.rename(kept)
    for suffix in ("-wal", "-shm"):
        companion = Path(str(path) + suffix)
        if companion.exists():
            companion.rename(Path(str(kept) + suffix))
    return kept


def _is_busy_error(exc: sqlite3.Error) -> bool:
    return "locked" in str(exc) or "busy" in str(exc)


def _is_readonly_error(exc: sqlite3.Error) -> bool:
    text = str(exc)
    return any(s in text for s in ("readonly", "read-only", "disk is full", "unable to open", "disk I/O error"))


def _insert(table: str, fields: tuple[str, ...], ignore: bool = False) -> str:
    return f"INSERT {'OR IGNORE ' if ignore else ''}INTO {table} ({', '.join(fields)}) VALUES ({', '.join('?' * len(fields))})"


def _row(attempt: Attempt, fields: tuple[str, ...]) -> tuple:
    return tuple(int(v) if isinstance(v, bool) else v for v in (getattr(attempt, f) for f in fields))
