"""Hostile progress data: exports edited to break ringbook, and stores edited by hand or by an older
ringbook. An import refuses a bad export whole, naming the row and field; a bad row already stored is left
out, said once, and never stops `ringbook progress` or the app from starting."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from rich.console import Console

from tests.helpers import ROOT, ringbook_app
from tests.helpers import ringbook_subprocess as ringbook
from tests.progress.test_store_faults import _can_mount_read_only
from tui.progress.row_rules import DAY_SECONDS
from tui.progress.store import FILE_NAME, ProgressStore, StoreError

HOSTILE = '"@hostile@"'


def an_export() -> dict:
    """A real export of a small store: one attempt, one reveal, one quiz run."""
    store = ProgressStore.in_memory()
    store.record_attempt("0.1", "1.75", "correct", hints_used=1, seconds_taken=30.0)
    store.record_reveal("0.2")
    store.record_entry("quiz", "readiness", {"score": 3, "out_of": 20})
    data = store.export_data()
    store.close()
    return data


def with_hostile(section: str, field: str, literal: str) -> dict:
    """An export whose `section`'s first row has `field` set to the JSON text `literal`, parsed as a real
    file would be (so 1e400 is inf, "\\ud800" a lone surrogate and 10...0 a huge int)."""
    data = an_export()
    data[section][0][field] = "@hostile@"
    return json.loads(json.dumps(data).replace(HOSTILE, literal))


def stored_rows(store: ProgressStore) -> int:
    return sum(store.record_counts().values())


HOSTILE_EXPORTS = [
    ("attempts", "created_utc", '"9999-12-31T23:59:59.999999Z"', "not between 2000-01-01 and"),
    ("attempts", "created_utc", '"0001-01-01T00:00:00.000000Z"', "not between 2000-01-01 and"),
    ("attempts", "utc_offset_minutes", "-1439", "not an offset from UTC within 18 hours"),
    ("attempts", "hints_used", "1" + "0" * 30, "not a count of hints"),
    ("attempts", "hints_used", "-1", "not a count of hints"),
    ("attempts", "seconds_taken", "1e400", "not a number of seconds"),
    ("attempts", "seconds_taken", "1" + "0" * 400, "not a number of seconds"),
    ("attempts", "seconds_taken", str(3 * 24 * 3600), "not a number of seconds"),
    ("attempts", "answer", '"\\ud800"', "not valid text"),
    ("attempts", "exercise_id", '"0.1\\udfff"', "not valid text"),
    ("attempts", "answer", json.dumps("x" * 100_001), "too long"),
    ("attempts", "answer", "5", "has the wrong type (int)"),
    ("attempts", "status", '"maybe"', "neither 'correct' nor 'incorrect'"),
    ("attempts", "revealed_first", "7", "neither true nor false"),
    ("attempts", "local_date", '"12/03/2026"', "not a date"),
    ("attempts", "uid", '""', "is empty"),
    ("reveals", "created_utc", '"yesterday"', "not a UTC time"),
    ("reveals", "utc_offset_minutes", "1e3", "has the wrong type (float)"),
    ("entries", "payload", '{"score": "all of them"}', "score that is not a number"),
    ("entries", "payload", '{"score": 1e400}', "not plain JSON"),
    ("entries", "payload", '"not an object"', "not an object"),
    ("entries", "payload", '{"note": "\\ud800"}', "not plain JSON"),
]


@pytest.mark.parametrize("section, field, literal, reason", HOSTILE_EXPORTS,
                         ids=[f"{s}.{f}={lit[:20]}" for s, f, lit, _ in HOSTILE_EXPORTS])
def test_a_hostile_export_is_refused_whole_naming_row_and_field(store, section, field, literal, reason):
    data = with_hostile(section, field, literal)
    with pytest.raises(StoreError) as refused:
        store.import_data(data)
    message = str(refused.value)
    assert f"{section} row 1: {field!r}" in message and reason in message, message
    assert "Nothing was imported" in message and "\n" not in message
    assert "\x1b" not in message and "\ud800" not in message
    assert stored_rows(store) == 0       # atomic: the good rows of the same export were not kept either


def test_an_export_from_a_clock_a_little_ahead_is_still_imported(store):
    data = an_export()
    ahead = datetime.now(UTC) + timedelta(days=1)
    data["attempts"][0]["created_utc"] = ahead.strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    assert store.import_data(data).total() == 3
    data["attempts"][0]["created_utc"] = (ahead + timedelta(days=2)).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    data["attempts"][0]["uid"] = "another"
    with pytest.raises(StoreError) as refused:
        store.import_data(data)
    message = str(refused.value)   # issue 23: it said "damaged ... not between 2000-01-01 and <in 2 days>"
    assert message.startswith("That export was made in the future by this machine's clock: attempts row 1 "
                              f"was made at {ahead + timedelta(days=2):%Y-%m-%d %H:%M} UTC, and it is ")
    assert "runs ahead, or it was made with RINGBOOK_NOW set" in message and "damaged" not in message
    assert message.endswith("Nothing was imported.") and stored_rows(store) == 3


def test_sections_that_are_not_lists_are_refused(store):
    data = an_export()
    data["attempts"] = {"uid": "x"}
    with pytest.raises(StoreError, match="its 'attempts' is not a list"):
        store.import_data(data)
    data["attempts"] = ["not a row"]
    with pytest.raises(StoreError, match="attempts row 1: it is not an object"):
        store.import_data(data)


def test_a_year_9999_import_is_refused_and_progress_still_starts(tmp_path):
    data_dir = tmp_path / "data"
    export = tmp_path / "export.json"
    export.write_text(json.dumps(with_hostile("attempts", "created_utc", '"9999-12-31T23:59:59.999999Z"')))
    imported = ringbook("--data-dir", str(data_dir), "progress", "import", str(export))
    assert imported.returncode == 1
    assert imported.stderr.count("\n") == 1 and "attempts row 1: 'created_utc'" in imported.stderr
    assert "Traceback" not in imported.stderr
    summary = ringbook("--data-dir", str(data_dir), "progress")
    assert summary.returncode == 0, summary.stderr
    assert "Mastery  0 /" in summary.stdout and summary.stderr == ""


# --- rows already in the store ----------------------------------------------------------------------

# the columns a version 2 store had: rows written as an older ringbook or a hand edit would write them
V2_COLUMNS = ("(uid, exercise_id, answer, status, message, feedback, hints_used, revealed_first, seconds_taken, "
              "created_utc, utc_offset_minutes, local_date)")
BAD_ROWS = [
    # attempts: a time datetime cannot shift, one before any clock, one that is not a time, a count that is
    # text, seconds that are infinite, an answer that is not UTF-8, a status a CHECK would have refused
    "INSERT INTO attempts " + V2_COLUMNS + " VALUES ('b1', '0.2', '70', 'correct', '', '', 0, 0, NULL, "
    "'9999-12-31T23:59:59.999999Z', 600, '9999-12-31')",
    "INSERT INTO attempts " + V2_COLUMNS + " VALUES ('b2', '0.3', '3', 'correct', '', '', 0, 0, NULL, "
    "'0001-01-01T00:00:00.000000Z', -1080, '0001-01-01')",
    "INSERT INTO attempts " + V2_COLUMNS + " VALUES ('b3', '0.4', 'b', 'correct', '', '', 0, 0, NULL, 'yesterday', 0, "
    "'2026-01-01')",
    "INSERT INTO attempts " + V2_COLUMNS + " VALUES ('b4', '0.5', '1', 'correct', '', '', 'lots', 0, NULL, "
    "'2026-01-01T10:00:00.000000Z', 0, '2026-01-01')",
    "INSERT INTO attempts " + V2_COLUMNS + " VALUES ('b5', '0.6', '6', 'correct', '', '', 0, 0, 1e999, "
    "'2026-01-01T10:00:00.000000Z', 0, '2026-01-01')",
    "INSERT INTO attempts " + V2_COLUMNS + " VALUES ('b6', '0.7', CAST(X'FF' AS TEXT), 'correct', '', '', 0, 0, NULL, "
    "'2026-01-01T10:00:00.000000Z', 0, '2026-01-01')",
    # a seed that is text, negative, too large for an integer (SQLite keeps it as a real), or a fraction
    "INSERT INTO attempts " + V2_COLUMNS[:-1] + ", seed) VALUES ('s1', '0.2', '70', 'correct', '', '', 0, 0, NULL, "
    "'2026-01-01T10:00:00.000000Z', 0, '2026-01-01', 'seven')",
    "INSERT INTO attempts " + V2_COLUMNS[:-1] + ", seed) VALUES ('s2', '0.2', '70', 'correct', '', '', 0, 0, NULL, "
    "'2026-01-01T10:00:00.000000Z', 0, '2026-01-01', -1)",
    "INSERT INTO attempts " + V2_COLUMNS[:-1] + ", seed) VALUES ('s3', '0.2', '70', 'correct', '', '', 0, 0, NULL, "
    "'2026-01-01T10:00:00.000000Z', 0, '2026-01-01', 99999999999999999999)",
    "INSERT INTO attempts " + V2_COLUMNS[:-1] + ", seed) VALUES ('s4', '0.2', '70', 'correct', '', '', 0, 0, NULL, "
    "'2026-01-01T10:00:00.000000Z', 0, '2026-01-01', 1.5)",
    # reveals and ledger entries
    "INSERT INTO reveals VALUES ('b8', '0.1', '9999-12-31T23:59:59.999999Z', 1000)",
    "INSERT INTO ledger VALUES ('b9', 'quiz', 'readiness', 'not json', '2026-01-01T10:00:00.000000Z', 0, '2026-01-01')",
    "INSERT INTO ledger VALUES ('b10', 'quiz', 'readiness', '{\"score\": \"high\"}', '2026-01-01T10:00:00.000000Z', "
    "0, '2026-01-01')",
    "INSERT INTO ledger VALUES ('b11', 'quiz', 'readiness', '" + "[" * 100_000 + "', '2026-01-01T10:00:00.000000Z', "
    "0, '2026-01-01')",
]
# a row the schema's CHECK forbids: quick_check names it, and it is left out like the others, not the whole file
BREAKS_A_CHECK = ["PRAGMA ignore_check_constraints = ON",
                  "INSERT INTO attempts " + V2_COLUMNS + " VALUES ('b7', '0.8', '8', 'maybe', '', '', 0, 0, NULL, "
                  "'2026-01-01T10:00:00.000000Z', 0, '2026-01-01')",
                  "INSERT INTO attempts " + V2_COLUMNS[:-1] + ", purpose) VALUES ('b12', '0.8', '8', 'correct', '', "
                  "'', 0, 0, NULL, '2026-01-01T10:00:00.000000Z', 0, '2026-01-01', 'cram')"]


def write_bad_rows(data_dir: Path, statements: list[str] = BAD_ROWS + BREAKS_A_CHECK) -> None:
    """A store with one good correct answer (and a quiz run), then rows written around ringbook."""
    store = ProgressStore.open(data_dir)
    store.record_attempt("0.1", "1.75", "correct", seconds_taken=20.0)
    store.record_entry("quiz", "readiness", {"score": 4, "out_of": 20})
    store.close()
    connection = sqlite3.connect(data_dir / FILE_NAME)
    for statement in statements:
        connection.execute(statement)
    connection.commit()
    connection.close()


def test_bad_stored_rows_are_left_out_and_said_once(data_dir):
    write_bad_rows(data_dir)
    store = ProgressStore.open(data_dir)
    try:
        assert "16 saved records in your progress file could not be read" in store.notice
        assert not list(data_dir.glob("progress.corrupt-*"))
        assert [a.uid for a in store.attempts()] == [store.attempts()[0].uid] and len(store.attempts()) == 1
        states = store.exercise_states()
        assert set(states) == {"0.1"} and states["0.1"].solved and not states["0.1"].revealed
        assert store.streak().current == 1
        assert [e.payload["score"] for e in store.entries("quiz")] == [4]
        export = store.export_data()
        assert len(export["attempts"]) == 1 and export["reveals"] == [] and len(export["entries"]) == 1
        again = ProgressStore.in_memory()
        assert again.import_data(export).total() == 2      # what is read can always be exported and imported again
        store.record_attempt("0.2", "70", "correct")
        assert len(store.attempts()) == 2
    finally:
        store.close()
    raw = sqlite3.connect(data_dir / FILE_NAME)
    assert raw.execute("SELECT COUNT(*) FROM attempts").fetchone()[0] == 14   # kept in the file, never deleted
    raw.close()


def test_progress_starts_over_bad_stored_rows(data_dir):
    write_bad_rows(data_dir)
    result = ringbook("progress")
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    assert result.stderr.count("16 saved records in your progress file could not be read") == 1
    assert result.stderr.count("\n") == 1 and not list(data_dir.glob("progress.corrupt-*"))
    assert "Mastery  1 /" in result.stdout and "Streak   1 day" in result.stdout
    assert "best 4 / 20, 1 run" in result.stdout


def row_text(prompt) -> str:
    """A list's row as the terminal shows it, in plain text."""
    console = Console(width=76, color_system=None)
    with console.capture() as captured:
        console.print(prompt)
    return captured.get()


