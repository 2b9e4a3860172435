"""`ringbook class report` over real exports: three students' stores filled through the store API,
exported and submitted with the real CLI, and every figure of the report checked against values this
test works out from what it recorded."""

from __future__ import annotations

import csv
import io
import json
import re
import subprocess
import sys
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from grader.book.load import load_book
from grader.safe_text import clipped
from tests.helpers import ringbook_in_process as run
from tests.hostile_exports import ROOT, make_attacks, ringbook_child
from tui.progress.class_report import GradingTime, Regrader, build_report
from tui.progress.store import ProgressStore
from tui.progress.submission import login

NOON = datetime.now().astimezone().replace(hour=12, minute=0, second=0, microsecond=0)  # far from midnight

# Who answered what, how, and how many days ago; each status is the one the book gives that answer, as
# the report checks. Ana submits twice (the second export repeats the first); Ben and Cy export under
# names of their choosing; Cy's export is in the format from before exports named a day boundary.
FIRST_BATCH = {
    "ana": [("0.1", "0.875", "incorrect", 2), ("0.1", "1.75", "correct", 2), ("0.2", "70", "correct", 1)],
    "ben": [("0.1", "0.875", "incorrect", 5), ("0.1", "14", "incorrect", 5), ("0.3", "44", "incorrect", 4),
            ("0.3", "77.8", "correct", 4)],
    "cy": [("0.1", "0.875", "incorrect", 1), ("5.3", "12.5", "incorrect", 0), ("5.3", "6.25", "correct", 0)],
}
ANA_LATER = [("1.1", "112", "correct", 0), ("0.3", "44", "incorrect", 0)]
ANA_REVEALED = "0.4"  # ana opens its explanation, then answers it right: solved after reveal


def moment(days_ago: int, minute: int) -> datetime:
    return NOON - timedelta(days=days_ago) + timedelta(minutes=minute)


def record(store: ProgressStore, rows: list[tuple[str, str, str, int]]) -> None:
    for minute, (exercise_id, answer, status, days_ago) in enumerate(rows):
        store.record_attempt(exercise_id, answer, status, now=moment(days_ago, minute))


@pytest.fixture
def drop(tmp_path: Path, capsys) -> Path:
    """A drop folder holding four exports of three students, made as students would make them."""
    folder = tmp_path / "drop"
    folder.mkdir()
    stores = {name: tmp_path / name for name in FIRST_BATCH}
    for name, rows in FIRST_BATCH.items():
        store = ProgressStore.open(stores[name])
        record(store, rows)
        store.close()
    assert run(capsys, "--data-dir", stores["ana"], "progress", "submit", folder, "--name", "ana")[0] == 0
    store = ProgressStore.open(stores["ana"])
    record(store, ANA_LATER)
    store.record_reveal(ANA_REVEALED, now=moment(0, 50))
    store.record_attempt(ANA_REVEALED, "ring", "correct", now=moment(0, 55))
    store.close()
    assert run(capsys, "--data-dir", stores["ana"], "progress", "submit", folder, "--name", "ana")[0] == 0
    assert run(capsys, "--data-dir", stores["ben"], "progress", "export", "--name", "ben", folder / "b.json")[0] == 0
    assert run(capsys, "--data-dir", stores["cy"], "progress", "export", "--name", "cy", tmp_path / "cy.json")[0] == 0
    old = json.loads((tmp_path / "cy.json").read_text())
    del old["day_boundary_hour"]
    (folder / "cy.json").write_text(json.dumps(old))
    return folder


def all_rows() -> dict[str, list[tuple[str, str, str, int]]]:
    rows = {name: list(batch) for name, batch in FIRST_BATCH.items()}
    rows["ana"] += ANA_LATER + [(ANA_REVEALED, "ring", "correct", 0)]
    return rows


def expected_students(book) -> dict[str, dict]:
    """Per student: solved per chapter, totals, streaks and last activity, from the recorded rows."""
    chapter_of = {e.id: e.chapter_id for e in book.exercises}
    expected = {}
    for name, rows in all_rows().items():
        solved = {exercise_id for exercise_id, _, status, _ in rows if status == "correct"}
        per_chapter = Counter(chapter_of[i] for i in solved)
        days = {d for _, _, status, d in rows if status == "correct"}
        start = 0 if 0 in days else 1  # today not done yet: a run that ended yesterday still counts
        current = 0
        while start + current in days:
            current += 1
        runs = sorted(days)
        best = longest = 1
        for a, b in zip(runs, runs[1:], strict=False):
            longest = longest + 1 if b == a + 1 else 1
            best = max(best, longest)
        latest = max(moment(d, minute) for minute, (_, _, _, d) in enumerate(rows))
        if name == "ana":
            latest = max(latest, moment(0, 55))
        expected[name] = {
            "chapters": {c.id: per_chapter.get(c.id, 0) for c in book.chapters},
            "solved": len(solved), "total": len(book.exercises), "attempts": len(rows),
            "after_reveal": 1 if name == "ana" else 0,
            "streak": current, "best": best, "last_active": latest,
        }
    return expected


