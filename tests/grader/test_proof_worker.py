"""The proof worker's life: started only when a formula needs a proof, started again by the next proof after
it was killed, and stopped when no proof has come for a while, without ever failing a request that meets
that stop. (Its limits under attack are test_grade_hostile's.)"""

import os
import time

import pytest

from grader.book.load import exercise_from_spec
from grader.grade import grade
from grader.maths import prover
from grader.maths.prover import WORKER

RING, _ = exercise_from_spec({"answer": "2*M*(N-1)/N", "symbols": ["M", "N"]})
NEEDS_PROOF = "max(M, M)*2*(N-1)/N"  # right, but max() keeps the points from settling it


def gone(pid: int) -> bool:
    """Has process `pid` ended and been reaped?"""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def wait_for(condition, what: str, timeout: float = 60.0) -> None:
    """Poll until `condition()` holds; fail saying `what` never happened (a deadline far beyond any honest wait)."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"{what} did not happen within {timeout:g} s"
        time.sleep(0.01)


@pytest.fixture
def idle_soon(monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker idle for a fifth of a second is stopped (the app waits IDLE_SECONDS, minutes)."""
    WORKER.stop()
    monkeypatch.setattr(prover, "IDLE_SECONDS", 0.2)


def test_the_worker_starts_only_when_a_proof_is_needed(unhurried):
    WORKER.stop()
    assert grade(RING, "2M(N-1)/N").method == "numeric"
    assert WORKER.pid is None
    verdict = grade(RING, NEEDS_PROOF)
    assert (verdict.status, verdict.method) == ("correct", "symbolic"), verdict.message
    assert WORKER.pid is not None


def test_an_idle_worker_goes_and_the_next_proof_starts_another(idle_soon, unhurried):
    assert grade(RING, NEEDS_PROOF).method == "symbolic"
    first = WORKER.pid
    assert first is not None
    wait_for(lambda: WORKER.pid is None and gone(first), "the idle worker's stop")
    verdict = grade(RING, NEEDS_PROOF)
    assert (verdict.status, verdict.method) == ("correct", "symbolic"), verdict.message
    assert WORKER.pid not in (None, first)


def test_a_worker_stopped_as_soon_as_it_is_idle_never_fails_a_proof(monkeypatch, unhurried):
    """With no idle time at all, the stop comes straight after every proof: each proof, asked while the last
    worker goes, still gets its answer, since the stop and the request take the same lock."""
    WORKER.stop()
    monkeypatch.setattr(prover, "IDLE_SECONDS", 0.0)
    for _ in range(3):
        verdict = grade(RING, NEEDS_PROOF)
        assert (verdict.status, verdict.method) == ("correct", "symbolic"), verdict.message
    wait_for(lambda: WORKER.pid is None, "the stop after the last proof")


def test_a_worker_started_from_a_large_process_is_kept_after_its_proof():
    """The worker retires once it has grown past RETIRE_BYTES, and it judged that by its peak memory, which on
    Linux a process inherits from the one that started it: from a test run's worker of 300 MB, every worker
    retired after its first proof (seen only in the full suite). A process of its own, to hold the 300 MB."""
    import subprocess
    import sys
    from pathlib import Path

    script = ("big = bytearray(300 * 2**20)\n"
              "for i in range(0, len(big), 4096): big[i] = 1\n"
              "import grader.verdict; grader.verdict.TIME_BOUND = 60\n"
              "from grader.book.load import exercise_from_spec\n"
              "from grader.grade import grade\n"
              "from grader.maths.prover import WORKER\n"
              "ring, _ = exercise_from_spec({'answer': '2*M*(N-1)/N', 'symbols': ['M', 'N']})\n"
              f"print(grade(ring, {NEEDS_PROOF!r}).method, WORKER.pid is not None)\n")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120,
                            cwd=Path(__file__).resolve().parents[2], check=False)
    assert result.stdout.split() == ["symbolic", "True"], result.stderr[-2000:]