async def test_the_app_starts_over_bad_stored_rows(book, data_dir):
    write_bad_rows(data_dir, BAD_ROWS)
    store = ProgressStore.open(data_dir)
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        notices = [str(n.message) for n in app._notifications]
        assert sum("14 saved records in your progress file could not be read" in n for n in notices) == 1
        await pilot.press("enter")              # open chapter 0: its exercise list reads the store too
        for _ in range(50):
            await pilot.pause()
            if app.screen.query("#exercise-list"):
                break
        listing = app.screen.query_one("#exercise-list")
        marks = [row_text(listing.get_option_at_index(i).prompt).rsplit("· ", 1)[1].strip() for i in range(3)]
        assert marks == ["solved", "new", "new"]    # 0.2 and 0.3 have only rows that were left out
    store.close()


def test_text_stored_as_bytes_or_numbers_reads_as_text(data_dir):
    store = ProgressStore.open(data_dir)
    store.close()
    connection = sqlite3.connect(data_dir / FILE_NAME)
    connection.execute("INSERT INTO drafts VALUES ('0.1', CAST(X'FF41' AS TEXT), 'x')")
    connection.execute("INSERT INTO state VALUES ('day_boundary_hour', '\u00b2')")
    connection.execute("INSERT INTO state VALUES ('last_chapter', 7)")
    connection.commit()
    connection.close()
    store = ProgressStore.open(data_dir)
    try:
        assert store.draft("0.1") == "\ufffdA"
        assert store.day_boundary_hour == 0
        assert store.last_opened() == ("7", "")
    finally:
        store.close()


