"""`ringbook content check` runs each build's and debug's code against its own tests, in the sandbox, as a
learner's code runs: a reference solution that fails a test or does not run, a starter that already passes, a
debug whose fixed listing fails or whose buggy listing passes are each reported at their line; an unchanged
exercise is not run again (grader/book/code_runs.py, grader/book/run_cache.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from grader.book.run_cache import NAME
from tui.cli.main import main

CHAPTER0 = "00-ring-allreduce/exercises.yaml"   # build 0.5 and debug 0.6, the chapter's only code


@pytest.fixture
def chapter0(chapters_copy, tmp_path: Path, monkeypatch) -> Path:
    """Chapter 0 alone, with a cache folder of the test's own, so every run it needs is made here; the
    current folder is the book's, so that problems name its files as an author there reads them."""
    monkeypatch.setenv("RINGBOOK_CACHE_DIR", str(tmp_path / "cache"))
    book = chapters_copy("00-ring-allreduce")
    monkeypatch.chdir(book)
    return book


def edit(book: Path, old: str, new: str) -> int:
    """Replace the one `old` in chapter 0's exercises; the line it was on."""
    path = book / CHAPTER0
    text = path.read_text()
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new))
    return text[: text.index(old)].count("\n") + 1


def line_of(book: Path, needle: str) -> int:
    text = (book / CHAPTER0).read_text()
    assert text.count(needle) == 1, needle
    return text[: text.index(needle)].count("\n") + 1


def check(book: Path, capsys) -> tuple[int, list[str]]:
    """The real command's status and what it printed for each problem, as `path:line: message`."""
    code = main(["content", "check", "--content", str(book)])
    return code, [line for line in capsys.readouterr().out.splitlines() if f"{CHAPTER0}:" in line]


def said_at(lines: list[str], line: int) -> list[str]:
    return [said.split(f"{CHAPTER0}:{line}: ", 1)[1] for said in lines if f"{CHAPTER0}:{line}: " in said]


def test_a_test_the_reference_solution_fails_is_reported_at_the_test(chapter0, capsys):
    line = edit(chapter0, "      - args: {m_gb: 4, n: 1, bw_gbs: 100, latency_us: 10}\n        expected: 0\n",
                "      - args: {m_gb: 4, n: 1, bw_gbs: 100, latency_us: 10}\n        expected: 1\n")
    code, lines = check(chapter0, capsys)
    assert code == 1
    assert lines == [f"{CHAPTER0}:{line}: test 3 (m_gb=4, n=1, bw_gbs=100, latency_us=10) expects 1; the reference "
                     "solution returns 0: fix the test's expected or the solution"]


def test_a_solution_python_cannot_read_is_reported_at_the_solution(chapter0, capsys):
    edit(chapter0, "chunk_gb = m_gb / n\n", "chunk_gb = m_gb / (n\n")
    code, lines = check(chapter0, capsys)
    assert code == 1
    [said] = said_at(lines, line_of(chapter0, "    solution: |"))
    assert said.startswith("the reference solution does not run, so a learner who writes it is told: Python could "
                           "not read your code (")
    assert len(lines) == 1


def test_a_solution_that_raises_is_reported_at_each_test(chapter0, capsys):
    edit(chapter0, "chunk_gb = m_gb / n\n", "chunk_gb = m_gb / (n - n)\n")
    code, lines = check(chapter0, capsys)
    assert code == 1
    first = line_of(chapter0, "- args: {m_gb: 2, n: 8, bw_gbs: 50, latency_us: 0}")
    assert said_at(lines, first) == ["test 1 (m_gb=2, n=8, bw_gbs=50, latency_us=0) expects 70; the reference "
                                     "solution raises ZeroDivisionError: division by zero: fix the test's expected "
                                     "or the solution"]
    assert len(lines) == 5 and all("raises ZeroDivisionError" in said for said in lines)


