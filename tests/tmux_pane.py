"""A program in a real terminal: one tmux pane on a private server, fed keys and read back as text.

The SSH and terminal tests use it to see ringbook as a person at an 80x24 terminal would. Waits poll the
screen for expected text with a deadline instead of sleeping blindly, and a failed wait shows the screen.
"""

from __future__ import annotations

import shlex
import shutil
import subprocess
import time
from pathlib import Path

# Textual reads a lone Escape followed within ESCDELAY (100 ms) by another key as Alt+key.
ESCAPE_PAUSE_SECONDS = 0.3


class TmuxPane:
    """One tmux session with one pane running `command`; the pane stays after the program exits, so its
    exit status can be read."""

    def __init__(self, folder: Path, command: list[str], *, width: int = 80, height: int = 24,
                 options: tuple[str, ...] = ()):
        tmux = shutil.which("tmux")
        assert tmux, "tmux is not installed"
        self.tmux: str = tmux
        self.socket = folder / "tmux.sock"
        config = folder / "tmux.conf"
        config.write_text("\n".join(["set -g remain-on-exit on", "set -g status off", *options]) + "\n")
        self._run("-f", str(config), "new-session", "-d", "-s", "t", "-x", str(width), "-y", str(height),
                  shlex.join(command))

    def _run(self, *args: str) -> str:
        done = subprocess.run([self.tmux, "-S", str(self.socket), *args], capture_output=True, text=True, timeout=20,
                              check=False)
        if done.returncode != 0:
            raise AssertionError(f"tmux {' '.join(args)} failed: {done.stderr.strip()}")
        return done.stdout

    def screen(self, *, escapes: bool = False) -> str:
        """What the pane shows now, as text (with SGR colour codes when `escapes`)."""
        return self._run("capture-pane", "-p", *(["-e"] if escapes else []), "-t", "t")

    def wait_for(self, text: str, timeout: float = 20) -> str:
        """The screen once it shows `text`; fails with the last screen after `timeout` seconds."""
        deadline = time.monotonic() + timeout
        while True:
            shown = self.screen()
            if text in shown:
                return shown
            if self.exit_status() is not None or time.monotonic() > deadline:
                raise AssertionError(f"{text!r} did not appear within {timeout}s; the screen:\n{shown}")
            time.sleep(0.1)

    def type(self, text: str) -> None:
        """Type `text` literally, character by character as a keyboard would."""
        self._run("send-keys", "-t", "t", "-l", text)

    def press(self, *keys: str) -> None:
        """Press named keys (tmux names: Enter, Escape, C-s, F2, ...); a pause after Escape keeps it alone."""
        for key in keys:
            self._run("send-keys", "-t", "t", key)
            if key == "Escape":
                time.sleep(ESCAPE_PAUSE_SECONDS)

    def pid(self) -> int:
        """The process the pane runs (its command, or what that exec'd)."""
        return int(self._run("display-message", "-p", "-t", "t", "#{pane_pid}").strip())

    def exit_status(self) -> int | None:
        """The program's exit status once it has ended (minus the signal number if one killed it), else None."""
        dead, status, signal = self._run("display-message", "-p", "-t", "t",
                                         "#{pane_dead}:#{pane_dead_status}:#{pane_dead_signal}").strip().split(":")
        if dead != "1":
            return None
        return int(status) if status else -int(signal or 0)

    def wait_exit(self, timeout: float = 20) -> int:
        deadline = time.monotonic() + timeout
        while (status := self.exit_status()) is None:
            if time.monotonic() > deadline:
                raise AssertionError(f"the program did not end within {timeout}s; the screen:\n{self.screen()}")
            time.sleep(0.1)
        return status

    def close(self) -> None:
        subprocess.run([self.tmux, "-S", str(self.socket), "kill-server"], capture_output=True, timeout=20, check=False)
