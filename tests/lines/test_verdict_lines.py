"""The verdict line says its status once (issue 46): `verdict: correct: 1.75 GB.`, not `verdict: correct.
Correct: 1.75 GB.`, for every way of answering and every status, a reply not counted included."""

from __future__ import annotations

import io
import re

from tests.lines.test_transcripts import one_of_each_way
from tests.lines.transcript import assert_plain
from tui.lines.console import Console
from tui.lines.context import Context
from tui.lines.exercise import work_on
from tui.progress.clock import now
from tui.progress.session import StudySession

# A status said again by the message after it: the grader's own words for right, wrong and not read.
SAID_AGAIN = re.compile(r"^(verdict|row \d+: .*): (correct|incorrect|not counted)[.:,] "
                        r"(correct|yes|incorrect|not quite|not that one)\b", re.IGNORECASE)


def verdicts(book, store, answers: list[tuple[str, list[str]]]) -> list[str]:
    """The verdict lines (and a trace table's row lines) of each exercise answered with its replies."""
    out = io.StringIO()
    console = Console(io.StringIO(), out, echo=True)
    ctx = Context(StudySession(book, store, now), console)
    for exercise_id, replies in answers:
        console.stdin = io.StringIO("".join(f"{r}\n" for r in [*replies, "back"]))
        assert work_on(ctx, book.exercise(exercise_id)) == "back"
    assert_plain(out.getvalue(), console.prompts)
    return [line for line in out.getvalue().splitlines() if line.startswith(("verdict: ", "row "))]


def test_every_verdict_says_its_status_once(book, store):
    match = book.exercise("1.9")
    wrong_pairs = dict(match.pairs, z1="b4")
    said = verdicts(book, store, [*one_of_each_way(book), ("0.2", ["1.75 (("]),
                                  ("1.9", [match.positions(wrong_pairs), match.positions(match.pairs)])])
    assert [line for line in said if SAID_AGAIN.match(line)] == []
    for line in ("verdict: incorrect: 5.25 GB is not the answer.", "verdict: correct: 1.75 GB.",
                 "verdict: incorrect.", "verdict: correct.", "verdict: correct: every row is right.",
                 "verdict: incorrect. Line 5 is not the bug.", "verdict: correct: line 6 is the bug.",
                 "verdict: correct: that is the right order.", "verdict: incorrect. 0 of 5 tests pass.",
                 "verdict: correct. All 5 tests pass.", "verdict: incorrect. 3 of 4 pairs are right.",
                 "verdict: correct: all 4 pairs are right.",
                 "row 3: TP = 8: query heads sharing each local KV head: incorrect: 9 is not the answer.",
                 "row 1: TP = 8: query heads per GPU: correct"):
        assert line in said, (line, said)
    [not_counted] = [line for line in said if line.startswith("verdict: ")
                     and not line.startswith(("verdict: correct", "verdict: incorrect"))]
    assert not_counted.startswith("verdict: not counted. Couldn't read that: "), not_counted
