"""Options as the line face reads them (issue 46): `a: Plain: 32 steps...`, the letter that picks an option
and then the option's own words, never another letter (2.5 named its plans A and B, and was read
`a: B: 16 steps`, issue 45 renamed them Plain and Checkpointed). Every choice in the book, the quiz's too."""

from __future__ import annotations

import io
import re

from grader.book.variants import pose
from tests.lines.test_session import quiz_replies
from tests.lines.transcript import assert_plain, session
from tui.lines.answers.choice import letter
from tui.lines.console import Console
from tui.lines.context import Context
from tui.lines.exercise import work_on
from tui.progress.clock import now
from tui.progress.session import StudySession

# An option line whose text starts with a letter that picks an option: `a: B: 16 steps`, `c: (d) ...`
LETTER_AFTER_LETTER = re.compile(r"^[a-z]: [*(]*[A-Da-d][:).]( |$)")


def test_the_plans_of_2_5_are_read_by_their_names_after_the_options_letter(book, store):
    exercise = pose(book.exercise("2.5"), 0)
    transcript, prompts = session(book, store, ["2", "2", "5", "explain", "explain", "back", "b", "b", "quit"])
    assert_plain(transcript, prompts)
    lines = transcript.splitlines()
    options = [line for line in lines if re.match(r"^[a-d]: ", line)]
    assert options == [f"{letter(i)}: {o.text}" for i, o in enumerate(exercise.presented_options)]
    assert sorted(line[3:].split(":")[0].split(" ")[0] for line in options) == ["Checkpointed", "Checkpointed",
                                                                                 "Neither", "Plain"]
    right = exercise.presented_options.index(exercise.correct_option)
    assert f"right option: {letter(right)}: Plain: 32 steps × T = 32T, against about 42.7T for Checkpointed" in lines
    assert "  - Plain: micro-batch 8, activation checkpointing off." in lines


def test_no_option_in_the_book_or_the_quiz_is_read_as_a_letter_then_another(book, store):
    out = io.StringIO()
    console = Console(io.StringIO(), out, echo=True)
    ctx = Context(StudySession(book, store, now), console)
    choices = [e for e in book.exercises if getattr(e, "options", ())]
    for exercise in choices:
        console.stdin = io.StringIO("back\n")
        assert work_on(ctx, exercise) == "back"
    transcript, _ = session(book, store, [*quiz_replies(book), "quit"])
    read = out.getvalue().splitlines() + transcript.splitlines()
    assert len([line for line in read if line.startswith("a: ")]) >= len(choices) + 10
    assert [line for line in read if LETTER_AFTER_LETTER.match(line)] == []
