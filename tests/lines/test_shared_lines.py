"""The plain-line face shares progress with a class as the app does (issue 48): it says so as it starts, and an
answer typed there reaches the inbox."""

from __future__ import annotations

import io
import json

from tests.expected import ch0
from tests.lines.transcript import assert_plain
from tui.lines.session import run_session
from tui.progress.class_share import ClassShare
from tui.progress.clock import now


def test_an_answer_in_the_lines_is_shared_and_the_sharing_is_said(book, store, tmp_path):
    inbox = tmp_path / "inbox"
    inbox.mkdir(mode=0o3733)
    share = ClassShare(inbox, store.path.parent, quiet=60.0)   # shared as the session ends, if not before
    replies = ["2", "0", "1", ch0.NUMERIC["0.1"], "back", "b", "b", "6", "quit"]   # 6: progress and streak
    stdout = io.StringIO()
    run_session(book, store, io.StringIO("".join(f"{reply}\n" for reply in replies)), stdout,
                why="a test asked for it", clock=now, echo=True, share=share)
    transcript = stdout.getvalue()
    assert_plain(transcript)
    said = [line for line in transcript.splitlines() if line.startswith("class: ")]
    assert said == [f"class: {share.status()}"] * 2   # as the session starts, and with the progress
    [shared] = list(inbox.iterdir())
    assert [a["answer"] for a in json.loads(shared.read_text())["attempts"]] == [str(ch0.NUMERIC["0.1"])]


def test_a_missing_inbox_is_said_as_the_lines_start(book, store, tmp_path):
    inbox = tmp_path / "gone"
    share = ClassShare(inbox, store.path.parent, quiet=0.0)
    replies = ["2", "0", "1", ch0.NUMERIC["0.1"], "back", "b", "b", "quit"]
    stdout = io.StringIO()
    run_session(book, store, io.StringIO("".join(f"{reply}\n" for reply in replies)), stdout,
                why="a test asked for it", clock=now, echo=True, share=share)
    lines = [line for line in stdout.getvalue().splitlines() if line.startswith("class: ")]
    assert lines == [f"class: Not shared with your class: the class inbox {inbox} does not exist; your answers "
                     "are kept here as always."]
    assert [a.answer for a in store.attempts()] == [str(ch0.NUMERIC["0.1"])]
