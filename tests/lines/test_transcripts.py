"""Transcripts of the plain-line face: a golden one of an exercise of each way of answering, reviewed like a
snapshot, and hostile text (a book's, a learner's) reaching the transcript only as visible escapes.

The golden transcript is snapshots/test_lines/one_of_each_way.txt. After a deliberate change, rewrite it with
`RINGBOOK_UPDATE_TRANSCRIPTS=1 uv run pytest tests/lines/test_transcripts.py`, then read the diff."""

from __future__ import annotations

import inspect
import io
import os
from pathlib import Path

from grader.book.load import load_book
from tests.expected import ch0, ch6
from tests.lines.transcript import assert_plain, letter_of, positions_of, session
from tui.lines.console import Console
from tui.lines.context import Context
from tui.lines.exercise import work_on
from tui.progress.clock import now
from tui.progress.session import StudySession

GOLDEN = Path(__file__).resolve().parent.parent.parent / "snapshots" / "test_lines" / "one_of_each_way.txt"
UPDATE = "RINGBOOK_UPDATE_TRANSCRIPTS"


def one_of_each_way(book) -> list[tuple[str, list[str]]]:
    """(exercise id, replies): a wrong try and the right answer, for each way of answering."""
    ex = {i: book.exercise(i) for i in ("0.4", "0.6", "0.8")}
    wrong = next(o.id for o in ex["0.4"].options if o.id != ch0.CHOICES["0.4"])
    order = ch0.ORDERS["0.8"]
    build = inspect.getsource(ch0._ring_time_ms).replace("def _ring_time_ms(", "def ring_allreduce_time(")
    steps = ch6.STEPS["6.4"]
    return [
        ("0.1", [str(3 * ch0.NUMERIC["0.1"]), str(ch0.NUMERIC["0.1"])]),
        ("0.4", [letter_of(ex["0.4"], wrong), letter_of(ex["0.4"], ch0.CHOICES["0.4"])]),
        ("6.4", ["", *(str(v + 1) for v in steps), "; ".join(f"{v:g}" for v in steps)]),
        ("0.6", [str(ch0.BUGGY_LINES["0.6"] - 1), str(ch0.BUGGY_LINES["0.6"])]),
        ("0.8", [positions_of(ex["0.8"], order[1:] + order[:1]), *(f"move {n} up" for n in (6, 5, 4, 3, 2)), "send"]),
        ("0.5", ["def ring_allreduce_time(m_gb, n, bw_gbs, latency_us):", "    return 1.0", ".",
                 *build.splitlines(), "."]),
    ]


def test_a_golden_transcript_of_each_way_of_answering(book, store):
    """Each exercise answered wrongly, then rightly, as a screen reader would read it; compared line by line
    with the kept transcript (the sandbox's notice, which depends on the machine, is left out)."""
    out = io.StringIO()
    console = Console(io.StringIO(), out, echo=True)
    ctx = Context(StudySession(book, store, now), console)
    for exercise_id, replies in one_of_each_way(book):
        console.stdin = io.StringIO("".join(f"{r}\n" for r in [*replies, "back"]))
        assert work_on(ctx, book.exercise(exercise_id)) == "back"
    transcript = out.getvalue()
    assert_plain(transcript, console.prompts)
    kept = "".join(line for line in transcript.splitlines(keepends=True) if not line.startswith("sandbox: "))
    if os.environ.get(UPDATE):
        GOLDEN.write_text(kept, encoding="utf-8")
    assert kept == GOLDEN.read_text(encoding="utf-8")
    solved = [a.exercise_id for a in store.attempts() if a.status == "correct"]
    assert solved == ["0.1", "0.4", "6.4", "0.6", "0.8", "0.5"]


HOSTILE = ("\x1b[2J\x1b]0;pwned\x07 \x1b]52;c;ZWNobyBoaQ==\x07 [@click=app.quit]click[/] \x9b31m "
           "\u202eevil\u202c \x00\x08 **bold** `code`")


def test_hostile_book_and_learner_text_reach_the_transcript_inert(chapters_copy, store):
    """Escapes, OSC 52 clipboard writes, C1 codes, bidirectional overrides and markup in a chapter and in what
    a learner types are shown as visible escapes or plain words, never sent."""
    content = chapters_copy("00-ring-allreduce")
    book = load_book(content)
    narrative = content / "00-ring-allreduce" / "chapter.md"
    narrative.write_text(f"# Title {HOSTILE}\n\n{HOSTILE}\n\n| a {HOSTILE} | b |\n|---|---|\n| 1 | 2 |\n\n"
                         f"```\n{HOSTILE}\n```\n", encoding="utf-8")
    transcript, prompts = session(book, store, ["2", "0", "t", "1", HOSTILE, "back", "b", "b", "quit"])
    assert_plain(transcript, prompts)
    assert "\\x1b[2J" in transcript and "\\x1b]52;c;" in transcript and "\\x9b31m" in transcript
    assert "\\u202e" in transcript
    assert "heading: Title \\x1b[2J" in transcript
    assert "answer 0.1: \\x1b[2J" in transcript   # the learner's own reply, echoed inert
    lines = transcript.splitlines()
    assert any(line.startswith("  \\x1b[2J") and line.endswith(" bold code") for line in lines)   # a paragraph
    assert any(line.startswith("table (1 row, columns: a \\x1b[2J") for line in lines)
    assert "    \\x1b[2J\\x1b]0;pwned\\x07" in transcript and " **bold** `code`" in transcript   # code, as written