def test_our_own_writes_keep_the_rules(store):
    long = store.record_attempt("0.1", "1", "incorrect", seconds_taken=3 * DAY_SECONDS)
    assert long.seconds_taken == DAY_SECONDS          # the learner stepped away; a day is what is kept
    with pytest.raises(StoreError, match="'answer' is too long"):
        store.record_attempt("0.1", "x" * 100_001, "incorrect")
    with pytest.raises(StoreError, match="'created_utc'"):
        store.record_attempt("0.1", "1", "incorrect", now=datetime(1970, 1, 1, tzinfo=UTC))
    with pytest.raises(StoreError, match="'payload' holds something that is not plain JSON"):
        store.record_entry("lab", "paradox", {"mfu": float("nan")})
    assert len(store.attempts()) == 1


def test_an_older_rows_long_time_is_exported_as_a_day(data_dir):
    store = ProgressStore.open(data_dir)
    store.close()
    connection = sqlite3.connect(data_dir / FILE_NAME)
    connection.execute("INSERT INTO attempts " + V2_COLUMNS + " VALUES ('old', '0.1', '1.75', 'correct', '', '', 0, 0, "
                       "90000.0, '2026-01-01T10:00:00Z', 0, '2026-01-01')")   # in whole seconds, as older ones wrote
    connection.commit()
    connection.close()
    store = ProgressStore.open(data_dir)
    try:
        assert store.notice == ""
        [attempt] = store.attempts()
        assert attempt.seconds_taken == DAY_SECONDS
        assert ProgressStore.in_memory().import_data(store.export_data()).total() == 1
    finally:
        store.close()


