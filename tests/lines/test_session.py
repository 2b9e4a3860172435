"""The acceptance session of issue 26, `ringbook` itself over real pipes (no terminal): chapter 0 read, an
exercise of every kind solved after one wrong try each, a hint, an explanation, a review days later
(RINGBOOK_NOW), the quiz, Act I of the lab, and the store checked afterwards; every transcript plain and
labelled."""

from __future__ import annotations

import inspect
import re
from datetime import datetime, timedelta

from grader.book.variants import pose
from tests.expected import ch0
from tests.helpers import ringbook_subprocess
from tests.lines.transcript import assert_plain, letter_of, positions_of
from tui.progress.clock import now
from tui.progress.review import due_in_book

BUILD = inspect.getsource(ch0._ring_time_ms).replace("def _ring_time_ms(", "def ring_allreduce_time(")
WRONG_BUILD = "def ring_allreduce_time(m_gb, n, bw_gbs, latency_us):\n    return 0.0\n"


def chapter_zero_replies(book) -> list[str]:
    """Open chapter 0, read its text, then each exercise of a different kind: a wrong try, then the answer.
    A design's numbers are those of its items as last listed: after a wrong order, that order."""
    ex = {i: book.exercise(i) for i in ("0.1", "0.4", "0.5", "0.6", "0.7", "0.8")}
    right_option = ch0.CHOICES["0.4"]
    wrong_option = next(o.id for o in ex["0.4"].options if o.id != right_option)
    buggy = ch0.BUGGY_LINES["0.6"]
    order = ch0.ORDERS["0.8"]
    moved = list(reversed(order))             # as the list stands after the wrong order sent, and one move
    moved[0], moved[1] = moved[1], moved[0]
    return [
        "2", "0",                      # chapters, chapter 0 (by its own number)
        "t", "a",                      # read the text, all of it
        "1",                           # exercise 0.1 (derive, a number)
        str(2 * ch0.NUMERIC["0.1"]), "hint", str(ch0.NUMERIC["0.1"]), "next",   # 0.2 follows
        "back",
        "3",                           # 0.3: the explanation opened before an answer: asked, then confirmed
        "explain", "explain", str(2 * ch0.NUMERIC["0.3"]), str(ch0.NUMERIC["0.3"]), "back",
        "4",                           # 0.4 (trace, a choice)
        letter_of(ex["0.4"], wrong_option), letter_of(ex["0.4"], right_option), "back",
        "5",                           # 0.5 (build): typed line by line, then a dot
        *WRONG_BUILD.splitlines(), ".", *BUILD.splitlines(), ".", "back",
        "6",                           # 0.6 (debug): a line number
        str(buggy % len(ex["0.6"].lines) + 1), str(buggy), "back",
        "7",                           # 0.7 (derive, a formula)
        "M", "2*M*(N-1)/N", "back",
        "8",                           # 0.8 (design): a wrong order, then moves and the right order
        positions_of(ex["0.8"], list(reversed(order))), "move 1 down",
        " ".join(str(moved.index(item) + 1) for item in order), "back",
        "b", "b",                      # the chapter list, the main menu
    ]


def quiz_replies(book) -> list[str]:
    quiz = book.quizzes[0]
    replies = ["4"]
    for question in quiz:
        replies += ["a"] if question.style == "choice" else ["", "2"]
    return [*replies, "1", "b", "b"]   # the first question's chapter, opened from the results and left


def lab_replies() -> list[str]:
    return ["5", "1", "set gpus 64", "plot", "reflect", "2", "back"]


