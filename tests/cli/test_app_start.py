"""`ringbook` starting the app: garbage collection waits until the home screen is painted, which freezes
start-up's objects out of it, and is on again whatever happens (tui/cli/main.py run_app)."""

import gc
import sys
from types import SimpleNamespace

from tests.helpers import footer_keys, wait_until
from tui.app import RingbookApp
from tui.cli.app import FRAME_WRITER_WAIT
from tui.cli.main import main
from tui.screens.home import HomeScreen

HEADLESS = "textual.drivers.headless_driver:HeadlessDriver"  # as textual-serve names its driver


def test_collection_is_paused_for_the_start_and_on_once_homes_keys_are_painted(tmp_path, monkeypatch):
    seen = {}

    async def learner(pilot):
        await wait_until(pilot, gc.isenabled, "garbage collection on again")
        seen["home"] = isinstance(pilot.app.screen, HomeScreen)
        seen["home's keys shown by then"] = bool(footer_keys(pilot.app.screen))
        pilot.app.exit()

    start = RingbookApp.run

    def run_headless(app):
        seen["while starting"] = gc.isenabled()
        return start(app, headless=True, size=(80, 24), auto_pilot=learner)

    def enable():   # the app's gc.enable: how many objects are frozen out of collection when it turns it on
        frozen.append(gc.get_freeze_count())
        gc.enable()

    frozen: list[int] = []
    monkeypatch.setattr("tui.pacing.gc", SimpleNamespace(enable=enable, disable=gc.disable, freeze=gc.freeze))
    monkeypatch.setattr(RingbookApp, "run", run_headless)
    monkeypatch.setenv("TEXTUAL_DRIVER", HEADLESS)
    gc.unfreeze()   # what an earlier test froze
    try:
        assert main(["--data-dir", str(tmp_path / "data")]) == 0
    finally:
        gc.unfreeze()   # this process goes on to run other tests' apps
    assert seen == {"while starting": False, "home": True, "home's keys shown by then": True}
    assert frozen and frozen[0] > 10_000   # start-up's objects: the first collection does not go over them
    assert gc.isenabled()


def test_collection_is_on_again_when_the_start_fails(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("TEXTUAL_DRIVER", HEADLESS)
    assert main(["--content", str(tmp_path / "no-book"), "--data-dir", str(tmp_path / "data")]) == 1
    assert "no such content folder" in capsys.readouterr().err
    assert gc.isenabled()


def test_frames_are_written_without_waiting_out_a_long_switch_interval(tmp_path, monkeypatch):
    """Textual's output thread waits a switch interval for the lock at each step of a write while the app computes:
    at Python's 5 ms, home's first frame reached the terminal up to 18 ms after it was drawn (issue 48). The app
    runs with a short one, and the process has its own back after it."""
    seen = []
    start = RingbookApp.run

    async def learner(pilot):
        seen.append(sys.getswitchinterval())
        pilot.app.exit()

    def run_headless(app):
        return start(app, headless=True, size=(80, 24), auto_pilot=learner)

    monkeypatch.setattr(RingbookApp, "run", run_headless)
    monkeypatch.setenv("TEXTUAL_DRIVER", HEADLESS)
    before = sys.getswitchinterval()
    assert main(["--data-dir", str(tmp_path / "data")]) == 0
    assert seen == [FRAME_WRITER_WAIT] and FRAME_WRITER_WAIT < before
    assert sys.getswitchinterval() == before