# --- a store that lost part of its schema -----------------------------------------------------------

DAMAGE = [
    ("DROP TABLE reveals", "its reveals table is missing"),
    ("DROP TABLE ledger", "its ledger table is missing"),
    ("ALTER TABLE attempts DROP COLUMN seconds_taken", "its attempts table has no seconds_taken column"),
]


@pytest.mark.parametrize("damage, reason", DAMAGE)
def test_a_store_missing_part_of_its_schema_is_kept_aside_and_named(data_dir, damage, reason):
    store = ProgressStore.open(data_dir)
    store.record_attempt("0.1", "1.75", "correct")
    store.close()
    connection = sqlite3.connect(data_dir / FILE_NAME)
    connection.execute(damage)
    connection.commit()
    connection.close()
    result = ringbook("progress")   # a command that reads progress says so and moves nothing (issue 43 item 2)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert reason in result.stderr and "damaged" in result.stderr and "kept as" not in result.stderr
    assert sorted(p.name for p in data_dir.iterdir()) == [FILE_NAME]
    opened = ProgressStore.open(data_dir)   # as the app opens it
    opened.close()
    assert reason in opened.notice and "kept as" in opened.notice
    [kept] = data_dir.glob("progress.corrupt-*.sqlite3")
    assert str(kept) in opened.notice
    raw = sqlite3.connect(kept)
    assert raw.execute("SELECT COUNT(*) FROM attempts").fetchone()[0] == 1   # nothing of it was lost
    raw.close()
    store = ProgressStore.open(data_dir)
    try:
        assert store.notice == "" and store.attempts() == []
        store.record_reveal("0.1")
    finally:
        store.close()