def over_a_pipe(replies: list[str], now_is: datetime | None = None) -> str:
    """`ringbook` itself with `replies` on its standard input and its output read from a pipe, as a script or
    `ssh -T` runs it (no terminal, so the plain-line face, which says why); what it printed."""
    env = {"RINGBOOK_NOW": now_is.isoformat(timespec="seconds")} if now_is else {}
    done = ringbook_subprocess(stdin="".join(f"{reply}\n" for reply in replies), env=env, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("ringbook: screen-reader mode is on: ")
    assert "\x1b" not in done.stdout + done.stderr
    return done.stdout


def test_a_whole_session_in_lines_is_the_apps_session(book, store):
    first = over_a_pipe([*chapter_zero_replies(book), *quiz_replies(book), *lab_replies(), "6", "quit"])
    assert_plain(first)
    assert "chapter text: chapter 0, Ring AllReduce" in first and "end of chapter text" in first
    assert "hint 1 of 3: " in first
    asked = first.split("explain: this shows the worked answer, kept as revealed")
    assert len(asked) == 2 and "Type explain again to see it" in asked[1]
    assert "explanation" in asked[1].split("answer 0.3", 2)[1]   # the second explain, at the next prompt, shows it
    for kind in {e.kind for e in book.chapter("0").exercises}:   # chapter 0 has most kinds, each answered here
        assert re.search(rf"^exercise [\d.]+: .*[.?!] {kind}, ", first, re.MULTILINE), kind
    verdicts = [line for line in first.splitlines() if line.startswith("verdict: ")]
    assert sum(v.startswith("verdict: incorrect") for v in verdicts) >= 7
    assert "feedback: " in first and "the fix, line 6: " in first and "first out of place: " in first
    assert "moved: item 1 is now number 2" in first
    assert "test 1: correct" in first
    assert "score: " in first and "question 20: " in first
    results = first.split("score: ")[1]
    assert f"chapter {book.chapter(book.quizzes[0].questions[0].chapter).id}: " in results.split("open (")[1]
    assert "mfu: " in first and "model: 1 GPU " in first and "measured: " in first

    attempts = store.attempts()
    solved = {a.exercise_id for a in attempts if a.status == "correct"}
    assert solved == {"0.1", "0.3", "0.4", "0.5", "0.6", "0.7", "0.8"}
    for exercise_id in solved:
        tries = [a.status for a in attempts if a.exercise_id == exercise_id]
        assert tries == ["incorrect", "correct"], exercise_id   # one wrong try each, then right, nothing lost
    right = {a.exercise_id: a for a in attempts if a.status == "correct"}
    assert right["0.1"].hints_used == 1 and right["0.3"].revealed_first and not right["0.1"].revealed_first
    assert all(a.purpose == "learn" and a.seed == 0 for a in attempts)
    states = store.exercise_states()
    assert states["0.3"].solved_after_reveal and states["0.3"].revealed
    [quiz_run] = store.entries("quiz")
    assert quiz_run.payload["out_of"] == len(book.quizzes[0])
    assert '"prediction": ' in store.state("lab:" + book.labs[0].id)

    later = now() + timedelta(days=60)
    due = due_in_book(store, book, later)
    assert {c.exercise_id for c in due} == solved
    replies = ["3"]
    for card in due:
        posed = pose(book.exercise(card.exercise_id), card.seed)
        if card.exercise_id == "0.4":
            replies += [letter_of(posed, ch0.CHOICES["0.4"]), "next"]
        elif card.exercise_id == "0.6":
            replies += ["3", str(ch0.BUGGY_LINES["0.6"]), "next"]
        else:
            replies += ["next"]
    second = over_a_pipe([*replies, "quit"], now_is=later)
    assert_plain(second)
    assert f"review 1 of {len(due)}: exercise {due[0].exercise_id}" in second
    assert "next review: 5 cards still due now: choose review again" in second
    assert "review done: 2 of 7 reviewed, 1 right first time" in second
    reviews = [a for a in store.attempts() if a.purpose == "review"]
    seeds = {c.exercise_id: c.seed for c in due}
    assert [(a.exercise_id, a.status) for a in reviews if a.exercise_id == "0.6"] == [("0.6", "incorrect"),
                                                                                      ("0.6", "correct")]
    assert [(a.exercise_id, a.status) for a in reviews if a.exercise_id == "0.4"] == [("0.4", "correct")]
    assert all(a.seed == seeds[a.exercise_id] for a in reviews)
    assert {c.exercise_id for c in due_in_book(store, book, later)} == solved - {"0.4", "0.6"}
