"""What the tests share: the app as a test drives it, waits for the app's own work, the `ringbook` command in
this process or in a child, and a free port.

Waits poll for what a test needs (a worker done, a widget shown, a store row written) once per frame, and
give up only after a generous deadline, with a message: a fixed `pilot.pause(0.5)` was either too long (the
suite paid for it every time) or, on a loaded machine, too short.
"""

from __future__ import annotations

import json
import os
import queue
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import IO

import pytest
from textual.app import App
from textual.command import CommandInput, CommandList
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import OptionList

from grader.book.model import Book
from tui.app import RingbookApp
from tui.cli.main import main
from tui.progress.store import ProgressStore
from tui.screens.exercise import ExerciseScreen
from tui.widgets.screen_frame import Footer, ShownKey

ROOT = Path(__file__).resolve().parent.parent
# `ringbook` as a child process runs it: the interpreter running the tests, on the checkout's own code.
RINGBOOK = [sys.executable, "-m", "tui"]
# How long a wait may take before it fails: far beyond any honest wait, even on a loaded 2-core machine.
WAIT_SECONDS = 60.0


def ringbook_app(book: Book, store: ProgressStore, *, clock: Callable[[], datetime] | None = None) -> RingbookApp:
    """The app on `book` and `store`, as a learner starts it but without the warm-up thread (it imports pint
    and sympy in the background, which a test would race and pay for)."""
    return RingbookApp(book, store, clock=clock, quiet_host=True)


def text_of(widget: Widget) -> str:
    """What `widget` shows, as plain text."""
    return str(widget.render())


async def settle(app: App[object], pilot: Pilot[object]) -> None:
    """Wait for the app's workers (grading, a chapter's text, the palette's search) and a frame after them."""
    await app.workers.wait_for_complete()
    await pilot.pause()


async def wait_until(pilot: Pilot[object], condition: Callable[[], object], what: str,
                     timeout: float = WAIT_SECONDS) -> None:
    """Let the app run a frame at a time until `condition()` holds; fail saying `what` never happened."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} did not happen within {timeout:g} s")
        await pilot.pause()


async def home_ready(app: App[object], pilot: Pilot[object]) -> None:
    """Wait for the home screen's review line, which it reads once its footer's keys show, and a frame after."""
    from tui.screens.home import HomeScreen

    await wait_until(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.review_loaded,
                     "the home screen's review line")
    await settle(app, pilot)


async def wait_until_still(pilot: Pilot[object], reading: Callable[[], object], what: str, frames: int = 3) -> None:
    """Let the app run a frame at a time until `reading()` has given the same value over `frames` frames in a
    row (None means "not ready yet" and never counts): a page laid out, a screen done scrolling."""
    seen: list[object] = []

    def still() -> bool:
        value = reading()
        seen.append(value)
        return value is not None and len(seen) >= frames and all(v == value for v in seen[-frames:])

    await wait_until(pilot, still, what)


async def chapter_filled_in(app: App[object], pilot: Pilot[object]) -> OptionList:
    """The chapter screen's exercise list, which it mounts once the rest of its text is in, after its first
    frame: so the chapter is whole."""
    await wait_until(pilot, lambda: app.screen.query("#exercise-list"), "the chapter's text and exercise list")
    return app.screen.query_one("#exercise-list", OptionList)


async def open_exercise(app: RingbookApp, pilot: Pilot[object], exercise_id: str) -> ExerciseScreen:
    """Open an exercise of the book as the palette or a list does, and return its screen once it shows."""
    exercise = app.session.book.exercise(exercise_id)
    assert exercise is not None, f"the book has no exercise {exercise_id}"
    app.open_exercise(exercise)
    await pilot.pause()
    assert isinstance(app.screen, ExerciseScreen)
    return app.screen


async def pick_in_palette(app: App[object], pilot: Pilot[object], query: str, expected: str) -> None:
    """Ctrl+P, paste `query`, and Enter once the palette (which searches in a worker) highlights a hit that
    reads `expected`: a fixed wait before Enter raced the search on a loaded machine. Pasted, not typed: each
    key typed starts a new search of the whole book, which made a five-exercise test take half a minute."""
    await pilot.press("ctrl+p")
    await wait_until(pilot, lambda: app.screen.query(CommandInput), "the palette opening")
    app.screen.query_one(CommandInput).insert_text_at_cursor(query)

    def found() -> bool:
        hits = app.screen.query(CommandList)
        if not hits or hits.first().highlighted is None:
            return False
        listing = hits.first()
        return expected in str(listing.get_option_at_index(listing.highlighted or 0).prompt)

    await wait_until(pilot, found, f"the palette offering {expected!r} for {query!r}")
    await pilot.press("enter")


def footer_keys(screen: Screen[object]) -> list[ShownKey]:
    """The keys `screen`'s footer drew last (each with its key, description and columns); none before it draws."""
    footers = screen.query(Footer)
    return list(footers.first().shown) if footers else []