async def test_the_app_starts_on_a_store_with_a_dropped_table(book, data_dir):
    ProgressStore.open(data_dir).close()
    connection = sqlite3.connect(data_dir / FILE_NAME)
    connection.execute("DROP TABLE attempts")
    connection.commit()
    connection.close()
    store = ProgressStore.open(data_dir)
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert any("its attempts table is missing" in str(n.message) for n in app._notifications)
    store.close()


@pytest.mark.skipif(not _can_mount_read_only(), reason="needs unshare and a read-only bind mount")
def test_a_damaged_store_on_a_read_only_disk_is_named_and_left_alone(data_dir):
    write_bad_rows(data_dir, BAD_ROWS[:1])
    connection = sqlite3.connect(data_dir / FILE_NAME)
    connection.execute("DROP TABLE drafts")
    connection.commit()
    connection.close()
    script = (f"mount --bind {data_dir} {data_dir} && mount -o remount,bind,ro {data_dir} && "
              f"exec {sys.executable} -m tui --data-dir {data_dir} progress")
    result = subprocess.run(["unshare", "-rm", "sh", "-c", script], capture_output=True, text=True, cwd=ROOT,
                            timeout=120)
    assert result.returncode == 1, result.stderr   # `progress` has no progress to show (issue 43 item 2)
    assert "is damaged (its drafts table is missing) and cannot be moved aside" in result.stderr
    assert "Traceback" not in result.stderr and sorted(p.name for p in data_dir.iterdir()) == [FILE_NAME]