# The scenario's wrong answers that make one of the exercise's named mistakes (0.1 with M = 1 GB, N = 8:
# 0.875 is M(N-1)/N, its first; 14 is 2M(N-1), its second). The others match none.
NAMED_MISTAKES = {("0.1", "0.875"): 1, ("0.1", "14"): 2}


def expected_failures(book) -> list[tuple[str, int, int, list[dict]]]:
    """(exercise id, incorrect attempts, students, wrong answers most common first), most failed first;
    each wrong answer as the JSON report gives it: its named mistake, or its text and seed."""
    wrong: dict[str, list[tuple[str, str]]] = {}
    for name, rows in all_rows().items():
        for exercise_id, answer, status, _ in rows:
            if status == "incorrect":
                wrong.setdefault(exercise_id, []).append((name, answer))
    result = []
    for exercise_id, pairs in wrong.items():
        kinds: list[dict[str, Any]] = []
        for answer, n in Counter(a for _, a in pairs).items():
            mistake = NAMED_MISTAKES.get((exercise_id, answer))
            kinds.append({"mistake": mistake, "feedback": book.exercise(exercise_id).mistakes[mistake - 1].feedback,
                          "count": n} if mistake else {"answer": answer, "seed": 0, "count": n})
        kinds.sort(key=lambda k: (-k["count"], "mistake" not in k, k.get("mistake", 0), k.get("answer", "")))
        result.append((exercise_id, len(pairs), len({n for n, _ in pairs}), kinds))
    return sorted(result, key=lambda r: (-r[1], -r[2], r[0]))


def shown_in_table(kind: dict) -> str:
    times = f" ×{kind['count']}" if kind["count"] > 1 else ""
    if "mistake" in kind:
        return f'mistake "{clipped(kind["feedback"], 16)}"{times}'
    return f'"{kind["answer"]}"{times}'


def test_the_expectations_are_the_scenario_we_meant(book):
    """A guard on the arithmetic above: the scenario has what the report is meant to show."""
    students = expected_students(book)
    assert students["ana"]["streak"] == 3 and students["ben"]["streak"] == 0 and students["cy"]["streak"] == 1
    assert [f[0] for f in expected_failures(book)][:2] == ["0.1", "0.3"]


def test_table_report(book, drop, capsys):
    code, out, err = run(capsys, "class", "report", drop)
    assert code == 0, err
    assert err == ""
    lines = out.splitlines()
    assert all(len(line) <= 80 for line in lines), max(lines, key=len)
    assert lines[0] == f"Class report: {book.title} (3 students, 4 files)"
    students = expected_students(book)
    for name, want in students.items():
        [row] = [line for line in lines if line.startswith(f"{name} ") and "/" in line]
        cells = row.split()
        assert cells[1:] == [f"{want['solved']}/{want['total']}", f"{round(100 * want['solved'] / want['total'])}%",
                             str(want["after_reveal"]), *want["last_active"].strftime("%Y-%m-%d %H:%M").split(),
                             str(want["streak"]), str(want["best"])], row
    header = lines.index("Solved per chapter (columns are chapter ids; · is none solved)")
    assert lines[header + 1].split() == ["Chapter", *(c.id for c in book.chapters)]
    assert lines[header + 2].split() == ["exercises", *(str(len(c.exercises)) for c in book.chapters)]
    for offset, name in enumerate(sorted(students), start=3):
        assert lines[header + offset].split() == [name, *(str(n) if n else "·"
                                                          for n in students[name]["chapters"].values())]
    block = lines[header + 1:header + 3 + len(students)]
    column_ends = {tuple(m.end() for m in re.finditer(r"\S+", row))[1:] for row in block}
    assert len(column_ends) == 1, "\n".join(block)  # every row's cells end in the same columns
    failed_at = lines.index("Most often failed (incorrect attempts, students, most common wrong answers)")
    for index, (exercise_id, fails, count, answers) in enumerate(expected_failures(book)):
        title_row, wrong_row = lines[failed_at + 1 + 2 * index], lines[failed_at + 2 + 2 * index]
        assert title_row.split()[0] == exercise_id and book.exercise(exercise_id).title in title_row
        assert title_row.endswith(f"{fails} fail{'s' if fails > 1 else ''}, {count} student{'s' if count > 1 else ''}")
        shown = ", ".join(shown_in_table(kind) for kind in answers)
        assert wrong_row.strip() == f"wrong: {shown}"


