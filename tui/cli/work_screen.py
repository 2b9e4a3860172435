"""What `ringbook work` shows: in a terminal one status block, cleared and drawn again at each change, so the
latest run is the one on screen (Rustlings' watch mode); in a pipe, a dumb terminal or for a screen reader (as
the plain-line face decides, tui/lines/mode.py), plain lines appended.

Both faces are told the same things (the task, a run begun, its verdict, a hint, the explanation, the list of
builds, a notice) and decide how to show them. Anything from the book or the learner's code is made inert
first (grader.safe_text): Rich reads it as Markdown or as plain Text, never as its own markup, and no escape
sequence of theirs reaches the terminal.
"""

from __future__ import annotations

import os
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from grader.kinds.build import Build, describe
from grader.safe_text import printable
from grader.verdict import Verdict

if TYPE_CHECKING:
    from rich.console import Console

CLEAR = "\x1b[H\x1b[2J\x1b[3J"   # home, then clear the screen and the scrollback (Rustlings clears both)


@dataclass(frozen=True)
class BuildRow:
    """One build of the book as `l` lists it."""

    id: str
    title: str
    state: str   # "solved", "tried" or "new"
    current: bool


def verdict_lines(verdict: Verdict) -> list[str]:
    """The verdict as lines: its head, then each test (expected, got), the learner's lines an error came
    from (`line 4: return a / b -> ZeroDivisionError: division by zero`) and what it printed. A run that
    stopped before any test (unreadable code, a timeout) is its head and message."""
    from grader.sandbox.runner import RunResult

    run = verdict.value
    if not isinstance(run, RunResult) or not run.tests:
        return verdict.lines()
    lines = [verdict.lines()[0]]
    for test in run.tests:
        head, *printed = describe(test).split("\n")
        trace = [f"    line {number}: {text}" for number, text in test.trace]
        if trace:
            trace[-1] += f" -> {test.error.rstrip(': ')}"
        lines += [head, *trace, *printed]
    return lines


def draws_block(screen_reader_setting: str) -> bool:
    """Whether to draw the status block: not where the plain-line face would run (a screen reader asked for by
    RINGBOOK_SCREEN_READER or the saved setting, TERM=dumb, output that is not a terminal), whose rule this is."""
    from tui.lines.mode import lines_reason

    return lines_reason(flag=False, environ=os.environ, setting=screen_reader_setting,
                        terminal=sys.stdout.isatty()) is None


def progress_line(solved: int, total: int) -> str:
    return f"builds solved: {solved} of {total}"


def list_lines(rows: list[BuildRow]) -> list[str]:
    marks = {"solved": "✓", "tried": "✗", "new": "·"}
    return [f"{'>' if row.current else ' '} {marks[row.state]} {row.id}  {row.title}  ({row.state})" for row in rows]


class PlainScreen:
    """Appended plain lines, each written at once (a pipe's reader waits for it): for a pipe, a log, TERM=dumb
    and screen readers. Markdown is read out as the plain-line face reads it (tui/lines/reader.py)."""

    def __init__(self, keys_from_lines: bool):
        self.keys_from_lines = keys_from_lines

    def say(self, text: str = "", *, one_line: bool = False) -> None:
        print(printable(text, one_line=one_line), flush=True)

    def markdown(self, text: str) -> None:
        from tui.lines.reader import plain_lines

        for line in plain_lines(text):
            self.say(line)

    def task(self, exercise: Build, path: Path, notes: list[str], progress: str) -> None:
        self.say(f"{exercise.id} · {exercise.title}", one_line=True)
        self.say()
        self.markdown(exercise.prompt)
        self.say()
        self.say(f"def {exercise.signature}", one_line=True)
        self.say()
        for note in notes:
            self.say(note, one_line=True)
        self.say(f"Edit {path}", one_line=True)
        self.say(progress)
        keys = "h (hint), x (explanation), l (list), n (next) or q (quit)"
        keys = f"Type {keys}, then Enter" if self.keys_from_lines else f"Press {keys}"
        self.say(f"Each save runs the tests. {keys}; Ctrl+C stops.")

    def running(self) -> None:
        self.say()
        self.say(f"Running the tests ({time.strftime('%H:%M:%S')})…")

    def verdict(self, verdict: Verdict, notes: list[str], progress: str, *, explanation: str = "") -> None:
        for line in verdict_lines(verdict):
            self.say(line)
        if explanation:
            self.explanation(explanation)
            self.say()
        for note in notes:
            self.say(note, one_line=True)
        self.say(progress)

    def hint(self, number: int, total: int, text: str) -> None:
        self.say(f"Hint {number} of {total}:")
        self.markdown(text)

    def explanation(self, text: str) -> None:
        self.say()
        self.say("Explanation:")
        self.markdown(text)

    def notice(self, text: str) -> None:
        self.say(text, one_line=True)

    def listing(self, rows: list[BuildRow]) -> None:
        self.say("Build exercises:")
        for line in list_lines(rows):
            self.say(line, one_line=True)


