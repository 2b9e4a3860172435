"""Progress as a learner and an instructor meet it: attempts, mastery, resume, drafts, retired
exercises, and the `ringbook progress` commands."""

from __future__ import annotations

import json
import os
import shlex
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import ringbook_subprocess as ringbook
from tests.hostile_exports import CONTENT_ATTACKS, FILE_ATTACKS, ringbook_child
from tui.app import RingbookApp
from tui.cli.main import main
from tui.progress.mastery import mastery
from tui.progress.store import FILE_NAME, ProgressStore


def test_attempts_keep_everything_the_issue_lists(store):
    attempt = store.record_attempt("0.1", " 0.875 ", "incorrect", message="Not quite.", feedback="One phase only.",
                                   hints_used=2, seconds_taken=41.5)
    [kept] = store.attempts("0.1")
    assert kept == attempt
    assert (kept.answer, kept.status, kept.feedback, kept.hints_used, kept.seconds_taken) == (
        " 0.875 ", "incorrect", "One phase only.", 2, 41.5)
    assert kept.created_utc.endswith("Z") and len(kept.local_date) == 10
    with pytest.raises(ValueError):
        store.record_attempt("0.1", "1,75", "invalid")


def test_solved_after_reveal_is_recorded_and_shown(book, store):
    store.record_attempt("0.1", "1.75", "correct")
    store.record_reveal("0.2")
    store.record_attempt("0.2", "70", "correct")
    store.record_attempt("0.3", "3", "incorrect")
    states = store.exercise_states()
    assert [states[i].mark for i in ("0.1", "0.2", "0.3")] == ["solved", "solved after reveal", "tried"]
    assert states["0.2"].revealed and not states["0.1"].revealed
    overall = mastery(book, states)
    assert (overall.solved, overall.total, overall.after_reveal) == (2, len(book.exercises), 1)
    assert overall.chapters[0].solved == 2 and overall.summary.startswith(f"2 / {len(book.exercises)} exercises")


def test_solving_again_after_a_later_reveal_stays_plain_solved(store):
    store.record_attempt("0.1", "1.75", "correct")
    store.record_reveal("0.1")
    store.record_attempt("0.1", "1.75", "correct")
    assert store.exercise_states()["0.1"].mark == "solved"


def test_retired_exercises_are_kept_and_counted(book, store):
    store.record_attempt("0.99", "1", "incorrect")
    store.record_attempt("0.99", "2", "correct")
    overall = mastery(book, store.exercise_states())
    assert overall.retired == ("0.99",) and overall.retired_attempts == 2
    assert overall.solved == 0
    assert len(store.attempts()) == 2


def test_resume_and_drafts_survive_reopening(data_dir):
    store = ProgressStore.open(data_dir)
    store.set_last_opened("5", "5.3")
    store.save_draft("5.3", "(4-1)/(12*")
    store.close()
    store = ProgressStore.open(data_dir)
    try:
        assert store.last_opened() == ("5", "5.3")
        assert store.draft("5.3") == "(4-1)/(12*"
        store.record_attempt("5.3", "6.25", "correct")
        assert store.draft("5.3") == ""     # sent: no longer a draft
    finally:
        store.close()


def test_summary_command(book, data_dir):
    store = ProgressStore.open(data_dir)
    store.record_attempt("0.1", "1.75", "correct")
    store.record_attempt("0.99", "1", "incorrect")
    store.close()
    result = ringbook("progress")
    assert result.returncode == 0, result.stderr
    total = len(book.exercises)
    assert f"Mastery  1 / {total} exercises ({round(100 / total)}%)" in result.stdout
    assert "Streak   1 day (best 1), done today" in result.stdout
    assert " 0  Ring AllReduce" in result.stdout and f"1 / {len(book.chapters[0].exercises)}" in result.stdout
    assert "Retired: 1 attempt(s) on 1 exercise(s) no longer in the book (0.99)" in result.stdout
    assert "Readiness Check (quiz): not taken yet" in result.stdout
    store = ProgressStore.open(data_dir)
    store.record_entry("quiz", "readiness", {"score": 12.5, "out_of": 20})
    store.record_entry("quiz", "readiness", {"score": 15, "out_of": 20})
    store.record_entry("lab", "parallelism-paradox", {"tp": 8})
    store.close()
    result = ringbook("progress")
    assert "Readiness Check (quiz): best 15 / 20, 2 runs" in result.stdout
    assert "Lab: The Parallelism Paradox: 1 design saved" in result.stdout