def test_csv_report(book, drop, capsys):
    code, out, _ = run(capsys, "class", "report", drop, "--format", "csv")
    assert code == 0
    rows = {row["student"]: row for row in csv.DictReader(io.StringIO(out))}
    assert sorted(rows) == ["ana", "ben", "cy"]
    for name, want in expected_students(book).items():
        row = rows[name]
        assert {k: int(row[k]) for k in ("solved", "total", "after_reveal", "attempts", "streak", "best_streak")} == {
            "solved": want["solved"], "total": want["total"], "after_reveal": want["after_reveal"],
            "attempts": want["attempts"], "streak": want["streak"], "best_streak": want["best"]}
        assert {c: int(row[f"chapter {c}"]) for c in want["chapters"]} == want["chapters"]
        assert datetime.fromisoformat(row["last_active"]) == want["last_active"]
    assert rows["ana"]["files"] == "2" and rows["ben"]["files"] == "1"
    assert {row["student"]: int(row["confirmed"]) for row in rows.values()} == {
        name: len(want) for name, want in all_rows().items()}
    assert {int(row[k]) for row in rows.values() for k in ("tampered", "conflicts", "build_not_rerun",
                                                            "files_not_owned_by_user")} == {0}


def test_json_report(book, drop, capsys):
    code, out, _ = run(capsys, "class", "report", drop, "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert data["book"] == book.title and [c["id"] for c in data["chapters"]] == [c.id for c in book.chapters]
    students = {s["name"]: s for s in data["students"]}
    for name, want in expected_students(book).items():
        got = students[name]
        assert (got["solved"], got["total"], got["after_reveal"], got["attempts"]) == (
            want["solved"], want["total"], want["after_reveal"], want["attempts"])
        assert got["streak"] == {"current": want["streak"], "best": want["best"]}
        assert {c: v["solved"] for c, v in got["chapters"].items()} == want["chapters"]
        assert datetime.fromisoformat(got["last_active"]) == want["last_active"]
    assert [(f["id"], f["failures"], f["students"], f["wrong_answers"])
            for f in data["most_failed"]] == expected_failures(book)
    assert data["skipped"] == []


def test_bad_files_are_named_and_the_rest_reported(book, drop, tmp_path, capsys):
    (drop / "notes.json").write_text("this is not JSON")
    (drop / "other.json").write_text(json.dumps({"format": "someone-else", "rows": []}))
    (drop / "damaged.json").write_text(json.dumps({"format": "ringbook-progress", "schema": 2,
                                                   "attempts": [{"uid": "x"}]}))
    shifted = json.loads(next(drop.glob("ana-*.json")).read_text())
    shifted["attempts"][0]["utc_offset_minutes"] = "+02:00"   # a hand-edited export: refused whole, by name
    shifted["student"]["name"] = "mallory"
    (drop / "edited.json").write_text(json.dumps(shifted))
    (drop / "README.txt").write_text("not looked at: only *.json")
    code, out, err = run(capsys, "class", "report", drop, tmp_path / "missing.json", "--format", "json")
    assert code == 1
    warnings = err.splitlines()
    assert len(warnings) == 5 and all(w.startswith("ringbook class report: skipped ") for w in warnings)
    assert any("edited.json" in w and "'utc_offset_minutes' has the wrong type" in w for w in warnings)
    for name in ("notes.json", "other.json", "damaged.json", "edited.json", "missing.json"):
        assert sum(name in w for w in warnings) == 1, (name, warnings)
    assert "Traceback" not in err
    data = json.loads(out)
    assert sorted(s["name"] for s in data["students"]) == ["ana", "ben", "cy"]
    assert len(data["skipped"]) == 5


def test_nothing_readable_means_exit_2(tmp_path, capsys):
    empty = tmp_path / "empty"
    empty.mkdir()
    (tmp_path / "junk.json").write_text("[1, 2]")
    code, out, err = run(capsys, "class", "report", empty, tmp_path / "junk.json")
    assert code == 2 and out == ""
    assert f"{empty}: no *.json exports in this folder" in err
    assert "junk.json: is not a ringbook progress export" in err
    assert "nothing to report" in err


def test_a_report_on_a_custom_book_names_attempts_outside_it(drop, tmp_path, capsys):
    book_dir = tmp_path / "book"
    assert run(capsys, "content", "new", book_dir)[0] == 0
    custom = load_book(book_dir)
    code, out, err = run(capsys, "--content", book_dir, "class", "report", drop, "--format", "json")
    assert code == 1   # ana's 1.1 means something else in this book
    data = json.loads(out)
    assert data["book"] == custom.title and [c["id"] for c in data["chapters"]] == [c.id for c in custom.chapters]
    outside = {name: [r for r in rows if custom.exercise(r[0]) is None] for name, rows in all_rows().items()}
    assert {s["name"]: s["retired_attempts"] for s in data["students"]} == {n: len(r) for n, r in outside.items()}
    students = {s["name"]: s for s in data["students"]}
    # the template's 1.1 is a build (the kinds in order): `112`, which defines no function, is unreadable code
    assert custom.exercise("1.1").kind == "build"
    assert students["ana"]["verification"]["tampered"] == [
        {"exercise_id": "1.1", "answer": "112", "recorded": "correct", "regraded": "invalid"}]
    assert {name: s["solved"] for name, s in students.items()} == {"ana": 0, "ben": 0, "cy": 0}
    assert data["most_failed"] == []   # none of their wrong answers was to an exercise of this book
    assert err.count("exercises not in 'A New Book'; not counted (is --content the book they used?)") == 3
    assert ("ana: 1 attempt recorded with a result the book does not give (edited, or made with another version "
            "of the book; on 1.1); not counted") in err


def test_quiz_runs_are_reported_latest_and_best(book_copy, tmp_path, capsys):
    text = (book_copy / "book.yaml").read_text().split("\nquizzes:")[0].split("\nlabs:")[0]
    (book_copy / "book.yaml").write_text(text + '\nquizzes:\n  - {id: readiness, title: "Readiness", '
                                                'file: quizzes/readiness.yaml}\n')
    runs = {"ana": [(9, 20), (15.5, 20), (12, 20)], "ben": []}
    drop = tmp_path / "drop"
    drop.mkdir()
    for name, scores in runs.items():
        store = ProgressStore.open(tmp_path / name)
        store.record_attempt("0.1", "1.75", "correct", now=moment(0, 0))
        for minute, (score, out_of) in enumerate(scores, start=1):
            store.record_entry("quiz", "readiness", {"score": score, "out_of": out_of, "responses": {}},
                               now=moment(0, minute))
        store.record_entry("quiz", "some-other-quiz", {"score": 1, "out_of": 1}, now=moment(0, 9))
        store.close()
        assert run(capsys, "--data-dir", tmp_path / name, "progress", "submit", drop, "--name", name)[0] == 0

    code, out, err = run(capsys, "--content", book_copy, "class", "report", drop)
    assert code == 0, err
    lines = out.splitlines()
    at = lines.index("Quiz: Readiness (latest score, best score, runs)")
    assert lines[at + 1].split() == ["ana", "12/20", "best", "15.5/20", "3", "runs"]
    assert lines[at + 2].split() == ["ben", "not", "taken"]

    rows = {r["student"]: r for r in csv.DictReader(io.StringIO(run(capsys, "--content", book_copy, "class",
                                                                    "report", drop, "--format", "csv")[1]))}
    assert (rows["ana"]["quiz readiness latest"], rows["ana"]["quiz readiness best"]) == ("12", "15.5")
    assert (rows["ben"]["quiz readiness latest"], rows["ben"]["quiz readiness best"]) == ("", "")

    data = json.loads(run(capsys, "--content", book_copy, "class", "report", drop, "--format", "json")[1])
    students = {s["name"]: s for s in data["students"]}
    assert students["ana"]["quizzes"] == {"readiness": {"latest": 12, "best": 15.5, "out_of": 20, "runs": 3}}
    assert students["ben"]["quizzes"] == {}


# --- what students' files cannot make the report believe (issue 12) -----------------------------------

def not_a_login() -> str:
    """A five-letter student name that no account on this host has."""
    import pwd

    logins = {entry.pw_name for entry in pwd.getpwall()}
    return next(name for name in ("alice", "carol", "daisy", "erika", "fiona") if name not in logins)


def export_of(capsys, tmp_path: Path, name: str, rows: list[tuple[str, str, str, int]], target: Path) -> dict:
    """A real export, by `ringbook progress export`, of a store in which `rows` were recorded."""
    folder = tmp_path / "stores" / name
    store = ProgressStore.open(folder)
    record(store, rows)
    store.close()
    assert run(capsys, "--data-dir", folder, "progress", "export", "--name", name, target)[0] == 0
    return json.loads(target.read_text())


def test_a_forged_file_of_correct_attempts_in_anothers_name_counts_for_nothing(book, tmp_path, capsys):
    """Found: 122 'correct' attempts whose answers were all `x`, in a file naming alice, took her from
    1/122 to 122/122 with a 40-day streak."""
    student = not_a_login()   # a host account of that name would make the file also "name another account"
    drop = tmp_path / "drop"
    drop.mkdir()
    export_of(capsys, tmp_path, student, [("0.1", "1.75", "correct", 0)], drop / f"{student}.json")
    forged = export_of(capsys, tmp_path, "mallory", [], tmp_path / "forged.json")
    forged["attempts"] = [dict(uid=f"forged{i}", exercise_id=e.id, answer="x", status="correct", message="",
                               feedback="", hints_used=0, revealed_first=False, seconds_taken=None,
                               created_utc=(NOON - timedelta(days=i % 40)).astimezone(UTC)
                               .strftime("%Y-%m-%dT%H:%M:%S.%fZ"), utc_offset_minutes=0, local_date="2026-01-01")
                          for i, e in enumerate(book.exercises)]
    forged["student"].update(name=student, user=student)   # made to look like the student's own
    (drop / f"{student}-20261123T093015Z-0123456789abcdef0123.json").write_text(json.dumps(forged))

    code, out, err = run(capsys, "class", "report", drop, "--format", "json")
    assert code == 1
    [row] = json.loads(out)["students"]
    assert (row["name"], row["solved"], row["streak"]) == (student, 1, {"current": 1, "best": 1})
    tampered = row["verification"]["tampered"]
    assert len(tampered) == len(book.exercises) and {t["answer"] for t in tampered} == {"x"}
    assert {t["regraded"] for t in tampered} <= {"incorrect", "invalid"}
    assert f"{student}: {len(book.exercises)} attempts recorded with a result the book does not give" in err
    assert (f"{student}: {student}-20261123T093015Z-0123456789abcdef0123.json names user '{student}' "
            f"but belongs to {login()}") in err

    code, out, _ = run(capsys, "class", "report", drop)
    lines = out.splitlines()
    [line] = [line for line in lines if line.startswith(f"{student} ") and "/" in line]
    assert line.split()[1] == f"1/{len(book.exercises)}"
    checked = lines[lines.index("Verified against the book: each answer graded again (build code parsed, not run)"):]
    assert checked[1].startswith(f"  {student}    {len(book.exercises)} attempts recorded with a result")
    assert " ".join(checked).endswith(f"not counted ({len(book.exercises)} tampered). Files not owned by the user "
                                      "they name: 1.")
    assert all(len(line) <= 80 for line in lines)


def test_a_file_with_anothers_attempts_flipped_is_a_conflict_not_a_verdict(tmp_path, capsys):
    """Found: a same-name file carrying alice's attempt uids with flipped statuses took her to 0/122,
    exit 0, no warning. Now neither copy counts, and the report says so and why."""
    drop = tmp_path / "drop"
    drop.mkdir()
    rows = [("0.1", "0.875", "incorrect", 1), ("0.1", "1.75", "correct", 1), ("0.2", "70", "correct", 0)]
    real = export_of(capsys, tmp_path, "alice", rows, drop / "alice.json")
    flip = {"correct": "incorrect", "incorrect": "correct"}
    forged = {**real, "attempts": [{**a, "status": flip[a["status"]]} for a in real["attempts"]],
              "student": {**real["student"], "user": "alice"}}
    (drop / "alice-forged.json").write_text(json.dumps(forged))
    code, out, err = run(capsys, "class", "report", drop, "--format", "json")
    assert code == 1
    [alice] = json.loads(out)["students"]
    assert alice["verification"]["conflicts"] == 3 and alice["verification"]["tampered"] == []
    assert (alice["solved"], alice["attempts"]) == (0, 0)
    assert "alice: 3 records differ between copies in their files; neither copy is counted" in err
    assert f"alice: alice-forged.json names user 'alice' but belongs to {login()}" in err


def test_an_export_without_a_name_is_named_after_its_file_and_checked_against_its_owner(tmp_path, capsys):
    """Exports from before they named a student are named after the file; a submission's file name
    is the login, so a submitted file keeps its name, and a name that is not its owner is flagged."""
    drop = tmp_path / "drop"
    drop.mkdir()
    learner = tmp_path / "learner"
    store = ProgressStore.open(learner)
    store.record_attempt("0.1", "1.75", "correct", now=moment(0, 0))
    store.close()
    assert run(capsys, "--data-dir", learner, "progress", "submit", drop)[0] == 0
    [submitted] = drop.iterdir()
    unnamed = json.loads(submitted.read_text())
    del unnamed["student"]
    submitted.write_text(json.dumps(unnamed))
    (drop / "cy.json").write_text(json.dumps(unnamed | {"attempts": []}))
    code, out, err = run(capsys, "class", "report", drop, "--format", "json")
    students = {s["name"]: s for s in json.loads(out)["students"]}
    assert sorted(students) == sorted([login(), "cy"]) and students[login()]["solved"] == 1
    assert students[login()]["verification"]["owner_mismatches"] == []
    assert students["cy"]["verification"]["owner_mismatches"] == [
        {"file": str(drop / "cy.json"), "declares": "cy", "owner": login()}]
    assert code == 1 and err.strip() == f"ringbook class report: cy: cy.json names user 'cy' but belongs to {login()}"


HOSTILE_NAME = "\x1b[2J\x1b]0;pwned\x07eve\x9b2J"        # clears the screen, retitles the window (C0 and C1)
OSC52 = "\x1b]52;c;cm0gLXJmIH4K\x07"                       # writes the instructor's clipboard
RAW_CONTROL = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f]")  # anything a terminal would act on, but newline


