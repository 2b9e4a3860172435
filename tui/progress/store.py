"""The progress store: every attempt a learner makes, kept in SQLite like Anki keeps its collection.

Attempts are append-only, and everything else (solved, streaks) is computed from them, so it can always
be recomputed. Each write is one transaction that has committed before the call returns, and SQLite's
write-ahead log makes it survive a killed process and lets two sessions of the same learner write at
once. A file that is not a readable database, or lacks a table or column, is moved aside, never deleted;
a folder we cannot write to leaves the app working read-only, with a message saying why. Every row is
held to one set of rules (types, ranges, text that can be encoded): an import that breaks them adds
nothing, and a stored row that breaks them (a hand edit, an older ringbook) is left out of every read and
said once, so nothing in the file can stop the app from starting.

This module is the store itself; the file's shape is in store_schema, how the file is found, opened and
moved aside in store_file, the row rules in row_rules, the records it returns in records and what it
raises in store_errors. The names callers use are listed in __all__ below.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections import Counter
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import asdict
from datetime import date, datetime
from pathlib import Path
from typing import Any

from tui.progress import clock
from tui.progress.records import Attempt, Entry, ExerciseState
from tui.progress.row_rules import (
    DAY_SECONDS,
    STORED,
    STORED_RULES,
    breaks_rules,
    check_draft,
    parse_utc,
    savable,
    utc_text,
    validated_export,
)
from tui.progress.store_errors import DamagedStore, StoreError, StoreReadOnly, StoreTooNew, StoreUnreadable
from tui.progress.store_file import (
    BUSY_TIMEOUT_SECONDS,
    FILE_NAME,
    build_store,
    check_room,
    connect,
    connect_read_only,
    default_data_dir,
    is_busy_error,
    is_read_only_error,
    keep_orphan_log,
    log_deleted,
    make_folder,
    move_aside,
    sqlite_code,
    store_from_file,
    why_unreadable,
    write_backup,
)
from tui.progress.store_schema import (
    ATTEMPT_FIELDS,
    CHAPTER_OPENED_PREFIX,
    DRAFT_FIELDS,
    ENTRY_FIELDS,
    EXPORT_FORMAT,
    LOGS,
    REPLAYED_PREFIX,
    REVEAL_FIELDS,
    ROW_LEVEL_FAULTS,
    RUN_FIELDS,
    SCHEMA_VERSION,
    TABLES,
    UNDER_WAY,
    WATERMARK_TRIGGERS,
    check_schema,
    migrate,
    refuse_too_new,
    too_new_message,
    user_version,
)
from tui.progress.streak import Streak, streaks, study_day, today

__all__ = ["FILE_NAME", "Attempt", "Entry", "ExerciseState", "ProgressStore", "StoreError", "StoreReadOnly",
           "StoreTooNew", "StoreUnreadable", "default_data_dir"]

SETTINGS = {"day_boundary_hour": 0}
Statement = tuple[str, tuple[Any, ...]]   # SQL and its parameters


def _new_uid() -> str:
    import uuid  # only when something is written: a start that only reads does not pay for it

    return uuid.uuid4().hex


def _offset_minutes(moment: datetime) -> int:
    offset = moment.utcoffset()
    return int(offset.total_seconds() // 60) if offset else 0


_empty: sqlite3.Connection | None = None   # the empty store every in_memory() store is a copy of
_EMPTY_LOCK = threading.Lock()             # one copy at a time: the live view reads on the watcher's thread

class ProgressStore:
    """One learner's progress in one SQLite file."""

    def __init__(self, connection: sqlite3.Connection, path: Path | None, *, read_only: bool, notice: str = ""):
        self._db = connection
        self.path = path
        self.read_only = read_only
        self.notice = notice
        self.unreadable = ""   # why the store on disk could not be used, when this one stands in for it in memory
        self._visible = {table: table for table in LOGS}  # a log, or a query leaving out its unreadable rows
        # whether the file's triggers are ours, so that what is kept from the log is forgotten when it is edited
        self.log_guarded = False

    # --- opening ------------------------------------------------------------------------------

    @classmethod
    def open(cls, data_dir: Path | None = None, *, session: bool = True) -> ProgressStore:
        """Open (or create) the store in `data_dir`. Raises StoreTooNew. A store that cannot be used is, for an
        app's `session`, a notice: a damaged file is moved aside for a fresh one, and one that cannot be read
        leaves an empty store in memory for this session only. A command that reads progress (session=False)
        gets StoreUnreadable naming the cause instead, with nothing moved: an empty store is not its answer."""
        store = cls._open(Path(data_dir) if data_dir is not None else default_data_dir(), session)
        if store.path is None and not session:
            store.close()
            raise StoreUnreadable(store.unreadable)
        return store

    @classmethod
    def _open(cls, folder: Path, session: bool) -> ProgressStore:
        path = folder / FILE_NAME
        try:
            make_folder(folder)
        except OSError as exc:
            return cls._without_disk(f"Cannot create the progress folder {folder} ({exc.strerror}).")
        if path.exists() and not path.is_file():   # a FIFO there kept SQLite's first read waiting for ever
            return cls._without_disk(f"Your progress file {path} is not a file (a folder, a pipe or a device?), so "
                                     "progress cannot be read or kept in it: move it away, or use --data-dir "
                                     "for another folder.")
        log_gone = log_deleted(path)
        try:
            return cls._open_writable(path)
        except StoreTooNew:
            raise
        except sqlite3.DatabaseError as exc:
            if log_gone and "disk I/O error" in str(exc):
                return cls._without_disk(f"Your progress file {path} cannot be read: its log {path.name}-wal was "
                                         "deleted while a ringbook still has the file open. Quit that ringbook, "
                                         "which writes its answers back into the file, then try again.")
            if is_read_only_error(exc):
                return cls._open_read_only(path, exc)
            if is_busy_error(exc):  # another session's write outlasted the busy timeout: in use, not damaged
                return cls._open_read_only(path, exc, why=f"another program has been writing to {path} for "
                                                          f"over {BUSY_TIMEOUT_SECONDS} s")
            if not session:
                raise StoreUnreadable(f"Your progress file {path} is damaged ({exc}), so it was not read. Start "
                                      "ringbook to keep it aside and begin afresh, or put back a backup with "
                                      "`ringbook progress restore FILE`.") from None
            try:
                kept = move_aside(path)
                store = cls._open_writable(path)
            except (OSError, sqlite3.DatabaseError) as failure:
                return cls._without_disk(f"Your progress file {path} could not be read ({exc}) and could not be "
                                         f"moved aside ({failure}).")
            store.notice = (f"Your progress file could not be read ({exc}), so it was kept as {kept} "
                            "and a fresh one was started.")
            return store
        except OSError as exc:
            return cls._open_read_only(path, exc)

    @classmethod
    def _open_writable(cls, path: Path) -> ProgressStore:
        kept = keep_orphan_log(path)
        if not path.exists() or path.stat().st_size == 0:
            build_store(path)   # whole and on the disk before the first answer
        connection = connect(f"file:{path}", uri=True)
        try:
            damage = [row[0] for row in connection.execute("PRAGMA quick_check")
                      if row[0] != "ok" and not row[0].startswith(ROW_LEVEL_FAULTS)]
            if damage:
                raise sqlite3.DatabaseError(f"integrity check: {damage[0]}")
            refuse_too_new(connection, path)
            connection.execute("PRAGMA synchronous=FULL")   # a saved answer is on the disk
            connection.execute("PRAGMA journal_mode=WAL")
            migrate(connection, path)
            check_schema(connection)
            connection.execute("BEGIN IMMEDIATE")  # can we write at all? find out now, not at the first answer
            connection.execute("ROLLBACK")
            store = cls(connection, path, read_only=False)
            store._leave_out_unreadable_rows()
        except BaseException:
            connection.close()
            raise
        if kept is not None:
            store.notice = (f"Your progress file was empty but its log held answers (the machine stopped before "
                            f"the file was saved?): the log is kept as {kept}, and a fresh file was started.")
        return store

    @classmethod
    def _open_read_only(cls, path: Path, reason: Exception, why: str = "") -> ProgressStore:
        if not path.exists():
            return cls._without_disk(f"Cannot write progress: {why or f'{path.parent} is read-only or full'} "
                                     f"({reason}).")
        cause = why_unreadable(path)
        if cause:   # not a folder that is read-only or full: the file itself cannot be read
            return cls._without_disk(f"Your progress file {path} cannot be read: {cause}.")
        why = why or f"{path.parent} is read-only or full ({reason})"
        try:
            connection = connect_read_only(path)
            version = user_version(connection)
            if version > SCHEMA_VERSION:
                connection.close()
                raise StoreTooNew(too_new_message(path, version))
            if version < SCHEMA_VERSION:
                connection.close()
                return cls._without_disk(f"Cannot update your progress file {path}: {why}.")
            check_schema(connection)
            store = cls(connection, path, read_only=True,
                        notice=f"Progress is read-only: {why}. You can study, but new answers will not be saved.")
            store._leave_out_unreadable_rows()
        except DamagedStore as exc:
            connection.close()
            return cls._without_disk(f"Your progress file {path} is damaged ({exc}) and cannot be moved aside: "
                                     f"{why}.")
        except sqlite3.DatabaseError as exc:
            return cls._without_disk(f"Cannot read your progress file {path} ({exc}): {why}.")
        return store

    @classmethod
    def _without_disk(cls, unreadable: str) -> ProgressStore:
        """The app's fallback: an empty store in memory, for this session only, and a notice saying so."""
        store = cls.in_memory()
        store.read_only, store.unreadable = True, unreadable
        store.notice = (f"{unreadable} For this session only, ringbook runs on an empty store in memory: "
                        "nothing is kept.")
        return store

    @classmethod
    def in_memory(cls) -> ProgressStore:
        """A writable store that keeps nothing on disk: exports read into it answer every question
        (mastery, streak) exactly as the learner's own store would. Each is a copy (SQLite's backup API) of one
        empty store made once: running the schema's forty-odd statements again cost half a millisecond, paid
        for each export a class's live view checks (export_file.checked_rows)."""
        connection = connect(":memory:")
        with _EMPTY_LOCK:
            global _empty
            if _empty is None:
                _empty = connect(":memory:")
                migrate(_empty, None)
            _empty.backup(connection)
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
        unreadable, marks = 0, dict[str, str]()
        with self.snapshot():
            for table, fields in LOGS.items():
                checked, hidden = self._watermark(table) if trusted else (0, [])
                rules = tuple(STORED_RULES[name] for name in fields)
                rows = self._rows_as_stored(table, fields, above=checked)
                hidden += [rowid for rowid, *values in rows if breaks_rules(values, rules, STORED)]
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
        statements: list[Statement] = [(f"DROP TRIGGER IF EXISTS {name}", ()) for name in WATERMARK_TRIGGERS]
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

    def _rows_as_stored(self, table: str, fields: tuple[str, ...], above: int = 0) -> list[tuple[Any, ...]]:
        """Every row of `table` after rowid `above`, rowid first, in rowid order. Text that is not UTF-8
        comes back with lone surrogates in it (which no rule passes), instead of stopping the read."""
        sql = f"SELECT rowid, {', '.join(fields)} FROM {table} WHERE rowid > {int(above)} ORDER BY rowid"
        try:
            return self._db.execute(sql).fetchall()
        except sqlite3.OperationalError as exc:
            if sqlite_code(exc) is not None:   # SQLite's own error; text it cannot decode is the module's, codeless
                raise
        self._db.text_factory = lambda raw: raw.decode("utf-8", "surrogateescape")
        try:
            return self._db.execute(sql).fetchall()
        finally:
            self._db.text_factory = str

    # --- writing ------------------------------------------------------------------------------

    def _write(self, statements: Iterable[Statement]) -> None:
        """Run statements in one IMMEDIATE transaction; it has committed when this returns. Another session's
        write in progress is waited for by SQLite itself, up to the busy timeout set on connecting."""
        if self.read_only:
            raise StoreReadOnly(self.notice or "Progress is read-only.")
        try:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                for sql, parameters in statements:
                    self._db.execute(sql, parameters)
                self._db.execute("COMMIT")
            except BaseException:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                raise
        except sqlite3.DatabaseError as exc:   # also a constraint or a trigger's RAISE in an edited file
            if is_read_only_error(exc):
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
        attempt = Attempt(**savable(dict(
            uid=_new_uid(), exercise_id=exercise_id, answer=answer, status=status, message=message,
            feedback=feedback, hints_used=int(hints_used), revealed_first=bool(revealed), seconds_taken=seconds_taken,
            created_utc=utc_text(moment), utc_offset_minutes=_offset_minutes(moment),
            local_date=moment.date().isoformat(), seed=seed, purpose=purpose,
        ), ATTEMPT_FIELDS))
        self._write([(_insert("attempts", ATTEMPT_FIELDS), _row(attempt, ATTEMPT_FIELDS)),
                     ("DELETE FROM drafts WHERE exercise_id = ?", (draft_key or exercise_id,))])
        return attempt

    def record_reveal(self, exercise_id: str, now: datetime | None = None) -> None:
        """The learner opened the explanation: later correct answers count as solved after reveal."""
        moment = now or clock.now()
        reveal = savable(dict(uid=_new_uid(), exercise_id=exercise_id, created_utc=utc_text(moment),
                               utc_offset_minutes=_offset_minutes(moment)), REVEAL_FIELDS)
        self._write([(_insert("reveals", REVEAL_FIELDS), tuple(reveal.values()))])

    def record_entry(self, part: str, name: str, payload: dict[str, Any], now: datetime | None = None) -> Entry:
        """Append a ledger entry (a quiz run, a lab design); `payload` must be JSON-serialisable."""
        moment = now or clock.now()
        entry = Entry(**savable(dict(uid=_new_uid(), part=part, name=name, payload=payload,
                                      created_utc=utc_text(moment), utc_offset_minutes=_offset_minutes(moment),
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
        """Keep `text` as the draft (none, when empty); row_rules.check_draft's StoreError when it may not be."""
        check_draft(text)
        if not text:
            self._write([("DELETE FROM drafts WHERE exercise_id = ?", (exercise_id,))])
            return
        self._write([("INSERT INTO drafts VALUES (?, ?, ?) ON CONFLICT (exercise_id) DO UPDATE SET "
                      "text = excluded.text, updated_utc = excluded.updated_utc",
                      (exercise_id, text, utc_text(clock.now())))])

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
    def snapshot(self) -> Iterator[None]:
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
        return [_attempt_from_row(row) for row in rows]

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
            "exported_utc": utc_text(clock.now()),
            "day_boundary_hour": self.day_boundary_hour,  # so a class report counts streaks the same way
            "attempts": [asdict(a) for a in self.attempts()],
            "reveals": [dict(zip(REVEAL_FIELDS, row, strict=True)) for row in reveals],
            "entries": [e.exported() for e in self.entries()],
            "drafts": self._drafts(),
            "runs": self._runs_under_way(),
        }

    def _drafts(self) -> list[dict[str, Any]]:
        """The drafts an export carries: those the row rules pass (a hand edit's are left out)."""
        rows = self._db.execute("SELECT exercise_id, CAST(text AS BLOB), updated_utc FROM drafts ORDER BY exercise_id")
        drafts = [dict(exercise_id=key, text=bytes(text or b"").decode("utf-8", "replace"), updated_utc=updated)
                  for key, text, updated in rows]
        return [draft for draft in drafts if not breaks_rules(list(draft.values()), [STORED_RULES[f] for f in
                                                                                    DRAFT_FIELDS], STORED)]

    def _runs_under_way(self) -> list[dict[str, Any]]:
        """The quiz runs and lab designs under way (states `KIND:NAME`) as an export carries them."""
        runs = []
        for kind in UNDER_WAY:
            for key, value in self.states(f"{kind}:").items():
                try:
                    run = dict(kind=kind, name=key.removeprefix(f"{kind}:"), payload=json.loads(value))
                except ValueError:   # none (""), or a hand edit
                    continue
                if not breaks_rules([kind, run["name"], value], [STORED_RULES[f] for f in RUN_FIELDS], STORED):
                    runs.append(run)
        return runs

    def import_data(self, data: Any, now: datetime | None = None) -> Counter[str]:
        """Merge an export; rows already present (same uid) are skipped, so importing twice adds nothing.
        A draft is taken unless this store's draft of that exercise is as new or newer, or an attempt on it
        was made since (an answer spends its draft); a quiz run or lab design under way is taken only where
        this store has none under way and has finished no run (saved no design) of it since the export was
        made. Returns how many records were added, by kind (record_counts). Raises StoreError, having added
        nothing, on data that is not a ringbook export or has any field out of its rules (a time after `now`,
        a count no one could make)."""
        rows = validated_export(data, now or clock.now())
        made = data.get("exported_utc") if isinstance(data.get("exported_utc"), str) else ""
        before, carried_before = self.record_counts(), self._carried()
        self._write([(_insert("attempts", ATTEMPT_FIELDS, ignore=True), _row(Attempt(**a), ATTEMPT_FIELDS))
                     for a in rows["attempts"]]
                    + [(_insert("reveals", REVEAL_FIELDS, ignore=True), tuple(r[f] for f in REVEAL_FIELDS))
                       for r in rows["reveals"]]
                    + [(_insert("ledger", ENTRY_FIELDS, ignore=True), Entry(**e).row()) for e in rows["entries"]]
                    + [(_TAKE_DRAFT, (d["exercise_id"], d["text"], d["updated_utc"], d["exercise_id"],
                                      d["updated_utc"])) for d in rows["drafts"]]
                    + [(_TAKE_RUN, (f"{r['kind']}:{r['name']}", json.dumps(r["payload"]), f"{r['kind']}:{r['name']}",
                                    r["kind"], r["name"], made)) for r in rows["runs"]])
        taken = self._carried() - carried_before
        offered = {("drafts", d["exercise_id"], d["updated_utc"]) for d in rows["drafts"]}
        offered |= {(f"runs:{r['kind']}", r["name"], json.dumps(r["payload"])) for r in rows["runs"]}
        added = self.record_counts() - before
        for kind in ("drafts", *(f"runs:{kind}" for kind in UNDER_WAY)):   # a draft taken may replace one
            del added[kind]
        added.update(kind for kind, *_ in taken & offered)
        return added

    def _carried(self) -> set[tuple[str, str, str]]:
        """The drafts (kind, exercise, time) and runs under way (kind, name, JSON) this store holds now."""
        held = {("drafts", key, updated) for key, updated in self._db.execute("SELECT exercise_id, updated_utc "
                                                                               "FROM drafts")}
        for kind in UNDER_WAY:
            held |= {(f"runs:{kind}", key.removeprefix(f"{kind}:"), value)
                     for key, value in self.states(f"{kind}:").items() if value}
        return held

    def record_counts(self) -> Counter[str]:
        """The records an export carries, by kind: "attempts", "reveals" (answers shown), each ledger part
        ("entries:quiz" runs, "entries:lab" designs), "drafts", and each kind under way ("runs:quiz",
        "runs:lab"), as export_file.export_counts counts an export's."""
        counts: Counter[str] = Counter()
        rows = self._db.execute("SELECT 'attempts', COUNT(*) FROM attempts UNION ALL "
                                "SELECT 'reveals', COUNT(*) FROM reveals UNION ALL "
                                "SELECT 'entries:' || part, COUNT(*) FROM ledger GROUP BY part UNION ALL "
                                "SELECT 'drafts', COUNT(*) FROM drafts")
        for kind, number in rows:
            counts[kind] += number
        for kind in UNDER_WAY:
            counts[f"runs:{kind}"] += sum(1 for value in self.states(f"{kind}:").values() if value)
        return +counts

    def backup(self, target: Path) -> None:
        """A consistent copy of the whole store as one file, on the disk when this returns (store_file.write_backup);
        StoreError, with nothing left at `target`, when it cannot be made (a full disk)."""
        write_backup(self._db, target)

    def reset(self) -> Path | None:
        """Start over, keeping a backup first; returns where the backup is. StoreError, having changed
        nothing, when the store is read-only or the backup cannot be kept (a full disk)."""
        try:
            if self.path is not None:
                check_room(self._db, self.path.parent)   # a full disk is said so, read-only or not
            if self.read_only:
                raise StoreReadOnly(self.notice or "progress is read-only")
            backup = self._keep_backup()
        except StoreError as exc:
            raise StoreError(f"Cannot reset: {str(exc).rstrip('.')}. Nothing was changed.") from None
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
        donor = store_from_file(source)
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


# An imported draft, unless this store's is as new or newer or an attempt on the exercise came since.
_TAKE_DRAFT = ("INSERT INTO drafts (exercise_id, text, updated_utc) SELECT ?, ?, ? WHERE NOT EXISTS (SELECT 1 FROM "
               "attempts WHERE exercise_id = ? AND created_utc >= ?) ON CONFLICT (exercise_id) DO UPDATE SET "
               "text = excluded.text, updated_utc = excluded.updated_utc WHERE excluded.updated_utc > updated_utc")
# An imported run under way, unless one is under way here or one was finished (saved) since the export.
_TAKE_RUN = ("INSERT INTO state (key, value) SELECT ?, ? WHERE NOT EXISTS (SELECT 1 FROM state WHERE key = ? AND "
             "value != '') AND NOT EXISTS (SELECT 1 FROM ledger WHERE part = ? AND name = ? AND created_utc >= ?) "
             "ON CONFLICT (key) DO UPDATE SET value = excluded.value")


def _insert(table: str, fields: tuple[str, ...], ignore: bool = False) -> str:
    placeholders = ", ".join("?" * len(fields))
    return f"INSERT {'OR IGNORE ' if ignore else ''}INTO {table} ({', '.join(fields)}) VALUES ({placeholders})"


def _attempt_from_row(row: tuple[Any, ...]) -> Attempt:
    """An attempt read back in ATTEMPT_FIELDS order: its flag as a bool, its time held to a day (an older
    ringbook kept longer ones; an export holds them to a day, as this one records them)."""
    attempt = Attempt(*row)
    attempt.revealed_first = bool(attempt.revealed_first)
    if attempt.seconds_taken is not None:
        attempt.seconds_taken = min(attempt.seconds_taken, DAY_SECONDS)
    return attempt


def _row(attempt: Attempt, fields: tuple[str, ...]) -> tuple[Any, ...]:
    return tuple(int(v) if isinstance(v, bool) else v for v in (getattr(attempt, f) for f in fields))