def _data(export: dict) -> dict:
    return {k: v for k, v in export.items() if k != "exported_utc"}


def test_the_summary_reads_a_changed_book_afresh_and_an_unchanged_one_from_the_book_cache(chapters_copy, data_dir,
                                                                                          capsys, tmp_path,
                                                                                          monkeypatch):
    """`ringbook progress` reads the book as the app does: from the reader's own cache while its files are
    unchanged (checking every file again each time cost 0.4 s a run), and from its files once one changes."""
    book_copy = chapters_copy("00-ring-allreduce")
    cache = tmp_path / "cache"
    monkeypatch.setenv("RINGBOOK_CACHE_DIR", str(cache))

    def summary_title() -> str:
        assert main(["--content", str(book_copy), "--data-dir", str(data_dir), "progress"]) == 0
        return capsys.readouterr().out.splitlines()[0]

    assert summary_title() == "Distributed Training, Derived"
    assert list(cache.glob("book-cache-*.json"))
    book_yaml = book_copy / "book.yaml"
    book_yaml.write_text(book_yaml.read_text().replace('title: "Distributed Training, Derived"',
                                                       'title: "Distributed Training, Revisited"', 1))
    assert summary_title() == "Distributed Training, Revisited"


def test_export_import_round_trip_is_identical_and_idempotent(tmp_path, data_dir):
    store = ProgressStore.open(data_dir)
    for i, status in enumerate(["incorrect", "correct", "incorrect", "correct"]):
        store.record_attempt(f"0.{i + 1}", f"answer {i}", status, feedback=f"feedback {i}", hints_used=i,
                             seconds_taken=i * 1.5)
    store.record_reveal("0.4")
    store.record_entry("lab", "act 2 design", {"tp": 8, "pp": 16, "fits": True})
    store.close()
    first = tmp_path / "first.json"
    assert ringbook("progress", "export", str(first)).returncode == 0
    empty = tmp_path / "empty"
    imported = ringbook("--data-dir", str(empty), "progress", "import", str(first))
    assert imported.returncode == 0
    assert imported.stdout == f"Imported 4 attempts, 1 revealed answer and 1 saved lab design from {first}.\n"
    again = ringbook("--data-dir", str(empty), "progress", "import", str(first))
    assert again.stdout == (f"Imported nothing new from {first}: its 4 attempts, 1 revealed answer and 1 saved "
                            "lab design were all here already.\n")
    second = tmp_path / "second.json"
    assert ringbook("--data-dir", str(empty), "progress", "export", str(second)).returncode == 0
    assert _data(json.loads(first.read_text())) == _data(json.loads(second.read_text()))
    assert len(json.loads(second.read_text())["attempts"]) == 4
    [entry] = json.loads(second.read_text())["entries"]
    assert (entry["part"], entry["payload"]) == ("lab", {"tp": 8, "pp": 16, "fits": True})