def test_control_characters_from_students_never_reach_the_terminal(book, tmp_path, capsys):
    """Found: a name with \\x1b[2J cleared the instructor's screen, and an answer with OSC 52 wrote their
    clipboard, through the table, stderr, skipped-file names and CSV; cutting a name left half a sequence."""
    drop = tmp_path / "drop"
    drop.mkdir()
    code_answer = f"# {OSC52}\ndef ring_allreduce_time(M, N, B):\n    return 0\n"   # a build answer: never run
    data = export_of(capsys, tmp_path, "eve", [("0.1", "0.875", "incorrect", 0), ("0.5", code_answer, "incorrect", 0)],
                     tmp_path / "eve.json")
    data["student"].update(name=HOSTILE_NAME + "-a-long-name-cut-in-the-table", user=HOSTILE_NAME, host=OSC52)
    (drop / "eve.json").write_text(json.dumps(data))
    formula = export_of(capsys, tmp_path, '=HYPERLINK("http://evil.example","x")', [("0.1", "1.75", "correct", 0)],
                        drop / "formula.json")
    (drop / f"{OSC52}.json").write_text("not JSON")   # a file name is student text too

    code, table, err = run(capsys, "class", "report", drop)
    assert code == 1
    for text in (table, err):
        assert not RAW_CONTROL.search(text), RAW_CONTROL.search(text)
    assert "\\x1b[2J\\x1b]0;pwned\\x07eve\\x9b2J"[:14] in table
    assert "\\x1b]52;c;cm0gLXJmIH4K\\x07" in table     # the wrong answer, shown as text
    assert "skipped " in err and "\\x1b]52;c;cm0gLXJmIH4K\\x07.json: is not JSON" in err
    assert all(len(line) <= 80 for line in table.splitlines())

    _, out, _ = run(capsys, "class", "report", drop, "--format", "csv")
    assert not RAW_CONTROL.search(out)
    rows = {row["student"]: row for row in csv.DictReader(io.StringIO(out))}
    assert "'" + formula["student"]["name"] in rows                 # a spreadsheet shows it, never runs it
    assert all(not cell.startswith(("=", "+", "-", "@")) for row in rows.values() for cell in row.values())

    _, out, _ = run(capsys, "class", "report", drop, "--format", "json")
    assert not RAW_CONTROL.search(out.replace("\t", " "))
    names = {s["name"] for s in json.loads(out)["students"]}    # JSON carries them exactly, as escapes
    assert data["student"]["name"] in names


