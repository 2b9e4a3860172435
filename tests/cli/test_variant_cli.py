"""`ringbook check --seed`, the batch's "seed", and `ringbook content show`: a variant is graded and shown
with its own numbers, and a bad seed is a sentence, never a traceback."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from grader.variants import format_number, variant


def ringbook(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tui", *args], input=stdin, capture_output=True, text=True, timeout=60)


def test_check_grades_against_the_variant_of_the_seed(book):
    posed = variant(book.exercise("0.1"), 5)
    right = format_number(posed.value, "3")
    assert ringbook("check", "0.1", right, "--seed", "5").returncode == 0
    wrong = ringbook("check", "0.1", "1.75", "--seed", "5")
    assert wrong.returncode == 1 and wrong.stdout.startswith("incorrect:")
    assert ringbook("check", "0.1", "1.75", "--seed", "0").returncode == 0
    assert ringbook("check", "0.1", "1.75").returncode == 0


def test_check_json_carries_the_seed_and_the_variant_s_mistake_feedback(book):
    posed = variant(book.exercise("0.1"), 9)
    one_phase = format_number(posed.value / 2, "4")
    verdict = json.loads(ringbook("check", "0.1", one_phase, "--seed", "9", "--json").stdout)
    assert verdict["seed"] == 9 and verdict["status"] == "incorrect"
    assert "one phase only" in verdict["feedback"]


@pytest.mark.parametrize("seed", ["-1", "x", "1.5", str(2**64)])
def test_a_bad_seed_is_one_sentence(seed):
    result = ringbook("check", "0.1", "1.75", "--seed", seed)
    assert result.returncode == 2
    assert "A seed is a whole number" in result.stderr and "Traceback" not in result.stderr


def test_a_choice_s_right_option_is_right_with_every_seed():
    assert ringbook("check", "0.4", "ring", "--seed", "12").returncode == 0   # its constraints keep it so


def test_content_show_lists_a_choice_s_options_with_the_variant_s_numbers(book):
    posed = variant(book.exercise("12.3"), 4)
    shown = ringbook("content", "show", "12.3", "--seed", "4").stdout
    letters = [line[:1] for line in shown.splitlines() if line[1:3] == "  "]
    assert letters == ["A", "B", "C", "D"]
    assert all(option.text in shown for option in posed.options) and "(right)" not in shown
    explained = ringbook("content", "show", "12.3", "--seed", "4", "--explain").stdout
    assert f"{posed.correct_option.text} (right)" in explained and posed.correct_option.feedback in explained


def test_batch_lines_grade_against_their_seed(book):
    posed = variant(book.exercise("0.1"), 3)
    lines = [{"id": "0.1", "answer": format_number(posed.value, "3"), "seed": 3},
             {"id": "0.1", "answer": "1.75", "seed": 3},
             {"id": "0.1", "answer": "1.75"},
             {"id": "0.1", "answer": "1.75", "seed": -4},
             {"id": "0.1", "answer": "1.75", "seed": True}]
    result = ringbook("check", "--batch", "-", stdin="\n".join(map(json.dumps, lines)))
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert [row["status"] for row in rows] == ["correct", "incorrect", "correct", "invalid", "invalid"]
    assert rows[0]["seed"] == 3 and "seed" not in rows[2]
    assert "A seed is a whole number" in rows[3]["message"]


def test_content_show_prints_the_canonical_prompt_by_default(book):
    result = ringbook("content", "show", "0.1")
    assert result.returncode == 0
    assert book.exercise("0.1").prompt.strip() in result.stdout
    assert "**M = 1 GB**" in result.stdout and "{{" not in result.stdout


def test_content_show_with_a_seed_and_explain_prints_the_variant_worked_through(book):
    posed = variant(book.exercise("0.1"), 5)
    result = ringbook("content", "show", "0.1", "--seed", "5", "--explain")
    assert result.returncode == 0
    assert posed.prompt.strip() in result.stdout and posed.explanation.strip() in result.stdout
    assert f"Answer: {format_number(posed.value)} GB" in result.stdout
    assert "**M = 1 GB**" not in result.stdout


def test_content_show_an_unknown_id_exits_3():
    result = ringbook("content", "show", "42.9")
    assert result.returncode == 3 and "no exercise '42.9'" in result.stderr


def test_an_unsatisfiable_variant_in_an_unchecked_book_is_a_message(book_copy):
    path = book_copy / "00-ring-allreduce/exercises.yaml"
    text = path.read_text()
    path.write_text(text.replace("      N: {choices: [4, 8, 16, 32, 64]}\n",
                                 "      N: {choices: [4, 8, 16, 32, 64]}\n    constraints: [\"M == 1\", \"N == 8\"]\n", 1))
    result = ringbook("check", "--content", str(book_copy), "0.1", "1.75", "--seed", "2")
    assert result.returncode == 2
    assert "cannot be posed with seed 2" in result.stderr and "Traceback" not in result.stderr