@dataclass
class Block:
    """What the terminal's status block holds now."""

    exercise: Build
    path: Path
    notes: list[str]
    progress: str
    running: bool = False
    verdict: Verdict | None = None
    hints: list[tuple[int, int, str]] = field(default_factory=list)
    explanation: str = ""
    notice: str = ""
    listing: list[BuildRow] = field(default_factory=list)
    done: bool = False


class TerminalScreen:
    """The status block, drawn with Rich: cleared (scrollback too, as Rustlings does) and drawn whole at each
    change. The task comes first; the latest verdict, then the hints and the explanation asked for, and the keys
    last, where the eye and the cursor are: in a short terminal what scrolls off is the task, not what was just
    asked for."""

    def __init__(self) -> None:
        from rich.console import Console

        self.console = Console(highlight=False, markup=False, emoji=False)
        self.block: Block | None = None

    def task(self, exercise: Build, path: Path, notes: list[str], progress: str) -> None:
        self.block = Block(exercise, path, notes, progress)
        self.draw()

    def running(self) -> None:
        assert self.block is not None
        self.block.running, self.block.notice, self.block.listing = True, "", []
        self.draw()

    def verdict(self, verdict: Verdict, notes: list[str], progress: str, *, explanation: str = "") -> None:
        assert self.block is not None
        self.block.running, self.block.verdict, self.block.progress = False, verdict, progress
        self.block.explanation = explanation or self.block.explanation
        self.block.done = verdict.status == "correct"
        self.block.notice = " ".join(notes)
        self.draw()

    def hint(self, number: int, total: int, text: str) -> None:
        assert self.block is not None
        self.block.hints.append((number, total, text))
        self.block.notice, self.block.listing = "", []
        self.draw()

    def explanation(self, text: str) -> None:
        assert self.block is not None
        self.block.explanation, self.block.notice, self.block.listing = text, "", []
        self.draw()

    def notice(self, text: str) -> None:
        assert self.block is not None
        self.block.notice, self.block.listing = text, []
        self.draw()

    def listing(self, rows: list[BuildRow]) -> None:
        assert self.block is not None
        self.block.listing, self.block.notice = rows, ""
        self.draw()

    def draw(self) -> None:
        block, out = self.block, self.console
        assert block is not None
        with out.capture() as frame:   # the whole block in one write, so it never shows half drawn
            self._print(block, out)
        out.file.write(CLEAR + frame.get())
        out.file.flush()

    def _print(self, block: Block, out: Console) -> None:
        from rich.markdown import Markdown
        from rich.text import Text

        out.print(Text(printable(f"{block.exercise.id} · {block.exercise.title}", one_line=True), style="bold"))
        out.print()
        out.print(Markdown(printable(block.exercise.prompt.rstrip("\n")), hyperlinks=False))
        out.print()
        out.print(Text(printable(f"def {block.exercise.signature}", one_line=True), style="cyan"))
        for note in block.notes:
            out.print(Text(printable(note, one_line=True), style="yellow"))
        out.print(Text(printable(f"Edit {block.path}", one_line=True)))
        out.print()
        if block.running:
            out.print(Text(f"Running the tests ({time.strftime('%H:%M:%S')})…", style="dim"))
        elif block.verdict is not None:
            for line in verdict_lines(block.verdict):
                style = "green" if line.startswith("✓") else "red" if line.startswith("✗") else ""
                out.print(Text(printable(line), style=style))
        for number, total, text in block.hints:
            out.print()
            out.print(Text(f"Hint {number} of {total}", style="bold cyan"))
            out.print(Markdown(printable(text.rstrip("\n")), hyperlinks=False))
        if block.explanation:
            out.print()
            out.print(Text("Explanation", style="bold cyan"))
            out.print(Markdown(printable(block.explanation.rstrip("\n")), hyperlinks=False))
        if block.listing:
            out.print()
            out.print(Text("Build exercises", style="bold"))
            for line in list_lines(block.listing):
                out.print(Text(printable(line, one_line=True)))
        if block.notice:
            out.print()
            out.print(Text(printable(block.notice), style="bold green" if block.done else "bold"))
        out.print()
        out.print(Text(block.progress, style="bold"))
        keys = ("n next · " if block.done else "") + "h hint · x explanation · l list · q quit"
        out.print(Text(keys, style="dim"))
