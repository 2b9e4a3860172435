"""A match exercise in the plain-line face: both columns listed as dealt, pairs typed as letters and numbers,
each item said right or wrong after a wrong answer, and the answer kept by ids as the app keeps it."""

from __future__ import annotations

from grader.kinds.match import Match, stored
from tests.lines.transcript import assert_plain, session

ZERO = "1.9"   # chapter 1's ninth exercise: 9 in its menu


def test_a_match_is_listed_answered_and_marked_in_lines(book, store):
    exercise = book.exercise(ZERO)
    assert isinstance(exercise, Match)
    wrong = dict(exercise.pairs, z1="b4")
    replies = ["2", "1", "9", exercise.positions(wrong), exercise.positions(exercise.pairs), "back", "b",
               "b", "quit"]
    transcript, prompts = session(book, store, replies)
    assert_plain(transcript, prompts)
    for letter, side in zip("abcd", exercise.presented_left, strict=True):
        assert f"item {letter}: {side.text}" in transcript
    for number, side in enumerate(exercise.presented_right, 1):
        assert f"option {number}: {side.text}" in transcript
    assert "verdict: incorrect. 3 of 4 pairs are right." in transcript
    assert "feedback: ZeRO-1 shards the optimizer state" in transcript
    assert f"item {exercise.letter('z1')}: wrong" in transcript and f"item {exercise.letter('z2')}: right" in transcript
    assert "verdict: correct: all 4 pairs are right." in transcript
    assert [(a.answer, a.status) for a in store.attempts(ZERO)] == [(stored(wrong), "incorrect"),
                                                                    (stored(exercise.pairs), "correct")]
