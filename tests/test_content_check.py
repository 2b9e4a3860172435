"""`ringbook content check`: the built-in book passes; broken copies fail with path:line messages."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from tui.cli.main import main

CHAPTER0 = "00-ring-allreduce/exercises.yaml"


def run_check(content: Path | None, capsys) -> tuple[int, str]:
    argv = ["content", "check"] + (["--content", str(content)] if content else [])
    code = main(argv)
    return code, capsys.readouterr().out


def line_of(path: Path, needle: str) -> int:
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if needle in line:
            return number
    raise AssertionError(f"{needle!r} not in {path}")


def test_builtin_book_passes(book, capsys):
    code, out = run_check(None, capsys)
    assert code == 0, out
    assert f"{len(book.chapters)} chapters, {len(book.exercises)} exercises" in out
    assert len(book.chapters) >= 10


def test_real_command_exits_zero_on_the_book():
    result = subprocess.run([sys.executable, "-m", "tui", "content", "check"], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_broken_formula_is_reported_with_its_line(book_copy, capsys):
    path = book_copy / CHAPTER0
    text = path.read_text()
    first_answer = re.search(r"^(\s+answer: )(.+)$", text, re.M)
    path.write_text(text[: first_answer.start(2)] + "2*M*(N-1/N" + text[first_answer.end(2):])
    line = text[: first_answer.start()].count("\n") + 1
    code, out = run_check(book_copy, capsys)
    assert code == 1
    assert re.search(rf"{re.escape(CHAPTER0)}:{line}: answer '2\*M\*\(N-1/N': does not parse", out), out


def test_undefined_name_in_formula_is_reported(book_copy, capsys):
    path = book_copy / CHAPTER0
    text = path.read_text()
    first_answer = re.search(r"^(\s+answer: )(.+)$", text, re.M)
    path.write_text(text[: first_answer.start(2)] + "2*Q*M" + text[first_answer.end(2):])
    code, out = run_check(book_copy, capsys)
    assert code == 1
    assert "uses undefined name(s) Q" in out


def test_duplicate_id_is_reported_at_the_second(book_copy, capsys):
    path = book_copy / CHAPTER0
    text = path.read_text()
    path.write_text(text.replace('id: "0.2"', 'id: "0.1"', 1))
    line = line_of(path, 'id: "0.1"') and [n for n, l in enumerate(path.read_text().splitlines(), 1) if 'id: "0.1"' in l][1]
    code, out = run_check(book_copy, capsys)
    assert code == 1
    assert f"{CHAPTER0}:{line}: duplicate exercise id '0.1'" in out, out


def test_invalid_yaml_is_reported_with_its_line(book_copy, capsys):
    path = book_copy / CHAPTER0
    lines = path.read_text().splitlines()
    target = line_of(path, "title:")
    lines[target - 1] = lines[target - 1] + ": an unquoted colon"  # the classic author slip
    path.write_text("\n".join(lines) + "\n")
    code, out = run_check(book_copy, capsys)
    assert code == 1
    match = re.search(rf"{re.escape(CHAPTER0)}:(\d+): invalid YAML", out)
    assert match, out
    assert abs(int(match.group(1)) - target) <= 1


def test_schema_violation_names_the_field_and_line(book_copy, capsys):
    path = book_copy / CHAPTER0
    text = path.read_text()
    path.write_text(text.replace('id: "0.1"', "id: 0.1", 1))
    code, out = run_check(book_copy, capsys)
    assert code == 1
    assert f"{CHAPTER0}:{line_of(path, 'id: 0.1')}: exercises/0/id: 0.1 should be a string (quote it)" in out, out


def test_mistake_equal_to_the_answer_is_reported(book_copy, capsys):
    path = book_copy / CHAPTER0
    text = path.read_text()
    answer = re.search(r"^\s+answer: (.+)$", text, re.M).group(1)
    mistake = re.search(r"^(\s+- answer: )(.+)$", text, re.M)
    path.write_text(text[: mistake.start(2)] + answer + text[mistake.end(2):])
    code, out = run_check(book_copy, capsys)
    assert code == 1
    assert "equals the answer" in out or "is equivalent to the answer" in out, out


def test_debug_line_out_of_range_is_reported(book_copy, capsys):
    path = book_copy / CHAPTER0
    text = path.read_text()
    path.write_text(re.sub(r"buggy_line: \d+", "buggy_line: 99", text, count=1))
    code, out = run_check(book_copy, capsys)
    assert code == 1
    assert f"{CHAPTER0}:{line_of(path, 'buggy_line: 99')}: buggy_line 99 is outside the listing" in out, out


def test_duplicate_design_items_are_reported(book_copy, capsys):
    path = book_copy / "09-capstone-llama-405b/exercises.yaml"
    text = path.read_text()
    ids = re.findall(r"^\s+- id: ([a-z]+)\s*$", text[text.index("kind: design"):], re.M)
    path.write_text(text.replace(f"- id: {ids[1]}\n", f"- id: {ids[0]}\n", 1))
    code, out = run_check(book_copy, capsys)
    assert code == 1
    assert "duplicate design item ids" in out, out


def test_missing_folder_is_a_message_not_a_traceback(tmp_path, capsys):
    code, out = run_check(tmp_path / "nowhere", capsys)
    assert code == 1
    assert "no such content folder" in out


def test_a_broken_lab_is_reported(book_copy, capsys):
    lab = book_copy / "labs/parallelism-paradox.yaml"
    lab.write_text(lab.read_text().replace("{model_64}%", "{no_such_figure}%", 1))
    code, out = run_check(book_copy, capsys)
    assert code == 1
    assert "parallelism-paradox.yaml" in out and "no_such_figure" in out
