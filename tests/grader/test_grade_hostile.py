"""Hostile input: each is refused as invalid, quickly, and touches nothing on disk."""

import os
import time

import pytest

from grader.grade import grade
from grader.load import exercise_from_spec

NUMBER, _ = exercise_from_spec({"answer": "2*M*(N-1)/N", "params": {"M": 1, "N": 8}, "unit": "GB"})
FORMULA, _ = exercise_from_spec({"answer": "2*M*(N-1)/N", "symbols": ["M", "N"]})

HOSTILE = [
    "__import__('os').system('touch pwned')",
    "__import__(\"os\").getcwd()",
    "open('pwned', 'w').write('x')",
    "().__class__.__bases__[0].__subclasses__()",
    "M.__class__",
    "eval('1+1')",
    "exec('import os')",
    "lambda: 1",
    "[x for x in range(10)]",
    "import os",
    "x = 1; y = 2",
    "9**9**9**9",
    "9^9^9^9",
    "factorial(10**9)",
    "factorial(factorial(20))",
    "10^10^10",
    "1" * 100_000,
    "(" * 10_000 + "1" + ")" * 10_000,
    "-" * 5000 + "1",
    "1\x00",
    "\x00",
    "M" * 400,
    "2MN" * 150,
    "sqrt(" * 300 + "1" + ")" * 300,
    "'\\x41'",
    "{1: 2}",
    "¹",
    "٣",
    "2¹⁴",
]


@pytest.mark.parametrize("case", [NUMBER, FORMULA], ids=["number", "formula"])
@pytest.mark.parametrize("text", HOSTILE, ids=range(len(HOSTILE)))
def test_hostile_input_is_invalid_fast_and_harmless(case, text, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    started = time.monotonic()
    verdict = grade(case, text)
    elapsed = time.monotonic() - started
    assert verdict.status == "invalid", verdict.message
    assert elapsed < 1.0
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("text", ["¹", "٣", "１", "\x00", "a" * 3000])
def test_unicode_digits_and_junk_are_invalid_for_every_kind(book, text):
    for exercise_id in ("0.4", "9.8", "0.6", "8.2"):
        assert grade(book.exercise(exercise_id), text).status == "invalid", exercise_id