def test_export_and_import_count_the_same_records_in_the_same_words(tmp_path, data_dir):
    """Issue 23: "Exported 34 attempt(s)", then "Imported 36 new record(s)" of the same file: each side
    counted something else. Both now name every kind, and an import says what was new."""
    store = ProgressStore.open(data_dir)
    for i in range(3):
        store.record_attempt(f"0.{i + 1}", "1", "incorrect")
    store.record_reveal("0.1")
    store.record_reveal("0.2")
    store.record_entry("quiz", "readiness", {"score": 3, "out_of": 20})
    store.close()
    target = tmp_path / "mine.json"
    exported = ringbook("progress", "export", str(target))
    assert exported.stdout == f"Exported 3 attempts, 2 revealed answers and 1 quiz run to {target}.\n"
    other = tmp_path / "other"
    partial = ProgressStore.open(other)
    partial.import_data({**json.loads(target.read_text()), "reveals": [], "entries": []})
    partial.close()
    imported = ringbook("--data-dir", str(other), "progress", "import", str(target))
    assert imported.stdout == (f"Imported 0 attempts, 2 revealed answers and 1 quiz run from {target}; the rest "
                               "of its 3 attempts, 2 revealed answers and 1 quiz run were here already.\n")


def test_an_export_made_with_a_clock_ahead_is_refused_as_from_the_future_not_as_damaged(tmp_path):
    """Issue 23: an export made under RINGBOOK_NOW (2027) was refused on the real clock as "damaged"."""
    ahead = {**os.environ, "RINGBOOK_DATA_DIR": str(tmp_path / "ahead"), "RINGBOOK_NOW": "2027-03-01T10:00:00+01:00"}
    store = subprocess.run([sys.executable, "-c", "from tui.progress.store import ProgressStore; "
                            "s = ProgressStore.open(); s.record_attempt('0.1', '1.75', 'correct'); s.close()"],
                           env=ahead, cwd=Path(__file__).resolve().parents[2], check=True, timeout=60)
    assert store.returncode == 0
    target = tmp_path / "ahead.json"
    assert ringbook("progress", "export", target, env=ahead).returncode == 0
    refused = ringbook("--data-dir", str(tmp_path / "here"), "progress", "import", str(target))
    assert refused.returncode == 1
    assert refused.stderr.startswith(f"ringbook: cannot import {target}: That export was made in the future by "
                                     "this machine's clock: attempts row 1 was made at 2027-03-01 09:00 UTC")
    assert "made with RINGBOOK_NOW set" in refused.stderr and "damaged" not in refused.stderr
    later = {**os.environ, "RINGBOOK_DATA_DIR": str(tmp_path / "later"), "RINGBOOK_NOW": "2027-03-02T10:00:00+00:00"}
    accepted = ringbook("progress", "import", target, env=later)
    assert accepted.stdout == f"Imported 1 attempt from {target}.\n"


def test_ledger_entries_survive_reopening_and_filter_by_part(data_dir):
    store = ProgressStore.open(data_dir)
    quiz = store.record_entry("quiz", "readiness", {"score": 14, "out_of": 19})
    store.record_entry("lab", "act 1 prediction", {"choice": "b"})
    store.close()
    reopened = ProgressStore.open(data_dir)
    assert reopened.entries("quiz") == [quiz]
    assert [e.part for e in reopened.entries()] == ["quiz", "lab"]


def test_a_version_1_store_gains_the_ledger_and_keeps_its_attempts(data_dir):
    import sqlite3

    from tui.progress.store_schema import MIGRATIONS
    data_dir.mkdir(parents=True, exist_ok=True)
    connection = sqlite3.connect(data_dir / FILE_NAME)
    connection.executescript(MIGRATIONS[1])
    connection.execute("INSERT INTO attempts VALUES ('u1', '0.1', '1.75', 'correct', '', '', 0, 0, NULL, "
                       "'2026-01-01T10:00:00Z', 0, '2026-01-01')")
    connection.execute("PRAGMA user_version = 1")
    connection.commit()
    connection.close()
    store = ProgressStore.open(data_dir)
    assert [a.uid for a in store.attempts()] == ["u1"]
    store.record_entry("quiz", "readiness", {"score": 1})
    assert len(store.entries("quiz")) == 1