def test_hostile_files_are_skipped_each_with_one_line_and_the_rest_reported(tmp_path, capsys):
    """Found: JSON 100k deep, hints_used 10**30, seconds_taken 10**400, a lone surrogate, year 9999 or
    0001 with an extreme offset each aborted the whole report with a traceback; a link to /dev/zero ate
    3.8 GB and a FIFO hung it. Run in a child with bounded memory, as an instructor would run it."""
    drop = tmp_path / "drop"
    drop.mkdir()
    honest = export_of(capsys, tmp_path, "ana", [("0.1", "1.75", "correct", 0), ("0.2", "7", "incorrect", 0)],
                       drop / "ana.json")
    expected = make_attacks(drop, honest, tmp_path / "stores" / "elsewhere.json")
    (tmp_path / "stores" / "elsewhere.json").write_text(json.dumps(honest))
    result = ringbook_child("class", "report", drop, "--format", "json")
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr
    lines = result.stderr.splitlines()
    for name, reason in expected.items():
        [line] = [line for line in lines if f"/{name}:" in line]
        assert line.startswith(f"ringbook class report: skipped {drop / name}: ") and reason in line, line
    assert len(lines) == len(expected)
    [ana] = json.loads(result.stdout)["students"]
    assert (ana["name"], ana["solved"], ana["attempts"]) == ("ana", 1, 2)


