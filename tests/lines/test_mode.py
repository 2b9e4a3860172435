"""Choosing the plain-line face: asked for (flag, variable, saved setting) or where a full-screen app cannot work
(TERM=dumb, no terminal), never for `ringbook serve`'s sessions; and the first line says so, over a real pipe."""

from __future__ import annotations

import pytest

from tests.helpers import ringbook_subprocess
from tests.lines.transcript import assert_plain, session
from tui.lines.mode import SETTING_KEY, lines_reason
from tui.progress.store import ProgressStore

TERMINAL = {"TERM": "xterm-256color"}


@pytest.mark.parametrize(("flag", "environ", "setting", "terminal", "why"), [
    (False, TERMINAL, "", True, None),
    (True, TERMINAL, "", True, "you asked for it with --screen-reader"),
    (False, {**TERMINAL, "RINGBOOK_SCREEN_READER": "1"}, "", True, "RINGBOOK_SCREEN_READER is set"),
    (False, {**TERMINAL, "RINGBOOK_SCREEN_READER": "0"}, "", True, None),
    (False, TERMINAL, "on", True, "it is saved in your settings (the menu's settings turn it off)"),
    (False, TERMINAL, "off", True, None),
    (False, {"TERM": "dumb"}, "", True, "TERM is dumb, so a full-screen app cannot draw"),
    (False, TERMINAL, "", False, "input or output is not a terminal"),
    (True, {**TERMINAL, "TEXTUAL_DRIVER": "textual.drivers.web_driver:WebDriver"}, "on", False, None),
])
def test_the_mode_and_why(flag, environ, setting, terminal, why):
    assert lines_reason(flag=flag, environ=environ, setting=setting, terminal=terminal) == why


def test_the_menu_saves_the_setting_and_the_next_start_reads_it(book, store):
    transcript, prompts = session(book, store, ["7", "quit"])
    assert_plain(transcript, prompts)
    assert "setting: screen-reader mode at every start is on" in transcript
    assert store.state(SETTING_KEY) == "on"
    assert lines_reason(flag=False, environ=TERMINAL, setting=store.state(SETTING_KEY), terminal=True)
    transcript, _ = session(book, store, ["7", "quit"])
    assert "7: screen-reader mode at every start: on" in transcript and store.state(SETTING_KEY) == "off"


def test_over_a_pipe_with_term_dumb_an_answer_is_kept(tmp_path):
    """`python -m tui` on a pipe with TERM=dumb: the first line says why, the session reads as lines only,
    and the attempt is in the store afterwards."""
    from tests.expected import ch0

    data = tmp_path / "data"
    done = ringbook_subprocess("--data-dir", data, env={"TERM": "dumb"},
                               stdin=f"2\n0\n1\n{ch0.NUMERIC['0.1']}\nback\nb\nb\nquit\n")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == ("ringbook: screen-reader mode is on: TERM is dumb, so a full-screen app cannot draw. "
                        "Plain lines, no colour; help at any prompt.")
    assert "\x1b" not in done.stdout and "\x1b" not in done.stderr
    assert "verdict: correct: 1.75 GB." in lines
    assert lines[-1] == "bye: your progress is kept"
    store = ProgressStore.open(data)
    try:
        assert [(a.exercise_id, a.status) for a in store.attempts()] == [("0.1", "correct")]
    finally:
        store.close()


def test_the_flag_and_the_end_of_input(tmp_path):
    """--screen-reader says so first; input that ends mid-session ends it cleanly, with nothing lost."""
    done = ringbook_subprocess("--screen-reader", "--data-dir", tmp_path / "data", stdin="6\n")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("ringbook: screen-reader mode is on: you asked for it with --screen-reader.")
    assert "mastery: 0 / " in done.stdout and done.stdout.endswith("bye: your progress is kept\n")
    assert "\x1b" not in done.stdout and done.stderr == ""
