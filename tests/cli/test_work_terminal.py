"""`ringbook work` in a real pseudo-terminal, as a learner runs it beside their editor (issue 46): the tests run
at the start, each run's status block replaces the last, single keys act at once (h, x, l, n, q), and however
it ends (q, Ctrl+C, SIGTERM) the terminal is given back as it was and the code's place is said."""

from __future__ import annotations

import signal
import termios
from pathlib import Path

import pytest

from tests.helpers import RINGBOOK
from tests.pseudo_terminal import CONTROLS, PseudoTerminal
from tui.progress.store import ProgressStore

CLEAR = b"\x1b[H\x1b[2J"   # each status block starts at the top of a cleared screen
KEYS_LINE = "h hint · x explanation · l list · q quit"   # each block ends with it
ZERO_DIVISION = ("def ring_allreduce_time(m_gb, n, bw_gbs, latency_us):\n    steps = 2 * (n - 1)\n"
                 "    chunk = m_gb / n\n    return steps * chunk / (bw_gbs - bw_gbs)\n")


def on_screen(output: bytes) -> str:
    """The status block on screen: what was written since the last clearing, as text."""
    return CONTROLS.sub(b"", output.rsplit(CLEAR, 1)[-1]).decode("utf-8", "replace").replace("\r\n", "\n")


def block_showing(terminal: PseudoTerminal, text: str) -> str:
    """The status block, once one is drawn whole (down to its keys line) showing `text`."""
    terminal.wait_until(lambda output: text in on_screen(output) and KEYS_LINE in on_screen(output),
                        f"no status block showing {text!r}")
    return on_screen(terminal.output)


def working(data_dir: Path, *ids: str) -> tuple[PseudoTerminal, str]:
    """`ringbook work [ID]` on `data_dir` in a terminal, and its status block once the first run is shown."""
    terminal = PseudoTerminal([*RINGBOOK, "work", *ids], env={"RINGBOOK_DATA_DIR": str(data_dir)}, width=100,
                              height=50)
    try:
        return terminal, block_showing(terminal, "tests pass.")
    except BaseException:
        terminal.close()
        raise


def cooked(terminal: PseudoTerminal) -> bool:
    """Whether the terminal is back in its ordinary mode: lines edited and echoed (its two ends share one mode)."""
    assert terminal.master is not None
    lflag = termios.tcgetattr(terminal.master)[3]
    return bool(lflag & termios.ICANON and lflag & termios.ECHO)


def attempts(data_dir: Path, exercise_id: str):
    store = ProgressStore.open(data_dir)
    try:
        return store.attempts(exercise_id), store.exercise_states().get(exercise_id)
    finally:
        store.close()


def test_two_builds_in_a_terminal_runs_replace_each_other_and_keys_act_at_once(book, data_dir):
    first = book.exercise("0.5")
    terminal, start = working(data_dir)   # no id: the first build not solved, in book order
    path = data_dir / "work" / "0.5.py"
    try:
        assert not cooked(terminal)
        assert start.startswith("0.5 · Write ring_allreduce_time()") and "builds solved: 0 of 5" in start
        assert "✗ 0 of 5 tests pass." in start and "line 8: raise NotImplementedError" in start
        assert "**" not in start and "`" not in start and "• n: number of GPUs in the ring" in start  # Markdown drawn
        terminal.type("h")
        block_showing(terminal, f"Hint 1 of {len(first.hints)}")

        path.write_text(ZERO_DIVISION)
        run = block_showing(terminal, "line 4: return")
        assert ("line 4: return steps * chunk / (bw_gbs - bw_gbs) -> ZeroDivisionError: float division by zero"
                in " ".join(run.split()))   # as Rich wraps it to the terminal's width
        assert "Hint 1 of" in run and "✗ 0 of 5 tests pass." in run and "NotImplementedError" not in run  # replaced

        path.write_text(first.solution)
        done = block_showing(terminal, "done: press n for the next build")
        assert "builds solved: 1 of 5" in done and "Explanation" in done and "n next · h hint" in done

        terminal.type("n")
        block_showing(terminal, "2.4 · Required accumulation steps")
        terminal.type("l")
        listing = block_showing(terminal, "Build exercises")
        assert "✓ 0.5  Write ring_allreduce_time()  (solved)" in listing
        assert "> · 2.4  Required accumulation steps  (new)" in listing
        terminal.type("q")
        assert terminal.wait() == 0
    finally:
        terminal.close()
    assert f"Stopped. Your code is kept in {data_dir / 'work' / '2.4.py'}" in on_screen(terminal.output)
    tried, state = attempts(data_dir, "0.5")
    assert [(a.status, a.hints_used) for a in tried] == [("incorrect", 1), ("correct", 1)]   # the hint counted
    assert state is not None and state.solved and not state.revealed
    assert attempts(data_dir, "2.4")[0] == []   # the starter's run at the start is shown, not recorded