def test_the_grading_time_of_each_student_is_bounded(book, drop):
    """A file stuffed with slow formulas cannot hold the report: once a student's grading time is spent,
    their remaining answers are not graded and not counted, and the report says so."""
    report = build_report(book, [drop], grading_seconds=0)
    for student in report.students:
        assert student.verification.confirmed == 0 and student.mastery.solved == 0
        assert student.verification.not_regraded == len(all_rows()[student.name])
    regrader = Regrader()
    assert regrader.status(book.exercise("0.1"), "7/4", GradingTime(60)) == "correct"
    assert regrader.status(book.exercise("0.1"), "7/4", GradingTime(0)) == "correct"   # graded once, then free
    assert regrader.status(book.exercise("0.1"), "2", GradingTime(0)) is None


def test_build_attempts_are_parsed_never_run(book, tmp_path, capsys):
    """Build code is not run on the instructor's account. Code the app could have recorded is counted and
    flagged; code it would have refused (not Python, or not defining the function) is tampering. Only
    re-graded answers make a day of the streak."""
    drop = tmp_path / "drop"
    drop.mkdir()
    build = book.exercise("0.5")
    marker = tmp_path / "ran"
    harmful = f"open({str(marker)!r}, 'w').write('ran')\ndef {build.function}(M, N, B):\n    return 0\n"
    export_of(capsys, tmp_path, "bo", [("0.5", build.solution, "correct", 3), ("0.5", harmful, "incorrect", 2),
                                       ("0.5", "x", "correct", 1)], drop / "bo.json")
    code, out, err = run(capsys, "class", "report", drop, "--format", "json")
    assert not marker.exists()
    [bo] = json.loads(out)["students"]
    assert bo["solved"] == 1 and bo["streak"] == {"current": 0, "best": 0}
    assert bo["verification"]["build_not_rerun"] == 2
    assert bo["verification"]["tampered"] == [{"exercise_id": "0.5", "answer": "x", "recorded": "correct",
                                                "regraded": "invalid"}]
    assert code == 1 and "bo: 1 attempt recorded with a result the book does not give" in err
    assert "build" not in err     # routine: in the report, not a warning
    table = run(capsys, "class", "report", drop)[1]
    assert "2 build attempts counted without running the code" in table


