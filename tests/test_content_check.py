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


# --- warnings: feedback a learner would be given for the wrong slip ---------------------------------

import functools  # noqa: E402

import pytest  # noqa: E402

from grader.load import Problem, check_book, load_book  # noqa: E402

CHAPTER1 = "01-zero-stages/exercises.yaml"


def edit_exercise(path: Path, exercise_id: str, old: str, new: str) -> None:
    """Replace the first `old` inside one exercise of the file."""
    text = path.read_text()
    start = text.index(f'id: "{exercise_id}"')
    at = text.index(old, start)
    path.write_text(text[:at] + new + text[at + len(old):])


def test_two_mistakes_with_the_same_value_are_a_warning_that_does_not_fail(book_copy, capsys):
    path = book_copy / CHAPTER0
    edit_exercise(path, "0.1", "- answer: 2*M*(N-1)\n", "- answer: (N-1)*M/N\n")   # the first mistake's value
    code, out = run_check(book_copy, capsys)
    assert code == 0, out
    line = line_of(path, "- answer: (N-1)*M/N")
    assert (f"{CHAPTER0}:{line}: warning: mistake '(N-1)*M/N' gives the same value as mistake 'M*(N-1)/N' "
            f"(line {line - 2}): a learner who makes it is always given the earlier one's feedback") in out, out
    assert load_book(book_copy).exercise("0.1"), "a warning does not stop the book from opening"


def test_mistakes_closer_than_twice_the_tolerance_are_a_warning(book_copy, capsys):
    path = book_copy / CHAPTER0
    edit_exercise(path, "0.1", "- answer: 2*M*(N-1)\n", "- answer: M*(N-1)/N*1.008\n")
    code, out = run_check(book_copy, capsys)
    assert code == 0, out
    assert (f"{CHAPTER0}:{line_of(path, '1.008')}: warning: mistake 'M*(N-1)/N*1.008' is within twice the "
            "tolerance of mistake 'M*(N-1)/N'") in out, out


def test_mistake_closer_than_twice_the_tolerance_to_the_answer_is_a_warning(book_copy, capsys):
    path = book_copy / CHAPTER0
    edit_exercise(path, "0.1", "- answer: 2*M*(N-1)\n", "- answer: 2*M*(N-1)/N*1.008\n")
    code, out = run_check(book_copy, capsys)
    assert code == 0, out
    assert (f"{CHAPTER0}:{line_of(path, '1.008')}: warning: mistake '2*M*(N-1)/N*1.008' is within twice the "
            "tolerance of the answer '2*M*(N-1)/N': rounded to three significant figures, this slip can be "
            "graded correct") in out, out


def test_mistake_within_the_tolerance_of_the_answer_stays_a_problem(book_copy, capsys):
    path = book_copy / CHAPTER0
    edit_exercise(path, "0.1", "- answer: 2*M*(N-1)\n", "- answer: 2*M*(N-1)/N*1.004\n")
    code, out = run_check(book_copy, capsys)
    assert code == 1
    assert f"{CHAPTER0}:{line_of(path, '1.004')}: mistake '2*M*(N-1)/N*1.004' equals the answer" in out, out


def test_equivalent_formula_mistakes_are_a_warning(book_copy, capsys):
    path = book_copy / CHAPTER0
    edit_exercise(path, "0.7", "- answer: 2*M*(N-1)\n", "- answer: M - M/N\n")   # M(N-1)/N, the first mistake
    code, out = run_check(book_copy, capsys)
    assert code == 0, out
    assert (f"{CHAPTER0}:{line_of(path, '- answer: M - M/N')}: warning: mistake 'M - M/N' is equivalent to "
            "mistake 'M*(N-1)/N'") in out, out


def test_line_feedback_quoting_another_lines_code_is_a_warning(book_copy, capsys):
    """1.8 once gave line 9 the feedback written for line 8's `stage >= 2` test."""
    path = book_copy / CHAPTER1
    text = path.read_text()
    feedback_9 = re.search(r'^\s+"9": .*$', text, re.M)
    path.write_text(text[:feedback_9.start()] + '      "9": "So `stage >= 2` is the right test."' + text[feedback_9.end():])
    code, out = run_check(book_copy, capsys)
    assert code == 0, out
    line = line_of(path, '"9": ')
    assert (f"{CHAPTER1}:{line}: warning: line_feedback for line 9 quotes `stage >= 2`, "
            "which is not on that line") in out, out


@functools.cache
def builtin_warnings() -> tuple[Problem, ...]:
    return tuple(p for p in check_book()[1] if p.warning)


@pytest.mark.parametrize("chapter", [c.id for c in load_book().chapters])
def test_builtin_chapter_has_no_warnings(book, chapter):
    folder = book.chapter(chapter).path
    assert not [str(p) for p in builtin_warnings() if p.path.parent == folder]
