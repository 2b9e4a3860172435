"""The learner's own editor for a build's code (tui.progress.editor chooses it, by the plain lines' rule), run
on a work file (tui.progress.work_files) while the app hands it the terminal (Textual's `App.suspend`).

Whatever happens (no editor, one that fails to start or exits with an error, a file that cannot be read
back) the code in the app's editor stays as it was and a notice says why; only a file read back whole
replaces it.
"""

from __future__ import annotations

import os
import shlex
import signal
import subprocess
from pathlib import Path

from textual.app import App

from tui.progress.editor import HOW_TO_SET


def run_editor(app: App[object], command: list[str], path: Path) -> str:
    """Run `command` on `path` with the terminal handed over, and wait for it; "" when it exits cleanly,
    else what went wrong, in a sentence. A headless app (a test) has no terminal to hand over, and its
    input is not the editor's."""
    if app.is_headless:
        return _run(command, path, stdin=subprocess.DEVNULL)
    with app.suspend():   # no error may leave this block: Textual resumes the app only at its end
        return _run(command, path, stdin=None)


class _Ended(Exception):
    """SIGHUP or SIGTERM came while the editor had the terminal."""

    def __init__(self, number: int):
        super().__init__(number)
        self.number = number


def _ended(number: int, _frame: object) -> None:
    raise _Ended(number)


ENDING = (signal.SIGHUP, signal.SIGTERM)   # the terminal closed (an SSH connection dropped), or a stop asked for


def _run(command: list[str], path: Path, stdin: int | None) -> str:
    """Ctrl+C reaches ringbook too while the editor has the terminal. The app's own handler (asyncio's, which
    cancels the app) is set aside meanwhile, so Ctrl+C stops the wait here instead: the editor, one that never
    exits included, is ended (subprocess.run kills it) and the app goes on, its code as it was. SIGHUP and
    SIGTERM are the app's to act on, but its event loop waits for the editor: they too stop the wait and end
    the editor, and are then sent again, to the app's own handlers, which end the app keeping its drafts (a
    closed terminal left ringbook and a stuck editor running for ever)."""
    app_handlers = {number: signal.signal(number, _ended) for number in ENDING}
    app_handlers[signal.SIGINT] = signal.signal(signal.SIGINT, signal.default_int_handler)
    ended = None
    try:
        result = subprocess.run([*command, str(path)], stdin=stdin, check=False)
    except OSError as exc:
        return f"{shlex.join(command)} could not start: {exc.strerror or exc}; {HOW_TO_SET}"
    except KeyboardInterrupt:
        return f"{shlex.join(command)} was interrupted, so {path} was not taken (it is kept)"
    except _Ended as exc:
        ended = exc.number
        return f"{shlex.join(command)} was ended with ringbook, so {path} was not taken (it is kept)"
    finally:
        for number, handler in app_handlers.items():
            signal.signal(number, handler)
        if ended is not None:
            os.kill(os.getpid(), ended)
    if result.returncode != 0:
        return f"{shlex.join(command)} exited with status {result.returncode}, so {path} was not taken (it is kept)"
    return ""
