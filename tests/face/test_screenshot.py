"""The screenshot key saves an SVG of the screen into the learner's data folder and says where."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tui.app import RingbookApp
from tui.screens.exercise import ExerciseScreen
from tui.progress.store import ProgressStore


async def saved_screenshot(app, pilot, folder: Path) -> tuple[Path, str]:
    """The one SVG in `folder` and the notice that named it, once the save (off the UI thread) is done."""
    for _ in range(100):
        await pilot.pause()
        notices = [str(n.message) for n in app._notifications if n.title == "Screenshot"]
        files = list(folder.glob("*.svg")) if folder.is_dir() else []
        if notices and files:
            assert len(files) == 1, files
            return files[0], notices[0]
        await asyncio.sleep(0.05)
    raise AssertionError(f"no screenshot in {folder}; notices: {[str(n.message) for n in app._notifications]}")


async def test_ctrl_s_saves_the_exercise_screen_into_the_data_dir(book, data_dir, store):
    app = RingbookApp(book, store, warm=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter", "e", "enter")       # chapter 0, its exercises, 0.1
        await pilot.pause()
        assert isinstance(app.screen, ExerciseScreen)
        await pilot.press("escape", "ctrl+s")          # out of the answer box, then the screenshot key
        svg, notice = await saved_screenshot(app, pilot, data_dir / "screenshots")
        assert str(svg) in notice
        text = svg.read_text(encoding="utf-8")
        assert text.startswith("<svg") and "Traffic&#160;per&#160;GPU" in text


async def test_screenshot_key_is_in_the_home_footer(book, store):
    app = RingbookApp(book, store, warm=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        footer_keys = {binding.key for _, binding, enabled, _ in app.active_bindings.values() if binding.show}
        assert "ctrl+s" in footer_keys


async def test_read_only_store_falls_back_to_textuals_folder_and_still_says_where(book, tmp_path, monkeypatch):
    downloads = tmp_path / "downloads"
    downloads.mkdir()
    monkeypatch.setattr("textual.app.user_downloads_path", lambda: downloads)
    store = ProgressStore.open(Path("/proc/ringbook-cannot-exist"))   # no disk: nothing is saved
    assert store.read_only
    app = RingbookApp(book, store, warm=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("ctrl+s")
        svg, notice = await saved_screenshot(app, pilot, downloads)
        assert str(svg) in notice
