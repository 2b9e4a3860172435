"""ringbook in a pseudo-terminal of its own, read byte by byte: a fault test signals it at the moment a text
reaches the terminal.

tmux (tests/tmux_pane.py) shows the screen as a person sees it, but a tenth of a second late; here the test
holds the terminal's other end, so it sees each frame's bytes as the app writes them, and a signal sent then
lands while the app is exactly there. The app is the session leader with this terminal as its controlling
terminal, as a login shell's child is: closing the terminal (hang_up) makes the kernel send it SIGHUP, as an
SSH connection that drops does.
"""

from __future__ import annotations

import fcntl
import os
import re
import select
import signal
import struct
import subprocess
import termios
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from tests.helpers import ROOT, WAIT_SECONDS

# What a terminal acts on rather than shows: CSI (colours, cursor moves, modes), OSC, and charset selections.
CONTROLS = re.compile(rb"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[()][0-9A-Za-z]|\x1b[=>78]")


class PseudoTerminal:
    """`command` on an 80x24 pseudo-terminal; what it writes is read by `wait_for`, which sees only what came
    since the last `forget`."""

    def __init__(self, command: Sequence[str], *, env: dict[str, str] | None = None, width: int = 80,
                 height: int = 24):
        master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", height, width, 0, 0))
        try:
            self.process = subprocess.Popen(
                list(command), stdin=slave, stdout=slave, stderr=slave, cwd=ROOT, start_new_session=True,
                env={**os.environ, "TERM": "xterm-256color", **(env or {})}, preexec_fn=_take_terminal)
        except BaseException:
            os.close(master)
            raise
        finally:
            os.close(slave)
        self.master: int | None = master
        self.output = b""

    def forget(self) -> None:
        """Look only at what is written from now on."""
        self.output = b""

    def text(self) -> str:
        """What was written since `forget`, its control sequences left out."""
        return CONTROLS.sub(b"", self.output).decode("utf-8", "replace")

    def wait_for(self, text: str, timeout: float = WAIT_SECONDS) -> None:
        """Return the moment `text` has been written (since `forget`); fail, with the last of it, if it is not."""
        self.wait_until(lambda output: text in CONTROLS.sub(b"", output).decode("utf-8", "replace"),
                        f"{text!r} was not written", timeout)

    def wait_until(self, holds: Callable[[bytes], bool], what: str, timeout: float = WAIT_SECONDS) -> None:
        """Return the moment `holds(output since forget)`; fail saying `what`, with the last of it, if it never does."""
        deadline = time.monotonic() + timeout
        while not holds(self.output):
            if time.monotonic() > deadline or not self._read(deadline - time.monotonic()):
                raise AssertionError(f"{what} within {timeout:g} s; the last of what was written:\n"
                                     f"{self.text()[-600:]}")

    def wait_for_quiet(self, seconds: float = 1.0, timeout: float = WAIT_SECONDS) -> None:
        """Return once nothing has been written for `seconds`: the app has drawn all it had to, and is idle."""
        deadline = time.monotonic() + timeout
        while True:
            written = len(self.output)
            quiet_until = time.monotonic() + seconds
            while len(self.output) == written and time.monotonic() < quiet_until:
                if not self._read(quiet_until - time.monotonic()):
                    return
            if len(self.output) == written:
                return
            if time.monotonic() > deadline:
                raise AssertionError(f"still writing {timeout:g} s later; the last of it:\n{self.text()[-600:]}")

    def _read(self, seconds: float) -> bool:
        """Read what is there within `seconds`; False once the program has closed the terminal or ended."""
        assert self.master is not None, "the terminal is closed"
        ready, _, _ = select.select([self.master], [], [], max(0.0, min(seconds, 1.0)))
        if ready:
            try:
                chunk = os.read(self.master, 65536)
            except OSError:   # EIO: no process has the terminal open any more
                return False
            self.output += chunk
            return bool(chunk)
        return self.process.poll() is None

    def type(self, text: str) -> None:
        assert self.master is not None, "the terminal is closed"
        os.write(self.master, text.encode())

    def signal(self, number: signal.Signals) -> None:
        os.kill(self.process.pid, number)

    def hang_up(self) -> None:
        """Close the terminal's other end, as sshd does when the connection drops: the kernel sends SIGHUP."""
        if self.master is not None:
            os.close(self.master)
            self.master = None

    def wait(self, timeout: float = WAIT_SECONDS) -> int:
        """The program's exit status once it has ended (minus the signal that ended it), reading meanwhile so a
        full terminal never holds it back."""
        deadline = time.monotonic() + timeout
        while self.process.poll() is None:
            if time.monotonic() > deadline:
                raise AssertionError(f"still running {timeout:g} s later; the last it wrote:\n{self.text()[-600:]}")
            if self.master is None or not self._read(0.1):
                time.sleep(0.02)
        return self.process.returncode

    def close(self) -> None:
        """End the program if it still runs, and close the terminal."""
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self.hang_up()


def _take_terminal() -> None:
    """In the child, a session leader by now: make its standard input (the terminal) its controlling terminal."""
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


def seeded_data_dir(folder: Path, chapter_id: str, exercise_id: str) -> Path:
    """A data folder whose Continue (c on the home screen) opens `exercise_id`, its chapter's text seen."""
    from tui.progress.store import ProgressStore

    store = ProgressStore.open(folder)
    try:
        store.set_last_opened(chapter_id, at_opening=True)
        store.set_last_opened(chapter_id, exercise_id)
    finally:
        store.close()
    return folder