def test_a_version_2_store_keeps_its_attempts_as_answers_to_the_books_own_numbers(data_dir):
    """Migration 3: every attempt made before seeds existed answered the canonical variant, in the chapter."""
    import sqlite3

    from tui.progress.store_schema import MIGRATIONS
    data_dir.mkdir(parents=True, exist_ok=True)
    connection = sqlite3.connect(data_dir / FILE_NAME)
    connection.executescript(MIGRATIONS[1] + MIGRATIONS[2])
    connection.execute("INSERT INTO attempts VALUES ('u1', '0.1', '0.875', 'incorrect', 'Not quite.', 'One phase.', "
                       "1, 0, 30.5, '2026-01-01T10:00:00.000000Z', 60, '2026-01-01')")
    connection.execute("INSERT INTO ledger VALUES ('q1', 'quiz', 'readiness', '{\"score\": 3}', "
                       "'2026-01-01T11:00:00.000000Z', 60, '2026-01-01')")
    connection.execute("PRAGMA user_version = 2")
    connection.commit()
    connection.close()
    store = ProgressStore.open(data_dir)
    [old] = store.attempts()
    assert (old.uid, old.answer, old.hints_used, old.seconds_taken, old.seed, old.purpose) == (
        "u1", "0.875", 1, 30.5, 0, "learn")
    assert store.notice == "" and len(store.entries("quiz")) == 1
    new = store.record_attempt("0.1", "3.5", "correct", seed=12345, purpose="review", revealed=False)
    store.close()
    reopened = ProgressStore.open(data_dir)
    assert reopened.attempts()[-1] == new and (new.seed, new.purpose) == (12345, "review")
    assert reopened._db.execute("PRAGMA user_version").fetchone()[0] == 3
    assert reopened.export_data()["attempts"][-1]["seed"] == 12345
    reopened.close()


def test_an_export_from_before_seeds_imports_as_the_books_own_numbers(tmp_path, data_dir, capsys):
    old = {"format": "ringbook-progress", "schema": 2, "attempts": [
        {"uid": "u1", "exercise_id": "0.1", "answer": "1.75", "status": "correct", "message": "", "feedback": "",
         "hints_used": 0, "revealed_first": False, "seconds_taken": None, "created_utc": "2026-01-01T10:00:00.000000Z",
         "utc_offset_minutes": 0, "local_date": "2026-01-01"}], "reveals": [], "entries": []}
    source = tmp_path / "old.json"
    source.write_text(json.dumps(old))
    assert main(["--data-dir", str(data_dir), "progress", "import", str(source)]) == 0
    store = ProgressStore.open(data_dir)
    [attempt] = store.attempts()
    assert (attempt.seed, attempt.purpose) == (0, "learn")
    store.close()


def test_a_bad_seed_or_purpose_is_refused_before_it_is_saved(store):
    from tui.progress.store import StoreError
    for fields in ({"seed": -1}, {"seed": 2**63}, {"seed": 1.0}, {"purpose": "cram"}):
        with pytest.raises(StoreError):
            store.record_attempt("0.1", "1.75", "correct", **fields)
    assert store.attempts() == []


def test_export_csv_to_stdout(data_dir):
    store = ProgressStore.open(data_dir)
    store.record_attempt("0.1", "1,750 MB", "correct")
    store.close()
    result = ringbook("progress", "export", "--format", "csv")
    lines = result.stdout.splitlines()
    assert lines[0].startswith("uid,exercise_id,answer,status")
    assert '"1,750 MB"' in lines[1] and len(lines) == 2


@pytest.mark.parametrize("content, message", [
    ("not json", "is not JSON, so not a ringbook progress export"),
    ('{"format": "something-else"}', "not a ringbook progress export"),
    ('{"format": "ringbook-progress", "schema": 1, "attempts": [{"uid": "x"}]}', "damaged"),
])
def test_import_refuses_bad_files_clearly(tmp_path, data_dir, content, message):
    bad = tmp_path / "bad.json"
    bad.write_text(content)
    result = ringbook("progress", "import", str(bad))
    assert result.returncode == 1 and message in result.stderr and "Traceback" not in result.stderr