@pytest.mark.skipif(not _can_mount_read_only(), reason="needs unshare and a read-only bind mount")
def test_bad_rows_on_a_read_only_disk_are_left_out_too(data_dir):
    write_bad_rows(data_dir, BAD_ROWS)
    script = (f"mount --bind {data_dir} {data_dir} && mount -o remount,bind,ro {data_dir} && "
              f"exec {sys.executable} -m tui --data-dir {data_dir} progress")
    result = subprocess.run(["unshare", "-rm", "sh", "-c", script], capture_output=True, text=True, cwd=ROOT,
                            timeout=120)
    assert result.returncode == 0, result.stderr
    assert "read-only" in result.stderr and "14 saved records in your progress file could not be read" in result.stderr
    assert "Mastery  1 /" in result.stdout


def test_after_a_reset_new_rows_are_never_mistaken_for_the_bad_ones(data_dir):
    write_bad_rows(data_dir, BAD_ROWS)
    store = ProgressStore.open(data_dir)
    try:
        assert store.reset() is not None
        for n in range(12):                     # they take the rowids the bad rows had
            store.record_attempt("0.1", str(n), "incorrect")
        assert len(store.attempts()) == 12
    finally:
        store.close()


def test_a_row_edited_by_hand_after_an_open_is_checked_again(data_dir):
    write_bad_rows(data_dir, BAD_ROWS[:1])
    for _ in range(2):                          # the second open trusts the first one's check
        store = ProgressStore.open(data_dir)
        assert "1 saved record in your progress file could not be read" in store.notice
        assert len(store.attempts()) == 1
        store.close()
    raw = sqlite3.connect(data_dir / FILE_NAME)
    raw.execute("UPDATE attempts SET created_utc = 'yesterday' WHERE uid != 'b1'")
    raw.execute("DELETE FROM attempts WHERE uid = 'b1'")   # its rowid is free: the next row may take it
    raw.execute("INSERT INTO attempts " + V2_COLUMNS + " VALUES ('b1', '0.2', '70', 'correct', '', '', 0, 0, NULL, "
                "'2026-01-01T10:00:00.000000Z', 0, '2026-01-01')")
    raw.commit()
    raw.close()
    store = ProgressStore.open(data_dir)
    try:
        assert "1 saved record in your progress file could not be read" in store.notice
        assert [a.uid for a in store.attempts()] == ["b1"]
    finally:
        store.close()


def test_a_mark_dropped_or_forged_by_hand_means_every_row_is_checked(data_dir):
    write_bad_rows(data_dir, BAD_ROWS[:1])
    ProgressStore.open(data_dir).close()
    raw = sqlite3.connect(data_dir / FILE_NAME)
    raw.execute("DROP TRIGGER attempts_updated")
    raw.execute("UPDATE attempts SET created_utc = 'yesterday'")
    raw.execute("UPDATE state SET value = 'lots' WHERE key = 'checked:reveals'")
    raw.commit()
    raw.close()
    store = ProgressStore.open(data_dir)
    try:
        assert "2 saved records in your progress file could not be read" in store.notice
        assert store.attempts() == []
    finally:
        store.close()


def test_a_store_in_memory_is_a_whole_empty_store_whatever_the_one_before_was_given():
    """Stores in memory are copies of one empty store (the live view checks each export in one): what an
    export put into the last never reaches the next, and each has the schema a new file is given."""
    from tui.progress.store_file import connect
    from tui.progress.store_schema import SCHEMA_VERSION, migrate, schema_objects, user_version

    first = ProgressStore.in_memory()
    first.import_data(an_export())
    first.set_day_boundary_hour(5)
    second = ProgressStore.in_memory()
    assert first.record_counts() and not second.record_counts()
    assert second.day_boundary_hour == 0 and second.export_data()["attempts"] == []
    made = connect(":memory:")
    migrate(made, None)
    assert schema_objects(second._db) == schema_objects(made)
    assert user_version(second._db) == SCHEMA_VERSION
    for connection in (first, second, made):
        connection.close()
