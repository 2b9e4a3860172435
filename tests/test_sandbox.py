"""Learner code for build exercises runs in a separate, limited process, and cannot hurt the learner."""

from __future__ import annotations

import time

import pytest

from grader.grade import grade
from grader.load import load_book
from grader.model import Build
from grader.sandbox import WALL_SECONDS, run_tests

BOOK = load_book()
BUILDS = [e.id for e in BOOK.exercises if isinstance(e, Build)]
RING = BOOK.exercise("0.5")
HEADER = "def ring_allreduce_time(m_gb, n, bw_gbs, latency_us):\n"


@pytest.mark.parametrize("exercise_id", BUILDS)
def test_reference_solution_passes_through_the_sandbox(exercise_id):
    exercise = BOOK.exercise(exercise_id)
    verdict = grade(exercise, exercise.solution)
    assert verdict.status == "correct", verdict.message
    assert len(verdict.rows) == len(exercise.tests)


@pytest.mark.parametrize("exercise_id", BUILDS)
def test_starter_fails_every_test_with_a_readable_row(exercise_id):
    exercise = BOOK.exercise(exercise_id)
    verdict = grade(exercise, exercise.starter)
    assert verdict.status == "incorrect"
    assert verdict.message == f"0 of {len(exercise.tests)} tests pass."
    assert all("NotImplementedError" in row.message and "expected" in row.message for row in verdict.rows)


def test_a_near_miss_names_the_failing_case():
    verdict = grade(RING, HEADER + "    return 2 * (n - 1) * m_gb / n / bw_gbs * 1000\n")
    assert verdict.status == "incorrect" and "tests pass" in verdict.message
    assert "latency_us=5" in verdict.feedback and "expected" in verdict.feedback and "got" in verdict.feedback


def test_an_infinite_loop_is_stopped_and_says_so():
    started = time.monotonic()
    verdict = grade(RING, HEADER + "    while True:\n        pass\n")
    assert time.monotonic() - started < WALL_SECONDS + 2
    assert verdict.status == "incorrect" and f"stopped after {WALL_SECONDS:g} s" in verdict.message


def test_an_output_flood_is_harmless():
    started = time.monotonic()
    verdict = grade(RING, HEADER + "    for _ in range(10**6):\n        print('x' * 100)\n    return 0\n")
    assert verdict.status == "incorrect" and time.monotonic() - started < WALL_SECONDS + 2


def test_a_memory_bomb_is_contained():
    verdict = grade(RING, HEADER + "    return len([0] * 10**10)\n")
    assert verdict.status == "incorrect"
    assert all("MemoryError" in row.message for row in verdict.rows)


@pytest.mark.parametrize("source, fragment", [
    ("def ring_allreduce_time(:\n", "could not read your code (line 1"),
    ("def other():\n    return 1\n", "does not define ring_allreduce_time()"),
])
def test_unreadable_code_is_invalid_and_costs_nothing(source, fragment):
    verdict = grade(RING, source)
    assert verdict.status == "invalid" and fragment in verdict.message
    assert not verdict.counts_as_attempt


@pytest.mark.parametrize("attack", [
    "import os\nos.system('touch {target}')\n",
    "open('{target}', 'w').write('x')\n",
    "import subprocess\nsubprocess.run(['touch', '{target}'])\n",
    "import shutil\nshutil.copy('/etc/hostname', '{target}')\n",
    "import os\nos.remove('{victim}')\n",
])
def test_side_effects_are_refused(attack, tmp_path):
    target, victim = tmp_path / "pwned", tmp_path / "keep"
    victim.write_text("precious")
    verdict = grade(RING, attack.format(target=target, victim=victim) + HEADER + "    return 0\n")
    assert verdict.status == "incorrect" and "not allowed" in verdict.message
    assert not target.exists() and victim.read_text() == "precious"


def test_imports_and_reading_still_work():
    source = "import math\n" + HEADER + "    return math.fsum([2 * (n - 1) * (m_gb / n / bw_gbs * 1000 + latency_us / 1000)])\n"
    assert run_tests(source, RING.function, RING.tests, RING.tolerance).passed == len(RING.tests)