@pytest.fixture
def honest_export(tmp_path, capsys) -> dict:
    """A real export of a learner's store, made by `ringbook progress export`."""
    learner = tmp_path / "learner"
    store = ProgressStore.open(learner)
    store.record_attempt("0.1", "0.875", "incorrect")
    store.record_attempt("0.1", "1.75", "correct")
    store.close()
    target = tmp_path / "export.json"
    assert main(["--data-dir", str(learner), "progress", "export", str(target)]) == 0
    capsys.readouterr()
    return json.loads(target.read_text())


@pytest.mark.parametrize("attack", sorted(CONTENT_ATTACKS))
def test_import_refuses_a_hostile_file_in_one_line_and_keeps_nothing_of_it(tmp_path, capsys, honest_export, attack):
    """Found: JSON 100k deep, hints_used 10**30, seconds_taken 10**400, a lone surrogate, years 9999 and
    0001 with extreme offsets crashed `progress import` with a traceback (and the year-9999 rows were
    kept, to crash every start after)."""
    make, reason = CONTENT_ATTACKS[attack]
    hostile = tmp_path / attack
    make(honest_export, hostile)
    store_dir = tmp_path / "mine"
    code = main(["--data-dir", str(store_dir), "progress", "import", str(hostile)])
    out, err = capsys.readouterr()
    assert code == 1 and out == ""
    assert len(err.splitlines()) == 1 and err.startswith(f"ringbook: cannot import {hostile}: ") and reason in err
    store = ProgressStore.open(store_dir)
    assert store.attempts() == [] and store.entries() == []
    store.close()


@pytest.mark.parametrize("attack", sorted(FILE_ATTACKS))
def test_import_reads_regular_files_only(tmp_path, honest_export, attack):
    """A link (to /dev/zero, or out of the folder), a FIFO, a folder or a file past the size cap is
    refused by what it is, before anything is read; in a child with bounded memory and a time limit,
    because the old reader swallowed /dev/zero and waited on the FIFO forever."""
    folder = tmp_path / "given"
    folder.mkdir()
    outside = tmp_path / "elsewhere.json"
    outside.write_text(json.dumps(honest_export))
    make, reason = FILE_ATTACKS[attack]
    make(folder, outside)
    result = ringbook_child("--data-dir", tmp_path / "mine", "progress", "import", folder / attack)
    assert result.returncode == 1 and result.stdout == ""
    assert len(result.stderr.splitlines()) == 1, result.stderr
    assert result.stderr.startswith(f"ringbook: cannot import {folder / attack}: {reason}"), result.stderr


def test_import_shows_a_file_name_as_text(tmp_path, capsys):
    """A file name is printed as text: escape sequences in it show as escapes, never act."""
    hostile = tmp_path / "\x1b]52;c;aGk=\x07.json"
    hostile.write_text("not JSON")
    assert main(["--data-dir", str(tmp_path / "mine"), "progress", "import", str(hostile)]) == 1
    err = capsys.readouterr().err
    assert "\x1b" not in err and "\\x1b]52;c;aGk=\\x07.json: is not JSON" in err


