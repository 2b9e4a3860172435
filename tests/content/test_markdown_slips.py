"""`ringbook content check` on Markdown the app would draw without a word (issue 47): a table row with a
missing or an extra cell, in a chapter or an exercise, and a placeholder in a chapter, which nothing renders."""

from __future__ import annotations

from pathlib import Path

from tui.cli.main import main

CHAPTER1 = "01-zero-stages/chapter.md"
EXERCISES0 = "00-ring-allreduce/exercises.yaml"


def run_check(content: Path, capsys) -> tuple[int, str]:
    code = main(["content", "check", "--content", str(content)])
    return code, capsys.readouterr().out


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, 1))


def line_of(path: Path, needle: str) -> int:
    return next(n for n, line in enumerate(path.read_text().splitlines(), 1) if needle in line)


def test_a_chapter_table_row_with_a_missing_cell_is_reported_at_its_line(chapters_copy, capsys):
    book = chapters_copy("01-zero-stages")
    path = book / CHAPTER1
    edit(path, "| gradients                 | FP16/BF16 | 2     |", "| gradients                 | 2     |")
    code, out = run_check(book, capsys)
    assert code == 1
    assert (f"{CHAPTER1}:{line_of(path, '| gradients ')}: a table row with 2 cells, but its header has 3: the missing "
            "cell is drawn blank; give every row 3 cells (write `\\|` for a | inside a cell)") in out, out


def test_an_exercise_table_row_with_an_extra_cell_is_reported_at_its_line(chapters_copy, capsys):
    book = chapters_copy("00-ring-allreduce")
    path = book / EXERCISES0
    edit(path, "      both phases? (It receives the same amount.)\n",
         "      both phases? (It receives the same amount.)\n\n"
         "      | phase | steps |\n      |---|---|\n"
         "      | reduce-scatter | N-1 | chunks |\n      | all-gather | N-1 |\n")
    code, out = run_check(book, capsys)
    assert code == 1
    assert (f"{EXERCISES0}:{line_of(path, '| reduce-scatter |')}: prompt: a table row with 3 cells, but its header "
            "has 2: the extra cell is dropped") in out, out
    assert out.count("a table row") == 1, out


def test_a_placeholder_in_a_chapter_is_reported_at_its_line_but_not_in_code(chapters_copy, capsys):
    book = chapters_copy("01-zero-stages")
    path = book / CHAPTER1
    edit(path, "that costs:\n", "that costs {{bytes}} per parameter, as `{{P}}` in an exercise would show:\n\n"
                                "```yaml\nprompt: A {{P}}B model\n```\n\n")
    code, out = run_check(book, capsys)
    assert code == 1
    assert (f"{CHAPTER1}:{line_of(path, 'that costs {{bytes}}')}: {{{{bytes}}}} is shown as written: placeholders "
            "work only in exercises; write the number itself in chapter.md") in out, out
    assert "{{P}}" not in out, out
