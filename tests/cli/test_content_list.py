"""`ringbook content list --json`: every workbook exercise is in the book with its kind."""

import json
import subprocess

from tests.helpers import RINGBOOK, ringbook_subprocess

# The source workbook's 58 exercises and their kinds (d = derive, t = trace, b = build, x = debug, o = design).
WORKBOOK = {
    "0": "ddttbx", "1": "dddddt", "2": "dddbt", "3": "dddtt", "4": "dddtb",
    "5": "ddddxt", "6": "dddtd", "7": "ddddb", "8": "dtdtdb", "9": "dddddddod",
}
KIND = {"d": "derive", "t": "trace", "b": "build", "x": "debug", "o": "design"}


def workbook_ids() -> dict[str, str]:
    return {f"{ch}.{n}": KIND[k] for ch, kinds in WORKBOOK.items() for n, k in enumerate(kinds, 1)}


def listing() -> list[dict]:
    result = ringbook_subprocess("content", "list", "--json")
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_all_58_workbook_exercises_are_listed_with_their_kinds():
    rows = {row["id"]: row for row in listing()}
    expected = workbook_ids()
    assert len(expected) == 58
    assert {i: rows[i]["kind"] for i in expected if i in rows} == expected
    kinds = [k for k in expected.values()]
    assert (kinds.count("derive"), kinds.count("trace"), kinds.count("build"), kinds.count("debug"),
            kinds.count("design")) == (39, 11, 5, 2, 1)


def test_rows_carry_chapter_title_and_unit():
    rows = listing()
    assert set(rows[0]) == {"id", "chapter", "kind", "title", "unit"}
    for row in rows:
        assert row["id"].startswith(row["chapter"] + ".")
        assert row["title"]


def test_every_chapter_has_a_new_formula_exercise(book):
    for chapter in book.chapters:
        formulas = [e for e in chapter.exercises if getattr(e, "is_formula", False)]
        assert formulas, f"chapter {chapter.id} has no formula exercise"
        assert all(e.id not in workbook_ids() for e in formulas)


def test_a_reader_that_stops_early_gets_no_traceback():
    process = subprocess.Popen([*RINGBOOK, "content", "list"], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    process.stdout.close()  # the reader is gone before the first line is written, like `| head -0`
    stderr = process.stderr.read()
    process.wait(timeout=30)
    assert "Traceback" not in stderr
