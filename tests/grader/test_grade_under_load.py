"""A busy host slows a verdict but never changes it (issue 42, item 2).

Found: on a loaded host a proof-needing right answer (`max(a, b) + a`) came back "couldn't confirm", since the
proof had one second of the clock, a cold worker spent it loading sympy, and a waiting one spent it waiting for
a core; and `2*M*(N-1)/N + (M+M/10^20-M)*10^20*0^0`, which is 3M - 2M/N, came back *correct*: floats round
M+M/1e20-M to 0 and take 0.0**0 as 1, the precise arithmetic raised on 0**0, and a formula the points could not
settle was accepted when no proof came. Each case is graded on a quiet host and again with every core of this
process busy, from a cold proof worker (as a session's or a class report's first proof is), and must get the
same verdict both times.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading

import pytest

from grader.book.load import exercise_from_spec
from grader.grade import grade
from grader.maths.evaluate import EvaluationError, evaluate, evaluate_precisely
from grader.maths.parse import parse
from grader.maths.prover import WORKER
from tests.busy_host import busy_host

LARGER, _ = exercise_from_spec({"answer": "a + max(b, a)", "symbols": ["a", "b"]})
RING, _ = exercise_from_spec({"answer": "2*M*(N-1)/N", "symbols": ["M", "N"]})
FOOLS_FLOATS = "2*M*(N-1)/N + (M+M/10^20-M)*10^20*0^0"   # 3M - 2M/N where 0^0 is 1, undefined here
FOOLS_FLOATS_WITHOUT_0_TO_THE_0 = "2*M*(N-1)/N + (M+M/10^20-M)*10^20"   # 3M - 2M/N: wrong


def cold(exercise, text: str) -> tuple[str, str, str]:
    """(status, method, message) of a grade that starts the proof worker afresh."""
    WORKER.stop()
    verdict = grade(exercise, text)
    return verdict.status, verdict.method, verdict.message


def quiet_and_busy(exercise, text: str) -> tuple[tuple[str, str, str], tuple[str, str, str]]:
    quiet = cold(exercise, text)
    with busy_host():
        busy = cold(exercise, text)
    return quiet, busy


def test_a_right_answer_that_needs_a_proof_is_correct_on_a_busy_host():
    quiet, busy = quiet_and_busy(LARGER, "max(a, b) + a")
    assert quiet[:2] == ("correct", "symbolic"), quiet
    assert busy[:2] == quiet[:2], busy


def test_a_formula_that_fools_floats_is_never_correct_busy_or_quiet():
    quiet, busy = quiet_and_busy(RING, FOOLS_FLOATS)
    assert quiet[0] == "invalid" and "cannot be evaluated" in quiet[2], quiet
    assert busy[:2] == quiet[:2], busy


def test_a_wrong_formula_whose_terms_cancel_in_floats_is_incorrect_busy_or_quiet():
    quiet, busy = quiet_and_busy(RING, FOOLS_FLOATS_WITHOUT_0_TO_THE_0)
    assert quiet[:2] == ("incorrect", "symbolic"), quiet
    assert busy[:2] == quiet[:2], busy


def test_ringbook_check_gives_the_float_fooling_formula_the_same_verdict_on_a_busy_host(ringbook):
    """The reproduction from the issue, through the command."""
    WORKER.stop()
    quiet = ringbook("check", "0.7", FOOLS_FLOATS)
    WORKER.stop()
    with busy_host():
        busy = ringbook("check", "0.7", FOOLS_FLOATS)
    assert quiet.stdout.startswith("invalid: "), quiet
    assert (busy.returncode, busy.stdout) == (quiet.returncode, quiet.stdout)


@pytest.mark.skipif(not hasattr(signal, "SIGSTOP"), reason="stops the worker with SIGSTOP")
def test_a_proof_kept_off_the_cpu_for_seconds_still_decides():
    """A proof's budget is the worker's own CPU time: a worker that gets no core for two seconds (stopped, as
    a host with thirty learners answering at once can leave it) has spent none of it."""
    assert WORKER.wait_until_ready(120), "the proof worker did not start"
    pid = WORKER.pid
    assert pid is not None
    os.kill(pid, signal.SIGSTOP)
    resume = threading.Timer(2.0, os.kill, (pid, signal.SIGCONT))
    resume.start()
    try:
        verdict = grade(LARGER, "max(a, b) + a")
    finally:
        resume.cancel()
        with contextlib.suppress(ProcessLookupError):   # the old grader killed it at its deadline
            os.kill(pid, signal.SIGCONT)
    assert (verdict.status, verdict.method) == ("correct", "symbolic"), verdict.message
    assert WORKER.pid == pid


@pytest.mark.parametrize("text", ["0^0", "0^(M-M)", "(M-M)^0", "0^0*M", "M + 0^(2*0)"])
def test_zero_to_the_zero_is_undefined_in_floats_and_in_precise_arithmetic_alike(text):
    tree = parse(text, {"M"})
    with pytest.raises(EvaluationError, match="0\\^0"):
        evaluate(tree, {"M": 3.0})
    with pytest.raises(EvaluationError, match="0\\^0"):
        evaluate_precisely(tree, {"M": 3.0})


@pytest.mark.parametrize("text, value", [("0^2", 0.0), ("M^0", 1.0), ("0^M", 0.0), ("(M-M)^1", 0.0)])
def test_powers_of_zero_and_to_the_zero_that_are_defined_keep_their_values(text, value):
    tree = parse(text, {"M"})
    assert evaluate(tree, {"M": 3.0}) == value
    assert evaluate_precisely(tree, {"M": 3.0}) == value
