"""Driving the plain-line face in this process, and what every transcript of it must be."""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Iterable
from datetime import datetime

from grader.book.model import Book
from grader.exercise import Exercise
from tui.lines.console import Console
from tui.lines.session import run_session
from tui.progress.clock import now
from tui.progress.store import ProgressStore

# A labelled line: a label (lower-case or a number first, no colon), a colon, then a space or the line's end.
LABEL = re.compile(r"^[a-z0-9][^:\n]{0,100}:( |$)")


def session(book: Book, store: ProgressStore, replies: Iterable[str], *, why: str = "a test asked for it",
            clock: Callable[[], datetime] = now, speech: bool = False) -> tuple[str, list[str]]:
    """Run a whole session on `replies` (one typed line each) as over a pipe; (transcript, prompts asked).
    `speech`: the lines said in words (--speech)."""
    stdin, stdout = io.StringIO("".join(f"{reply}\n" for reply in replies)), io.StringIO()
    prompts: list[str] = []
    original = Console.ask

    def recording(self: Console, label: str, short: str, help_text: str) -> str:
        try:
            return original(self, label, short, help_text)
        finally:
            prompts[:] = self.prompts

    Console.ask = recording  # type: ignore[method-assign]  # to see the prompts of the session's own console
    try:
        run_session(book, store, stdin, stdout, why=why, clock=clock, echo=True, speech=speech)
    finally:
        Console.ask = original  # type: ignore[method-assign]
    return stdout.getvalue(), prompts


def unlabelled(transcript: str) -> list[str]:
    """The lines that are neither labelled nor book text (indented): there must be none."""
    return [line for line in transcript.splitlines() if line and not line.startswith("  ") and not LABEL.match(line)]


def assert_plain(transcript: str, prompts: list[str] | None = None) -> None:
    """No ESC (or any other control character but the newline) anywhere, every line labelled or book text,
    and every prompt labelled and on a line of the transcript (a session over a pipe echoes each reply after
    its prompt, so every prompt is one of the labelled lines)."""
    assert not [c for c in transcript if ord(c) < 32 and c != "\n" or 0x7f <= ord(c) <= 0x9f]
    assert unlabelled(transcript) == []
    if prompts is None:
        return
    assert prompts
    lines = transcript.splitlines()
    for prompt in prompts:
        assert LABEL.match(prompt), prompt
        assert any(line.startswith(prompt.rstrip()) for line in lines), prompt


def letter_of(exercise: Exercise, option_id: str) -> str:
    """The letter an option has as the exercise (posed) shows it."""
    options = exercise.presented_options  # type: ignore[attr-defined]
    return chr(97 + [o.id for o in options].index(option_id))


def positions_of(exercise: Exercise, order: list[str]) -> str:
    """An order of item ids as the item numbers the exercise (posed) lists."""
    shown = [item.id for item in exercise.presented]  # type: ignore[attr-defined]
    return " ".join(str(shown.index(item) + 1) for item in order)
