"""Ctrl+Z suspends ringbook where a shell can bring it back, and says why not elsewhere; Ctrl+C says how to
quit, in words (issue 45, section 2 item 7). Suspending is tried in a real pseudo-terminal, under a stand-in
for a job-control shell (SHELL) and without one."""

from __future__ import annotations

import sys
from pathlib import Path

from tests.helpers import RINGBOOK, home_ready, ringbook_app, wait_until
from tests.pseudo_terminal import PseudoTerminal
from tui.progress.store import ProgressStore

HOME_SHOWN = "palette"   # the home screen's footer, drawn last
STOPPED = "[stopped: the shell brings it back]"

# What a shell with job control does around a program: runs it in a process group of its own in the foreground,
# and when it stops, takes the terminal back, says so, and continues it in the foreground (as `fg` does).
SHELL = f"""
import os, signal, sys
signal.signal(signal.SIGTTOU, signal.SIG_IGN)
child = os.fork()
if child == 0:
    os.setpgid(0, 0)
    os.tcsetpgrp(0, os.getpgrp())
    signal.signal(signal.SIGTTOU, signal.SIG_DFL)
    os.execv(sys.argv[1], sys.argv[1:])
try:
    os.setpgid(child, child)   # as a shell does, from both sides; the child may have done it and exec'd already
except PermissionError:
    pass
_, status = os.waitpid(child, os.WUNTRACED)
if os.WIFSTOPPED(status):
    os.tcsetpgrp(0, os.getpgrp())
    print({STOPPED!r}, flush=True)
    os.tcsetpgrp(0, child)
    os.killpg(child, signal.SIGCONT)
    _, status = os.waitpid(child, 0)
sys.exit(os.waitstatus_to_exitcode(status))
"""


def test_ctrl_z_in_a_shell_suspends_and_fg_brings_the_app_back(tmp_path: Path):
    terminal = PseudoTerminal([sys.executable, "-c", SHELL, *RINGBOOK, "--data-dir", str(tmp_path / "data")])
    try:
        terminal.wait_for(HOME_SHOWN)
        terminal.wait_for_quiet()   # an idle app: nothing it had still to draw may stand in for the redraw
        terminal.forget()
        terminal.type("\x1a")
        terminal.wait_for(STOPPED)
        terminal.forget()
        terminal.wait_for(HOME_SHOWN)   # drawn again once continued
        terminal.type("q")
        assert terminal.wait() == 0
    finally:
        terminal.close()


def test_ctrl_z_with_no_shell_to_bring_it_back_says_so_and_the_app_goes_on(tmp_path: Path):
    """ringbook as the terminal's own program (as over SSH with no shell): a stop would last for ever."""
    terminal = PseudoTerminal([*RINGBOOK, "--data-dir", str(tmp_path / "data")])
    try:
        terminal.wait_for(HOME_SHOWN)
        terminal.forget()
        terminal.type("\x1a")
        terminal.wait_for("Not suspended")
        terminal.type("q")
        assert terminal.wait() == 0
    finally:
        terminal.close()


async def test_ctrl_c_says_how_to_quit_in_words(book, data_dir: Path):
    app = ringbook_app(book, ProgressStore.open(data_dir))
    async with app.run_test(size=(80, 24)) as pilot:
        await home_ready(app, pilot)
        await pilot.press("ctrl+c")
        await wait_until(pilot, lambda: app._notifications, "a notice")
        [notice] = app._notifications
        assert notice.message == "Press Ctrl+Q (or q where it is not typed) to quit."
        assert not notice.markup
