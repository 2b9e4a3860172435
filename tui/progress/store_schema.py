"""The progress file's shape: its tables, the migrations that build them, the columns the store reads, and
the triggers that let an open skip rows it checked before. A file is held to it before anything is read."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from tui.progress.store_errors import DamagedStore, StoreTooNew

SCHEMA_VERSION = 3
EXPORT_FORMAT = "ringbook-progress"

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
DRAFT_FIELDS = ("exercise_id", "text", "updated_utc")
# What is under way, kept as a state `KIND:NAME` (a quiz run not finished, the design on screen in a lab), as
# an export carries it: its kind, the quiz's or lab's id, and the state's JSON as `payload`.
UNDER_WAY = ("quiz", "lab")
RUN_FIELDS = ("kind", "name", "payload")
EXPORT_SECTIONS = {"attempts": ATTEMPT_FIELDS, "reveals": REVEAL_FIELDS, "entries": ENTRY_FIELDS,
                   "drafts": DRAFT_FIELDS, "runs": RUN_FIELDS}
# The sections of work under way: a learner's own (their other machine imports it), not what they hand in.
IN_PROGRESS_SECTIONS = ("drafts", "runs")
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


def user_version(connection: sqlite3.Connection) -> int:
    """The schema version a file says it has (0 for a file no ringbook has written)."""
    version: int = connection.execute("PRAGMA user_version").fetchone()[0]
    return version


def refuse_too_new(connection: sqlite3.Connection, path: Path | None) -> None:
    """Raise StoreTooNew, having changed nothing, for a file a newer ringbook wrote."""
    version = user_version(connection)
    if version > SCHEMA_VERSION:
        raise StoreTooNew(too_new_message(path, version))


def migrate(connection: sqlite3.Connection, path: Path | None) -> None:
    """Bring the file to SCHEMA_VERSION, every step it lacks in one transaction: an upgrade happens whole or
    not at all, and a new file is one commit (each commit waits for the disk, and a class's first lesson
    creates thirty files at once). Raises StoreTooNew, having changed nothing, for a newer ringbook's file."""
    refuse_too_new(connection, path)
    if user_version(connection) == SCHEMA_VERSION:
        return
    connection.execute("BEGIN IMMEDIATE")
    try:
        version = user_version(connection)   # again, under the write lock: a start beside this one may have done it
        for target in range(version + 1, SCHEMA_VERSION + 1):
            for statement in filter(str.strip, MIGRATIONS[target].split(";")):
                connection.execute(statement)
        connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        connection.execute("COMMIT")
    except BaseException:
        connection.execute("ROLLBACK")
        raise


def check_schema(connection: sqlite3.Connection) -> None:
    """Every table and column this ringbook reads is there; the integrity check passes a dropped table."""
    for table, fields in TABLES.items():
        present = {row[1] for row in connection.execute(f"PRAGMA table_info({table})")}
        if not present:
            raise DamagedStore(f"its {table} table is missing")
        missing = [name for name in fields if name not in present]
        if missing:
            raise DamagedStore(f"its {table} table has no {', '.join(missing)} column")


def schema_objects(connection: sqlite3.Connection) -> set[tuple[str, str, str]]:
    """Each table, index, view and trigger as (type, name, its SQL, as SQLite keeps it word for word): a table of
    ours rebuilt WITHOUT ROWID, or with other constraints, has our name and columns but not our SQL."""
    rows = connection.execute("SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'")
    return {(kind, name, sql or "") for kind, name, sql in rows}


def too_new_message(path: Path | None, version: int) -> str:
    return (f"{path} was written by a newer ringbook (store version {version}; this one reads up to "
            f"{SCHEMA_VERSION}). It has not been changed. Update ringbook, or use --data-dir for another folder.")
