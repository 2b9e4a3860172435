"""`ringbook` starting the app: garbage collection waits until the home screen is painted, and is on again
whatever happens (tui/cli/main.py run_app)."""

import gc

from tests.helpers import footer_keys, wait_until
from tui.app import RingbookApp
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

    monkeypatch.setattr(RingbookApp, "run", run_headless)
    monkeypatch.setenv("TEXTUAL_DRIVER", HEADLESS)
    assert main(["--data-dir", str(tmp_path / "data")]) == 0
    assert seen == {"while starting": False, "home": True, "home's keys shown by then": True}
    assert gc.isenabled()


def test_collection_is_on_again_when_the_start_fails(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("TEXTUAL_DRIVER", HEADLESS)
    assert main(["--content", str(tmp_path / "no-book"), "--data-dir", str(tmp_path / "data")]) == 1
    assert "no such content folder" in capsys.readouterr().err
    assert gc.isenabled()