def offered_keys(app: App[object]) -> dict[str, str]:
    """The keys the current screen offers in its footer, whether drawn yet or not: key -> what it does."""
    return {key: active.binding.description for key, active in app.screen.active_bindings.items()
            if active.binding.show}


def ringbook_in_process(capsys: pytest.CaptureFixture[str], *args: object) -> tuple[int, str, str]:
    """`ringbook ARGS` run by its own entry point in this process: (exit status, stdout, stderr)."""
    code = main([str(arg) for arg in args])
    out, err = capsys.readouterr()
    return code, out, err


def ringbook_subprocess(*args: object, stdin: str = "", env: dict[str, str] | None = None,
                        timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """`ringbook ARGS` in a child process, from the checkout, with `env` added to this environment and
    `stdin` as its whole input (never the test process's own: an xdist worker's is its link to pytest);
    the timeout only stops a hung child from stopping the suite."""
    return subprocess.run([*RINGBOOK, *map(str, args)], input=stdin, capture_output=True, text=True, cwd=ROOT,
                          env={**os.environ, **(env or {})}, timeout=timeout, check=False)


def free_port() -> int:
    """A loopback port nothing listens on now (the OS's pick)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


# A child given this in its environment prints every thread's stack when sent SIGABRT (stop_with_ctrl_c).
STACKS_ON_ABORT = {"PYTHONFAULTHANDLER": "1"}


def stop_with_ctrl_c(child: subprocess.Popen[str]) -> None:
    """Ctrl+C to a watching command, and its end awaited. One still running WAIT_SECONDS later is sent SIGABRT,
    which makes it print every thread's stack (it runs with STACKS_ON_ABORT), and the test fails with them and
    the rest of its stderr: both watching commands once outlived their Ctrl+C by a minute in one CI run (of
    2,232 tests, at 96%), and that run could not say where they were."""
    child.send_signal(signal.SIGINT)
    try:
        child.wait(timeout=WAIT_SECONDS)
    except subprocess.TimeoutExpired:
        try:   # whether it ignores, blocks or catches SIGINT, and whether it is waiting on the disk (D)
            status = [line for line in Path(f"/proc/{child.pid}/status").read_text().splitlines()
                      if line.startswith(("State:", "SigBlk:", "SigIgn:", "SigCgt:"))]
        except OSError:
            status = []
        child.send_signal(signal.SIGABRT)
        assert child.stderr is not None
        stacks = child.stderr.read()
        child.wait()
        raise AssertionError(f"still running {WAIT_SECONDS:g} s after Ctrl+C ({'; '.join(status)}); its stderr, "
                             f"stacks last:\n{stacks}") from None


class LineReader:
    """A child's stdout, line by line, read on a thread so that a wait for a line can give up."""

    def __init__(self, child: subprocess.Popen[str]):
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.seen: list[str] = []
        assert child.stdout is not None
        threading.Thread(target=self._read, args=(child.stdout,), daemon=True).start()

    def _read(self, stream: IO[str]) -> None:
        for line in stream:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)   # the end

    def until(self, wanted: str) -> list[str]:
        """The lines up to and including the first (not yet read) that starts with `wanted`."""
        deadline = time.monotonic() + WAIT_SECONDS
        got: list[str] = []
        while time.monotonic() < deadline:
            try:
                line = self.lines.get(timeout=1)
            except queue.Empty:
                continue
            if line is None:
                break
            got.append(line)
            self.seen.append(line)
            if line.startswith(wanted):
                return got
        raise AssertionError(f"no line starting {wanted!r}; printed:\n" + "\n".join(self.seen))


def read_book_copy(path: Path) -> tuple[dict, list[list[dict]]]:
    """A book's cached copy (grader/book/cache.py): its first line, the book without its exercises; then each
    chapter's exercises, a line each."""
    head, *lines = path.read_text(encoding="utf-8").split("\n")
    return json.loads(head), [json.loads(line) for line in lines]


def write_book_copy(path: Path, head: dict, chapters: list[list[dict]]) -> None:
    path.write_text("\n".join([json.dumps(head), *map(json.dumps, chapters)]), encoding="utf-8")
