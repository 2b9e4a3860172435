"""A build's code in the learner's own editor (Ctrl+O): the editor named by $VISUAL/$EDITOR runs on the work
file, and what it saves becomes the code and is run, recorded as Ctrl+R records it. Whatever goes wrong, the
code in the app stays as it was and a notice says why.

The editors here are small scripts, run as a learner's editor would be: on the file's path."""

from __future__ import annotations

import os
import shutil
import signal
import stat
import time
from pathlib import Path

import pytest
from textual.widgets import TextArea

from tests.helpers import RINGBOOK, offered_keys, open_exercise, ringbook_app, wait_until
from tests.tmux_pane import TmuxPane
from tui.progress.editor import FALLBACKS, editor_command
from tui.progress.row_rules import MAX_DRAFT
from tui.screens.exercise import ExerciseScreen
from tui.screens.keys import keys_of

EXERCISE = "0.5"


def script(folder: Path, name: str, body: str) -> Path:
    path = folder / name
    path.write_text(f"#!/bin/sh\n{body}\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


def editor_text(screen: ExerciseScreen) -> str:
    return screen.panel.answer_text()


async def test_the_editor_key_runs_the_tests_on_what_the_editor_saved(book, store, data_dir, tmp_path, monkeypatch):
    exercise = book.exercise(EXERCISE)
    solution = tmp_path / "solution.py"
    solution.write_text(exercise.solution)
    monkeypatch.setenv("VISUAL", str(script(tmp_path, "writes-the-solution", f'cp "{solution}" "$1"')))
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_exercise(app, pilot, EXERCISE)
        assert offered_keys(app)["ctrl+o"] == "Your editor"
        starter = editor_text(screen)
        await pilot.press("ctrl+o")
        await wait_until(pilot, lambda: store.attempts(EXERCISE), "the run recorded")
        attempts = store.attempts(EXERCISE)
        assert [(a.status, a.answer) for a in attempts] == [("correct", exercise.solution)]
        assert editor_text(screen) == exercise.solution
        work = data_dir / "work" / f"{EXERCISE}.py"
        assert work.read_text() == exercise.solution
        assert starter != exercise.solution


async def test_an_editor_that_fails_is_missing_or_saves_nothing_leaves_the_code_as_it_was(book, store, data_dir,
                                                                                              tmp_path, monkeypatch):
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_exercise(app, pilot, EXERCISE)
        await pilot.press("x", "y")   # the learner's own unsent code
        before = editor_text(screen)
        with monkeypatch.context() as browser:   # `ringbook serve`: Textual's web driver cannot suspend
            browser.setattr(type(app), "is_web", property(lambda _app: True))
            await pilot.press("ctrl+o")
            await wait_until(pilot, lambda: app._notifications, "a notice")
        assert any("In a browser" in n.message and f"ringbook work {EXERCISE}" in n.message
                   for n in app._notifications)
        app.clear_notifications()
        monkeypatch.setenv("VISUAL", str(script(tmp_path, "fails", 'echo "def broken(" > "$1"; exit 3')))
        await pilot.press("ctrl+o")
        await wait_until(pilot, lambda: app._notifications, "a notice")
        said = [n.message for n in app._notifications]
        assert any("exited with status 3" in m and "unchanged" in m for m in said), said
        work = data_dir / "work" / f"{EXERCISE}.py"   # put back, what the editor left kept (issue 43): not taken next
        assert work.read_text() == before and (work.parent / f"{work.name}.kept").read_text() == "def broken(\n"
        assert any(f"what it left in {work.name} is kept as {work.name}.kept" in m for m in said), said
        app.clear_notifications()
        monkeypatch.setenv("VISUAL", str(tmp_path / "no-such-editor"))
        await pilot.press("ctrl+o")
        await wait_until(pilot, lambda: app._notifications, "a notice")
        said = [n.message for n in app._notifications]
        assert any("could not start" in m and "export EDITOR=vim" in m for m in said), said
        app.clear_notifications()
        monkeypatch.setenv("VISUAL", str(script(tmp_path, "just-looks", "true")))
        await pilot.press("escape")   # the page has the keyboard: the key works, shown only in the editor's footer
        assert "ctrl+o" not in offered_keys(app)
        assert ("^o", "Your editor") in dict(keys_of(app.screen))["This screen"]   # `?` still lists it
        await pilot.press("ctrl+o")
        await wait_until(pilot, lambda: app._notifications, "a notice")
        assert any("was not changed, so nothing was run" in n.message for n in app._notifications)
        assert editor_text(screen) == before and store.attempts(EXERCISE) == []


def test_the_editor_is_visual_then_editor_then_one_on_the_path(tmp_path):
    assert editor_command({"VISUAL": "code --wait", "EDITOR": "nano"}) == (["code", "--wait"], "$VISUAL")
    assert editor_command({"VISUAL": " ", "EDITOR": "vim -u NONE"}) == (["vim", "-u", "NONE"], "$EDITOR")
    nano = script(tmp_path, "nano", "true")
    assert editor_command({"PATH": str(tmp_path)}) == ([str(nano)], "found on PATH, as neither $VISUAL nor $EDITOR "
                                                                    "is set")
    command, why = editor_command({"PATH": str(tmp_path / "empty")})
    assert command == [] and "export EDITOR=vim" in why and all(name in why for name in FALLBACKS)
    command, why = editor_command({"EDITOR": "vim '"})
    assert command == [] and "cannot be read as a command" in why


NEEDS_TMUX = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux not installed (apt-get install tmux)")


def editor_that_never_exits(book, tmp_path: Path) -> tuple[TmuxPane, int, Path]:
    """ringbook in a real terminal (tmux), its Ctrl+O running an editor that ignores Ctrl+C and never exits (as
    a GUI editor's `--wait` leaves the terminal waiting) on EXERCISE's code: (the pane, the editor's process,
    the data folder). The caller closes the pane."""
    started = tmp_path / "editor-started"
    stuck = script(tmp_path, "stuck", f"trap '' INT\necho $$ > '{started}.new'\nmv '{started}.new' '{started}'\n"
                                      "exec sleep 100000")
    data = tmp_path / "data"
    pane = TmuxPane(tmp_path, ["env", f"VISUAL={stuck}", "TERM=xterm-256color", *RINGBOOK, "--data-dir", str(data)])
    try:
        pane.wait_for("q Quit", timeout=60)
        pane.press("Enter")
        pane.wait_for("e Exercises")
        pane.press("e")
        pane.wait_for(f"{EXERCISE}  {book.exercise(EXERCISE).title}")
        pane.press("Down", "Down", "Down", "Down", "Enter")
        pane.wait_for("^o Your editor")
        pane.press("C-o")
        deadline = time.monotonic() + 60
        while not started.exists():
            assert time.monotonic() < deadline and pane.exit_status() is None, pane.screen()
            time.sleep(0.1)
    except BaseException:
        pane.close()
        raise
    return pane, int(started.read_text()), data


@NEEDS_TMUX
def test_ctrl_c_while_the_editor_runs_gives_the_app_back_and_says_so(book, tmp_path):
    """Found (issue 42): with an editor that never exits, Ctrl+C quit the whole app with status 0: asyncio's own
    Ctrl+C handler cancelled the app while it waited. In a real terminal Ctrl+C reaches the editor and ringbook
    both, as at a learner's."""
    pane, _, data = editor_that_never_exits(book, tmp_path)
    try:
        pane.press("C-c")
        shown = pane.wait_for("interrupted")
        assert pane.exit_status() is None, shown
        assert "unchanged" in pane.wait_for("unchanged")
        assert (data / "work" / f"{EXERCISE}.py").read_text() == book.exercise(EXERCISE).starter
    finally:
        pane.close()


@NEEDS_TMUX
@pytest.mark.parametrize("ending", [signal.SIGHUP, signal.SIGTERM], ids=lambda s: s.name)
def test_a_terminal_closed_while_the_editor_runs_ends_the_app_and_the_editor(book, tmp_path, ending):
    """Found (issue 43, the draft kept at SIGHUP): the app's SIGHUP and SIGTERM handlers run on its event loop,
    which waits for the learner's editor, so a closed terminal (or a stop) during Ctrl+O left ringbook and an
    editor that never exits running for ever. Both end now, and the code is in the work file."""
    pane, editor, data = editor_that_never_exits(book, tmp_path)
    try:
        os.kill(pane.pid(), ending)
        pane.wait_exit(timeout=60)
        with pytest.raises(ProcessLookupError):
            os.kill(editor, 0)
        assert (data / "work" / f"{EXERCISE}.py").read_text() == book.exercise(EXERCISE).starter
    finally:
        pane.close()


async def test_a_draft_too_long_to_keep_is_said_and_the_one_before_stays(book, store):
    """The store's draft rule (issue 42: an editor's 100 MB file was kept as a draft) seen from the app: a
    draft over MAX_DRAFT is said in a notice, not dropped without a word."""
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_exercise(app, pilot, EXERCISE)
        await pilot.press("x")
        await wait_until(pilot, lambda: store.draft(EXERCISE), "the draft kept")
        kept = store.draft(EXERCISE)
        editor = screen.panel.query_one("#editor", TextArea)
        editor.replace("#" * (MAX_DRAFT + 1), editor.document.start, editor.document.end)   # a paste
        await wait_until(pilot, lambda: app._notifications, "a notice")
        said = [n.message for n in app._notifications]
        assert any(f"A draft of {MAX_DRAFT + 1:,} characters is not kept" in m for m in said), said
        assert store.draft(EXERCISE) == kept


async def test_code_edited_in_the_work_file_outside_the_app_is_taken_not_written_over(book, store, data_dir, tmp_path,
                                                                                        monkeypatch):
    """Found (issue 43): Ctrl+O wrote the app's code over work/ID.py, moving code edited there outside a run
    (ringbook work stopped, the editor saved) to ID.py.kept without a word; the editor opened on the app's code,
    and the next such write lost it. Both faces now take it, as `ringbook work` does, and keep what it displaces."""
    exercise = book.exercise(EXERCISE)
    work = data_dir / "work" / f"{EXERCISE}.py"
    work.parent.mkdir(parents=True)
    work.write_text(exercise.solution)   # edited outside a run
    monkeypatch.setenv("VISUAL", str(script(tmp_path, "just-looks", "true")))
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_exercise(app, pilot, EXERCISE)
        await pilot.press("x", "y")   # the learner's own unsent code, in the app
        typed = editor_text(screen)
        await pilot.press("ctrl+o")
        await wait_until(pilot, lambda: store.attempts(EXERCISE), "the run recorded")
        said = [n.message for n in app._notifications]
        assert any(f"{work.name} changed since the last run: taking it as your code; the code here before it is "
                   f"kept as {work.name}.kept" in m for m in said), said
        assert [(a.status, a.answer) for a in store.attempts(EXERCISE)] == [("correct", exercise.solution)]
        assert editor_text(screen) == exercise.solution and work.read_text() == exercise.solution
        assert (work.parent / f"{work.name}.kept").read_text() == typed
