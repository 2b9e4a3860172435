"""A build's code in the learner's own editor (Ctrl+O): the editor named by $VISUAL/$EDITOR runs on the work
file, and what it saves becomes the code and is run, recorded as Ctrl+R records it. Whatever goes wrong, the
code in the app stays as it was and a notice says why.

The editors here are small scripts, run as a learner's editor would be: on the file's path."""

from __future__ import annotations

import stat
from pathlib import Path

from tests.helpers import offered_keys, open_exercise, ringbook_app, wait_until
from tui.answers.own_editor import FALLBACKS, editor_command
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


async def test_an_editor_that_fails_is_missing_or_saves_nothing_leaves_the_code_as_it_was(book, store, tmp_path,
                                                                                              monkeypatch):
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