def test_a_starter_that_already_passes_is_reported_at_the_starter(chapter0, capsys):
    edit(chapter0, "          raise NotImplementedError\n",
         "          return 2 * (n - 1) * (m_gb / n / bw_gbs * 1000 + latency_us / 1000)\n")
    code, lines = check(chapter0, capsys)
    assert code == 1
    assert lines == [f"{CHAPTER0}:{line_of(chapter0, '    starter: |')}: the starter already passes all 5 tests, so "
                     "a learner who submits it unchanged is marked correct: make it fail them (for example raise "
                     "NotImplementedError)"]


def test_a_debug_whose_fixed_listing_fails_is_reported_at_each_test(chapter0, capsys):
    edit(chapter0, 'fixed_line: "    total_time = steps * per_step_time"',
         'fixed_line: "    total_time = steps * per_step_time / 2"')
    code, lines = check(chapter0, capsys)
    assert code == 1
    assert said_at(lines, line_of(chapter0, "- args: {m: 1, n: 8, bw: 50}")) == [
        "test 1 (m=1, n=8, bw=50) expects 0.035; the fixed listing (line 6 as fixed_line) returns 0.0175: fix the "
        "test's expected or fixed_line"]
    assert len(lines) == 3


def test_a_debug_whose_fixed_listing_python_cannot_read_is_reported_at_fixed_line(chapter0, capsys):
    line = edit(chapter0, 'fixed_line: "    total_time = steps * per_step_time"',
                'fixed_line: "    total_time = steps * (per_step_time"')
    code, lines = check(chapter0, capsys)
    assert code == 1
    [said] = said_at(lines, line)
    assert said.startswith("the fixed listing (line 6 as fixed_line) does not run, and the run says: Python could "
                           "not read your code (")
    assert len(lines) == 1


def test_a_debug_whose_buggy_listing_passes_is_reported_at_its_tests(chapter0, capsys):
    for args in ("{m: 1, n: 8, bw: 50}", "{m: 4, n: 4, bw: 100}", "{m: 2, n: 2, bw: 25}"):
        edit(chapter0, args, args.replace("{m: 1", "{m: 0").replace("{m: 4", "{m: 0").replace("{m: 2", "{m: 0"))
    code, lines = check(chapter0, capsys)
    assert code == 1
    tests = line_of(chapter0, "- args: {m: 0, n: 8, bw: 50}")
    assert lines == [f"{CHAPTER0}:{tests}: the buggy listing passes all 3 tests, so they do not show the bug on "
                     "line 6: add a test that the bug fails and the fixed listing passes"]


def test_debug_tests_without_a_function_are_reported(chapter0, capsys):
    edit(chapter0, "    function: all_reduce_time\n", "")
    code, lines = check(chapter0, capsys)
    assert code == 1
    tests = line_of(chapter0, "- args: {m: 1, n: 8, bw: 50}")
    assert lines == [f"{CHAPTER0}:{tests}: tests call the listing's function: name it with `function`"]


def test_a_second_check_runs_only_what_changed(chapter0, tmp_path, capsys, monkeypatch):
    """After one check, no sandbox can start: a check that needed to run code would say so. The unchanged
    book checks clean; after 0.5's solution changes, only 0.5 is run again."""
    assert check(chapter0, capsys) == (0, [])
    outcomes = json.loads((tmp_path / "cache" / NAME).read_text())["outcomes"]
    assert len(outcomes) == 4   # 0.5's solution and starter, 0.6's fixed and buggy listing
    monkeypatch.setenv("RINGBOOK_SANDBOX", "required")
    monkeypatch.setenv("RINGBOOK_BWRAP", str(tmp_path / "no-bwrap"))
    assert check(chapter0, capsys) == (0, [])
    edit(chapter0, '"""Time of a ring AllReduce in milliseconds."""', '"""Milliseconds of a ring AllReduce."""')
    code, lines = check(chapter0, capsys)
    assert code == 0
    tests = line_of(chapter0, "- args: {m_gb: 2, n: 8, bw_gbs: 50, latency_us: 0}")
    [said] = said_at(lines, tests)
    assert said.startswith("warning: the code was not run against its tests: RINGBOOK_BWRAP names ")
    assert said.endswith("; set RINGBOOK_SANDBOX=optional to run your own book's code without a sandbox")
    assert len(lines) == 1
