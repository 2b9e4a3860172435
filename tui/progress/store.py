"""The progress store: every attempt a learner makes, kept in SQLite like Anki keeps its collection.

Attempts are append-only, and everything else (solved, streaks) is computed from them, so it can always
be recomputed. Each write is one transaction that has committed before the call returns, and SQLite's
write-ahead log makes it survive a killed process and lets two sessions of the same learner write at
once. A file that is not a readable database, or lacks a table or column, is moved aside, never deleted;
a folder we cannot write to leaves the app working read-only, with a message saying why. Every row is
held to one set of rules (types, ranges, text that can be encoded): an import that breaks them adds
nothing, and a stored row that breaks them (a hand edit, an older ringbook) is left out of every read and
said once, so nothing in the file can stop the app from starting.
"""

from __future__ import annotations

import io
import json
import math
import os
import re
import sqlite3
import stat
import time
from collections import Counter
from collections.abc import Iterable
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

from grader.safe_text import clipped
from tui.progress import clock
from tui.progress.streak import Streak, streaks, study_day, today

SCHEMA_VERSION = 3
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
    # Which numbers an attempt answered (0: the book's own, which every earlier attempt answered) and why
    # it was posed: in the chapter (learn), as a due review card (review), or asked for early (practice),
    # which is recorded but never moves the review schedule.
    3: """
        ALTER TABLE attempts ADD COLUMN seed INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE attempts ADD COLUMN purpose TEXT NOT NULL DEFAULT 'learn'
            CHECK (purpose IN ('learn', 'review', 'practice'));
    """,
}
ATTEMPT_FIELDS = ("uid", "exercise_id", "answer", "status", "message", "feedback", "hints_used", "revealed_first",
                  "seconds_taken", "created_utc", "utc_offset_minutes", "local_date", "seed", "purpose")
# What an attempt from an export written before a field existed answered: the book's own numbers, in the chapter.
ATTEMPT_DEFAULTS = {"seed": 0, "purpose": "learn"}
PURPOSES = ("learn", "review", "practice")
REVEAL_FIELDS = ("uid", "exercise_id", "created_utc", "utc_offset_minutes")
ENTRY_FIELDS = ("uid", "part", "name", "payload", "created_utc", "utc_offset_minutes", "local_date")
# What quick_check says of a row that breaks a constraint (a hand edit); the row rules leave such rows out,
# so they are no reason to move the whole file aside.
ROW_LEVEL_FAULTS = ("CHECK constraint failed in ", "NULL value in ")
LOGS = {"attempts": ATTEMPT_FIELDS, "reveals": REVEAL_FIELDS, "ledger": ENTRY_FIELDS}
TABLES = {**LOGS, "drafts": ("exercise_id", "text", "updated_utc"), "state": ("key", "value")}


REPLAYED_PREFIX = "replayed:"   # state keys of review cards replayed from the log (tui.progress.review)
CHAPTER_OPENED_PREFIX = "opened:chapter:"   # state keys of the chapters whose opening was shown


def _watermark_triggers() -> dict[str, str]:
    """Per log: forget how far the open check went when a row is written at or below that mark, or any row
    is changed or deleted, whoever does it (the sqlite3 shell included), so those rows are checked again."""
    triggers = {}
    for table in LOGS:
        forget = f"DELETE FROM state WHERE key IN ('checked:{table}', 'unreadable:{table}');"
        if table == "attempts":   # a replayed review card is only kept for a log that has only grown
            forget += f" DELETE FROM state WHERE key >= '{REPLAYED_PREFIX}' AND key < '{REPLAYED_PREFIX[:-1]};';"
        triggers[f"{table}_written_below_the_check"] = (
            f"CREATE TRIGGER {table}_written_below_the_check AFTER INSERT ON {table} "
            f"WHEN NEW.rowid <= (SELECT CAST(value AS INTEGER) FROM state WHERE key = 'checked:{table}') "
            f"BEGIN {forget} END")
        for event in ("UPDATE", "DELETE"):
            name = f"{table}_{event.lower()}d"
            triggers[name] = f"CREATE TRIGGER {name} AFTER {event} ON {table} BEGIN {forget} END"
    return triggers


WATERMARK_TRIGGERS = _watermark_triggers()


class StoreError(Exception):
    """A problem with the progress store, in words for the learner."""


class StoreTooNew(StoreError):
    """The store was written by a newer ringbook; it is left untouched."""


class StoreReadOnly(StoreError):
    """A write that cannot happen: the folder is read-only or the disk is full."""


@dataclass(repr=False)
class Attempt:
    """One answer as the log keeps it."""

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
    seed: int = 0             # the variant answered; 0 is the book's own numbers
    purpose: str = "learn"    # learn (in the chapter), review (a due card) or practice (asked for early)


@dataclass(repr=False)
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


@dataclass(repr=False)
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
    def from_row(cls, row: tuple) -> Entry:
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


def _utc_text(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def _offset_minutes(moment: datetime) -> int:
    offset = moment.utcoffset()
    return int(offset.total_seconds() // 60) if offset else 0


_UTC_TEXT = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]{1,6})?Z")


def parse_utc(text: str) -> datetime:
    """A stored `created_utc` back as a naive UTC datetime: the format _utc_text writes, or whole seconds.
    Raises ValueError for anything else."""
    if not _UTC_TEXT.fullmatch(text):
        raise ValueError(f"not a UTC time: {text[:40]!r}")
    return datetime.fromisoformat(text[:-1])