def test_the_report_and_its_reader_import_no_textual():
    code = ("import sys, tui.cli.classroom, tui.progress.export_file\n"
            "print(sorted(m for m in sys.modules if m == 'textual' or m.startswith('textual.')))\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0 and result.stdout.strip() == "[]", result.stderr


def test_each_attempt_is_regraded_against_its_own_variant_and_mistakes_are_grouped_across_variants(
        book, tmp_path, capsys):
    """0.1 asks for 2M(N-1)/N. Variant 5 has its own M and N: 1.75, right for the book's numbers, is wrong
    there; a slip made on both variants (one phase only, M(N-1)/N) is one named mistake, not two texts."""
    from grader.book.variants import pose
    params = pose(book.exercise("0.1"), 5).params
    m, n = params["M"], params["N"]
    assert (m, n) != (1, 8)
    store = ProgressStore.open(tmp_path / "ana")
    for answer, status, seed in [("0.875", "incorrect", 0), (f"{m * (n - 1) / n!r}", "incorrect", 5),
                                 ("1.75", "incorrect", 5), (f"{2 * m * (n - 1) / n!r}", "correct", 5),
                                 ("1.75", "correct", 7)]:   # the last claims the book's answer is right for seed 7
        store.record_attempt("0.1", answer, status, seed=seed, now=moment(0, 1))
    store.close()
    drop = tmp_path / "drop"
    drop.mkdir()
    assert run(capsys, "--data-dir", tmp_path / "ana", "progress", "submit", drop, "--name", "ana")[0] == 0
    code, out, _ = run(capsys, "class", "report", drop, "--format", "json")
    data = json.loads(out)
    [failed] = data["most_failed"]
    assert failed["wrong_answers"] == [
        {"mistake": 1, "feedback": book.exercise("0.1").mistakes[0].feedback, "count": 2},
        {"answer": "1.75", "seed": 5, "count": 1}]
    [ana] = data["students"]
    assert ana["solved"] == 1
    code, out, _ = run(capsys, "class", "report", drop)
    assert code == 1 and '"1.75" (seed 5)' in out and 'mistake "' in out


def test_an_honest_identity_whose_big_terms_cancel_is_not_called_tampered(tmp_path, capsys):
    """The report grades every attempt again at fresh random points. `(M+N+1)^40 - (M+N+1)^40` is 0, but
    at a point where those terms are 10^240 floats and 100 digits lost the rest: the attempt, recorded
    as correct, was graded incorrect again and its student shown as a tamperer."""
    drop = tmp_path / "drop"
    drop.mkdir()
    honest = "2M(N-1)/N + (M+N+1)^40 - (M+N+1)^40"
    export_of(capsys, tmp_path, "dana", [("0.7", honest, "correct", 0)], drop / "dana.json")
    code, out, err = run(capsys, "class", "report", drop, "--format", "json")
    [dana] = json.loads(out)["students"]
    assert dana["verification"]["tampered"] == [], err
    assert dana["solved"] == 1


# An exercise whose right answers need a proof: max() keeps the points from settling them (issue 42, item 2).
LARGER_EXERCISE = """
  - id: "1.9"
    title: The larger, and a again
    kind: derive
    prompt: |
      Write the larger of **a** and **b**, plus **a**, as a formula.
    symbols: [a, b]
    answer: a + max(b, a)
    explanation: |
      The larger of the two is max(a, b); add a to it.
"""


@pytest.fixture
def larger_book(tmp_path: Path, capsys):
    """A new book with LARGER_EXERCISE added to its first chapter."""
    book_dir = tmp_path / "book"
    assert run(capsys, "content", "new", book_dir)[0] == 0
    exercises = book_dir / "01-first-steps" / "exercises.yaml"
    exercises.write_text(exercises.read_text() + LARGER_EXERCISE)
    return load_book(book_dir)


def test_honest_answers_that_need_a_proof_are_confirmed_on_a_busy_host(larger_book, tmp_path, capsys):
    """Found: on a busy host the re-grade's proof had a second of the clock, from a worker never warmed, and
    `max(a, b) + a` came back undecided, was taken as invalid ("a result the book does not give"), and that
    verdict was kept for every student with the same answer."""
    from grader.maths.prover import WORKER
    from tests.busy_host import busy_host

    drop = tmp_path / "drop"
    drop.mkdir()
    for name in ("ana", "ben", "cy"):
        export_of(capsys, tmp_path, name, [("1.9", "max(a, b) + a", "correct", 0)], drop / f"{name}.json")
    WORKER.stop()
    with busy_host():
        report = build_report(larger_book, [drop])
    for student in report.students:
        assert student.verification.tampered == () and student.verification.not_regraded == 0, student.name
        assert student.verification.confirmed == 1, student.name


def test_an_answer_the_proof_could_not_decide_is_not_graded_and_not_kept(larger_book, monkeypatch):
    """A proof that does not come (here no worker can start) decides nothing: the attempt is undecided, not
    called tampered, and the next student with the same answer is graded afresh."""
    from grader.maths.prover import WORKER

    exercise = larger_book.exercise("1.9")
    regrader = Regrader()
    WORKER.stop()
    with monkeypatch.context() as broken:
        broken.setattr(sys, "executable", "/nonexistent/python")
        assert regrader.status(exercise, "max(a, b) + a", GradingTime(60)) == "undecided"
    assert regrader.status(exercise, "max(a, b) + a", GradingTime(60)) == "correct"
