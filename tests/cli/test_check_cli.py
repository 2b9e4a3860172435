"""`ringbook check`: exit status by verdict, JSON output, and batches of JSON lines.

The command runs by its entry point in this process (the `ringbook` fixture); the first test runs it as a real
process, as a shell script would, reading its batch from a real pipe."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers import ringbook_subprocess
from tui.cli.parsers.options import CommandParser


def test_a_real_process_grades_a_batch_from_its_pipe_and_exits_by_the_verdict():
    lines = [{"id": "0.1", "answer": "1750 MB"}, {"id": "0.7", "answer": "M(N-1)/N"}]
    result = ringbook_subprocess("check", "--batch", "-", stdin="".join(json.dumps(line) + "\n" for line in lines))
    assert result.returncode == 0, result.stderr
    assert [json.loads(line)["status"] for line in result.stdout.splitlines()] == ["correct", "incorrect"]
    wrong = ringbook_subprocess("check", "0.1", "0.875")
    assert wrong.returncode == 1 and wrong.stdout.startswith("incorrect:")


@pytest.mark.parametrize("exercise_id, answer, code, word", [
    ("0.1", "7/4", 0, "correct"),
    ("0.1", "1750 MB", 0, "correct"),
    ("0.1", "0.875", 1, "incorrect"),
    ("0.1", "1,75", 2, "invalid"),
    ("0.4", "tie", 1, "incorrect"),
    ("0.4", "ring", 0, "correct"),
    ("9.8", "tp, cp, pp, dp", 0, "correct"),
    ("0.6", "6", 0, "correct"),
    ("8.2", "65536; 32768; 32768; 16384; 16384", 0, "correct"),
])
def test_exit_status_follows_the_verdict(exercise_id, answer, code, word, ringbook):
    result = ringbook("check", exercise_id, answer)
    assert result.returncode == code, result.stdout + result.stderr
    assert result.stdout.startswith(f"{word}:")


def test_unknown_id_exits_3_with_a_message(ringbook):
    result = ringbook("check", "42.1", "1")
    assert result.returncode == 3
    assert "no exercise '42.1'" in result.stderr


def test_json_verdict(ringbook):
    result = ringbook("check", "0.1", "0.875", "--json")
    verdict = json.loads(result.stdout)
    assert verdict["status"] == "incorrect"
    assert verdict["id"] == "0.1" and verdict["answer"] == "0.875"
    assert "one phase only" in verdict["feedback"]


def test_batch_from_stdin_with_ids_specs_and_bad_lines(ringbook):
    lines = [
        {"id": "0.7", "answer": "2M(N-1)/N"},
        {"id": "0.7", "answer": "M(N-1)/N"},
        {"spec": {"kind": "derive", "answer": "2*M*(N-1)/N", "symbols": ["M", "N"]}, "answer": "2M - 2M/N"},
        {"spec": {"kind": "derive", "answer": "2*M*(N-1/N"}, "answer": "1"},
        {"id": "nope", "answer": "1"},
    ]
    stdin = "\n".join(json.dumps(line) for line in lines) + "\nnot json\n\n"
    result = ringbook("check", "--batch", "-", stdin=stdin)
    assert result.returncode == 0, result.stderr
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert [row["status"] for row in rows] == ["correct", "incorrect", "correct", "invalid", "unknown", "invalid"]
    assert all({"status", "message"} <= set(row) for row in rows)
    assert rows[1]["feedback"] and "spec has problems" in rows[3]["message"]


def test_batch_from_a_file(tmp_path, ringbook):
    sheet = tmp_path / "answers.jsonl"
    sheet.write_text(json.dumps({"id": "0.1", "answer": "1.75"}) + "\n")
    rows = [json.loads(line) for line in ringbook("check", "--batch", str(sheet)).stdout.splitlines()]
    assert rows == [{"line": 1, "id": "0.1", "answer": "1.75", "status": "correct", "message": "Correct: 1.75 GB.",
                     "feedback": ""}]


def test_batch_file_that_does_not_exist(ringbook):
    result = ringbook("check", "--batch", "/nonexistent/answers.jsonl")
    assert result.returncode == 2 and "cannot read" in result.stderr and "Traceback" not in result.stderr


@pytest.mark.parametrize("args", [
    ["0.7", "-M"],
    ["0.7", "--", "-M"],
    ["0.7", "-M", "--json"],
    ["--json", "0.7", "-M"],
    ["0.7", "-hM"],  # not -h (help) with an argument
])
def test_an_answer_may_start_with_a_dash(args, ringbook):
    result = ringbook("check", *args)
    assert result.returncode in (1, 2), result.stderr  # graded (incorrect, or invalid: hM is not a symbol)
    assert result.stderr == "" and result.stdout.startswith(("incorrect", "invalid", "{"))
    if "--json" in args:
        assert json.loads(result.stdout)["answer"] == "-M"


def test_a_right_answer_that_starts_with_a_dash_is_correct(ringbook):
    result = ringbook("check", "0.7", "-2M(1/N - 1)")
    assert result.returncode == 0 and result.stdout.startswith("correct:"), result.stdout + result.stderr


def test_options_still_work_around_a_dashed_answer(ringbook):
    content = str(Path(__file__).resolve().parents[2] / "content")
    result = ringbook("check", "--content", content, "0.7", "-M", "--js")  # argparse's abbreviation too
    assert json.loads(result.stdout)["answer"] == "-M"
    assert ringbook("check", "0.7", "-h").stdout.startswith("usage: ringbook check")
    flagged = ringbook("check", "--allow-unsandboxed", "0.7", "-M", "--json")  # a flag is never taken for the answer
    assert json.loads(flagged.stdout)["answer"] == "-M", flagged.stderr


@pytest.mark.parametrize("answer, status, method", [
    ("2*M*(N-1)/N + floor(M/10)", "incorrect", "numeric"),
    ("2*M*(N-1)/N + floor(M/1e15)", "invalid", "numeric"),
    ("M(N-1)/N", "incorrect", "numeric"),
])
def test_json_verdict_says_how_a_formula_was_judged(answer, status, method, ringbook):
    verdict = json.loads(ringbook("check", "0.7", answer, "--json").stdout)
    assert (verdict["status"], verdict["method"]) == (status, method), verdict["message"]


def test_the_dash_handling_reads_the_options_from_the_parser_itself():
    """main.py kept its own table of check's options (to tell an answer like -M from an option), and it fell
    behind the parser once (--allow-unsandboxed). Now the parser knows its options as they are added: one
    added later, with a value, is still told from a dashed positional, and so is its abbreviation."""
    parser = CommandParser(prog="demo", dashed_positionals=True)
    parser.add_argument("word", nargs="?")
    parser.add_argument("answer", nargs="?")
    parser.add_argument("--flag", action="store_true")
    parser.add_argument("--level", type=int)
    args = parser.parse_args(["--lev", "3", "x", "-M", "--flag"])
    assert (args.word, args.answer, args.flag, args.level) == ("x", "-M", True, 3)
    args = parser.parse_args(["-hM", "--level=2", "--", "--flag"])
    assert (args.word, args.answer, args.flag, args.level) == ("-hM", "--flag", False, 2)
    plain = CommandParser(prog="plain")   # without dashed_positionals, argparse's own reading
    plain.add_argument("word", nargs="?")
    with pytest.raises(SystemExit):
        plain.parse_args(["-M"])