class ProgressStore:
    """One learner's progress in one SQLite file."""

    def __init__(self, connection: sqlite3.Connection, path: Path | None, *, read_only: bool, notice: str = ""):
        self._db = connection
        self.path = path
        self.read_only = read_only
        self.notice = notice
        self._visible = {table: table for table in LOGS}  # a log, or a query leaving out its unreadable rows
        # whether the file's triggers are ours, so that what is kept from the log is forgotten when it is edited
        self.log_guarded = False

    # --- opening ------------------------------------------------------------------------------

    @classmethod
    def open(cls, data_dir: Path | None = None) -> ProgressStore:
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
    def _open_writable(cls, path: Path) -> ProgressStore:
        connection = _connect(f"file:{path}", uri=True)
        try:
            damage = [row[0] for row in connection.execute("PRAGMA quick_check")
                      if row[0] != "ok" and not row[0].startswith(ROW_LEVEL_FAULTS)]
            if damage:
                raise sqlite3.DatabaseError(f"integrity check: {damage[0]}")
            _migrate(connection, path)
            _check_schema(connection)
            connection.execute("PRAGMA journal_mode=WAL")
            connection.execute("PRAGMA synchronous=FULL")
            connection.execute("BEGIN IMMEDIATE")  # can we write at all? find out now, not at the first answer
            connection.execute("ROLLBACK")
            store = cls(connection, path, read_only=False)
            store._leave_out_unreadable_rows()
        except BaseException:
            connection.close()
            raise
        return store

    @classmethod
    def _open_read_only(cls, path: Path, reason: Exception) -> ProgressStore:
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
            _check_schema(connection)
            store = cls(connection, path, read_only=True,
                        notice=f"Progress is read-only: {why}. You can study, but new answers will not be saved.")
            store._leave_out_unreadable_rows()
        except DamagedStore as exc:
            connection.close()
            return cls._without_disk(f"Your progress file {path} is damaged ({exc}) and cannot be moved aside: "
                                     f"{why}. Nothing will be saved this session.")
        except sqlite3.DatabaseError:
            return cls._without_disk(f"Cannot read or write your progress file: {why}. Nothing will be saved.")
        return store

    @classmethod
    def _without_disk(cls, notice: str) -> ProgressStore:
        store = cls.in_memory()
        store.read_only, store.notice = True, notice
        return store

    @classmethod
    def in_memory(cls) -> ProgressStore:
        """A writable store that keeps nothing on disk: exports read into it answer every question
        (mastery, streak) exactly as the learner's own store would."""
        connection = _connect(":memory:")
        _migrate(connection, None)
        return cls(connection, None, read_only=False)

    def close(self) -> None:
        self._db.close()

    def _leave_out_unreadable_rows(self) -> None:
        """Check the logged rows as the store opens, and leave out of every read the rows that break the
        rules (written by hand or by an older ringbook): they are kept in the file and said once. Rows
        checked at an earlier open are not checked again: the file remembers how far the check went and
        which rows it left out, and its triggers forget that when a checked row is changed, deleted or
        written below the mark (by any program), so such rows are checked again."""
        trusted = self.log_guarded = self._watermarks_trusted()
        unreadable, marks = 0, {}
        with self.snapshot():
            for table, fields in LOGS.items():
                checked, hidden = self._watermark(table) if trusted else (0, [])
                rules = tuple(STORED_RULES[name] for name in fields)
                rows = self._rows_as_stored(table, fields, above=checked)
                hidden += [rowid for rowid, *values in rows if _breaks_rules(values, rules, STORED)]
                if hidden:
                    self._visible[table] = (f"(SELECT * FROM {table} WHERE rowid NOT IN "
                                            f"({', '.join(map(str, hidden))})) AS {table}")
                unreadable += len(hidden)
                if rows:
                    marks |= {f"checked:{table}": str(rows[-1][0]), f"unreadable:{table}": ",".join(map(str, hidden))}
            if marks and trusted:
                self.keep_states(marks)   # only saves time at the next open; without it every row is checked
        if unreadable:
            said = (f"{unreadable} saved record{'s' if unreadable != 1 else ''} in your progress file could not be "
                    "read (edited by hand or written by an older ringbook?). They are left out and kept in the file.")
            self.notice = f"{self.notice} {said}".strip()

    def _watermarks_trusted(self) -> bool:
        """Whether the file has our triggers as we wrote them (a writable store gets them now, and forgets any
        mark it had: rows may have changed while they were missing). Without them every row is checked."""
        present = dict(self._db.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'").fetchall())
        if all(present.get(name) == sql for name, sql in WATERMARK_TRIGGERS.items()):
            return True
        if self.read_only:
            return False
        statements = [(f"DROP TRIGGER IF EXISTS {name}", ()) for name in WATERMARK_TRIGGERS]
        statements += [(sql, ()) for sql in WATERMARK_TRIGGERS.values()]
        statements += [("DELETE FROM state WHERE key IN (?, ?)", (f"checked:{t}", f"unreadable:{t}")) for t in LOGS]
        statements += [("DELETE FROM state WHERE key >= ? AND key < ?", (REPLAYED_PREFIX, REPLAYED_PREFIX[:-1] + ";"))]
        try:
            self._write(statements)
        except StoreError:
            return False
        return True

    def _watermark(self, table: str) -> tuple[int, list[int]]:
        """The last rowid of `table` checked at an earlier open, and the rowids then left out; (0, []) when
        there is no mark or it is not one we wrote (a hand edit): then every row is checked."""
        checked, hidden = self.state(f"checked:{table}"), self.state(f"unreadable:{table}")
        if not (checked.isascii() and checked.isdigit() and len(checked) < 19):
            return 0, []
        rowids = hidden.split(",") if hidden else []
        if not all(r.isascii() and r.isdigit() and len(r) < 19 and int(r) <= int(checked) for r in rowids):
            return 0, []
        return int(checked), [int(r) for r in rowids]

    def _rows_as_stored(self, table: str, fields: tuple[str, ...], above: int = 0) -> list[tuple]:
        """Every row of `table` after rowid `above`, rowid first, in rowid order. Text that is not UTF-8
        comes back with lone surrogates in it (which no rule passes), instead of stopping the read."""
        sql = f"SELECT rowid, {', '.join(fields)} FROM {table} WHERE rowid > {int(above)} ORDER BY rowid"
        try:
            return self._db.execute(sql).fetchall()
        except sqlite3.OperationalError as exc:
            if "decode" not in str(exc):
                raise
        self._db.text_factory = lambda raw: raw.decode("utf-8", "surrogateescape")
        try:
            return self._db.execute(sql).fetchall()
        finally:
            self._db.text_factory = str

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
                       hints_used: int = 0, seconds_taken: float | None = None, seed: int = 0,
                       purpose: str = "learn", revealed: bool | None = None,
                       now: datetime | None = None, draft_key: str | None = None) -> Attempt:
        """Append one graded attempt (correct or incorrect; invalid answers are not attempts) to the variant
        `seed` posed for `purpose`. `revealed` says whether the explanation was open before it; None means
        "ever, for this exercise", which is what solving after a reveal means in a chapter. A review or a
        practice run knows better (the explanation read last month says nothing of today) and passes it.
        The draft it spends is dropped: the exercise's own, or `draft_key`'s (a review card keeps its own)."""
        if status not in ("correct", "incorrect"):
            raise ValueError(f"only correct or incorrect answers are attempts, not {status!r}")
        moment = now or clock.now()
        if revealed is None:
            revealed = self._db.execute(f"SELECT 1 FROM {self._visible['reveals']} WHERE exercise_id = ? LIMIT 1",
                                        (exercise_id,)).fetchone() is not None
        if seconds_taken is not None:
            seconds_taken = min(max(seconds_taken, 0.0), DAY_SECONDS)  # longer than a day: the learner stepped away
        attempt = Attempt(**_savable(dict(
            uid=_new_uid(), exercise_id=exercise_id, answer=answer, status=status, message=message,
            feedback=feedback, hints_used=int(hints_used), revealed_first=bool(revealed), seconds_taken=seconds_taken,
            created_utc=_utc_text(moment), utc_offset_minutes=_offset_minutes(moment),
            local_date=moment.date().isoformat(), seed=seed, purpose=purpose,
        ), ATTEMPT_FIELDS))
        self._write([(_insert("attempts", ATTEMPT_FIELDS), _row(attempt, ATTEMPT_FIELDS)),
                     ("DELETE FROM drafts WHERE exercise_id = ?", (draft_key or exercise_id,))])
        return attempt

    def record_reveal(self, exercise_id: str, now: datetime | None = None) -> None:
        """The learner opened the explanation: later correct answers count as solved after reveal."""
        moment = now or clock.now()
        reveal = _savable(dict(uid=_new_uid(), exercise_id=exercise_id, created_utc=_utc_text(moment),
                               utc_offset_minutes=_offset_minutes(moment)), REVEAL_FIELDS)
        self._write([(_insert("reveals", REVEAL_FIELDS), tuple(reveal.values()))])

    def record_entry(self, part: str, name: str, payload: dict[str, Any], now: datetime | None = None) -> Entry:
        """Append a ledger entry (a quiz run, a lab design); `payload` must be JSON-serialisable."""
        moment = now or clock.now()
        entry = Entry(**_savable(dict(uid=_new_uid(), part=part, name=name, payload=payload,
                                      created_utc=_utc_text(moment), utc_offset_minutes=_offset_minutes(moment),
                                      local_date=moment.date().isoformat()), ENTRY_FIELDS))
        self._write([(_insert("ledger", ENTRY_FIELDS), entry.row())])
        return entry

    def entries(self, part: str | None = None) -> list[Entry]:
        """Ledger entries, oldest first; only those of `part` when given."""
        sql = f"SELECT {', '.join(ENTRY_FIELDS)} FROM {self._visible['ledger']}"
        rows = (self._db.execute(sql + " WHERE part = ? ORDER BY created_utc, uid", (part,)) if part
                else self._db.execute(sql + " ORDER BY created_utc, uid"))
        return [Entry.from_row(row) for row in rows]

    def save_draft(self, exercise_id: str, text: str) -> None:
        if not text:
            self._write([("DELETE FROM drafts WHERE exercise_id = ?", (exercise_id,))])
            return
        self._write([("INSERT INTO drafts VALUES (?, ?, ?) ON CONFLICT (exercise_id) DO UPDATE SET "
                      "text = excluded.text, updated_utc = excluded.updated_utc",
                      (exercise_id, text, _utc_text(clock.now())))])

    def draft(self, exercise_id: str) -> str:
        return self._text_of("SELECT CAST(text AS BLOB) FROM drafts WHERE exercise_id = ?", exercise_id) or ""

    def set_state(self, key: str, value: str) -> None:
        self._write([("INSERT INTO state VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                      (key, value))])

    def state(self, key: str, default: str = "") -> str:
        value = self._text_of("SELECT CAST(value AS BLOB) FROM state WHERE key = ?", key)
        return default if value is None else value

    def states(self, prefix: str) -> dict[str, str]:
        """Every state whose key starts with `prefix`, by key, as text."""
        rows = self._db.execute("SELECT key, CAST(value AS BLOB) FROM state WHERE key >= ? AND key < ?",
                                (prefix, prefix + "\U0010ffff"))
        return {key: bytes(value or b"").decode("utf-8", "replace") for key, value in rows if type(key) is str}

    @contextmanager
    def snapshot(self):
        """Reads inside see the file at one moment, so that what keep_states keeps of them is never kept
        over rows another program wrote meanwhile."""
        self._db.execute("BEGIN")
        try:
            yield
        finally:
            if self._db.in_transaction:
                self._db.execute("COMMIT")

    def keep_states(self, values: dict[str, str]) -> bool:
        """Inside snapshot(): set states computed from its reads, unless the store is read-only or another
        program wrote since the snapshot began (then nothing is set: they would describe an older file)."""
        if self.read_only:
            return False
        try:
            for key, value in values.items():
                self._db.execute("INSERT INTO state VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET "
                                 "value = excluded.value", (key, value))
            self._db.execute("COMMIT")
        except sqlite3.OperationalError:
            self._db.execute("ROLLBACK")
            return False
        return True

    def _text_of(self, sql: str, key: str) -> str | None:
        """One stored text, whatever was stored there (a hand edit may leave a number or bytes that are not
        UTF-8); the caller reads it as the text it keeps, such as a draft or a saved quiz run."""
        row = self._db.execute(sql, (key,)).fetchone()
        return None if row is None or row[0] is None else bytes(row[0]).decode("utf-8", "replace")

    def set_last_opened(self, chapter_id: str, exercise_id: str = "", *, at_opening: bool = False) -> None:
        """Where the learner is, in one write; `at_opening`: at the chapter's opening, its text on screen,
        which chapters_opened keeps (Continue offers a chapter's opening until then)."""
        values = [("last_chapter", chapter_id), ("last_exercise", exercise_id)]
        if at_opening:
            values.append((CHAPTER_OPENED_PREFIX + chapter_id, "1"))
        self._write([("INSERT INTO state VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                      (key, value)) for key, value in values])

    def last_opened(self) -> tuple[str, str]:
        """(chapter id, exercise id) last opened; empty strings when nothing was."""
        return self.state("last_chapter"), self.state("last_exercise")

    def chapters_opened(self) -> set[str]:
        """The ids of the chapters whose opening the learner has had on screen."""
        return {key.removeprefix(CHAPTER_OPENED_PREFIX) for key in self.states(CHAPTER_OPENED_PREFIX)}

    @property
    def day_boundary_hour(self) -> int:
        value = self.state("day_boundary_hour", str(SETTINGS["day_boundary_hour"]))
        return int(value) if value.isascii() and value.isdigit() and int(value) < 24 else 0

    def set_day_boundary_hour(self, hour: int) -> None:
        if not 0 <= hour < 24:
            raise ValueError("the day boundary is an hour from 0 to 23")
        self.set_state("day_boundary_hour", str(hour))

    # --- reading ------------------------------------------------------------------------------

    def attempts(self, exercise_id: str | None = None) -> list[Attempt]:
        sql = f"SELECT {', '.join(ATTEMPT_FIELDS)} FROM {self._visible['attempts']}"
        rows = (self._db.execute(sql + " WHERE exercise_id = ? ORDER BY created_utc, uid", (exercise_id,))
                if exercise_id is not None else self._db.execute(sql + " ORDER BY created_utc, uid"))
        # an older ringbook kept times over a day; an export holds them to a day, as this one records them
        return [Attempt(*row[:7], bool(row[7]), None if row[8] is None else min(row[8], DAY_SECONDS), *row[9:])
                for row in rows]

    def attempt_log_ends(self) -> dict[str, tuple[int, int]]:
        """Per exercise id, how many attempts it has and the rowid of the newest written: a log that only
        grows (the store forgets what it kept when a row is changed or deleted) changes both when it grows,
        so a result kept with them is stale exactly when they differ. Read from the index alone: fast."""
        rows = self._db.execute(f"SELECT exercise_id, COUNT(*), MAX(rowid) FROM {self._visible['attempts']} "
                                "GROUP BY exercise_id")
        return {exercise_id: (count, last) for exercise_id, count, last in rows}

    def exercise_states(self) -> dict[str, ExerciseState]:
        """Per exercise id (including ids no longer in the book): attempts, solved, solved after reveal."""
        states: dict[str, ExerciseState] = {}
        attempts, reveals = self._visible["attempts"], self._visible["reveals"]
        rows = self._db.execute(f"""
            SELECT exercise_id, COUNT(*),
                   MIN(CASE WHEN status = 'correct' THEN created_utc END)
            FROM {attempts} GROUP BY exercise_id""")
        for exercise_id, count, first_solved in rows:
            after_reveal = first_solved is not None and bool(self._db.execute(
                f"SELECT revealed_first FROM {attempts} WHERE exercise_id = ? AND status = 'correct' "
                "ORDER BY created_utc, uid LIMIT 1", (exercise_id,)).fetchone()[0])
            states[exercise_id] = ExerciseState(count, first_solved is not None, first_solved, after_reveal)
        for (exercise_id,) in self._db.execute(f"SELECT DISTINCT exercise_id FROM {reveals}"):
            state = states.get(exercise_id, ExerciseState())
            states[exercise_id] = ExerciseState(state.attempts, state.solved, state.first_solved_utc,
                                                state.solved_after_reveal, revealed=True)
        return states

    def study_days(self) -> set[date]:
        boundary = self.day_boundary_hour
        rows = self._db.execute(f"SELECT created_utc, utc_offset_minutes FROM {self._visible['attempts']} "
                                "WHERE status = 'correct'")
        return {study_day(parse_utc(utc), offset, boundary) for utc, offset in rows}

    def streak(self, now: datetime | None = None) -> Streak:
        return streaks(self.study_days(), today(now or clock.now(), self.day_boundary_hour))

    # --- moving progress between stores -------------------------------------------------------

    def export_data(self) -> dict[str, Any]:
        reveals = self._db.execute(f"SELECT {', '.join(REVEAL_FIELDS)} FROM {self._visible['reveals']} "
                                   "ORDER BY created_utc, uid")
        return {
            "format": EXPORT_FORMAT,
            "schema": SCHEMA_VERSION,
            "exported_utc": _utc_text(clock.now()),
            "day_boundary_hour": self.day_boundary_hour,  # so a class report counts streaks the same way
            "attempts": [asdict(a) for a in self.attempts()],
            "reveals": [dict(zip(REVEAL_FIELDS, row)) for row in reveals],
            "entries": [e.exported() for e in self.entries()],
        }

    def import_data(self, data: Any, now: datetime | None = None) -> Counter[str]:
        """Merge an export; rows already present (same uid) are skipped, so importing twice adds nothing.
        Returns how many rows were added, by kind (record_counts). Raises StoreError, having added nothing,
        on data that is not a ringbook export or has any field out of its rules (a time after `now`, a
        count no one could make)."""
        attempts, reveals, entries = _validated_export(data, now or clock.now())
        before = self.record_counts()
        self._write([(_insert("attempts", ATTEMPT_FIELDS, ignore=True), _row(a, ATTEMPT_FIELDS)) for a in attempts]
                    + [(_insert("reveals", REVEAL_FIELDS, ignore=True), tuple(r[f] for f in REVEAL_FIELDS))
                       for r in reveals]
                    + [(_insert("ledger", ENTRY_FIELDS, ignore=True), e.row()) for e in entries])
        return self.record_counts() - before

    def record_counts(self) -> Counter[str]:
        """The records an export carries, by kind: "attempts", "reveals" (answers shown), and each
        ledger part ("quiz" runs, "lab" designs), as `export_counts` counts an export's."""
        counts: Counter[str] = Counter()
        rows = self._db.execute("SELECT 'attempts', COUNT(*) FROM attempts UNION ALL "
                                "SELECT 'reveals', COUNT(*) FROM reveals UNION ALL "
                                "SELECT 'entries:' || part, COUNT(*) FROM ledger GROUP BY part")
        for kind, number in rows:
            counts[kind] += number
        return counts

    def backup(self, target: Path) -> None:
        """A consistent copy of the whole store, taken with SQLite's online backup, as one file: the copy
        leaves WAL mode (which it would take from the store), so reading it never leaves -wal and -shm
        files beside it."""
        copy = sqlite3.connect(target)
        try:
            self._db.backup(copy)
            copy.execute("PRAGMA journal_mode=DELETE")
        finally:
            copy.close()

    def reset(self) -> Path | None:
        """Start over, keeping a backup first; returns where the backup is."""
        backup = self._keep_backup()
        self._write([(f"DELETE FROM {table}", ()) for table in TABLES])
        self._visible = {table: table for table in LOGS}  # the rows left out are gone; their rowids come back
        return backup

    def restore(self, source: Path) -> Path | None:
        """Put back the progress in `source`, a store file such as `reset` keeps, in place of this store's,
        having kept a backup of this one first (returned), so a restore can itself be undone. Raises
        StoreError, having changed nothing, for a file that is not a sound ringbook store: it is read into
        memory and checked as a store is on opening, and only the tables and triggers ringbook makes are
        taken from it."""
        if self.read_only:
            raise StoreReadOnly(self.notice or "Progress is read-only.")
        donor = _store_from_file(source)
        try:
            backup = self._keep_backup()
            try:
                donor.backup(self._db)
            except sqlite3.Error as exc:
                raise StoreError(f"it could not be copied in ({exc})") from None
        finally:
            donor.close()
        self._visible = {table: table for table in LOGS}
        self._leave_out_unreadable_rows()
        return backup

    def _keep_backup(self) -> Path | None:
        if self.path is None:
            return None
        backup = self.path.with_name(f"progress.backup-{clock.now():%Y%m%d-%H%M%S}.sqlite3")
        counter = 1
        while backup.exists():  # a reset and a restore in the same second
            backup = self.path.with_name(f"progress.backup-{clock.now():%Y%m%d-%H%M%S}-{counter}.sqlite3")
            counter += 1
        self.backup(backup)
        return backup

    def integrity(self) -> str:
        return self._db.execute("PRAGMA integrity_check").fetchone()[0]


def export_counts(data: dict[str, Any]) -> Counter[str]:
    """An export's records by kind (its checked rows, or what export_data gives), with the keys of
    ProgressStore.record_counts."""
    counts: Counter[str] = Counter(attempts=len(data["attempts"]), reveals=len(data["reveals"]))
    counts.update(f"entries:{entry['part']}" for entry in data["entries"])
    return +counts


def export_csv(data: dict[str, Any]) -> str:
    """Attempts as CSV, one row each, for spreadsheets."""
    import csv  # only `progress export --csv` needs it: not loaded at every start

    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=ATTEMPT_FIELDS, lineterminator="\n")
    writer.writeheader()
    writer.writerows(data["attempts"])
    return out.getvalue()


# --- what a stored row may hold ------------------------------------------------------------------
# One set of rules for every row: checked before an import writes anything, before this ringbook writes
# its own rows, and when a store opens (rows an older ringbook or a hand edit left are then left out).
# The bounds keep every later computation safe: times far from datetime's limits, counts small.

EARLIEST = datetime(2000, 1, 1)
LATEST_STORED = datetime(9000, 1, 1)   # a clock that ran ahead is kept; 9999 would overflow with an offset
FUTURE_SLACK = timedelta(days=2)       # an import may come from a machine whose clock is a little ahead
MAX_OFFSET_MINUTES = 18 * 60
MAX_HINTS = 1000
MAX_SEED = 2**63 - 1   # grader.book.variants' bound: a seed SQLite keeps as an integer
DAY_SECONDS = 24 * 3600.0
MAX_ID = 200
MAX_TEXT = 100_000
MAX_PAYLOAD = 1_000_000


@dataclass(repr=False)
class _Limits:
    """How far the clock-dependent fields may go: an import is held to now, a stored row only to sense."""

    latest: datetime
    longest_seconds: float | None

    @classmethod
    def for_import(cls, now: datetime) -> _Limits:
        return cls(now.astimezone(UTC).replace(tzinfo=None) + FUTURE_SLACK, DAY_SECONDS)


STORED = _Limits(LATEST_STORED, None)


def _shown(value: Any) -> str:
    try:
        text = repr(value)
    except ValueError:  # an int too long to print
        text = f"a {type(value).__name__} too long to show"
    return clipped(text, 40)


def _text(value: Any, limit: int) -> str:
    if type(value) is not str:
        raise ValueError(f"has the wrong type ({type(value).__name__})")
    if len(value) > limit:
        raise ValueError(f"is too long ({len(value)} characters; at most {limit})")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError(f"is not valid text ({_shown(value)})") from None
    return value


def _identifier(value: Any, limits: _Limits) -> str:
    if not _text(value, MAX_ID):
        raise ValueError("is empty")
    return value


def _label(value: Any, limits: _Limits) -> str:
    return _text(value, MAX_ID)


def _prose(value: Any, limits: _Limits) -> str:
    return _text(value, MAX_TEXT)


def _status(value: Any, limits: _Limits) -> str:
    if type(value) is not str or value not in ("correct", "incorrect"):
        raise ValueError(f"is neither 'correct' nor 'incorrect' ({_shown(value)})")
    return value


def _integer(value: Any, low: int, high: int, what: str) -> int:
    if type(value) is not int:
        raise ValueError(f"has the wrong type ({type(value).__name__})")
    if not low <= value <= high:
        raise ValueError(f"is not {what} ({_shown(value)})")
    return value


def _seed(value: Any, limits: _Limits) -> int:
    return _integer(value, 0, MAX_SEED, "a seed from 0 to 2^63 - 1")


def _purpose(value: Any, limits: _Limits) -> str:
    if type(value) is not str or value not in PURPOSES:
        raise ValueError(f"is not one of {', '.join(PURPOSES)} ({_shown(value)})")
    return value


def _hints(value: Any, limits: _Limits) -> int:
    return _integer(value, 0, MAX_HINTS, f"a count of hints from 0 to {MAX_HINTS}")


def _offset(value: Any, limits: _Limits) -> int:
    return _integer(value, -MAX_OFFSET_MINUTES, MAX_OFFSET_MINUTES, "an offset from UTC within 18 hours")


def _flag(value: Any, limits: _Limits) -> bool:
    if type(value) not in (bool, int) or value not in (0, 1):
        raise ValueError(f"is neither true nor false ({_shown(value)})")
    return bool(value)


def _seconds(value: Any, limits: _Limits) -> float | None:
    if value is None:
        return None
    if type(value) not in (int, float):
        raise ValueError(f"has the wrong type ({type(value).__name__})")
    longest = limits.longest_seconds
    if not (type(value) is int or math.isfinite(value)) or value < 0 or (longest is not None and value > longest):
        bound = f"from 0 to {longest:.0f}" if longest is not None else "of 0 or more"
        raise ValueError(f"is not a number of seconds {bound} ({_shown(value)})")
    return float(value)


class _Ahead(ValueError):
    """A time no calendar forbids but the clock here has not reached (more than FUTURE_SLACK ahead): the
    export was made on a machine whose clock runs ahead, or under RINGBOOK_NOW, not damaged."""

    def __init__(self, moment: datetime):
        super().__init__(f"is {moment:%Y-%m-%d %H:%M} UTC")
        self.moment = moment


def _moment(value: Any, limits: _Limits) -> str:
    try:
        moment = parse_utc(_text(value, 40))
    except ValueError:
        if type(value) is not str:
            raise
        raise ValueError(f"is not a UTC time: {_shown(value)}") from None
    if limits.latest < moment <= LATEST_STORED:
        raise _Ahead(moment)
    if not EARLIEST <= moment <= limits.latest:
        raise ValueError(f"is {_shown(value)}, not between {EARLIEST:%Y-%m-%d} and {limits.latest:%Y-%m-%d}")
    return value


def _day(value: Any, limits: _Limits) -> str:
    try:
        day = date.fromisoformat(_text(value, 10))
    except ValueError:
        if type(value) is not str:
            raise
        raise ValueError(f"is not a date such as 2026-03-12 ({_shown(value)})") from None
    if not EARLIEST.date() <= day <= LATEST_STORED.date():
        raise ValueError(f"is not between {EARLIEST:%Y-%m-%d} and {LATEST_STORED:%Y-%m-%d} ({_shown(value)})")
    return value


def _payload(value: Any, limits: _Limits) -> dict[str, Any]:
    """A ledger entry's details: a JSON object of bounded size with finite numbers; a quiz's score, when
    given, is a number, since the home screen and `progress` take the best of them."""
    if not isinstance(value, dict):
        raise ValueError(f"is not an object ({type(value).__name__})")
    try:
        size = len(json.dumps(value, allow_nan=False, ensure_ascii=False).encode("utf-8"))
    except (ValueError, TypeError, RecursionError, UnicodeEncodeError):
        raise ValueError("holds something that is not plain JSON (a number that is not finite, "
                         "text that is not valid, or nesting too deep)") from None
    if size > MAX_PAYLOAD:
        raise ValueError(f"is too large ({size} bytes; at most {MAX_PAYLOAD})")
    for key in ("score", "out_of"):
        if key in value and (type(value[key]) not in (int, float) or not 0 <= value[key] < math.inf):
            raise ValueError(f"has a {key} that is not a number of 0 or more ({_shown(value[key])})")
    return value


def _stored_payload(value: Any, limits: _Limits) -> dict[str, Any]:
    """A ledger entry's details as the store keeps them: JSON text."""
    if type(value) is not str:
        raise ValueError(f"has the wrong type ({type(value).__name__})")
    try:
        details = json.loads(value)
    except (ValueError, RecursionError):
        raise ValueError("is not JSON") from None
    return _payload(details, limits)


RULES = {
    "uid": _identifier, "exercise_id": _identifier, "answer": _prose, "status": _status, "message": _prose,
    "feedback": _prose, "hints_used": _hints, "revealed_first": _flag, "seconds_taken": _seconds,
    "created_utc": _moment, "utc_offset_minutes": _offset, "local_date": _day, "part": _identifier,
    "name": _label, "payload": _payload, "seed": _seed, "purpose": _purpose,
}
STORED_RULES = {**RULES, "payload": _stored_payload}


def _cleaned(row: Any, fields: tuple[str, ...], limits: _Limits) -> dict[str, Any]:
    """`row`'s `fields`, each checked against its rule; raises ValueError naming the first that breaks one."""
    if not isinstance(row, dict):
        raise ValueError("it is not an object")
    cleaned = {}
    for name in fields:
        if name not in row and fields is ATTEMPT_FIELDS and name in ATTEMPT_DEFAULTS:
            cleaned[name] = ATTEMPT_DEFAULTS[name]   # an export from before the field existed
            continue
        if name not in row:
            raise ValueError(f"{name!r} is missing")
        try:
            cleaned[name] = RULES[name](row[name], limits)
        except _Ahead:
            raise
        except ValueError as exc:
            raise ValueError(f"{name!r} {exc}") from None
    return cleaned


def _breaks_rules(values: tuple, rules: tuple, limits: _Limits) -> bool:
    """Whether a stored row (its values in the order of `rules`) breaks any rule: the store's open check."""
    try:
        for rule, value in zip(rules, values):
            rule(value, limits)
    except ValueError:
        return True
    return False


def _validated_export(data: Any, now: datetime) -> tuple[list[Attempt], list[dict], list[Entry]]:
    """The rows of an export, every field checked, so nothing odd reaches the store (or a class report)
    to break a streak or a sum later. The first bad field refuses the whole export, named with its row."""
    if not isinstance(data, dict) or data.get("format") != EXPORT_FORMAT:
        raise StoreError("That file is not a ringbook progress export.")
    if not isinstance(data.get("schema"), int) or data["schema"] > SCHEMA_VERSION:
        raise StoreError("That export was written by a newer ringbook; update ringbook to import it.")
    limits = _Limits.for_import(now)
    sections: dict[str, list[dict[str, Any]]] = {}
    for section, fields in (("attempts", ATTEMPT_FIELDS), ("reveals", REVEAL_FIELDS), ("entries", ENTRY_FIELDS)):
        rows = data.get(section, [])
        if not isinstance(rows, list):
            raise StoreError(f"That export is damaged: its {section!r} is not a list. Nothing was imported.")
        sections[section] = []
        for number, row in enumerate(rows, 1):
            try:
                sections[section].append(_cleaned(row, fields, limits))
            except _Ahead as ahead:
                raise StoreError(
                    f"That export was made in the future by this machine's clock: {section} row {number} was made "
                    f"at {ahead.moment:%Y-%m-%d %H:%M} UTC, and it is {now.astimezone(UTC):%Y-%m-%d %H:%M} "
                    "UTC here. The clock of the machine that made it runs ahead, or it was made with RINGBOOK_NOW "
                    "set; import it once this clock has passed that time. Nothing was imported.") from None
            except ValueError as exc:
                raise StoreError(f"That export is damaged: {section} row {number}: {exc}. "
                                 "Nothing was imported.") from None
    return ([Attempt(**row) for row in sections["attempts"]], sections["reveals"],
            [Entry(**row) for row in sections["entries"]])


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


class DamagedStore(sqlite3.DatabaseError):
    """A database that lacks a table or column the store uses: moved aside like an unreadable file."""


def _check_schema(connection: sqlite3.Connection) -> None:
    """Every table and column this ringbook reads is there; the integrity check passes a dropped table."""
    for table, fields in TABLES.items():
        present = {row[1] for row in connection.execute(f"PRAGMA table_info({table})")}
        if not present:
            raise DamagedStore(f"its {table} table is missing")
        missing = [name for name in fields if name not in present]
        if missing:
            raise DamagedStore(f"its {table} table has no {', '.join(missing)} column")


def _savable(row: dict[str, Any], fields: tuple[str, ...]) -> dict[str, Any]:
    """A row this ringbook is about to write, held to the rules an import is held to, so that everything
    it writes can be read, exported and imported again."""
    try:
        return _cleaned(row, fields, STORED)
    except ValueError as exc:
        raise StoreError(f"This could not be saved: {exc}.") from None


def _too_new_message(path: Path | None, version: int) -> str:
    return (f"{path} was written by a newer ringbook (store version {version}; this one reads up to "
            f"{SCHEMA_VERSION}). It has not been changed. Update ringbook, or use --data-dir for another folder.")


def _store_from_file(source: Path) -> sqlite3.Connection:
    """A store file copied into memory and brought to this schema, or StoreError saying why it is not one.
    The file is only read, and only if it is a regular file (not a link, a FIFO, a device); anything in it
    that ringbook does not make itself (a view, a trigger of its own) refuses the whole file."""
    try:
        info = os.lstat(source)
    except OSError as exc:
        raise StoreError(f"it cannot be read ({exc.strerror})") from None
    if not stat.S_ISREG(info.st_mode):
        raise StoreError("it is not a regular file; give the backup file itself")
    memory = _connect(":memory:")
    companions = [Path(f"{source}{suffix}") for suffix in ("-wal", "-shm")]
    left_by_reading = [path for path in companions if not path.exists()]
    try:
        reader = _connect_read_only(source)
        try:
            reader.backup(memory)
        finally:
            reader.close()
            _remove_if_empty_log(left_by_reading)
        version = memory.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise StoreTooNew(_too_new_message(source, version))
        damage = [row[0] for row in memory.execute("PRAGMA quick_check") if row[0] != "ok"]
        if damage or version < 1:
            raise DamagedStore(f"integrity check: {damage[0]}" if damage else "it is not a ringbook progress file")
        _migrate(memory, None)
        _check_schema(memory)
        fresh = ProgressStore.in_memory()
        made_here = _schema_objects(fresh._db) | {("trigger", name, sql) for name, sql in WATERMARK_TRIGGERS.items()}
        fresh.close()
        foreign = sorted(_schema_objects(memory) - made_here)
        if foreign:
            kind, name, _ = foreign[0]
            if any((kind, name) == (ours[0], ours[1]) for ours in made_here):
                raise DamagedStore(f"its {kind} {name!r} is not the one ringbook makes")
            raise DamagedStore(f"it holds {name!r}, which ringbook does not make")
    except StoreError:
        memory.close()
        raise
    except sqlite3.DatabaseError as exc:
        memory.close()
        raise StoreError(f"it is not a readable ringbook progress file ({exc})") from None
    return memory


def _remove_if_empty_log(companions: list[Path]) -> None:
    """Remove the -wal and -shm files that reading a WAL-mode store (a backup kept by an older ringbook)
    created: a read-only connection may not delete them on closing. Only files that were not there before
    the read, and a -wal that holds nothing, so no one's unsaved changes go with them."""
    wal = [path for path in companions if path.name.endswith("-wal")]
    if any(path.exists() and path.stat().st_size for path in wal):
        return
    for path in companions:
        path.unlink(missing_ok=True)


def _schema_objects(connection: sqlite3.Connection) -> set[tuple[str, str, str]]:
    """Each table, index, view and trigger as (type, name, its SQL, as SQLite keeps it word for word): a table of
    ours rebuilt WITHOUT ROWID, or with other constraints, has our name and columns but not our SQL."""
    rows = connection.execute("SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'")
    return {(kind, name, sql or "") for kind, name, sql in rows}


def _move_aside(path: Path) -> Path:
    """Rename an unreadable store (and its WAL files) out of the way; never delete it."""
    stamp = clock.now().strftime("%Y%m%d-%H%M%S")
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