def test_the_summary_shows_imported_exercise_ids_as_text(tmp_path, capsys, honest_export):
    """An imported export can carry any exercise id; the summary lists retired ids, and must not send
    one that is an escape sequence to the terminal."""
    honest_export["attempts"][0]["exercise_id"] = "\x1b[2J\x1b]52;c;aGk=\x07"
    source = tmp_path / "odd.json"
    source.write_text(json.dumps(honest_export))
    mine = str(tmp_path / "mine")
    assert main(["--data-dir", mine, "progress", "import", str(source)]) == 0
    capsys.readouterr()
    assert main(["--data-dir", mine, "progress"]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "(\\x1b[2J\\x1b]52;c;aGk=\\x07); they are kept." in out


def test_reset_asks_and_keeps_a_backup(data_dir):
    store = ProgressStore.open(data_dir)
    store.record_attempt("0.1", "1.75", "correct")
    store.close()
    declined = ringbook("progress", "reset", stdin="no\n")
    assert declined.returncode == 1 and "Nothing was changed" in declined.stdout
    confirmed = ringbook("progress", "reset", stdin="reset\n")
    assert confirmed.returncode == 0
    backups = list(data_dir.glob("progress.backup-*.sqlite3"))
    assert len(backups) == 1
    assert ProgressStore.open(data_dir).attempts() == []
    kept = ProgressStore.open(backups[0].parent / "restore")
    kept.close()
    backups[0].replace(data_dir / "restore" / FILE_NAME)
    assert len(ProgressStore.open(data_dir / "restore").attempts()) == 1
    assert ringbook("progress", "reset", "--yes").returncode == 0


def answers(data_dir: Path) -> list[tuple[str, str]]:
    store = ProgressStore.open(data_dir)
    try:
        return [(a.exercise_id, a.answer) for a in store.attempts()]
    finally:
        store.close()


def test_reset_says_how_to_restore_and_restoring_keeps_what_it_replaces(tmp_path, capsys):
    """reset kept a backup that `progress import` refused, and said nothing of how to get it back."""
    data_dir = tmp_path / "my data"
    store = ProgressStore.open(data_dir)
    store.record_attempt("0.1", "1.75", "correct")
    store.record_attempt("0.2", "69", "incorrect")
    store.save_draft("0.5", "def ring(): ...")
    store.close()

    assert main(["progress", "reset", "--yes", "--data-dir", str(data_dir)]) == 0
    *_, command = capsys.readouterr().out.splitlines()
    assert answers(data_dir) == []
    store = ProgressStore.open(data_dir)
    store.record_attempt("0.3", "8", "correct")   # progress made after the reset is not lost by a restore
    store.close()

    words = shlex.split(command)
    assert words[:3] == ["ringbook", "progress", "restore"] and words[-2:] == ["--data-dir", str(data_dir)]
    assert main(["progress", "import", words[3], "--data-dir", str(data_dir)]) != 0   # import points to restore
    assert "ringbook progress restore FILE" in capsys.readouterr().err
    assert main(words[1:]) == 0
    *_, undo = capsys.readouterr().out.splitlines()
    assert answers(data_dir) == [("0.1", "1.75"), ("0.2", "69")]
    store = ProgressStore.open(data_dir)
    assert store.draft("0.5") == "def ring(): ..."
    store.close()

    assert main(shlex.split(undo)[1:]) == 0        # and the restore itself can be undone
    assert answers(data_dir) == [("0.3", "8")]
    assert sorted(path.name for path in data_dir.iterdir() if path.name.endswith(("-wal", "-shm"))) == []


def test_restoring_a_backup_in_wal_mode_leaves_no_wal_or_shm_files(tmp_path, capsys):
    """Issue 23: `restore` left progress.backup-...sqlite3-shm and -wal behind: reading a WAL-mode file
    read-only creates them and may not delete them. Backups are now kept as one file, and those an older
    ringbook kept in WAL mode are cleaned up after reading."""
    data_dir = tmp_path / "data"
    store = ProgressStore.open(data_dir)
    store.record_attempt("0.1", "1.75", "correct")
    old_style = data_dir / "progress.backup-20260101-100000.sqlite3"
    copy = sqlite3.connect(old_style)
    store._db.backup(copy)                       # as backups were kept before: in the store's WAL mode
    copy.close()
    store.close()
    assert old_style.read_bytes()[18:20] == b"\x02\x02"   # WAL in the header
    assert main(["progress", "restore", str(old_style), "--data-dir", str(data_dir)]) == 0
    *_, undo = capsys.readouterr().out.splitlines()
    assert main(shlex.split(undo)[1:]) == 0
    names = sorted(path.name for path in data_dir.iterdir())
    assert [name for name in names if name.endswith(("-wal", "-shm"))] == [], names
    assert answers(data_dir) == [("0.1", "1.75")]


def test_restore_refuses_what_is_not_a_ringbook_store_and_changes_nothing(tmp_path, capsys):
    data_dir = tmp_path / "data"
    store = ProgressStore.open(data_dir)
    store.record_attempt("0.1", "1.75", "correct")
    store.close()
    garbage = tmp_path / "garbage.sqlite3"
    garbage.write_bytes(b"not a database" * 100)
    foreign = tmp_path / "foreign.sqlite3"
    ProgressStore.open(tmp_path / "other").close()
    (tmp_path / "other" / FILE_NAME).replace(foreign)
    with sqlite3.connect(foreign) as db:
        db.execute("CREATE VIEW spy AS SELECT * FROM attempts")
    link = tmp_path / "link.sqlite3"
    link.symlink_to(data_dir / FILE_NAME)
    export = tmp_path / "export.json"
    export.write_text(json.dumps({"format": "ringbook-progress"}))
    for source, reason in [(garbage, "is not a readable ringbook progress file"), (foreign, "'spy'"),
                           (link, "is not a regular file"), (export, "is not a readable ringbook progress file"),
                           (tmp_path / "missing.sqlite3", "cannot be read")]:
        assert main(["progress", "restore", str(source), "--data-dir", str(data_dir)]) == 1
        out, err = capsys.readouterr()
        assert out == "" and len(err.splitlines()) == 1 and reason in err and "Nothing was changed." in err, err
        assert answers(data_dir) == [("0.1", "1.75")]
    assert not list(data_dir.glob("progress.backup-*")), "a refused file still made a backup"


async def test_the_app_shows_the_store_notice(book, tmp_path):
    (tmp_path / FILE_NAME).write_bytes(b"garbage" * 50)
    store = ProgressStore.open(tmp_path)
    app = RingbookApp(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert any("kept as" in str(n.message) for n in app._notifications)
    store.close()


def test_restore_refuses_a_store_whose_table_was_rebuilt_without_rowid(tmp_path, capsys):
    """Issue 22.6: same table name, columns and index, but WITHOUT ROWID. Compared by (type, name) it passed,
    a backup was made, it was copied in, and the store crashed (`no such column: rowid`); the next start
    moved the learner's progress aside as corrupt."""
    data_dir = tmp_path / "data"
    store = ProgressStore.open(data_dir)
    store.record_attempt("0.1", "1.75", "correct")
    store.close()
    ProgressStore.open(tmp_path / "other").close()
    rebuilt = tmp_path / "rebuilt.sqlite3"
    (tmp_path / "other" / FILE_NAME).replace(rebuilt)
    with sqlite3.connect(rebuilt) as db:
        (table_sql,), (index_sql,) = (db.execute("SELECT sql FROM sqlite_master WHERE name = ?", (name,)).fetchone()
                                      for name in ("attempts", "attempts_by_exercise"))
        db.execute("DROP TABLE attempts")
        db.execute(table_sql + " WITHOUT ROWID")
        db.execute(index_sql)
        db.execute("INSERT INTO attempts (uid, exercise_id, answer, status, created_utc, utc_offset_minutes, "
                   "local_date) VALUES ('u1', '0.3', '12', 'correct', '2026-11-20T10:00:00', 60, '2026-11-20')")
    assert main(["progress", "restore", str(rebuilt), "--data-dir", str(data_dir)]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err.splitlines() == [
        f"ringbook: cannot restore {rebuilt}: it is not a readable ringbook progress file "
        "(its table 'attempts' is not the one ringbook makes). Nothing was changed."], err
    assert not list(data_dir.glob("progress.backup-*")), "a refused file still made a backup"
    store = ProgressStore.open(data_dir)   # the next start reads the learner's own progress, not moved aside
    assert not store.notice and not list(data_dir.glob("progress.corrupt-*"))
    store.close()
    assert answers(data_dir) == [("0.1", "1.75")]
