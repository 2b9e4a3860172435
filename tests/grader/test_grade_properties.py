"""Properties over random text and random expression trees (3,000 examples each in CI):
no exception escapes `grade`, every call returns a verdict, and grading never reaches
eval/exec/compile, the file system or a process other than the proof worker. (That a slow proof is
stopped at its deadline is tested by what happens to the worker, in test_grade_hostile; speed is
benchmarks/grade_latency.py's.)"""

from __future__ import annotations

import sys
import threading

from hypothesis import given
from hypothesis import strategies as st

from grader.book.load import exercise_from_spec
from grader.grade import grade
from grader.verdict import Verdict
from tests.built_in import builtin_book

BOOK = builtin_book()
NUMBER = BOOK.exercise("0.1")
FORMULA = BOOK.exercise("0.7")
CASES = [case for case in (NUMBER, FORMULA, *map(BOOK.exercise, ("0.4", "9.8", "0.6", "8.2")),
                           exercise_from_spec({"answer": "100*(p-1)/m", "params": {"p": 4, "m": 12}, "unit": "%"})[0])
         if case is not None]
assert len(CASES) == 7
FORBIDDEN = ("exec", "compile", "open", "os.system", "os.exec", "os.posix_spawn", "os.spawn", "os.fork",
             "subprocess.Popen", "socket.connect", "os.remove", "os.rename", "os.mkdir", "shutil.rmtree",
             "ctypes.dlopen", "code.__new__")

_watching = threading.local()
_seen: list[str] = []


def _hook(event: str, args) -> None:
    if getattr(_watching, "on", False) and event.startswith(FORBIDDEN) and not _starts_proof_worker(event, args):
        _seen.append(event)


def _starts_proof_worker(event: str, args) -> bool:
    """The sympy proof worker (grader/maths/prover.py) starts when a formula first needs a proof, and again
    after it was stopped (idle, or killed at a deadline): the one process grading may start."""
    return event == "subprocess.Popen" and any("from grader.maths.prover import serve" in str(a) for a in args[1])


sys.addaudithook(_hook)
for case in CASES:  # import everything lazily imported (pint, the formula code) before watching
    grade(case, "2M(N-1)/N")
    grade(case, "1750 MB")


def judged(case, text: str) -> Verdict:
    _seen.clear()
    _watching.on = True
    try:
        verdict = grade(case, text)
    finally:
        _watching.on = False
    assert isinstance(verdict, Verdict)
    assert verdict.status in ("correct", "incorrect", "invalid")
    assert _seen == [], f"grading {text[:80]!r} raised audit events {_seen}"
    return verdict


ANSWER_ALPHABET = st.sampled_from(list("0123456789.,+-*/^()eE xX%$MNSIpi _'\"[]{}:;=!@#<>|&~`\\\n\t\x00") +
                                  ["**", "×", "−", "·", "µ", "GB", "MB", "ms", "sqrt(", "log(", "factorial(",
                                   "__import__", "open(", "lambda", "os.", ".__class__", "9**9**9", "10^"])


@given(st.sampled_from(CASES), st.one_of(st.text(max_size=400), st.lists(ANSWER_ALPHABET, max_size=120).map("".join)))
def test_random_text(case, text):
    judged(case, text)


NAMES = st.sampled_from(["M", "N", "pi", "e", "K", "x", "os", "__import__", "open", "MN", "NN"])
FUNCS = st.sampled_from(["sqrt", "log", "ln", "exp", "ceil", "floor", "abs", "min", "max", "factorial", "cbrt", "mod",
                         "round", "eval", "open", "getattr", "__import__"])
NUMBERS = st.one_of(
    st.integers(min_value=0, max_value=10**12).map(str),
    st.floats(min_value=0, max_value=1e12, allow_nan=False).map(repr),
    st.sampled_from(["1e9", "2.4E-03", "16,384", "7/4", "1e308", "9", "0"]),
)


def _combine(children):
    return st.one_of(
        st.tuples(children, st.sampled_from(["+", "-", "*", "/", "^", "**", " ", ""]), children).map(
            lambda t: f"{t[0]}{t[1]}{t[2]}"),
        children.map(lambda c: f"({c})"),
        children.map(lambda c: f"-{c}"),
        st.tuples(FUNCS, st.lists(children, min_size=1, max_size=3)).map(lambda t: f"{t[0]}({', '.join(t[1])})"),
    )


TREES = st.recursive(st.one_of(NUMBERS, NAMES), _combine, max_leaves=40)


@given(st.sampled_from([NUMBER, FORMULA]), TREES)
def test_random_expression_trees(case, text):
    verdict = judged(case, text)
    if case is FORMULA and verdict.status == "correct":
        assert grade(case, f"({text}) + 1").status != "correct"


def test_the_watch_would_see_eval_and_open(tmp_path):
    _seen.clear()
    _watching.on = True
    try:
        eval("1 + 1")
        (tmp_path / "probe").write_text("x")
    finally:
        _watching.on = False
    assert "exec" in _seen and "open" in _seen