def test_x_asks_then_shows_the_worked_answer_kept_as_revealed(data_dir):
    terminal, _ = working(data_dir, "0.5")
    try:
        terminal.type("x")
        asked = block_showing(terminal, "Show the worked answer? It is kept as revealed")
        assert "Explanation" not in asked
        terminal.type("x")
        shown = block_showing(terminal, "Explanation")
        assert "steps = 2 * (n - 1)" in shown and "Show the worked answer?" not in shown
        terminal.type("q")
        assert terminal.wait() == 0
    finally:
        terminal.close()
    assert attempts(data_dir, "0.5")[1].revealed


def test_n_before_a_pass_says_why_it_does_nothing(data_dir):
    terminal, _ = working(data_dir, "0.5")
    try:
        terminal.type("n")
        assert block_showing(terminal, "n goes on once this build passes").startswith("0.5 ·")
        terminal.type("q")
        assert terminal.wait() == 0
    finally:
        terminal.close()


@pytest.mark.parametrize("stop", ["ctrl+c", "sigterm"])
def test_ctrl_c_and_sigterm_give_the_terminal_back_and_say_where_the_code_is(data_dir, stop):
    terminal, _ = working(data_dir, "0.5")
    try:
        assert not cooked(terminal)
        if stop == "ctrl+c":
            terminal.type("\x03")
        else:
            terminal.signal(signal.SIGTERM)
        status = terminal.wait()
        assert cooked(terminal)
    finally:
        terminal.close()
    assert status == (0 if stop == "ctrl+c" else 128 + signal.SIGTERM)
    said = on_screen(terminal.output).replace("\n", "")
    assert f"Stopped. Your code is kept in {data_dir / 'work' / '0.5.py'} and is your draft in the app." in said


@pytest.mark.parametrize("setting", [{"TERM": "dumb"}, {"RINGBOOK_SCREEN_READER": "1"}], ids=lambda s: next(iter(s)))
def test_a_dumb_terminal_or_a_screen_reader_gets_plain_lines_and_single_keys(data_dir, setting):
    """TERM=dumb cannot clear or redraw, and a screen reader would read each redraw from the top: every run is
    appended as plain lines, no escape code at all, while the keys, read from a terminal still, act at once."""
    terminal = PseudoTerminal([*RINGBOOK, "work", "0.5"], env={"RINGBOOK_DATA_DIR": str(data_dir), **setting})
    try:
        terminal.wait_for("Each save runs the tests. Press h (hint), x (explanation), l (list), n (next) or q (quit)")
        terminal.wait_for("NotImplementedError\r\nbuilds solved: 0 of 5")   # the first run, at the start
        terminal.type("h")
        terminal.wait_for("Hint 1 of 3:")
        terminal.type("q")
        assert terminal.wait() == 0
    finally:
        terminal.close()
    assert b"\x1b" not in terminal.output and "Stopped. Your code is kept in" in terminal.text()
