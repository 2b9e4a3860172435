"""The learner's keys while `ringbook work` watches: single keys in a terminal, typed lines from a pipe.

In a terminal the keys act at once, as in Rustlings' watch mode: standard input is put in cbreak mode (no
echo, no Enter needed, Ctrl+C still a signal) and given back as it was on leaving, whatever ends the watch.
From a pipe or a file each line is a key (`h`, or the word `hint`), so a script or a screen reader's shell can
drive it; at the end of that input the watch goes on (saves still run), and Ctrl+C stops it.
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable
from types import TracebackType

KEYS = {"h": "hint", "x": "explain", "l": "list", "n": "next", "q": "quit"}   # key -> what it does


def key_of(line: str) -> str | None:
    """The key a typed line stands for: its key (`h`) or its word (`hint`), else None."""
    word = line.strip().lower()
    if word in KEYS:
        return word
    return next((key for key, name in KEYS.items() if name == word), None)


class Keys:
    """`with Keys(pressed):` calls `pressed(key)` on a thread of its own for each key (one of KEYS) the learner
    gives, until the `with` ends; in a terminal, standard input is in cbreak mode meanwhile."""

    def __init__(self, pressed: Callable[[str], None]):
        self.pressed = pressed
        self.terminal = sys.stdin.isatty()
        self._saved: list[int | list[bytes | int]] | None = None

    def __enter__(self) -> Keys:
        if self.terminal:
            import termios
            import tty

            fd = sys.stdin.fileno()
            self._saved = termios.tcgetattr(fd)
            tty.setcbreak(fd, termios.TCSANOW)
        threading.Thread(target=self._read, name="ringbook-keys", daemon=True).start()
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        if self._saved is not None:
            import termios

            termios.tcsetattr(sys.stdin.fileno(), termios.TCSADRAIN, self._saved)
            self._saved = None

    def _read(self) -> None:
        try:
            if self.terminal:
                while chunk := os.read(sys.stdin.fileno(), 64):
                    for char in chunk.decode("utf-8", "replace").lower():
                        if char in KEYS:
                            self.pressed(char)
            else:
                for line in sys.stdin:
                    key = key_of(line)
                    if key:
                        self.pressed(key)
        except (OSError, ValueError):   # standard input closed, or none: the watch goes on without keys
            return
